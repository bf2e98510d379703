/**
 * The browser's Firebase: the host owns the `Auth` instance and hands it to the Doorway provider. Loaded
 * as a lazy chunk by the login widget, so the SDK never enters the server bundle or the first paint.
 * @module
 */
import { createFirebaseProvider, type FirebaseProvider } from '@doorway/adapter-firebase';
import { AuthError, providerName } from '@doorway/auth-core';
import { getApps, initializeApp } from 'firebase/app';
import { getAuth, signInWithCustomToken } from 'firebase/auth';
import type { HostAuth } from './browser-auth.ts';
import { withEnumerationProtection } from './enumeration.ts';
import { PASSKEYS_PATH } from './passkeys-path.ts';
import type { PublicConfig } from './public-config.ts';

const APP_NAME = 'doorway-host';

/**
 * On the Auth emulator only: a federated sign-in takes the identity as JSON claims from a prompt and
 * signs in (or links) with `GoogleAuthProvider.credential(claims)`-style credentials, which the emulator
 * accepts. The SDK's popup and redirect need apis.google.com, which is out of reach offline; a real
 * project never gets this path (it would refuse such unsigned tokens anyway).
 */
function withEmulatorIdentities(provider: FirebaseProvider): FirebaseProvider {
  return {
    ...provider,
    async signInWithFederated(providerId, options) {
      const example = JSON.stringify({
        sub: `${providerId}-user-1`,
        email: 'user@example.com',
        email_verified: true,
      });
      const answer = window.prompt(
        `Auth emulator: the ${providerName(providerId)} identity to sign in with, as JSON claims`,
        example,
      );
      if (answer === null) throw new AuthError('user-cancelled');
      let claims: unknown;
      try {
        claims = JSON.parse(answer);
      } catch {
        throw new AuthError('user-cancelled');
      }
      if (
        typeof claims !== 'object' ||
        claims === null ||
        typeof (claims as { sub?: unknown }).sub !== 'string'
      ) {
        throw new AuthError('user-cancelled');
      }
      const credential = { kind: 'federated', providerId, idToken: answer } as const;
      return options.link
        ? provider.linkWithCredential(credential)
        : provider.signInWithCredential(credential);
    },
  };
}

/** Whether a page's hostname is an IP address (`127.0.0.1`, `[::1]`). */
const onIpAddress = (hostname: string) => /^[\d.]+$/.test(hostname) || hostname.startsWith('[');

let pending: Promise<FirebaseProvider> | null = null;

/**
 * The Doorway provider on this page's Firebase `Auth`, once the SDK has restored any signed-in user
 * (so the widget starts knowing about an anonymous user to upgrade).
 */
export function loadFirebaseProvider(config: PublicConfig): Promise<FirebaseProvider> {
  pending ??= (async () => {
    if (config.firebase === null) throw new Error('remix-host: no Firebase configuration');
    const app = getApps().find((a) => a.name === APP_NAME) ?? initializeApp(config.firebase, APP_NAME);
    const auth = getAuth(app);
    const provider = createFirebaseProvider({
      auth,
      ...(config.emulatorUrl === null ? {} : { emulatorUrl: config.emulatorUrl }),
      emailEnumerationProtection: config.emailEnumerationProtection,
      federatedProviders: config.federatedProviders,
      recaptcha: { size: config.recaptchaSize },
      // The host's passkey server (`routes/passkeys.$.ts`): a passkey sign-in ends in a custom token.
      // WebAuthn takes no IP address as relying party: a page on one offers no passkeys.
      ...(onIpAddress(window.location.hostname) ? {} : { passkeys: { endpoint: PASSKEYS_PATH } }),
    });
    await auth.authStateReady();
    return config.emulatorUrl === null ? provider : withEmulatorIdentities(provider);
  })();
  return pending;
}

/**
 * The Firebase provider as the login widget needs it: the provider and the user's ID token. With
 * `DOORWAY_EMAIL_ENUMERATION_PROTECTION` on, an unknown address reads as a wrong password and gets "Check
 * your email", as on the form path, even when the project's own protection is off.
 */
export async function loadFirebaseAuth(config: PublicConfig): Promise<HostAuth> {
  const provider = await loadFirebaseProvider(config);
  return {
    provider: config.emailEnumerationProtection ? withEnumerationProtection(provider) : provider,
    sessionToken: async () => (await provider.auth.currentUser?.getIdToken()) ?? null,
  };
}

/**
 * Where "Sign in again" leads when the session's own sign-in is too old to hand the SDK a token (or there
 * is no session any more): the sign-in page, back to the account page after.
 */
export const SIGN_IN_AGAIN_URL = '/login?signInSuccessUrl=%2Faccount';

/**
 * Signs this page's SDK in as `uid`, the session's user, with a custom token from
 * `POST /account/browser-sign-in` (same origin, the session cookie). Always asks when `force` (to sign in
 * again for a sensitive change); else only when the SDK has nobody or another user (a sign-in made on the
 * server path). The server hands out a token only within a few minutes of the session's sign-in: past
 * them it answers 401, which rejects `requires-recent-login`, and with `force` (the person pressed "Sign in
 * again") sends the page to the sign-in page instead, where they sign in anew. Rejects when the server
 * refuses otherwise.
 */
export async function signInFirebaseAs(
  config: PublicConfig,
  uid: string,
  force = false,
): Promise<FirebaseProvider> {
  const provider = await loadFirebaseProvider(config);
  if (!force && provider.auth.currentUser?.uid === uid) return provider;
  const response = await fetch('/account/browser-sign-in', { method: 'POST', credentials: 'same-origin' });
  if (response.status === 401 && force) {
    window.location.assign(SIGN_IN_AGAIN_URL);
    // The page is leaving: the operation stays pending until it has.
    return new Promise<never>(() => undefined);
  }
  if (!response.ok) throw new AuthError(response.status === 401 ? 'requires-recent-login' : 'generic');
  const { token } = (await response.json()) as { token: string };
  await signInWithCustomToken(provider.auth, token);
  return provider;
}
