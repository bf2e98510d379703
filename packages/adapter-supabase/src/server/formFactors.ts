/**
 * The form provider's second factors, over GoTrue REST: finishing a sign-in with an authenticator app's
 * code (`POST /factors/{id}/challenge`, then `/verify`, with the aal1 access token the challenge keeps), and
 * the request's signed-in user's authenticator apps. A password reset of an account with a verified factor
 * finishes here too: its recovery session's code sets the waiting password (`./actionCodes.ts`).
 *
 * Phone factors are the browser's: starting one here (a sign-in's SMS or an enrolment) rejects
 * `javascript-required`, and the card says that this step needs scripts. GoTrue asks no captcha to text a
 * factor's code, so a server could; it does not, so that no form without a captcha makes GoTrue send SMS,
 * and the SMS steps stay where the captcha and the phone sign-in are.
 * @module
 */
import {
  AuthError,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SecondFactorOperations,
  type SignInResult,
  type TotpEnrollment,
} from '@doorway/auth-core';
import { mapSupabaseErrorCode, type SupabaseErrorContext } from '../shared/errors.ts';
import {
  decodeFactorChallenge,
  encodeFactorChallenge,
  factorInfo,
  factorsOf,
  freeFactorName,
  serverPendingOf,
  TOTP_FACTOR_NAME,
  verifiedFactors,
} from '../shared/secondFactors.ts';
import { type FormContext, keepSession, refusal, requireSession, signedIn } from './formContext.ts';
import {
  challengeFactor,
  enrollTotpFactor,
  type GoTrueResult,
  getUser,
  logout,
  unenrollFactor,
  verifyFactor,
} from './rest.ts';

/** The kinds the form provider finishes and enrols (`capabilities.secondFactors`). */
export const FORM_SECOND_FACTORS = ['totp'] as const;

/** The end of a password reset that waits for its recovery session's second factor (`./actionCodes.ts`). */
export interface PasswordResetEnd {
  /**
   * Once the recovery session of `recoveryToken` reached aal2 (`token`), sets the password waiting for it.
   * Whether there was one.
   */
  finishPasswordReset?(recoveryToken: string, token: string): Promise<boolean>;
}

/** The second factors of the form provider. */
export function formSecondFactors(ctx: FormContext, actions: PasswordResetEnd): SecondFactorOperations {
  const browserOnly = async (): Promise<never> => {
    throw new AuthError('javascript-required');
  };
  return {
    startSignIn: (challenge, factorUid) => startSignIn(ctx, challenge, factorUid),
    finishSignIn: (challenge, verificationId, code) =>
      finishSignIn(ctx, actions, challenge, verificationId, code),
    cancelSignIn: (challenge) => cancelSignIn(ctx, challenge),
    list: () => listFactors(ctx),
    startPhoneEnrollment: browserOnly,
    finishPhoneEnrollment: browserOnly,
    startTotpEnrollment: () => startTotpEnrollment(ctx),
    finishTotpEnrollment: (enrollmentId, code) => finishTotpEnrollment(ctx, enrollmentId, code),
    unenroll: (factorUid) => unenroll(ctx, factorUid),
  };
}

/** GoTrue's answer, or its refusal as the catalogue code of `context`. */
function answered(result: GoTrueResult, context: SupabaseErrorContext): Extract<GoTrueResult, { ok: true }> {
  if (!result.ok) throw refusal(result, context);
  return result;
}

/** The string at `key` of a GoTrue answer's object, else `generic` (an answer without what it promises). */
function textAt(value: unknown, key: string): string {
  const found: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  if (typeof found !== 'string') throw new AuthError('generic');
  return found;
}

/** The `id` of a GoTrue answer (a challenge's, a new factor's). */
const idOf = (result: Extract<GoTrueResult, { ok: true }>): string => textAt(result.data, 'id');

/** The access token of the request's signed-in user, or `requires-recent-login`. */
function requireToken(ctx: FormContext): string {
  const token = ctx.current?.accessToken;
  if (token === undefined) throw new AuthError('requires-recent-login');
  return token;
}

