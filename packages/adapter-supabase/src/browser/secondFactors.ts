/**
 * Second factors in the browser, on supabase-js's `auth.mfa`: the challenge of a sign-in that waits at aal1
 * (see `./assurance.ts`), and the signed-in user's authenticator apps (TOTP) and phones.
 *
 * - A pending sign-in is the aal1 session itself. It stays in the client (so supabase-js's `mfa.challenge`
 *   and `mfa.verify` use it) and its tokens travel in the challenge, so a challenge finishes even when the
 *   client has since been given another session: the client takes the pending one back first.
 * - A challenge the server met (the form path's, which a widget hydrates on) holds no token the browser can
 *   use (issue 24: no refresh token ever reaches the page): it is the server's to finish, and the host's
 *   widget posts its cards there. Handed to these operations it is `code-expired`, as a challenge gone.
 * - A password reset of an account with a verified factor waits for the recovery session's challenge
 *   (`./actionCodes.ts`): finishing it sets the new password, then signs the person in.
 * - A verification id is `mfa:<factor id>:<challenge id>`; GoTrue's challenges last 300 s.
 * - GoTrue names a factor when it is enrolled and offers no renaming, so the names are given at the start
 *   (`Authenticator app`, `Phone ending 1234`, numbered when taken) and `displayName` at the end is unused.
 * @module
 */
import {
  AuthError,
  type CaptchaVerifier,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SecondFactorOperations,
  type SignInResult,
  type TotpEnrollment,
} from '@doorway/auth-core';
import { toAuthError } from '../shared/errors.ts';
import {
  decodeFactorChallenge,
  encodeFactorChallenge,
  factorInfo,
  factorsOf,
  freeFactorName,
  type GoTrueFactor,
  type PendingSignIn,
  pendingOf,
  phoneFactorName,
  sessionIdOf,
  TOTP_FACTOR_NAME,
  verifiedFactors,
} from '../shared/secondFactors.ts';
import { finishPasswordReset, takePasswordReset } from './actionCodes.ts';
import { type ProviderContext, signedIn, userOf } from './context.ts';
import { E164 } from './verificationId.ts';

/** The second factors of the browser provider. */
export function browserSecondFactors(ctx: ProviderContext): SecondFactorOperations {
  return {
    startSignIn: (challenge, factorUid, verifier) => startSignIn(ctx, challenge, factorUid, verifier),
    finishSignIn: (challenge, verificationId, code) => finishSignIn(ctx, challenge, verificationId, code),
    cancelSignIn: (challenge) => cancelSignIn(ctx, challenge),
    list: () => listFactors(ctx),
    startPhoneEnrollment: (phoneNumber, verifier) => startPhoneEnrollment(ctx, phoneNumber, verifier),
    finishPhoneEnrollment: (verificationId, code) => finishEnrollment(ctx, verificationId, code),
    startTotpEnrollment: () => startTotpEnrollment(ctx),
    finishTotpEnrollment: (enrollmentId, code) => finishTotpEnrollment(ctx, enrollmentId, code),
    unenroll: (factorUid) => unenroll(ctx, factorUid),
  };
}

/** Rejects `operation-not-allowed` unless the provider offers `kind`. */
function requireKind(ctx: ProviderContext, kind: string): void {
  if (!ctx.capabilities.secondFactors?.some((k) => k === kind)) throw new AuthError('operation-not-allowed');
}

/** Enrolment and removal need someone signed in (not a sign-in waiting at aal1). */
function requireUser(ctx: ProviderContext): void {
  if (ctx.current === null) throw new AuthError('requires-recent-login');
}

/** Makes the client hold the pending sign-in's session (it may hold another by now); `code-expired` if gone. */
async function holdPending(ctx: ProviderContext, pending: PendingSignIn): Promise<void> {
  const { data } = await ctx.auth.getSession();
  const held = data.session?.access_token;
  if (held !== undefined && sessionIdOf(held) === sessionIdOf(pending.accessToken)) return;
  if (pending.refreshToken === null) throw new AuthError('code-expired');
  const { error } = await ctx.auth.setSession({
    access_token: pending.accessToken,
    refresh_token: pending.refreshToken,
  });
  if (error) throw toAuthError(error, 'mfaSignIn');
}

