/**
 * GoTrue's verify.go: finding the user a one-time token (a code with its address, or a token hash from a link)
 * belongs to, and applying it (confirm the email or phone, sign in, change the address).
 * @module
 */
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError, userBanned, validationFailed } from './errors.ts';
import type { UserRecord } from './types.ts';
import { addIdentity, confirmEmail, findByEmail, findByPhone, isBanned, updateProviders } from './users.ts';
import { sha224 } from './util.ts';

/** A user and the verification type their token turned out to be (`email` resolves to signup / magiclink). */
export interface Verified {
  user: UserRecord;
  type: string;
}

const EMAIL_TYPES = ['signup', 'invite', 'recovery', 'magiclink', 'email_change', 'email'];

/** Whether a stored token is `hash` (with or without the `pkce_` prefix). */
const storedAs = (stored: string, hash: string) => stored === hash || stored === `pkce_${hash}`;

/** The user whose stored token of `type` is `hash`, and the type it resolves to. */
function findByTokenHash(ctx: DoubleContext, type: string, hash: string): Verified | null {
  const matches = (stored: string) => stored !== '' && storedAs(stored, hash);
  for (const u of ctx.store.users.values()) {
    if ((type === 'signup' || type === 'invite') && matches(u.confirmationToken)) return { user: u, type };
    if ((type === 'recovery' || type === 'magiclink') && matches(u.recoveryToken)) return { user: u, type };
    if (type === 'email_change' && (matches(u.emailChangeTokenNew) || matches(u.emailChangeTokenCurrent)))
      return { user: u, type };
    if (type === 'email' && matches(u.confirmationToken)) return { user: u, type: 'signup' };
    if (type === 'email' && matches(u.recoveryToken)) return { user: u, type: 'magiclink' };
  }
  return null;
}

/** When the token of `type` was sent to `user`. */
function emailTokenSentAt(user: UserRecord, type: string): number | null {
  if (type === 'signup' || type === 'invite') return user.confirmationSentAt;
  return type === 'email_change' ? user.emailChangeSentAt : user.recoverySentAt;
}

/** A link's token hash (`token_hash`, or `token` of GET /verify) of an email verification `type`. */
export function verifyTokenHash(ctx: DoubleContext, type: string, hash: string): Verified {
  const found = findByTokenHash(ctx, type, hash);
  if (!EMAIL_TYPES.includes(type)) throw validationFailed('Invalid email verification type');
  const expired = () => new GoTrueDoubleError(403, 'otp_expired', 'Email link is invalid or has expired');
  if (!found) throw expired();
  if (isBanned(ctx, found.user)) throw userBanned();
  const sentAt = emailTokenSentAt(found.user, found.type);
  if (sentAt === null || ctx.clock.now() - sentAt > ctx.config.mailerOtpExpMs) throw expired();
  return found;
}

const invalidOtp = () => new GoTrueDoubleError(403, 'otp_expired', 'Token has expired or is invalid');

function verifyPhoneToken(ctx: DoubleContext, type: string, phone: string, token: string): Verified {
  const user =
    type === 'sms'
      ? findByPhone(ctx, phone)
      : [...ctx.store.users.values()].find((u) => u.phoneChange !== '' && u.phoneChange === phone);
  if (!user) throw invalidOtp();
  if (isBanned(ctx, user)) throw userBanned();
  const expected = type === 'sms' ? user.confirmationToken : user.phoneChangeToken;
  const sentAt = type === 'sms' ? user.confirmationSentAt : user.phoneChangeSentAt;
  const ok =
    expected !== '' &&
    sentAt !== null &&
    ctx.clock.now() - sentAt <= ctx.config.smsOtpExpMs &&
    expected === sha224(phone + token);
  if (!ok) throw invalidOtp();
  return { user, type };
}

function verifyEmailToken(ctx: DoubleContext, type: string, email: string, token: string): Verified {
  const user =
    type === 'email_change'
      ? [...ctx.store.users.values()].find(
          (u) => u.emailChange === email || (u.email === email && u.emailChange !== ''),
        )
      : findByEmail(ctx, email);
  if (!user) throw invalidOtp();
  if (isBanned(ctx, user)) throw userBanned();
  const hash = sha224(email + token);
  const valid = (stored: string, sentAt: number | null) =>
    stored !== '' &&
    sentAt !== null &&
    ctx.clock.now() - sentAt <= ctx.config.mailerOtpExpMs &&
    storedAs(stored, hash);
  if (type === 'email') {
    if (valid(user.confirmationToken, user.confirmationSentAt)) return { user, type: 'signup' };
    if (valid(user.recoveryToken, user.recoverySentAt)) return { user, type: 'magiclink' };
    throw invalidOtp();
  }
  const ok =
    type === 'signup' || type === 'invite'
      ? valid(user.confirmationToken, user.confirmationSentAt)
      : type === 'recovery' || type === 'magiclink'
        ? valid(user.recoveryToken, user.recoverySentAt)
        : valid(user.emailChangeTokenNew, user.emailChangeSentAt) ||
          valid(user.emailChangeTokenCurrent, user.emailChangeSentAt);
  if (!ok) throw invalidOtp();
  return { user, type };
}

