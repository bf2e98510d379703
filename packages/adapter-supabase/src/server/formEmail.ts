/**
 * The form provider's email operations over GoTrue REST: sending and completing sign-in links, and the
 * password-reset mail. No PKCE: a PKCE link's code verifier stays in the browser that asked for it, so the
 * server sends token-hash links (Doorway's templates) and refuses a PKCE return with `session-expired`, as
 * supabase-js does without its verifier.
 * @module
 */
import { type ActionLinkSettings, AuthError, requireEmail, type SignInResult } from '@doorway/auth-core';
import {
  checkSignInLink,
  isAccountOf,
  type LinkOptions,
  linkCreatedAccount,
  sendMagicLink,
  signInLinkRequest,
} from '../shared/emailLink.ts';
import { requireUrl } from '../shared/input.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { type FormContext, firstFactorSignedIn, refusal, requireSession } from './formContext.ts';
import { logout, sendEmailOtp, sendRecovery, verifyTokenHash } from './rest.ts';

/** `sendSignInLinkToEmail` (no anonymous upgrade here: that needs the anonymous user's own session). */
export async function sendSignInLink(ctx: FormContext, email: string, url: string): Promise<void> {
  const request = await signInLinkRequest(email, url);
  const send = async (createUser: boolean, redirectTo: string) => {
    const result = await sendEmailOtp(ctx.api, { email: request.email, createUser, redirectTo });
    return result.ok ? null : { code: result.code };
  };
  await sendMagicLink(send, request, ctx.settings.emailLinkSignUp !== false);
}

/** `sendPasswordResetEmail`. An unknown email succeeds without a mail: Supabase does not reveal accounts. */
export async function sendPasswordResetEmail(
  ctx: FormContext,
  email: string,
  linkSettings?: ActionLinkSettings,
): Promise<void> {
  const address = requireEmail(email);
  const base = linkSettings?.url ?? ctx.settings.actionUrl;
  const redirectTo = base === undefined ? undefined : actionRedirectUrl(requireUrl(base), 'resetPassword');
  const result = await sendRecovery(ctx.api, address, redirectTo);
  if (!result.ok) throw refusal(result, 'email');
}

/** `signInWithEmailLink`. */
export async function signInWithEmailLink(
  ctx: FormContext,
  email: string,
  link: string,
  options?: LinkOptions,
): Promise<SignInResult> {
  const parsed = await checkSignInLink(email, link, options, ctx.current?.user ?? null);
  if (parsed.kind === 'pkce') throw new AuthError('session-expired');
  const result = await verifyTokenHash(ctx.api, parsed.type, parsed.tokenHash);
  if (!result.ok) throw refusal(result, 'link');
  const session = requireSession(result);
  if (!isAccountOf(session.user, email)) {
    // A link without Doorway's email hash, used with another email: the session it opened must end.
    await logout(ctx.api, session.accessToken, 'local').catch(() => undefined);
    throw new AuthError('email-mismatch', { email });
  }
  return firstFactorSignedIn(ctx, session, 'emailLink', linkCreatedAccount(parsed, options));
}
