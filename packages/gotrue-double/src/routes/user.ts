/**
 * GET /user and PUT /user (user.go): the signed-in user, and changes to their password, metadata, address
 * (a confirmation mail, or at once for an anonymous user with autoconfirm) and phone number (an SMS code).
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { emailExists, GoTrueDoubleError, phoneExists, validationFailed } from '../errors.ts';
import { sendEmailChange, sendSms } from '../mailer.ts';
import { type PkceChallenge, startEmailFlow, validatePkce } from '../pkce.ts';
import { json } from '../responses.ts';
import { authenticate } from '../tokens.ts';
import type { UserRecord } from '../types.ts';
import { findByEmail, findByPhone, userJson } from '../users.ts';
import { isObject, str } from '../util.ts';
import { checkPassword, readJson, referrer, validateEmail, validatePhone } from '../validate.ts';
import { applyVerification, confirmEmailChange } from '../verification.ts';

/** The changes a PUT /user asks for (`''` / `null`: none). */
interface UserChanges {
  email: string;
  phone: string;
  password: string | null;
}

/** GET /user. */
export function getUser(ctx: DoubleContext, request: Request): Response {
  return json(userJson(authenticate(ctx, request).user));
}

/** The checks GoTrue makes before changing anything. */
function checkChanges(ctx: DoubleContext, user: UserRecord, { email, phone, password }: UserChanges): void {
  if (password !== null) checkPassword(ctx, password);
  if (user.isAnonymous && password && email === '' && phone === '') {
    throw validationFailed(
      'Updating password of an anonymous user without an email or phone is not allowed',
      422,
    );
  }
  if (email !== '' && email !== user.email) {
    const dup = findByEmail(ctx, email);
    if (dup && dup.id !== user.id) throw emailExists();
  }
  if (phone !== '' && phone !== user.phone && findByPhone(ctx, phone)) throw phoneExists();
  if (password !== null && password !== '' && user.password === password) {
    throw new GoTrueDoubleError(
      422,
      'same_password',
      'New password should be different from the old password.',
    );
  }
}

function changeEmail(
  ctx: DoubleContext,
  user: UserRecord,
  email: string,
  pkce: PkceChallenge | null,
  redirectTo: string | null,
): void {
  if (user.isAnonymous && ctx.config.mailerAutoconfirm) {
    // "anonymous users can add an email with automatic confirmation, which is similar to signing up"
    user.emailChange = email;
    confirmEmailChange(ctx, user);
    return;
  }
  startEmailFlow(ctx, pkce, user, 'email_change');
  sendEmailChange(ctx, user, email, referrer(ctx, redirectTo), pkce !== null);
}

/** PUT /user. */
export async function userUpdate(
  ctx: DoubleContext,
  request: Request,
  q: URLSearchParams,
): Promise<Response> {
  const { user } = authenticate(ctx, request);
  const b = await readJson(request);
  const changes: UserChanges = {
    email: str(b.email) === '' ? '' : validateEmail(str(b.email)),
    phone: str(b.phone) === '' ? '' : validatePhone(str(b.phone)),
    password: typeof b.password === 'string' ? b.password : null,
  };
  checkChanges(ctx, user, changes);
  const { email, phone, password } = changes;
  const pkce = validatePkce(b);
  if (password !== null) user.password = password;
  if (isObject(b.data)) Object.assign(user.userMetadata, b.data);
  if (email !== '' && email !== user.email) changeEmail(ctx, user, email, pkce, q.get('redirect_to'));
  if (phone !== '' && phone !== user.phone) {
    user.phoneChange = phone;
    if (ctx.config.smsAutoconfirm) applyVerification(ctx, user, 'phone_change', '');
    else sendSms(ctx, user, phone, 'phone_change');
  }
  user.updatedAt = ctx.clock.now();
  return json(userJson(user));
}
