/**
 * The form provider's second factors, over the Identity Toolkit's multi-factor REST API (v2), as far as a
 * server can go without a browser:
 *
 * - A challenge (`second-factor-required`, see `formContext.ts`) is finished statelessly from its session
 *   (`{ mfaPendingCredential, providerId }`), so a later request's provider finishes what an earlier one's
 *   sign-in started: an authenticator app's code with `mfaSignIn:finalize` (`totpVerificationInfo`); an SMS
 *   code too, when its session was started where a captcha could be solved.
 * - Texting a code (sign-in or enrolment) needs the browser's reCAPTCHA: `javascript-required`.
 * - Enrolments (list, TOTP enrolment, removal) act on the sign-in made during this request (its ID
 *   token); with none, `requires-recent-login`.
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
import { withAuthErrors } from '../shared/common.ts';
import {
  type FormContext,
  type FormPendingSignIn,
  type FormSession,
  factorFromRest,
  restOf,
  signedIn,
} from './formContext.ts';
import * as rest from './rest.ts';

/** The prefix of the verification id `startSignIn` gives a TOTP factor; the factor's uid follows it. */
const TOTP_CHECK = 'totp:';

/** The pending sign-in a challenge's session holds, or `code-expired` (it may come from a form: trust nothing). */
function pendingOf(challenge: SecondFactorChallenge): FormPendingSignIn {
  const session: unknown = (challenge as Partial<SecondFactorChallenge> | null | undefined)?.session;
  if (typeof session === 'object' && session !== null && 'mfaPendingCredential' in session) {
    const { mfaPendingCredential } = session;
    const providerId = 'providerId' in session ? session.providerId : undefined;
    if (typeof mfaPendingCredential === 'string' && mfaPendingCredential !== '') {
      return { mfaPendingCredential, providerId: typeof providerId === 'string' ? providerId : 'password' };
    }
  }
  throw new AuthError('code-expired');
}

/** The factor `factorUid` of a challenge, or `code-expired`. */
function challengedFactor(challenge: SecondFactorChallenge, factorUid: string): SecondFactorInfo {
  const factors: unknown = challenge.factors;
  const found = Array.isArray(factors)
    ? (factors as unknown[]).find(
        (f): f is SecondFactorInfo =>
          typeof f === 'object' && f !== null && 'uid' in f && f.uid === factorUid && 'kind' in f,
      )
    : undefined;
  if (found === undefined) throw new AuthError('code-expired');
  return found;
}

/**
 * `startSignIn`: a TOTP factor needs no call (its verification id names the factor); an SMS factor's
 * code cannot be sent from a server (captcha): `javascript-required`.
 */
async function startSignIn(
  challenge: SecondFactorChallenge,
  factorUid: string,
): Promise<{ verificationId: string }> {
  pendingOf(challenge);
  const factor = challengedFactor(challenge, factorUid);
  if (factor.kind !== 'totp') throw new AuthError('javascript-required');
  return { verificationId: `${TOTP_CHECK}${factor.uid}` };
}

/**
 * `finishSignIn`: `mfaSignIn:finalize` with the pending credential and the code (a TOTP check's factor
 * and `totpVerificationInfo`, else an SMS session's `phoneVerificationInfo`), then the user read back.
 * The result reports the first factor's provider id and `isNewUser: false`.
 */
function finishSignIn(
  ctx: FormContext,
  challenge: SecondFactorChallenge,
  verificationId: string,
  code: string,
): Promise<SignInResult> {
  const totp = verificationId.startsWith(TOTP_CHECK);
  return withAuthErrors(totp ? 'other' : 'phone', async () => {
    const { mfaPendingCredential, providerId } = pendingOf(challenge);
    const response = await rest.mfaSignInFinalize(
      restOf(ctx),
      totp
        ? {
            mfaPendingCredential,
            mfaEnrollmentId: verificationId.slice(TOTP_CHECK.length),
            totpVerificationInfo: { verificationCode: code },
          }
        : { mfaPendingCredential, phoneVerificationInfo: { sessionInfo: verificationId, code } },
    );
    return signedIn(ctx, response, { providerId, isNewUser: false });
  });
}

/** The request's sign-in, or `requires-recent-login`. */
function requireSession(ctx: FormContext): FormSession {
  if (ctx.session === null) throw new AuthError('requires-recent-login');
  return ctx.session;
}

