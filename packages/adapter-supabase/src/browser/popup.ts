/**
 * OAuth's way back to the page: the redirect URL a sign-in asks for, and waiting for a popup to land on it.
 * @module
 */
import { AuthError, type FederatedOptions } from '@doorway/auth-core';
import { LINK_PARAMS, type OAuthLanding, parseOAuthLanding } from '../shared/links.ts';
import type { ProviderContext } from './context.ts';
import type { SupabasePopup } from './types.ts';

/**
 * Where an OAuth sign-in comes back to: the configured page (or the current one) without an earlier
 * return's values, naming the provider and whether the sign-in links.
 */
export function oauthRedirect(
  ctx: ProviderContext,
  providerId: string,
  mode: FederatedOptions['mode'],
  link: boolean,
): string {
  const { settings } = ctx;
  const base =
    (mode === 'popup' ? settings.popupRedirectUrl : undefined) ??
    settings.oauthRedirectUrl ??
    ctx.browser.currentUrl();
  if (!base) throw new AuthError('operation-not-allowed');
  const url = new URL(parseOAuthLanding(base)?.cleanUrl ?? base);
  url.hash = '';
  url.searchParams.set(LINK_PARAMS.federated, providerId);
  if (link) url.searchParams.set(LINK_PARAMS.link, '1');
  else url.searchParams.delete(LINK_PARAMS.link);
  return url.href;
}

/** Resolves the popup's OAuth return once it lands (and closes it); rejects `user-cancelled` if closed first. */
export function waitForPopup(ctx: ProviderContext, popup: SupabasePopup): Promise<OAuthLanding> {
  const interval = ctx.settings.popupPollIntervalMs ?? 250;
  return new Promise((resolve, reject) => {
    const check = () => {
      const landing = parseOAuthLanding(popup.currentUrl() ?? '');
      if (landing) {
        popup.close();
        resolve(landing);
      } else if (popup.closed) {
        reject(new AuthError('user-cancelled'));
      } else {
        ctx.clock.setTimeout(check, interval);
      }
    };
    check();
  });
}
