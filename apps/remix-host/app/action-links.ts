/**
 * Where emailed reset links land, for browser and server alike.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';
import { ACTION_PATH } from './public-config.ts';

/**
 * Supabase's emailed link lands on the URL it is given, where Firebase's lands on the project's action
 * handler (this host's `/action`) with the URL as `continueUrl`. This sends Supabase's reset links to the
 * action route the same way, so they are handled on the server (and without JavaScript) as on Firebase.
 */
export function resetLinksToActionRoute<P extends Pick<AuthProvider, 'sendPasswordResetEmail'>>(
  provider: P,
  origin: string,
): P {
  return {
    ...provider,
    sendPasswordResetEmail(email, settings) {
      const target = new URL(ACTION_PATH, origin);
      if (settings?.url) target.searchParams.set('continueUrl', settings.url);
      return provider.sendPasswordResetEmail(email, { ...settings, url: target.href });
    },
  };
}
