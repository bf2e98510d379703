/**
 * The browser side of the host's identity provider (`DOORWAY_PROVIDER`), as the login widget needs it.
 * The provider's SDK is a lazy chunk (`firebase.client.ts` or `supabase.client.ts`), loaded by the widget
 * on the pages that show it, never on the server or in the first paint.
 * @module
 */
import { type ErrorCode, isErrorCode } from '@doorway/auth-core';
import { methodOf } from '@doorway/auth-core/first-card';
import type { HostAuth } from './browser-auth.ts';
import type { PublicConfig } from './public-config.ts';

export type { HostAuth } from './browser-auth.ts';

/** Loads the configured provider's SDK and its Doorway provider. */
export function loadHostAuth(config: PublicConfig): Promise<HostAuth> {
  return config.provider === 'supabase'
    ? import('./supabase.client.ts').then((m) => m.loadSupabaseAuth(config))
    : import('./firebase.client.ts').then((m) => m.loadFirebaseAuth(config));
}

/**
 * Exchanges the signed-in user's token for the server's session cookie (`POST /session`), with the option
 * of the sign-in (`providerId`: `password` is the `email` option) for the server's "Last used" cookie.
 * Resolves `null` when the server accepted the token, else the catalogue code to show: the one the server
 * answered (`too-many-requests` for its throttle's 429, `requires-recent-login`…), or `generic`.
 */
export async function startServerSession(
  auth: HostAuth | null,
  providerId?: string,
): Promise<ErrorCode | null> {
  if (auth === null) return 'generic';
  try {
    const idToken = await auth.sessionToken();
    if (idToken === null) return 'generic';
    const method = providerId === undefined ? undefined : methodOf(providerId);
    const response = await fetch('/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken, method }),
    });
    if (response.ok) return null;
    const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
    const code = body?.code;
    if (isErrorCode(code)) return code;
    return response.status === 429 ? 'too-many-requests' : 'generic';
  } catch {
    return 'generic';
  }
}
