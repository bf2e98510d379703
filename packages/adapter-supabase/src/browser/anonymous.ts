/**
 * Anonymous users in the browser: signing in without credentials, and Supabase's upgrade of such a user
 * (an email or phone number given to the same uid), which the email-link and phone flows try first.
 * @module
 */
import { AuthError, parseEmailLinkParams, type SignInResult } from '@doorway/auth-core';
import type { SignInLinkRequest } from '../shared/emailLink.ts';
import { toAuthError } from '../shared/errors.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { captchaToken, type ProviderContext, signedIn } from './context.ts';
import { encodeVerification } from './verificationId.ts';

/** `signInAnonymously`. */
export async function signInAnonymously(ctx: ProviderContext): Promise<SignInResult> {
  const { data, error } = await ctx.auth.signInAnonymously({ options: { captchaToken: captchaToken(ctx) } });
  if (error) throw toAuthError(error, 'anonymous');
  if (!data.user) throw new AuthError('generic');
  return signedIn(ctx, data.user, 'anonymous', true);
}

/**
 * Gives a signed-in anonymous user the email of a sign-in link request (an email_change link keeps the
 * uid). Resolves whether that link is on its way; `false` leaves the request to a magic link.
 */
export async function upgradeWithEmail(ctx: ProviderContext, request: SignInLinkRequest): Promise<boolean> {
  const me = ctx.current;
  const params = parseEmailLinkParams(request.base);
  // The widget says whether it upgrades (doorway_auid); a caller outside the widget gets Supabase's upgrade.
  if (!me?.isAnonymous || (params.anonymousUid !== me.uid && params.sid !== null)) return false;
  const { data, error } = await ctx.auth.updateUser(
    { email: request.email },
    { emailRedirectTo: actionRedirectUrl(request.base, 'signIn', request.extra) },
  );
  if (!error && data.user.new_email) return true; // an email_change link is on its way
  if (error && error.code !== 'email_exists' && error.code !== 'user_already_exists') {
    throw toAuthError(error, 'email');
  }
  // Either "Confirm email" is off and the email was attached at once (a magic link then signs this same
  // user in), or the email is another account's (its link is refused when linking).
  return false;
}

/**
 * Gives a signed-in anonymous user the number (a phone_change code keeps the uid). Resolves the code's
 * verification id, or `null` to send a sign-in code instead.
 */
export async function upgradeWithPhone(ctx: ProviderContext, phone: string): Promise<string | null> {
  if (!ctx.current?.isAnonymous) return null;
  const { data, error } = await ctx.auth.updateUser({ phone });
  if (!error && data.user.new_phone) {
    return encodeVerification({ phone, type: 'phone_change', isNew: false, sentAt: ctx.clock.now() });
  }
  // phone_exists: another account's number, so a sign-in code (linking it is refused at confirmation).
  // No error and no pending number: "Confirm phone" is off and the number was attached at once.
  if (error && error.code !== 'phone_exists') throw toAuthError(error, 'phone');
  return null;
}
