/**
 * Email and password: the sign-in methods of an email, sign-in and sign-up.
 * @module
 */
import type { SignInMethod, SignInResult } from '@doorway/auth-core';
import {
  createUserWithEmailAndPassword,
  fetchSignInMethodsForEmail,
  signInWithEmailAndPassword,
  updateProfile,
} from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import { withSignInErrors } from './challenge.ts';
import type { BrowserContext } from './context.ts';
import { signInResult } from './results.ts';

/** The sign-in methods of an email (always none under email enumeration protection). */
export function signInMethods(ctx: BrowserContext, email: string): Promise<SignInMethod[]> {
  return withAuthErrors(
    'lookup',
    async () => (await fetchSignInMethodsForEmail(ctx.auth, email)) as SignInMethod[],
  );
}

/** Signs in; an account with a second factor rejects `second-factor-required` with its challenge. */
export function passwordSignIn(ctx: BrowserContext, email: string, password: string): Promise<SignInResult> {
  return withSignInErrors(ctx, 'password', { providerId: 'password' }, async () =>
    signInResult(await signInWithEmailAndPassword(ctx.auth, email, password), 'password'),
  );
}

/** Creates the account, then names it when a display name is given. */
export function createUser(
  ctx: BrowserContext,
  email: string,
  password: string,
  displayName?: string,
): Promise<SignInResult> {
  return withAuthErrors('createUser', async () => {
    const credential = await createUserWithEmailAndPassword(ctx.auth, email, password);
    if (displayName !== undefined && displayName !== '') {
      await updateProfile(credential.user, { displayName });
    }
    return signInResult(credential, 'password');
  });
}