/** A one-time code sent to `email` or `phone` (one of them `''`), of verification `type`. */
export function verifyUserAndToken(
  ctx: DoubleContext,
  type: string,
  email: string,
  phone: string,
  token: string,
): Verified {
  return type === 'sms' || type === 'phone_change'
    ? verifyPhoneToken(ctx, type, phone, token)
    : verifyEmailToken(ctx, type, email, token);
}

/** Makes `user.emailChange` the user's address (and its `email` identity's). */
export function confirmEmailChange(ctx: DoubleContext, user: UserRecord): UserRecord {
  const identity = user.identities.find((i) => i.provider === 'email');
  if (identity) {
    identity.identityData.email = user.emailChange;
    identity.identityData.email_verified = true;
  } else {
    addIdentity(ctx, user, 'email', user.id, {
      email: user.emailChange,
      email_verified: true,
      phone_verified: false,
    });
  }
  user.email = user.emailChange;
  user.emailConfirmedAt = ctx.clock.now();
  user.emailChange = '';
  user.emailChangeTokenNew = '';
  user.emailChangeTokenCurrent = '';
  user.emailChangeConfirmStatus = 0;
  user.isAnonymous = false;
  updateProviders(user);
  return user;
}

/** Makes `user.phoneChange` the user's number (and its `phone` identity's). */
function confirmPhoneChange(ctx: DoubleContext, user: UserRecord): UserRecord {
  const identity = user.identities.find((i) => i.provider === 'phone');
  if (identity) {
    identity.identityData.phone = user.phoneChange;
    identity.identityData.phone_verified = true;
  } else {
    addIdentity(ctx, user, 'phone', user.id, { phone: user.phoneChange, phone_verified: true });
  }
  user.phone = user.phoneChange;
  user.phoneConfirmedAt = ctx.clock.now();
  user.phoneChange = '';
  user.phoneChangeToken = '';
  user.isAnonymous = false;
  updateProviders(user);
  return user;
}

/** Confirms the user's phone (a verified `sms` code, or SMS_AUTOCONFIRM). */
function confirmPhone(ctx: DoubleContext, user: UserRecord): UserRecord {
  user.phoneConfirmedAt ??= ctx.clock.now();
  user.confirmationToken = '';
  for (const i of user.identities) if (i.provider === 'phone') i.identityData.phone_verified = true;
  user.isAnonymous = false;
  return user;
}

/**
 * With secure email change, the first of the two links only marks itself used: `true` when this was it (the
 * change waits for the other link).
 */
function firstOfTwoLinks(ctx: DoubleContext, user: UserRecord, hash: string): boolean {
  const { mailerAutoconfirm, secureEmailChange } = ctx.config;
  if (mailerAutoconfirm || !secureEmailChange || user.emailChangeConfirmStatus !== 0 || user.email === '')
    return false;
  user.emailChangeConfirmStatus = 1;
  if (storedAs(user.emailChangeTokenCurrent, hash)) user.emailChangeTokenCurrent = '';
  else if (storedAs(user.emailChangeTokenNew, hash)) user.emailChangeTokenNew = '';
  return true;
}

/** Applies a verified token; `null` when a secure email change still waits for its other link. */
export function applyVerification(
  ctx: DoubleContext,
  user: UserRecord,
  type: string,
  hash: string,
): UserRecord | null {
  switch (type) {
    case 'signup':
    case 'invite':
      confirmEmail(ctx, user);
      return user;
    case 'recovery':
    case 'magiclink':
      user.recoveryToken = '';
      if (user.emailConfirmedAt === null) confirmEmail(ctx, user);
      return user;
    case 'email_change':
      return firstOfTwoLinks(ctx, user, hash) ? null : confirmEmailChange(ctx, user);
    case 'sms':
      return confirmPhone(ctx, user);
    default:
      // phone_change
      return confirmPhoneChange(ctx, user);
  }
}
