/**
 * The end of every first-factor sign-in in the browser (password, email link or code, SMS code, OAuth, ID
 * token): when supabase-js says the session is at aal1 and the account can reach aal2 (it has a verified
 * factor), nobody is signed in yet and the sign-in rejects `second-factor-required` with its challenge.
 * @module
 */
import { type AuthCredential, AuthError, type SignInResult } from '@doorway/auth-core';
import type { User } from '@supabase/supabase-js';
import { toAuthError } from '../shared/errors.ts';
import { secondFactorChallenge, verifiedFactors } from '../shared/secondFactors.ts';
import { type ProviderContext, signedIn } from './context.ts';

/**
 * The rejection of a first factor whose session waits for a second one: the aal1 session stays in the
 * client (the challenge carries its tokens too), and `getCurrentUser` stays `null`.
 */
async function secondFactorRequired(
  ctx: ProviderContext,
  providerId: string,
  credential: AuthCredential | undefined,
): Promise<AuthError> {
  const { data, error } = await ctx.auth.getSession();
  if (error || !data.session) return toAuthError(error ?? new AuthError('generic'));
  const { session } = data;
  ctx.current = null;
  if (verifiedFactors(session.user, true).length === 0) {
    // Only factors Doorway does not offer (WebAuthn): nothing here can finish this sign-in.
    await ctx.auth.signOut({ scope: 'local' });
    return new AuthError('operation-not-allowed');
  }
  const challenge = secondFactorChallenge(session.user, {
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    providerId,
    ...(credential ? { credential } : {}),
  });
  return new AuthError('second-factor-required', { challenge });
}

/**
 * Ends a first factor: the sign-in's result, or `second-factor-required` when
 * `mfa.getAuthenticatorAssuranceLevel()` says the session is at aal1 and its next level is aal2.
 */
export async function firstFactorSignedIn(
  ctx: ProviderContext,
  user: User,
  providerId: string,
  isNewUser: boolean,
  credential?: AuthCredential,
): Promise<SignInResult> {
  const { data, error } = await ctx.auth.mfa.getAuthenticatorAssuranceLevel();
  if (error) throw toAuthError(error);
  if (data.currentLevel === 'aal1' && data.nextLevel === 'aal2') {
    throw await secondFactorRequired(ctx, providerId, credential);
  }
  return signedIn(ctx, user, providerId, isNewUser, credential);
}
