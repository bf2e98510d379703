/**
 * The browser's Supabase: Doorway's provider on supabase-js (`@doorway/adapter-supabase`), for
 * `DOORWAY_PROVIDER=supabase`. Loaded as a lazy chunk by the login widget, like the Firebase SDK.
 * @module
 */
import { createSupabaseProvider } from '@doorway/adapter-supabase';
import { resetLinksToActionRoute } from './action-links.ts';
import type { HostAuth } from './browser-auth.ts';
import { ACTION_PATH, type PublicConfig } from './public-config.ts';

let pending: Promise<HostAuth> | null = null;

/**
 * Whether this page may run WebAuthn ceremonies: browsers refuse an IP address as RP id, so a page on one
 * (the host on 127.0.0.1) offers no passkeys, and the widget shows neither the passkey button nor autofill.
 */
function passkeysHere(): boolean {
  const host = window.location.hostname;
  return !(/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('['));
}

/**
 * The Doorway provider on the configured Supabase project, once supabase-js has loaded any persisted
 * session (so the widget starts knowing about an anonymous user to upgrade). Emailed links land on the
 * host's action route. Passkeys sign in here, with GoTrue's passkey session posted to `/session` as any other.
 */
export function loadSupabaseAuth(config: PublicConfig): Promise<HostAuth> {
  pending ??= (async () => {
    if (config.supabase === null) throw new Error('remix-host: no Supabase configuration');
    const supabase = createSupabaseProvider(
      { url: config.supabase.url, anonKey: config.supabase.anonKey },
      {
        federatedProviders: config.federatedProviders,
        actionUrl: new URL(ACTION_PATH, window.location.origin).href,
        // Passkey sign-in (the button and the email field's autofill) on GoTrue's `/passkeys`; the account
        // page manages them on the server (`account-passkeys.client.ts`).
        passkeys: passkeysHere(),
      },
    );
    await supabase.ready;
    const provider = resetLinksToActionRoute(supabase, window.location.origin);
    return {
      provider,
      async sessionToken() {
        // getSession refreshes an expired access token first.
        const { data } = await provider.client.auth.getSession();
        return data.session?.access_token ?? null;
      },
    };
  })();
  return pending;
}
