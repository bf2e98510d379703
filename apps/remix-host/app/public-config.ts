/**
 * What the browser may know of the host's configuration (sent by the root loader), and the widget
 * configuration built from it. Shared by server and client code; nothing here is secret.
 * @module
 */
import type { SignInOptionInput, TenantInput, WidgetConfigInput } from '@doorway/auth-core';

/** Where the action-code route lives; also the continue URL of emailed sign-in links. */
export const ACTION_PATH = '/action';
/** Where the account page's card runs second-factor operations on the server (Supabase). */
export const ACCOUNT_FACTORS_PATH = '/account/second-factors';
/** Where the account page's passkeys are listed, added and removed on the server (Supabase). */
export const ACCOUNT_PASSKEYS_PATH = '/account/passkeys';

/** The Firebase web app settings the browser needs. None of them is a secret. */
export interface FirebaseWebConfig {
  apiKey: string;
  projectId: string;
  authDomain: string;
}

/**
 * The Supabase project the browser talks to. The anon (publishable) key is public by Supabase's design: it
 * goes to every browser, row-level security and GoTrue's own checks protect the data.
 */
export interface SupabaseWebConfig {
  url: string;
  anonKey: string;
}

/** The identity providers the host runs on (`DOORWAY_PROVIDER`). */
export type HostProviderName = 'firebase' | 'supabase';

/** The part of the host configuration the browser gets through the root loader. */
export interface PublicConfig {
  provider: HostProviderName;
  /** Firebase web app settings; `null` on Supabase. */
  firebase: FirebaseWebConfig | null;
  /** The Supabase project; `null` on Firebase. */
  supabase: SupabaseWebConfig | null;
  /** `http://host:port` of the Firebase Auth emulator, or `null`. */
  emulatorUrl: string | null;
  emailEnumerationProtection: boolean;
  /** reCAPTCHA of phone sign-in: `normal` (a visible checkbox, as in FirebaseUI) or `invisible`. */
  recaptchaSize: 'normal' | 'compact' | 'invisible';
  /** Federated provider ids among the sign-in options (what the provider must enable). */
  federatedProviders: readonly string[];
  signInOptions: readonly SignInOptionInput[];
  displayMode: 'optionFirst' | 'identifierFirst';
  tenants: readonly TenantInput[] | null;
  tosUrl: string | null;
  privacyUrl: string | null;
  allowedOrigins: readonly string[];
}

/** The widget configuration for a page (without callbacks, which the browser adds). */
export function widgetConfigInput(
  config: Pick<
    PublicConfig,
    'signInOptions' | 'displayMode' | 'tenants' | 'tosUrl' | 'privacyUrl' | 'allowedOrigins'
  >,
  successUrl: string,
): WidgetConfigInput {
  return {
    signInOptions: config.signInOptions,
    displayMode: config.displayMode,
    ...(config.tenants ? { tenants: config.tenants } : {}),
    signInSuccessUrl: successUrl,
    ...(config.tosUrl ? { tosUrl: config.tosUrl } : {}),
    ...(config.privacyUrl ? { privacyPolicyUrl: config.privacyUrl } : {}),
    allowedOrigins: config.allowedOrigins,
    autoUpgradeAnonymousUsers: true,
  };
}
