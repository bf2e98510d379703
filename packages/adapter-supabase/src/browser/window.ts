/**
 * The browser provider's surroundings: the window's popup, navigation and page URL, the default landing
 * URL of emailed links, and the auth client made from a project URL and key.
 * @module
 */
import { GoTrueClient } from '@supabase/supabase-js';
import type { SupabaseAuthSource, SupabaseBrowser, SupabasePopup, SupabaseProviderOptions } from './types.ts';

const currentWindow = (): Window | null => (typeof window === 'undefined' ? null : window);

/** An empty, centred popup of this size, opened synchronously; `null` when blocked or outside a browser. */
function openWindowPopup({ width, height }: { width: number; height: number }): SupabasePopup | null {
  const w = currentWindow();
  if (!w) return null;
  const left = Math.max(0, w.screenX + (w.outerWidth - width) / 2);
  const top = Math.max(0, w.screenY + (w.outerHeight - height) / 2);
  const popup = w.open(
    '',
    'doorway-supabase',
    `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
  );
  if (!popup) return null;
  return {
    get closed() {
      return popup.closed;
    },
    navigate: (url) => popup.location.assign(url),
    currentUrl() {
      try {
        const href = popup.location.href;
        return href === 'about:blank' ? null : href;
      } catch {
        return null; // still on the IdP: cross-origin
      }
    },
    close: () => popup.close(),
  };
}

/** The browser bits of the current window (inert outside a browser). */
export function windowBrowser(): SupabaseBrowser {
  return {
    openPopup: openWindowPopup,
    navigate: (url) => currentWindow()?.location.assign(url),
    currentUrl: () => currentWindow()?.location.href ?? null,
    replaceUrl: (url) => currentWindow()?.history.replaceState(currentWindow()?.history.state, '', url),
  };
}

/** Where emailed links land by default: `<origin>/__/auth/action` in a browser, else nowhere. */
export function defaultActionUrl(): string | undefined {
  return typeof window === 'undefined' ? undefined : new URL('/__/auth/action', window.location.origin).href;
}

/** The auth client the options name, or one made from the project URL and anon key. */
export function clientFrom(options: SupabaseProviderOptions): SupabaseAuthSource {
  if ('client' in options) return options.client;
  const browser = typeof window !== 'undefined';
  const base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
  // What createClient does for `client.auth`, without the database and realtime clients.
  const auth = new GoTrueClient({
    storageKey: `sb-${base.hostname.split('.')[0]}-auth-token`,
    persistSession: browser,
    autoRefreshToken: browser,
    ...options.auth,
    // Passkeys are experimental in supabase-js: off unless the client says so (settings.passkeys decides).
    experimental: { passkey: true, ...options.auth?.experimental },
    detectSessionInUrl: false,
    url: new URL('auth/v1', base).href,
    headers: { Authorization: `Bearer ${options.anonKey}`, apikey: options.anonKey },
  });
  return { auth };
}
