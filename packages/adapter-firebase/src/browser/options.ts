/**
 * The options of the browser provider ({@link createFirebaseProvider}), apart from the flows that read them.
 * @module
 */
import type { SecondFactorKind, WebAuthnClient } from '@doorway/auth-core';
import type { FirebaseApp, FirebaseOptions } from 'firebase/app';
import type { Auth } from 'firebase/auth';

/** Where the provider gets its Firebase Auth instance from: exactly one of `auth`, `app` or `config`. */
export type FirebaseProviderSource =
  /** An Auth instance the host created (e.g. with `initializeAuth` and its own persistence). */
  | { auth: Auth; app?: never; config?: never }
  /** A Firebase app; the provider uses `getAuth(app)`. */
  | { app: FirebaseApp; auth?: never; config?: never }
  /** Web app config; the provider calls `initializeApp(config, appName)` (idempotent for equal config). */
  | { config: FirebaseOptions; appName?: string; auth?: never; app?: never };

/** reCAPTCHA widget parameters for phone sign-in (Firebase's `RecaptchaParameters`, typed). */
export interface RecaptchaOptions {
  /** `normal` (default, a visible checkbox as in FirebaseUI), `compact` or `invisible`. */
  size?: 'normal' | 'compact' | 'invisible';
  theme?: 'light' | 'dark';
  /** Badge position of an invisible reCAPTCHA. */
  badge?: 'bottomright' | 'bottomleft' | 'inline';
}

/**
 * Where the app's passkey server is mounted (`createPasskeyServer` of `@doorway/adapter-firebase/server`):
 * Firebase has no passkeys of its own, so the ceremony is verified there and the user signed in with the
 * custom token it mints.
 */
export interface FirebasePasskeySettings {
  /** The server's mount point: a path on this origin (`/passkeys`) or a URL. */
  endpoint: string;
  /** The `fetch` the calls to it go through. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Runs the WebAuthn ceremonies. Default: the browser's `navigator.credentials` with WebAuthn Level 3's
   * JSON methods (where a browser lacks them, passkeys reject `passkeys-unsupported`); tests pass a
   * software authenticator (`@doorway/testing/soft-authenticator`).
   */
  webAuthnClient?: WebAuthnClient;
}

/** Settings of {@link createFirebaseProvider}. */
export interface FirebaseProviderSettings {
  /**
   * Auth emulator URL, e.g. `http://127.0.0.1:9099`. Connected once, before the first call; ignored when
   * the Auth instance is already connected to an emulator.
   */
  emulatorUrl?: string;
  /**
   * Whether the Firebase project has email enumeration protection on. Default **`true`**: Firebase turns
   * it on for every project created since September 2023, and then `fetchSignInMethodsForEmail` always
   * resolves `[]` and an unknown email fails like a wrong password. With `true` the provider declares
   * `reliableSignInMethodLookup: false` and the flow uses the combined sign-in card. Set `false` only
   * when the project has protection off (the Auth emulator's default).
   */
  emailEnumerationProtection?: boolean;
  /** Federated provider ids enabled in the project (`google.com`, `github.com`, `oidc.…`, `saml.…`). */
  federatedProviders?: readonly string[];
  /** reCAPTCHA parameters for {@link AuthProvider.createCaptchaVerifier}. */
  recaptcha?: RecaptchaOptions;
  /**
   * Language of Firebase's emails, SMS and reCAPTCHA. Default `'en'`: the widget language is forced to
   * English (spec §1). `null` leaves `auth.languageCode` as the host set it.
   */
  languageCode?: string | null;
  /**
   * The second factors the project has enabled (`capabilities.secondFactors`). Default `['phone', 'totp']`;
   * `[]` declares none. The Auth emulator has SMS second factors only (it refuses TOTP enrolment).
   */
  secondFactors?: readonly SecondFactorKind[];
  /** The issuer an authenticator app shows for a TOTP enrolment. Default: the project id, else the app name. */
  totpIssuer?: string;
  /**
   * Passkeys through the app's passkey server: with it, `capabilities.passkeys` is `true` and
   * `provider.passkeys` is there. Absent: no passkeys.
   */
  passkeys?: FirebasePasskeySettings;
}

/** Options of {@link createFirebaseProvider}. */
export type FirebaseProviderOptions = FirebaseProviderSource & FirebaseProviderSettings;
