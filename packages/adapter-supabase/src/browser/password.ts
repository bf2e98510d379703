/**
 * Password accounts in the browser: sign-in, sign-up, and giving the signed-in user a password (linking).
 * @module
 */
import {
  type AuthCredential,
  AuthError,
  requireEmail,
  type SignInResult,
  sameEmail,
} from '@doorway/auth-core';
import { toAuthError } from '../shared/errors.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { signUpData, signUpWithoutSession } from '../shared/password.ts';
import { firstFactorSignedIn } from './assurance.ts';
import { captchaToken, type ProviderContext, signedIn, userOf } from './context.ts';

/** `signInWithEmailAndPassword`. */
export async function signInWithPassword(
  ctx: ProviderContext,
  email: string,
  password: string,
): Promise<SignInResult> {
  const { data, error } = await ctx.auth.signInWithPassword({
    email: requireEmail(email),
    password,
    options: { captchaToken: captchaToken(ctx) },
  });
  if (error) throw toAuthError(error, 'password');
  return firstFactorSignedIn(ctx, data.user, 'password', false);
}

/** `createUser`: signs the new account in, unless "Confirm email" is on (see `signUpWithoutSession`). */
export async function createUser(
  ctx: ProviderContext,
  email: string,
  password: string,
  displayName?: string,
): Promise<SignInResult> {
  const { data, error } = await ctx.auth.signUp({
    email,
    password,
    options: {
      data: signUpData(displayName),
      captchaToken: captchaToken(ctx),
      ...(ctx.actionUrl ? { emailRedirectTo: actionRedirectUrl(ctx.actionUrl, 'verifyEmail') } : {}),
    },
  });
  if (error) throw toAuthError(error, 'signUp');
  if (!data.session || !data.user) throw signUpWithoutSession(data.user, email);
  return signedIn(ctx, data.session.user ?? data.user, 'password', true);
}

/** `linkWithCredential` with a password: sets it (and the email, when it is another) on the signed-in user. */
export async function linkPassword(
  ctx: ProviderContext,
  credential: Extract<AuthCredential, { kind: 'password' }>,
): Promise<SignInResult> {
  const me = ctx.current;
  if (!me) throw new AuthError('requires-recent-login', { credential });
  requireEmail(credential.email);
  const attributes =
    me.email !== null && sameEmail(me.email, credential.email)
      ? { password: credential.password }
      : { email: credential.email, password: credential.password };
  const { data, error } = await ctx.auth.updateUser(
    attributes,
    ctx.actionUrl ? { emailRedirectTo: actionRedirectUrl(ctx.actionUrl, 'verifyAndChangeEmail') } : {},
  );
  if (error) throw toAuthError(error, 'update', { email: credential.email, credential });
  if (!data.user.email || !sameEmail(data.user.email, credential.email)) {
    // "Confirm email" is on: the email waits for its confirmation link (see createUser).
    ctx.current = userOf(ctx, data.user);
    throw new AuthError('operation-not-allowed', { email: credential.email, credential });
  }
  return signedIn(ctx, data.user, 'password', false);
}
