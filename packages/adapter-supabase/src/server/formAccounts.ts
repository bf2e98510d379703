/**
 * The form provider's account operations over GoTrue REST: password sign-in and sign-up, anonymous sign-in
 * and signing out of the request's session.
 * @module
 */
import { requireEmail, type SignInResult } from '@doorway/auth-core';
import { requireUrl } from '../shared/input.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { signUpData, signUpWithoutSession } from '../shared/password.ts';
import { type FormContext, firstFactorSignedIn, refusal, requireSession, signedIn } from './formContext.ts';
import {
  loggedOut,
  logout,
  passwordGrant,
  sessionOf,
  signUpAnonymously,
  signUpWithPassword,
  userOf,
} from './rest.ts';

/** `signInWithEmailAndPassword`. */
export async function signInWithPassword(
  ctx: FormContext,
  email: string,
  password: string,
): Promise<SignInResult> {
  const result = await passwordGrant(ctx.api, requireEmail(email), password);
  if (!result.ok) throw refusal(result, 'password');
  return firstFactorSignedIn(ctx, requireSession(result), 'password', false);
}

/** `createUser`: signs the new account in, unless "Confirm email" is on (see `signUpWithoutSession`). */
export async function createUser(
  ctx: FormContext,
  email: string,
  password: string,
  displayName?: string,
): Promise<SignInResult> {
  const { actionUrl } = ctx.settings;
  const result = await signUpWithPassword(ctx.api, {
    email,
    password,
    data: signUpData(displayName),
    ...(actionUrl ? { redirectTo: actionRedirectUrl(requireUrl(actionUrl), 'verifyEmail') } : {}),
  });
  if (!result.ok) throw refusal(result, 'signUp');
  const session = sessionOf(result.data);
  if (session === null) throw signUpWithoutSession(userOf(result.data), email);
  return signedIn(ctx, session, 'password', true);
}

/** `signInAnonymously`. */
export async function signInAnonymously(ctx: FormContext): Promise<SignInResult> {
  const result = await signUpAnonymously(ctx.api);
  if (!result.ok) throw refusal(result, 'anonymous');
  return signedIn(ctx, requireSession(result), 'anonymous', true);
}

/** `signOut`: ends the session this request's sign-in opened. */
export async function signOut(ctx: FormContext): Promise<void> {
  const me = ctx.current;
  if (me === null) return;
  const result = await logout(ctx.api, me.accessToken, 'local');
  if (!result.ok && !loggedOut(result)) throw refusal(result, 'other');
  ctx.current = null;
}