/** A challenge of `factorId` on the client's session (a phone factor is texted its code). */
async function challengeFactor(
  ctx: ProviderContext,
  factorId: string,
  sms: boolean,
  context: 'mfaEnroll' | 'mfaSignIn',
): Promise<string> {
  const { data, error } = sms
    ? await ctx.auth.mfa.challenge({ factorId, channel: 'sms' })
    : await ctx.auth.mfa.challenge({ factorId });
  if (error) throw toAuthError(error, context);
  return encodeFactorChallenge({ factorId, challengeId: data.id });
}

/** `secondFactors.startSignIn`. */
async function startSignIn(
  ctx: ProviderContext,
  challenge: SecondFactorChallenge,
  factorUid: string,
  verifier: CaptchaVerifier | undefined,
): Promise<{ verificationId: string }> {
  const pending = pendingOf(challenge);
  const factor = challenge.factors?.find((f) => f.uid === factorUid);
  if (pending === null || factor === undefined) throw new AuthError('code-expired');
  requireKind(ctx, factor.kind);
  const sms = factor.kind === 'phone';
  // GoTrue asks no captcha to text a factor's code; the widget's captcha is still honoured when it is there.
  if (sms && ctx.settings.captcha && verifier !== undefined && !verifier.isSolved()) {
    throw new AuthError('captcha-check-failed');
  }
  await holdPending(ctx, pending);
  return { verificationId: await challengeFactor(ctx, factorUid, sms, 'mfaSignIn') };
}

/** `secondFactors.finishSignIn`: the sign-in, at aal2, as its first factor said. */
async function finishSignIn(
  ctx: ProviderContext,
  challenge: SecondFactorChallenge,
  verificationId: string,
  code: string,
): Promise<SignInResult> {
  const pending = pendingOf(challenge);
  const asked = decodeFactorChallenge(verificationId);
  if (pending === null || asked === null) throw new AuthError('code-expired');
  if (code.trim() === '') throw new AuthError('invalid-verification-code');
  await holdPending(ctx, pending);
  const { data, error } = await ctx.auth.mfa.verify({ ...asked, code: code.trim() });
  if (error) throw toAuthError(error, 'mfaSignIn');
  // A password reset's recovery session: at aal2 now, so its new password is set before the sign-in ends.
  const reset = takePasswordReset(ctx, pending.accessToken);
  const user = reset === undefined ? data.user : await finishPasswordReset(ctx, reset);
  return signedIn(ctx, user, pending.providerId, false, pending.credential);
}

/** `secondFactors.cancelSignIn`: ends the pending aal1 session (and drops it from the client if held). */
async function cancelSignIn(ctx: ProviderContext, challenge: SecondFactorChallenge): Promise<void> {
  const pending = pendingOf(challenge);
  if (pending === null) return;
  takePasswordReset(ctx, pending.accessToken);
  try {
    const { data } = await ctx.auth.getSession();
    const held = data.session?.access_token;
    if (held !== undefined && sessionIdOf(held) === sessionIdOf(pending.accessToken)) {
      await ctx.auth.signOut({ scope: 'local' });
    } else {
      // The client holds another session now: end the pending one by its own token (POST /logout).
      await ctx.auth.admin.signOut(pending.accessToken, 'local');
    }
  } catch {
    // Never rejects: the aal1 session then ends with its token's expiry.
  }
}

/** The signed-in user's factors, all of them (unverified enrolments too). */
async function currentFactors(ctx: ProviderContext): Promise<GoTrueFactor[]> {
  const { data, error } = await ctx.auth.getUser();
  if (error) throw toAuthError(error);
  return factorsOf(data.user);
}

