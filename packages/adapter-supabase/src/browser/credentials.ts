/**
 * Credentials the flow kept (a pending sign-in, or one to link to the signed-in user): each kind goes to its
 * flow's operation. And signing out.
 * @module
 */
import type { AuthCredential, SignInResult } from '@doorway/auth-core';
import { toAuthError } from '../shared/errors.ts';
import type { ProviderContext } from './context.ts';
import { signInWithEmailLink } from './emailLink.ts';
import { withIdToken } from './federated.ts';
import { linkPassword, signInWithPassword } from './password.ts';
import { confirmPhoneCode } from './phone.ts';

/** `signInWithCredential`. */
export async function signInWithCredential(
  ctx: ProviderContext,
  credential: AuthCredential,
): Promise<SignInResult> {
  switch (credential.kind) {
    case 'password':
      return signInWithPassword(ctx, credential.email, credential.password);
    case 'emailLink':
      return signInWithEmailLink(ctx, credential.email, credential.link);
    case 'phone':
      return confirmPhoneCode(ctx, credential.verificationId, credential.code);
    case 'federated':
      return withIdToken(ctx, credential, false);
  }
}

/** `linkWithCredential`: adds the credential's sign-in method to the signed-in user. */
export async function linkWithCredential(
  ctx: ProviderContext,
  credential: AuthCredential,
): Promise<SignInResult> {
  switch (credential.kind) {
    case 'emailLink':
      return signInWithEmailLink(ctx, credential.email, credential.link, { link: true });
    case 'phone':
      return confirmPhoneCode(ctx, credential.verificationId, credential.code, { link: true });
    case 'federated':
      return withIdToken(ctx, credential, true);
    case 'password':
      return linkPassword(ctx, credential);
  }
}

/** `signOut`: ends this browser's session only. */
export async function signOut(ctx: ProviderContext): Promise<void> {
  const { error } = await ctx.auth.signOut({ scope: 'local' });
  if (error) throw toAuthError(error);
  ctx.current = null;
}
