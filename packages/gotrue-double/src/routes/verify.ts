/**
 * POST /verify (a code or token hash, answered with a session) and GET /verify (the `{{ .ConfirmationURL }}`
 * of GoTrue's default templates, answered with a redirect), as verify.go.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, validationFailed } from '../errors.ts';
import { json, redirect, redirectWithError } from '../responses.ts';
import { issueSession, sessionFragment } from '../tokens.ts';
import type { UserRecord } from '../types.ts';
import { sha224, str } from '../util.ts';
import { readJson, referrer, validateEmail, validatePhone } from '../validate.ts';
import { applyVerification, type Verified, verifyTokenHash, verifyUserAndToken } from '../verification.ts';

/** What GoTrue says when the first of a secure email change's two links is used. */
const OTHER_LINK = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** A code with its address: the user, and the token hash it stands for. */
function verifyCode(
  ctx: DoubleContext,
  type: string,
  token: string,
  email: string,
  phone: string,
): { verified: Verified; hash: string } {
  if (phone !== '' && email === '') {
    const number = validatePhone(phone);
    return { verified: verifyUserAndToken(ctx, type, '', number, token), hash: sha224(number + token) };
  }
  if (email !== '' && phone === '') {
    let address: string;
    try {
      address = validateEmail(email);
    } catch {
      // VerifyParams.Validate answers any bad address so.
      throw validationFailed('Invalid email format', 422);
    }
    return { verified: verifyUserAndToken(ctx, type, address, '', token), hash: sha224(address + token) };
  }
  throw validationFailed('Only an email address or phone number should be provided on verify');
}

/** POST /verify. */
export async function verifyPost(ctx: DoubleContext, request: Request): Promise<Response> {
  const b = await readJson(request);
  const type = str(b.type);
  const token = str(b.token);
  const tokenHash = str(b.token_hash);
  const email = str(b.email);
  const phone = str(b.phone);
  if (type === '') throw validationFailed('Verify requires a verification type');
  if ((token === '' && tokenHash === '') || (token !== '' && tokenHash !== '')) {
    throw validationFailed('Verify requires either a token or a token hash');
  }
  let verified: Verified;
  let hash = tokenHash;
  if (token !== '') ({ verified, hash } = verifyCode(ctx, type, token, email, phone));
  else {
    if (email !== '' || phone !== '' || str(b.redirect_to) !== '') {
      throw validationFailed('Only the token_hash and type should be provided');
    }
    verified = verifyTokenHash(ctx, type, tokenHash);
  }
  const user = applyVerification(ctx, verified.user, verified.type, hash);
  if (!user) return json({ msg: OTHER_LINK, code: '200' });
  return json(issueSession(ctx, user, 'otp'));
}

/** A PKCE link: the flow state's new auth code, for the app to exchange. */
function pkceRedirect(ctx: DoubleContext, user: UserRecord, redirectTo: string): Response {
  const flow = [...ctx.store.flowStates.values()]
    .reverse()
    .find((f) => f.userId === user.id && f.providerType !== 'oauth');
  if (!flow) throw new GoTrueDoubleError(400, 'flow_state_not_found', 'No associated flow state found.');
  // GoTrue hands out the code the flow state was made with and records when (issueAuthCode).
  flow.authCodeIssuedAt = ctx.clock.now();
  const url = new URL(redirectTo);
  url.searchParams.set('code', flow.authCode);
  return redirect(url.href, 303);
}

/** GET /verify: the `{{ .ConfirmationURL }}` of GoTrue's default templates. */
export function verifyGet(ctx: DoubleContext, q: URLSearchParams): Response {
  const token = q.get('token') ?? '';
  const type = q.get('type') ?? '';
  const redirectTo = referrer(ctx, q.get('redirect_to'));
  const pkce = token.startsWith('pkce_');
  try {
    if (type === '' || token === '') throw validationFailed('Verify requires a token or a token hash');
    const verified = verifyTokenHash(ctx, type, token);
    const user = applyVerification(ctx, verified.user, verified.type, token);
    if (!user) {
      const url = new URL(redirectTo);
      url.hash = new URLSearchParams({ message: OTHER_LINK }).toString();
      return redirect(url.href, 303);
    }
    if (pkce) return pkceRedirect(ctx, user, redirectTo);
    const fragment = sessionFragment(issueSession(ctx, user, 'otp'), { type });
    return redirect(`${redirectTo}#${fragment}`, 303);
  } catch (e) {
    if (e instanceof GoTrueDoubleError) return redirect(redirectWithError(redirectTo, e, pkce), 303);
    throw e;
  }
}