/** `secondFactors.list`: the verified TOTP and phone factors, numbers in full. */
async function listFactors(ctx: ProviderContext): Promise<SecondFactorInfo[]> {
  requireUser(ctx);
  const { data, error } = await ctx.auth.getUser();
  if (error) throw toAuthError(error);
  return verifiedFactors(data.user, false);
}

/** `secondFactors.startTotpEnrollment`: a new factor's secret; an enrolment left unfinished is replaced. */
async function startTotpEnrollment(ctx: ProviderContext): Promise<TotpEnrollment> {
  requireKind(ctx, 'totp');
  requireUser(ctx);
  const factors = await currentFactors(ctx);
  const stale = factors.filter((f) => f.type === 'totp' && !f.verified);
  for (const f of stale) await ctx.auth.mfa.unenroll({ factorId: f.id });
  const friendlyName = freeFactorName(
    TOTP_FACTOR_NAME,
    factors.filter((f) => !stale.includes(f)),
  );
  const { data, error } = await ctx.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName,
    ...(ctx.settings.totpIssuer ? { issuer: ctx.settings.totpIssuer } : {}),
  });
  if (error) throw toAuthError(error, 'mfaEnroll');
  return { enrollmentId: data.id, secret: data.totp.secret, uri: data.totp.uri };
}

/** Verifies a new factor's challenge: the factor is enrolled and the session is at aal2. */
async function finishEnrollment(
  ctx: ProviderContext,
  verificationId: string,
  code: string,
): Promise<SecondFactorInfo> {
  requireUser(ctx);
  const asked = decodeFactorChallenge(verificationId);
  if (asked === null) throw new AuthError('code-expired');
  if (code.trim() === '') throw new AuthError('invalid-verification-code');
  const { data, error } = await ctx.auth.mfa.verify({ ...asked, code: code.trim() });
  if (error) throw toAuthError(error, 'mfaEnroll');
  ctx.current = userOf(ctx, data.user);
  const factor = factorsOf(data.user).find((f) => f.id === asked.factorId);
  if (factor === undefined) throw new AuthError('generic');
  return factorInfo(factor, false);
}

/** `secondFactors.finishTotpEnrollment`: a challenge of the new factor, verified with the app's code. */
async function finishTotpEnrollment(
  ctx: ProviderContext,
  enrollmentId: string,
  code: string,
): Promise<SecondFactorInfo> {
  requireKind(ctx, 'totp');
  requireUser(ctx);
  if (code.trim() === '') throw new AuthError('invalid-verification-code');
  return finishEnrollment(ctx, await challengeFactor(ctx, enrollmentId, false, 'mfaEnroll'), code);
}

/** `secondFactors.startPhoneEnrollment`: enrols the number (unverified) and texts it a code. */
async function startPhoneEnrollment(
  ctx: ProviderContext,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): Promise<{ verificationId: string }> {
  requireKind(ctx, 'phone');
  requireUser(ctx);
  if (!E164.test(phoneNumber)) throw new AuthError('invalid-phone-number');
  if (ctx.settings.captcha && !verifier.isSolved()) throw new AuthError('captcha-check-failed');
  const digits = phoneNumber.slice(1);
  // GoTrue drops an unverified factor of the same number before it checks the name.
  const others = (await currentFactors(ctx)).filter(
    (f) => f.verified || f.type !== 'phone' || f.phone.replace(/\D/g, '') !== digits,
  );
  const { data, error } = await ctx.auth.mfa.enroll({
    factorType: 'phone',
    phone: phoneNumber,
    friendlyName: freeFactorName(phoneFactorName(phoneNumber), others),
  });
  if (error) throw toAuthError(error, 'mfaEnroll');
  return { verificationId: await challengeFactor(ctx, data.id, true, 'mfaEnroll') };
}

/** `secondFactors.unenroll`: a verified factor goes only from an aal2 session (`requires-recent-login`). */
async function unenroll(ctx: ProviderContext, factorUid: string): Promise<void> {
  requireUser(ctx);
  const { error } = await ctx.auth.mfa.unenroll({ factorId: factorUid });
  if (error) throw toAuthError(error);
}
