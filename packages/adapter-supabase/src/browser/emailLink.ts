/**
 * Email-link sign-in in the browser: sending the link (or an anonymous user's upgrade link) and completing
 * it, with a token hash or a PKCE code.
 * @module
 */
import { AuthError, type SignInResult } from '@doorway/auth-core';
import {
  checkSignInLink,
  isAccountOf,
  type LinkOptions,
  linkCreatedAccount,
  sendMagicLink,
  signInLinkRequest,
} from '../shared/emailLink.ts';
import { toAuthError } from '../shared/errors.ts';
import { upgradeWithEmail } from './anonymous.ts';
import { firstFactorSignedIn } from './assurance.ts';
import { captchaToken, type ProviderContext } from './context.ts';

/** `sendSignInLinkToEmail`: Supabase's upgrade link for an anonymous user, else a magic link. */
export async function sendSignInLink(ctx: ProviderContext, email: string, url: string): Promise<void> {
  const request = await signInLinkRequest(email, url);
  if (await upgradeWithEmail(ctx, request)) return;
  const send = async (createUser: boolean, redirectTo: string) => {
    const { error } = await ctx.auth.signInWithOtp({
      email: request.email,
      options: { captchaToken: captchaToken(ctx), emailRedirectTo: redirectTo, shouldCreateUser: createUser },
    });
    return error;
  };
  await sendMagicLink(send, request, ctx.settings.emailLinkSignUp !== false);
}

/** `signInWithEmailLink` (and linking with an email-link credential). */
export async function signInWithEmailLink(
  ctx: ProviderContext,
  email: string,
  link: string,
  options?: LinkOptions,
): Promise<SignInResult> {
  const parsed = await checkSignInLink(email, link, options, ctx.current);
  const { data, error } =
    parsed.kind === 'pkce'
      ? await ctx.auth.exchangeCodeForSession(parsed.code)
      : await ctx.auth.verifyOtp({ type: parsed.type, token_hash: parsed.tokenHash });
  if (error) throw toAuthError(error, 'link');
  if (!data.user) throw new AuthError('generic');
  if (!isAccountOf(data.user, email)) {
    // A link without Doorway's email hash, used with another email: the session must not stay.
    await ctx.auth.signOut({ scope: 'local' });
    ctx.current = null;
    throw new AuthError('email-mismatch', { email });
  }
  return firstFactorSignedIn(ctx, data.user, 'emailLink', linkCreatedAccount(parsed, options));
}
