/**
 * POST /recover (recover.go): the password recovery mail; unknown addresses succeed silently.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { validationFailed } from '../errors.ts';
import { sendRecovery } from '../mailer.ts';
import { startEmailFlow, validatePkce } from '../pkce.ts';
import { json } from '../responses.ts';
import { findByEmail } from '../users.ts';
import { str } from '../util.ts';
import { checkCaptcha, readJson, referrer, validateEmail } from '../validate.ts';

/** POST /recover. */
export async function recover(ctx: DoubleContext, request: Request, q: URLSearchParams): Promise<Response> {
  const b = await readJson(request);
  checkCaptcha(ctx, b);
  const email = str(b.email);
  if (email === '') throw validationFailed('Password recovery requires an email');
  const address = validateEmail(email);
  const pkce = validatePkce(b);
  const user = findByEmail(ctx, address);
  // Unknown emails succeed silently: GoTrue does not reveal accounts here.
  if (!user) return json({});
  startEmailFlow(ctx, pkce, user, 'recovery');
  sendRecovery(
    ctx,
    user,
    referrer(ctx, q.get('redirect_to'), request.headers.get('referer')),
    pkce !== null,
    'recovery',
  );
  return json({});
}