/** `list`: the factors of the request's user (`accounts:lookup`, phone numbers in full). */
function list(ctx: FormContext): Promise<SecondFactorInfo[]> {
  return withAuthErrors('enrollment', async () => {
    const { idToken } = requireSession(ctx);
    const account = await rest.lookup(restOf(ctx), { idToken });
    return (account.mfaInfo ?? []).flatMap((enrollment) => factorFromRest(enrollment) ?? []);
  });
}

/** Keeps the fresh ID token an enrolment change answers as the request's sign-in. */
function refreshed(ctx: FormContext, session: FormSession, response: rest.MfaTokenResponse): void {
  if (ctx.session === session) ctx.session = { ...session, idToken: response.idToken };
}

/** An `otpauth://` URI in the key URI format, as the SDK's `generateQrCodeUrl` writes it (encoded). */
function totpUri(info: rest.TotpSessionInfo, account: string, issuer: string): string {
  const encodedIssuer = encodeURIComponent(issuer);
  const query = [
    `secret=${encodeURIComponent(info.sharedSecretKey)}`,
    `issuer=${encodedIssuer}`,
    `algorithm=${encodeURIComponent(info.hashingAlgorithm ?? 'SHA1')}`,
    `digits=${info.verificationCodeLength ?? 6}`,
    `period=${info.periodSec ?? 30}`,
  ];
  return `otpauth://totp/${encodedIssuer}:${encodeURIComponent(account)}?${query.join('&')}`;
}

/**
 * `startTotpEnrollment`: a secret from `mfaEnrollment:start`; the enrollment id is Firebase's session
 * for it (opaque), which `finishTotpEnrollment` hands back.
 */
function startTotpEnrollment(ctx: FormContext): Promise<TotpEnrollment> {
  return withAuthErrors('enrollment', async () => {
    const { idToken, user } = requireSession(ctx);
    const info = await rest.mfaEnrollmentStartTotp(restOf(ctx), { idToken });
    const account = user.email ?? user.phoneNumber ?? user.uid;
    return {
      enrollmentId: info.sessionInfo,
      secret: info.sharedSecretKey,
      uri: totpUri(info, account, ctx.totpIssuer),
    };
  });
}

/** `finishTotpEnrollment`: `mfaEnrollment:finalize` with a code of the secret; resolves the new factor. */
function finishTotpEnrollment(
  ctx: FormContext,
  enrollmentId: string,
  code: string,
  displayName: string | undefined,
): Promise<SecondFactorInfo> {
  return withAuthErrors('enrollment', async () => {
    const session = requireSession(ctx);
    const before = new Set((await list(ctx)).map((f) => f.uid));
    const response = await rest.mfaEnrollmentFinalizeTotp(restOf(ctx), {
      idToken: session.idToken,
      ...(displayName ? { displayName } : {}),
      totpVerificationInfo: { sessionInfo: enrollmentId, verificationCode: code },
    });
    refreshed(ctx, session, response);
    const added = (await list(ctx)).find((f) => !before.has(f.uid));
    if (added === undefined) throw new AuthError('generic');
    return added;
  });
}

/** `unenroll`: `mfaEnrollment:withdraw` for one of the request's user's factors. */
function unenroll(ctx: FormContext, factorUid: string): Promise<void> {
  return withAuthErrors('enrollment', async () => {
    const session = requireSession(ctx);
    const response = await rest.mfaEnrollmentWithdraw(restOf(ctx), {
      idToken: session.idToken,
      mfaEnrollmentId: factorUid,
    });
    refreshed(ctx, session, response);
  });
}

const needsBrowser = (): Promise<never> => Promise.reject(new AuthError('javascript-required'));

/** The form provider's {@link SecondFactorOperations} over `ctx`. */
export function formSecondFactors(ctx: FormContext): SecondFactorOperations {
  return {
    startSignIn: (challenge, factorUid) => startSignIn(challenge, factorUid),
    finishSignIn: (challenge, verificationId, code) => finishSignIn(ctx, challenge, verificationId, code),
    // Firebase keeps nothing to drop: the pending credential is only in the challenge, and expires.
    cancelSignIn: async () => {},
    list: () => list(ctx),
    startPhoneEnrollment: needsBrowser,
    finishPhoneEnrollment: needsBrowser,
    startTotpEnrollment: () => startTotpEnrollment(ctx),
    finishTotpEnrollment: (enrollmentId, code, displayName) =>
      finishTotpEnrollment(ctx, enrollmentId, code, displayName),
    unenroll: (factorUid) => unenroll(ctx, factorUid),
  };
}
