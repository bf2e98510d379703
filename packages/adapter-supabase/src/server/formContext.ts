/**
 * What the form provider's operations work on: where GoTrue is, the browser provider's settings the server
 * honours, and the one sign-in the provider made during its request.
 * @module
 */
import { AuthError, type AuthErrorDetails, type AuthUser, type SignInResult } from '@doorway/auth-core';
import { mapSupabaseErrorCode, type SupabaseErrorContext } from '../errors.ts';
import { type GoTrueApi, type GoTrueResult, type GoTrueSession, sessionOf } from '../rest.ts';
import { toAuthUser } from '../user.ts';
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

/** Records the request's sign-in and answers it. */
export function signedIn(
  ctx: FormContext,
  session: GoTrueSession,
  providerId: string,
  isNewUser: boolean,
): SignInResult {
  const user = toAuthUser(session.user, { emailLink: true });
  ctx.current = { user, accessToken: session.accessToken };
  return { user, isNewUser, providerId };
}
