/**
 * GET /user and PUT /user (user.go): the signed-in user, and changes to their password, metadata, address
 * (a confirmation mail, or at once for an anonymous user with autoconfirm) and phone number (an SMS code).
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { emailExists, GoTrueDoubleError, phoneExists, validationFailed } from '../errors.ts';
import { limitRequest } from '../limits.ts';
import { sendEmailChange, sendSms } from '../mailer.ts';
import { type PkceChallenge, startEmailFlow, validatePkce } from '../pkce.ts';
import { json } from '../responses.ts';
import { authenticate, endSession, sessionOf } from '../tokens.ts';
import type { SessionRecord, UserRecord } from '../types.ts';
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
function checkChanges(
  ctx: DoubleContext,
  user: UserRecord,
  session: SessionRecord,
  { email, phone, password }: UserChanges,
): void {
  if (password !== null) checkPassword(ctx, password);
  // A user with a verified factor changes password, address or number only at aal2 (a recovery link's
  // session is aal1).
  const changing =
    (password !== null && password !== '') ||
    (email !== '' && email !== user.email) ||
    (phone !== '' && phone !== user.phone);
  if (changing && !session.mfa && user.factors.some((f) => f.status === 'verified')) {
    throw new GoTrueDoubleError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    );
  }
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
  redirectTo: string,
): void {
  if (user.isAnonymous && ctx.config.mailerAutoconfirm) {
    // "anonymous users can add an email with automatic confirmation, which is similar to signing up"
    user.emailChange = email;
    confirmEmailChange(ctx, user);
    return;
  }
  startEmailFlow(ctx, pkce, user, 'email_change');
  sendEmailChange(ctx, user, email, redirectTo, pkce !== null);
}

/**
 * User.UpdatePassword: the new password; the one-time tokens still out (confirmation, recovery, email and
 * phone change) are void and the user's other sessions end.
 */
function changePassword(ctx: DoubleContext, user: UserRecord, sessionId: string, password: string): void {
  user.password = password;
  user.confirmationToken = '';
  user.confirmationSentAt = null;
  user.recoveryToken = '';
  user.recoverySentAt = null;
  user.emailChangeTokenNew = '';
  user.emailChangeTokenCurrent = '';
  user.emailChangeSentAt = null;
  user.phoneChangeToken = '';
  user.phoneChangeSentAt = null;
  for (const s of [...ctx.store.sessions.values()]) {
    if (s.userId === user.id && s.id !== sessionId) endSession(ctx, s.id);
  }
}

/** User.UpdateUserMetaData: each key of `data` set, or removed when it is `null`. */
function updateUserMetadata(user: UserRecord, data: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(data)) {
    if (value === null) delete user.userMetadata[key];
    else user.userMetadata[key] = value;
  }
}

/** PUT /user. */
export async function userUpdate(
  ctx: DoubleContext,
  request: Request,
  q: URLSearchParams,
): Promise<Response> {
  const { user, sessionId } = authenticate(ctx, request);
  limitRequest(ctx, request, 'user');
  const b = await readJson(request);
  const changes: UserChanges = {
    email: str(b.email) === '' ? '' : validateEmail(str(b.email)),
    phone: str(b.phone) === '' ? '' : validatePhone(str(b.phone)),
    password: typeof b.password === 'string' ? b.password : null,
  };
  checkChanges(ctx, user, sessionOf(ctx, sessionId), changes);
  const { email, phone, password } = changes;
  const pkce = validatePkce(b);
  if (password !== null) changePassword(ctx, user, sessionId, password);
  if (isObject(b.data)) updateUserMetadata(user, b.data);
  if (email !== '' && email !== user.email)
    changeEmail(ctx, user, email, pkce, referrer(ctx, q.get('redirect_to'), request.headers.get('referer')));
  if (phone !== '' && phone !== user.phone) {
    user.phoneChange = phone;
    if (ctx.config.smsAutoconfirm) applyVerification(ctx, user, 'phone_change', '');
    else sendSms(ctx, user, phone, 'phone_change');
  }
  user.updatedAt = ctx.clock.now();
  return json(userJson(user));
}
