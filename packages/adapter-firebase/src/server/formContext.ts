/**
 * The one context every operation of the server's form provider works on ({@link FormContext}), and what
 * its sign-ins share: reading the user back after a sign-in, keeping the request's sign-in, and turning a
 * sign-in that needs a second factor into `second-factor-required` with a plain-JSON challenge.
 * @module
 */
import {
  AuthError,
  type AuthUser,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SignInResult,
} from '@doorway/auth-core';
import { plainUser } from '../shared/common.ts';
import { type FirebaseErrorContext, toAuthError } from '../shared/errors.ts';
import * as rest from './rest.ts';

/** The sign-in made during this request. */
export interface FormSession {
  user: AuthUser;
  idToken: string;
}

/** What every operation reads: where the REST calls go, the tenant in force and this request's sign-in. */
export interface FormContext {
  readonly api: Omit<rest.RestContext, 'tenantId'>;
  /** The issuer an authenticator app shows for a TOTP enrolment. */
  readonly totpIssuer: string;
  tenantId: string | null;
  session: FormSession | null;
}

/** The REST context of the tenant in force. */
export const restOf = (ctx: FormContext): rest.RestContext => ({ ...ctx.api, tenantId: ctx.tenantId });

/**
 * The user of a fresh ID token, read back as the SDK does after every sign-in (`accounts:lookup`).
 * Firebase keeps no anonymous flag: as in the SDK, a user is anonymous when it signed in anonymously and
 * has no provider linked since.
 */
async function userOf(ctx: FormContext, idToken: string, anonymous: boolean): Promise<AuthUser> {
  const account = await rest.lookup(restOf(ctx), { idToken });
  const providerData = account.providerUserInfo ?? [];
  return plainUser(
    { ...account, uid: account.localId, providerData },
    anonymous && providerData.length === 0,
  );
}

/** Keeps the sign-in of a fresh ID token as the request's and resolves its result. */
export async function signedIn(
  ctx: FormContext,
  response: { idToken: string },
  result: { providerId: string; isNewUser: boolean; anonymous?: boolean },
): Promise<SignInResult> {
  const anonymous = result.anonymous ?? false;
  const user = await userOf(ctx, response.idToken, anonymous);
  ctx.session = { user, idToken: response.idToken };
  return { user, isNewUser: result.isNewUser, providerId: result.providerId };
}

/**
 * A factor as Firebase's REST API reports it (`mfaInfo`), as the widget shows it; `null` for a kind the
 * widget does not know.
 */
export function factorFromRest(enrollment: rest.MfaEnrollment): SecondFactorInfo | null {
  const uid = enrollment.mfaEnrollmentId;
  const kind =
    enrollment.totpInfo !== undefined ? 'totp' : enrollment.phoneInfo !== undefined ? 'phone' : null;
  if (uid === undefined || kind === null) return null;
  const enrolledAt = enrollment.enrolledAt === undefined ? Number.NaN : Date.parse(enrollment.enrolledAt);
  return {
    uid,
    kind,
    displayName: enrollment.displayName || null,
    phoneNumber: kind === 'phone' ? (enrollment.phoneInfo ?? null) : null,
    enrolledAt: Number.isNaN(enrolledAt) ? null : enrolledAt,
  };
}

/**
 * What a form challenge's `session` holds: Firebase's pending credential (opaque, what finishing needs;
 * the server keeps it in its sealed state), the first factor's provider id, for the result, and the
 * sign-in's `mfaInfo` as Firebase answered it (phone numbers masked), so the browser provider can build
 * the SDK's resolver from it once the page has hydrated (`browser/challenge.ts`).
 */
export interface FormPendingSignIn {
  mfaPendingCredential: string;
  providerId: string;
  mfaInfo?: rest.MfaEnrollment[];
}

/** The rejection of a sign-in whose account has a second factor: its challenge, plain JSON. */
function challengeOf(mfa: rest.MfaPending, providerId: string): AuthError {
  const session: FormPendingSignIn = {
    mfaPendingCredential: mfa.mfaPendingCredential,
    providerId,
    mfaInfo: mfa.mfaInfo,
  };
  const factors = mfa.mfaInfo.flatMap((enrollment) => factorFromRest(enrollment) ?? []);
  const challenge: SecondFactorChallenge = { factors, session };
  return new AuthError('second-factor-required', { challenge });
}

/**
 * Runs one sign-in of the form provider: an account with a second factor rejects `second-factor-required`
 * with its challenge; anything else rejects as the catalogue error for `context`.
 */
export async function withFormSignInErrors<T>(
  context: FirebaseErrorContext,
  providerId: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof rest.IdentityToolkitError && e.mfa !== null) throw challengeOf(e.mfa, providerId);
    throw toAuthError(e, context);
  }
}
