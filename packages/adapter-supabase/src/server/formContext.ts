/**
 * What the form provider's operations work on: where GoTrue is, the browser provider's settings the server
 * honours, and the one sign-in the provider made during its request.
 * @module
 */
import { AuthError, type AuthErrorDetails, type AuthUser, type SignInResult } from '@doorway/auth-core';
import { mapSupabaseErrorCode, type SupabaseErrorContext } from '../shared/errors.ts';
import { awaitsSecondFactor, serverSecondFactorChallenge } from '../shared/secondFactors.ts';
import { toAuthUser } from '../shared/user.ts';
import { type GoTrueApi, type GoTrueResult, type GoTrueSession, logout, sessionOf } from './rest.ts';
import type { SupabaseFormSettings } from './types.ts';

/** The form provider's context. */
export interface FormContext {
  readonly api: GoTrueApi;
  readonly settings: SupabaseFormSettings;
  /** The sign-in this provider made during the request. */
  current: { user: AuthUser; accessToken: string } | null;
}

/** GoTrue's refusal as the catalogue code the browser provider gives for it in the same step. */
export function refusal(
  result: Extract<GoTrueResult, { ok: false }>,
  context: SupabaseErrorContext,
  details: AuthErrorDetails = {},
): AuthError {
  return new AuthError(mapSupabaseErrorCode(result.code, context), details);
}

/** The session GoTrue opened, else `generic` (an answer without one where one is promised). */
export function requireSession(result: Extract<GoTrueResult, { ok: true }>): GoTrueSession {
  const session = sessionOf(result.data);
  if (session === null) throw new AuthError('generic');
  return session;
}

/**
 * Ends a first factor on the server: the sign-in, or, when its session is at aal1 and the account has a
 * verified factor, `second-factor-required` with the challenge and nobody signed in. The challenge keeps
 * the aal1 access token in its `serverSession` (sealed in the flow cookie, never in the page) and not the
 * refresh token (issue 24): nothing can renew that session, so a flow left at the challenge leaves nothing
 * alive past the token's expiry (GoTrue's JWT expiry, an hour by default); Cancel signs it out at once.
 */
export async function firstFactorSignedIn(
  ctx: FormContext,
  session: GoTrueSession,
  providerId: string,
  isNewUser: boolean,
): Promise<SignInResult> {
  if (!awaitsSecondFactor(session.accessToken, session.user)) {
    return signedIn(ctx, session, providerId, isNewUser);
  }
  ctx.current = null;
  // The refresh token is dropped here: the page the challenge is rendered on (and whatever reads or keeps a
  // copy of it) must not be able to renew the aal1 session. The browser's widget, hydrated on this challenge,
  // posts its cards to the server, which holds the access token.
  const challenge = serverSecondFactorChallenge(session.user, {
    accessToken: session.accessToken,
    providerId,
  });
  if (challenge.factors.length === 0) {
    // Only factors Doorway does not offer (WebAuthn): nothing here can finish this sign-in.
    await logout(ctx.api, session.accessToken, 'local').catch(() => undefined);
    throw new AuthError('operation-not-allowed');
  }
  throw new AuthError('second-factor-required', { challenge });
}

/** Makes `session` the request's (a sign-in, or the aal2 session a new factor's verification gave). */
export function keepSession(ctx: FormContext, session: GoTrueSession): AuthUser {
  const user = toAuthUser(session.user, { emailLink: true });
  ctx.current = { user, accessToken: session.accessToken };
  return user;
}

/** Records the request's sign-in and answers it. */
export function signedIn(
  ctx: FormContext,
  session: GoTrueSession,
  providerId: string,
  isNewUser: boolean,
): SignInResult {
  return { user: keepSession(ctx, session), isNewUser, providerId };
}
