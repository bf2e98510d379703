/**
 * The public types of the browser provider: where its client comes from, its settings, and the browser bits
 * it uses (injectable for tests and non-window hosts).
 * @module
 */
import type { AuthProvider, Clock, SecondFactorKind, WebAuthnClient } from '@doorway/auth-core';
import type { GoTrueClient, GoTrueClientOptions, SupabaseClient } from '@supabase/supabase-js';

/** supabase-js auth options (as in `createClient(url, key, { auth })`). */
export type SupabaseAuthOptions = Omit<GoTrueClientOptions, 'url' | 'headers'>;

/** What the provider needs of a Supabase client: its auth client (`SupabaseClient` fits). */
export interface SupabaseAuthSource {
  auth: GoTrueClient;
}

/**
 * Where the provider's Supabase client comes from: an existing client (create it with
 * `detectSessionInUrl: false`, so OAuth returns are left to {@link AuthProvider.getRedirectResult}), or a
 * project URL and anon (publishable) key.
 */
export type SupabaseProviderOptions =
  | { client: SupabaseAuthSource | Pick<SupabaseClient, 'auth'> }
  | {
      url: string;
      anonKey: string;
      /**
       * Auth options. Defaults: `detectSessionInUrl: false`; in a browser `persistSession` and
       * `autoRefreshToken` stay on, elsewhere both are off (memory only). Only the auth client is created
       * (no database or realtime client: supabase-js's realtime needs WebSocket, which Node 20 lacks).
       */
      auth?: SupabaseAuthOptions;
    };

/**
 * A captcha in front of Supabase (hCaptcha or Turnstile, enabled under Authentication → Attack Protection).
 * Supabase renders none itself: wrap the widget the project uses.
 */
export interface SupabaseCaptcha {
  /** Renders the widget into the container the flow passes to `createCaptchaVerifier`. */
  render(container: unknown): Promise<void>;
  /**
   * A token for the next request, or `null` while unsolved. Called before every request Supabase protects
   * (sign-in, sign-up, OTP, recovery, anonymous), sometimes twice per step: return a fresh token each time.
   */
  getToken(): string | null;
  /** Resets the widget. */
  reset(): void;
}

/** A popup window, as the adapter needs it. */
export interface SupabasePopup {
  /** Whether the person (or the page) closed it. */
  readonly closed: boolean;
  /** Points the popup at a URL. */
  navigate(url: string): void;
  /** The popup's URL once it is back on this origin; `null` while it is elsewhere or blank. */
  currentUrl(): string | null;
  /** Closes it. */
  close(): void;
}

/** The browser bits the adapter uses; injectable for tests and non-window hosts. */
export interface SupabaseBrowser {
  /** Opens an empty popup of this size synchronously, or `null` when blocked. */
  openPopup(size: { width: number; height: number }): SupabasePopup | null;
  /** Leaves the page (redirect sign-in). */
  navigate(url: string): void;
  /** The page URL, or `null` outside a browser. */
  currentUrl(): string | null;
  /** Replaces the page URL without navigating (drops OAuth values after a redirect sign-in). */
  replaceUrl(url: string): void;
}

/** Settings of {@link createSupabaseProvider}. */
export interface SupabaseProviderSettings {
  /** Doorway ids of the OAuth providers enabled in the project (`google.com`, `github.com`, …). Default none. */
  federatedProviders?: readonly string[];
  /**
   * Where emailed links land when the flow gives no continue URL (sign-up confirmation, password reset
   * without settings). Default in a browser: `<origin>/__/auth/action`.
   */
  actionUrl?: string;
  /** Where a redirect sign-in comes back to (must be in the redirect allow list). Default: the current page. */
  oauthRedirectUrl?: string;
  /** Same-origin page a popup sign-in comes back to; a blank page is best. Default: `oauthRedirectUrl`. */
  popupRedirectUrl?: string;
  /** Whether email-link sign-in may create accounts (`shouldCreateUser`). Default `true`. */
  emailLinkSignUp?: boolean;
  /** Whether phone sign-in may create accounts. Default `true`. */
  phoneSignUp?: boolean;
  /** Whether phone sign-in is offered (an SMS provider is configured). Default `true`. */
  phone?: boolean;
  /** The project's captcha; turns `capabilities.captcha` on. */
  captcha?: SupabaseCaptcha;
  /**
   * The second factors the project offers (Auth → Multi-Factor): `capabilities.secondFactors`. Default
   * `['totp', 'phone']`; leave `phone` out unless phone MFA is enabled (GoTrue ships it off) and an SMS
   * provider is configured, and pass `[]` when the project has MFA off.
   */
  secondFactors?: readonly SecondFactorKind[];
  /**
   * Passkeys (`capabilities.passkeys`, `provider.passkeys`): turn on once the project has them on (GoTrue's
   * `GOTRUE_PASSKEY_ENABLED` and `GOTRUE_WEBAUTHN_RP_*`; off as GoTrue ships). Experimental in supabase-js:
   * a client the app passes in needs `auth: { experimental: { passkey: true } }`, else passkeys stay off.
   * Default `false`.
   */
  passkeys?: boolean;
  /**
   * Where passkey ceremonies run. Default: the browser's `navigator.credentials` (through
   * `@simplewebauthn/browser`, loaded on first use); tests pass a software authenticator.
   */
  webAuthn?: { client?: WebAuthnClient };
  /**
   * Whether the project confirms an email change at both addresses (GoTrue's
   * `GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED`, on as GoTrue ships): what `account.changeEmail` answers in
   * `confirmBy`. With "Confirm email" off (`GOTRUE_MAILER_AUTOCONFIRM`) GoTrue takes one confirmation even
   * then: pass `false`. Default `true`.
   */
  secureEmailChange?: boolean;
  /** The issuer an authenticator app lists new TOTP factors under. Default GoTrue's: the Site URL's host. */
  totpIssuer?: string;
  /** The project's SMS OTP lifetime (Auth → Providers → Phone). Default 60 s, GoTrue's default. */
  smsCodeLifetimeSeconds?: number;
  /** How close an account's creation and first sign-in must be to count as new (OAuth). Default 1000 ms. */
  newUserWindowMs?: number;
  /** Overrides of the browser bits (popup, navigation, page URL). */
  browser?: Partial<SupabaseBrowser>;
  /** How often a popup is checked, in ms. Default 250. */
  popupPollIntervalMs?: number;
  /** Timers and time (SMS code age, popup polling). Default: the system clock. */
  clock?: Clock;
}

/** The Supabase provider: an {@link AuthProvider} plus its client and lifecycle. */
export interface SupabaseProvider extends AuthProvider {
  /** The Supabase client (or auth client) the provider uses. */
  readonly client: SupabaseAuthSource;
  /** Resolves once a persisted session (if any) is loaded; `getCurrentUser` is accurate from then on. */
  readonly ready: Promise<void>;
  /** Stops listening to the client's auth events. */
  dispose(): void;
}
