/**
 * Federated sign-in in the browser: OAuth in a popup or by redirect (signing in or linking), the redirect's
 * result, and ID-token credentials.
 * @module
 */
import {
  type AuthCredential,
  AuthError,
  type FederatedOptions,
  POPUP_HEIGHT,
  POPUP_WIDTH,
  type SignInResult,
} from '@doorway/auth-core';
import type { Provider, User } from '@supabase/supabase-js';
import { toAuthError } from '../shared/errors.ts';
import { type OAuthLanding, parseOAuthLanding } from '../shared/links.ts';
import { acceptsIdToken, looksNew, toSupabaseProvider } from '../shared/user.ts';
import { firstFactorSignedIn } from './assurance.ts';
import { captchaToken, type ProviderContext } from './context.ts';
import { oauthRedirect, waitForPopup } from './popup.ts';

const newUserWindowMs = (ctx: ProviderContext): number => ctx.settings.newUserWindowMs ?? 1000;

/** `signInWithFederated`: a popup sign-in resolves its result; a redirect one leaves the page (`null`). */
export async function signInWithFederated(
  ctx: ProviderContext,
  providerId: string,
  options: FederatedOptions,
): Promise<SignInResult | null> {
  if (!ctx.capabilities.federated.includes(providerId)) throw new AuthError('operation-not-allowed');
  const link = options.link === true;
  if (link && ctx.current === null) throw new AuthError('requires-recent-login');
  // Opened before any await, while the click's user activation still allows popups.
  const popup =
    options.mode === 'popup' ? ctx.browser.openPopup({ width: POPUP_WIDTH, height: POPUP_HEIGHT }) : null;
  if (options.mode === 'popup' && !popup) throw new AuthError('popup-blocked');
  try {
    const url = await oauthUrl(ctx, providerId, options, link);
    if (!popup) {
      ctx.browser.navigate(url);
      return null;
    }
    popup.navigate(url);
    return await completeOAuth(ctx, await waitForPopup(ctx, popup));
  } catch (e) {
    if (popup && !popup.closed) popup.close();
    throw toAuthError(e, 'federated');
  }
}

/** The IdP's URL of an OAuth sign-in (or identity link), from GoTrue. */
async function oauthUrl(
  ctx: ProviderContext,
  providerId: string,
  options: FederatedOptions,
  link: boolean,
): Promise<string> {
  const queryParams: Record<string, string> = { ...options.customParameters };
  if (options.loginHint) queryParams.login_hint = options.loginHint;
  const oauth = {
    redirectTo: oauthRedirect(ctx, providerId, options.mode, link),
    skipBrowserRedirect: true,
    ...(options.scopes?.length ? { scopes: options.scopes.join(' ') } : {}),
    ...(Object.keys(queryParams).length ? { queryParams } : {}),
  };
  const provider = toSupabaseProvider(providerId) as Provider;
  const { data, error } = link
    ? await ctx.auth.linkIdentity({ provider, options: oauth })
    : await ctx.auth.signInWithOAuth({ provider, options: oauth });
  if (error || !data.url) throw toAuthError(error, 'federated');
  return data.url;
}

/** `getRedirectResult`: completes an OAuth return on the page once, and drops its values from the URL. */
export async function getRedirectResult(ctx: ProviderContext): Promise<SignInResult | null> {
  const href = ctx.browser.currentUrl();
  const landing = href === null || ctx.redirectsSeen.has(href) ? null : parseOAuthLanding(href);
  if (!landing || href === null) return null;
  ctx.redirectsSeen.add(href);
  ctx.browser.replaceUrl(landing.cleanUrl);
  return completeOAuth(ctx, landing);
}

/** Signs in with an OAuth return: its tokens (implicit flow) or its code (PKCE). */
async function completeOAuth(ctx: ProviderContext, landing: OAuthLanding): Promise<SignInResult> {
  if (landing.error) {
    // The IdP's own refusal (the person cancelled) comes back as access_denied without a GoTrue code.
    if (landing.error.code === null && landing.error.error === 'access_denied')
      throw new AuthError('user-cancelled');
    throw toAuthError({ code: landing.error.code ?? undefined }, 'federated');
  }
  let user: User | null = null;
  if (landing.tokens) {
    const { data, error } = await ctx.auth.setSession({
      access_token: landing.tokens.accessToken,
      refresh_token: landing.tokens.refreshToken,
    });
    if (error) throw toAuthError(error, 'federated');
    user = data.user;
  } else if (landing.code) {
    const { data, error } = await ctx.auth.exchangeCodeForSession(landing.code);
    if (error) throw toAuthError(error, 'federated');
    user = data.user;
  }
  if (!user) throw new AuthError('generic');
  const isNew = !landing.link && looksNew(user, newUserWindowMs(ctx));
  return firstFactorSignedIn(ctx, user, landing.providerId, isNew);
}

/** Signs in (or links) with a federated credential's ID token, for the providers GoTrue takes them from. */
export async function withIdToken(
  ctx: ProviderContext,
  credential: AuthCredential,
  link: boolean,
): Promise<SignInResult> {
  if (credential.kind !== 'federated') throw new AuthError('operation-not-allowed');
  const provider = toSupabaseProvider(credential.providerId);
  if (!credential.idToken || !acceptsIdToken(provider)) {
    throw new AuthError('operation-not-allowed', { credential });
  }
  if (link && ctx.current === null) throw new AuthError('requires-recent-login', { credential });
  const params = {
    provider,
    token: credential.idToken,
    ...(credential.accessToken ? { access_token: credential.accessToken } : {}),
    options: { captchaToken: captchaToken(ctx) },
  };
  const { data, error } = link
    ? await ctx.auth.linkIdentity(params)
    : await ctx.auth.signInWithIdToken(params);
  if (error) throw toAuthError(error, 'federated', { credential });
  const isNew = !link && looksNew(data.user, newUserWindowMs(ctx));
  return firstFactorSignedIn(ctx, data.user, credential.providerId, isNew, credential);
}