/** `secondFactors.startSignIn`: opens an authenticator app's check; a phone factor needs the browser. */
async function startSignIn(
  ctx: FormContext,
  challenge: SecondFactorChallenge,
  factorUid: string,
): Promise<{ verificationId: string }> {
  const pending = serverPendingOf(challenge);
  const factor = challenge.factors?.find((f) => f.uid === factorUid);
  if (pending === null || factor === undefined) throw new AuthError('code-expired');
  if (factor.kind !== 'totp') throw new AuthError('javascript-required');
  const result = answered(await challengeFactor(ctx.api, pending.accessToken, factorUid), 'mfaSignIn');
  return { verificationId: encodeFactorChallenge({ factorId: factorUid, challengeId: idOf(result) }) };
}

/** `secondFactors.finishSignIn`: the code moves the pending session to aal2; its token is the host's. */
async function finishSignIn(
  ctx: FormContext,
  actions: PasswordResetEnd,
  challenge: SecondFactorChallenge,
  verificationId: string,
  code: string,
): Promise<SignInResult> {
  const pending = serverPendingOf(challenge);
  const asked = decodeFactorChallenge(verificationId);
  if (pending === null || asked === null) throw new AuthError('code-expired');
  if (code.trim() === '') throw new AuthError('invalid-verification-code');
  const result = await verifyFactor(ctx.api, pending.accessToken, { ...asked, code: code.trim() });
  const session = requireSession(answered(result, 'mfaSignIn'));
  // A password reset's recovery session: at aal2 now, so its new password is set before the sign-in ends.
  await actions.finishPasswordReset?.(pending.accessToken, session.accessToken);
  return signedIn(ctx, session, pending.providerId, false);
}

/**
 * `secondFactors.cancelSignIn`: ends the pending aal1 session at GoTrue (`POST /logout?scope=local` with its
 * access token: that session only). Never rejects: a failure leaves it to end with its token.
 */
async function cancelSignIn(ctx: FormContext, challenge: SecondFactorChallenge): Promise<void> {
  const pending = serverPendingOf(challenge);
  if (pending !== null) await logout(ctx.api, pending.accessToken, 'local').catch(() => undefined);
}

/** The request's signed-in user as GoTrue has it now. */
async function currentUser(ctx: FormContext): Promise<unknown> {
  return answered(await getUser(ctx.api, requireToken(ctx)), 'other').data;
}

/** `secondFactors.list`. */
async function listFactors(ctx: FormContext): Promise<SecondFactorInfo[]> {
  return verifiedFactors(await currentUser(ctx), false);
}

/** `secondFactors.startTotpEnrollment`: a new factor's secret; an enrolment left unfinished is replaced. */
async function startTotpEnrollment(ctx: FormContext): Promise<TotpEnrollment> {
  const token = requireToken(ctx);
  const factors = factorsOf(await currentUser(ctx));
  const stale = factors.filter((f) => f.type === 'totp' && !f.verified);
  for (const f of stale) await unenrollFactor(ctx.api, token, f.id);
  const name = freeFactorName(
    TOTP_FACTOR_NAME,
    factors.filter((f) => !stale.includes(f)),
  );
  const { data } = answered(await enrollTotpFactor(ctx.api, token, name), 'mfaEnroll');
  const totp: unknown = typeof data === 'object' && data !== null ? Reflect.get(data, 'totp') : undefined;
  return { enrollmentId: textAt(data, 'id'), secret: textAt(totp, 'secret'), uri: textAt(totp, 'uri') };
}

/** `secondFactors.finishTotpEnrollment`: the request's session moves to aal2 (the host's token changes). */
async function finishTotpEnrollment(
  ctx: FormContext,
  enrollmentId: string,
  code: string,
): Promise<SecondFactorInfo> {
  const token = requireToken(ctx);
  if (code.trim() === '') throw new AuthError('invalid-verification-code');
  const challenged = answered(await challengeFactor(ctx.api, token, enrollmentId), 'mfaEnroll');
  const asked = { factorId: enrollmentId, challengeId: idOf(challenged), code: code.trim() };
  const session = requireSession(answered(await verifyFactor(ctx.api, token, asked), 'mfaEnroll'));
  keepSession(ctx, session);
  const factor = factorsOf(session.user).find((f) => f.id === enrollmentId);
  if (factor === undefined) throw new AuthError('generic');
  return factorInfo(factor, false);
}

/** `secondFactors.unenroll`. */
async function unenroll(ctx: FormContext, factorUid: string): Promise<void> {
  const result = await unenrollFactor(ctx.api, requireToken(ctx), factorUid);
  if (!result.ok) throw new AuthError(mapSupabaseErrorCode(result.code, 'other'));
}
