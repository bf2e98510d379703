/**
 * What a provider's browser chunk (`firebase.client.ts`, `supabase.client.ts`) hands the login widget.
 * Its own module so the chunks and `host-auth.ts`, which loads them, do not import each other.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';

/** The browser's provider, once its SDK has restored any signed-in user. */
export interface HostAuth {
  provider: AuthProvider;
  /** The signed-in user's token for `POST /session` (Firebase ID token, Supabase access token), or `null`. */
  sessionToken(): Promise<string | null>;
}
