/**
 * The fake's settings: its public constants and the options of `createFakeProvider` resolved once, with
 * their defaults.
 * @module
 */
import {
  ACCOUNT_OPERATIONS,
  ACTION_MODES,
  type ProviderCapabilities,
  type WebAuthnClient,
} from '@doorway/auth-core';
import { createBrowserWebAuthnClient } from './browser/webauthn.ts';
import type { FakeClock, FakeFaults, FakeProviderOptions, FakeStorage } from './types.ts';
import { createMemoryStorage } from './util.ts';

/** Default lifetime of emailed action codes: 1 hour. */
export const DEFAULT_ACTION_CODE_TTL_MS = 60 * 60 * 1000;
/** Default lifetime of SMS codes: 5 minutes. */
export const DEFAULT_SMS_CODE_TTL_MS = 5 * 60 * 1000;
/**
 * How long a sign-in waits for its second factor: 5 minutes after the first factor, `finishSignIn` (and
 * `startSignIn`) reject `code-expired`.
 */
export const SECOND_FACTOR_SIGN_IN_TTL_MS = 5 * 60 * 1000;
/**
 * How long a passkey ceremony's challenge lives: 5 minutes after the options were made, the answer is
 * refused with `session-expired`.
 */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Federated providers of a fake created without `federatedProviders`. */
export const DEFAULT_FEDERATED_PROVIDERS: readonly string[] = ['google.com', 'github.com'];
/** Storage key of a pending redirect sign-in. */
export const REDIRECT_STORAGE_KEY = 'doorway-fake:redirect';
/** Base of the fake IdP's URL handed to `navigate` on a redirect sign-in. */
export const FAKE_IDP_URL = 'https://idp.fake.doorway.invalid/authorize';

const DEFAULT_FAULTS: FakeFaults = {
  network: false,
  rateLimit: false,
  signUpDisabled: false,
  enumerationProtection: false,
  latencyMs: 0,
};

/** The relying party passkeys belong to, and the client that runs the ceremonies. */
export interface FakeWebAuthnConfig {
  readonly client: WebAuthnClient;
  readonly rpId: string;
  readonly rpName: string;
  /** The origin assertions and registrations must come from. */
  readonly origin: string;
  readonly challengeTtl: number;
}

/** The options of a fake with their defaults filled in; fixed for the provider's life. */
export interface FakeConfig {
  readonly clock: FakeClock;
  readonly actionCodeTtl: number;
  readonly smsCodeTtl: number;
  /** Where links point when no continue URL is given. */
  readonly actionUrl: string;
  readonly storage: FakeStorage;
  readonly sleep: (ms: number) => Promise<void>;
  /** The switches `faults.reset()` and `reset()` go back to. */
  readonly initialFaults: Readonly<FakeFaults>;
  readonly webAuthn: FakeWebAuthnConfig;
  /** The capabilities before enumeration protection is applied. */
  readonly baseCapabilities: ProviderCapabilities;
  /** The options as given, for the ones read at call time (`idp`, `navigate`, `tenants`, …). */
  readonly options: FakeProviderOptions;
}

/** The page's location, where there is one (a browser). */
function pageLocation(): { hostname: string; origin: string } | undefined {
  const location: unknown = (globalThis as { location?: unknown }).location;
  if (typeof location !== 'object' || location === null) return undefined;
  const { hostname, origin } = location as { hostname?: unknown; origin?: unknown };
  return typeof hostname === 'string' && typeof origin === 'string' ? { hostname, origin } : undefined;
}

/** The `webAuthn` options with their defaults: the page's host and origin, else `localhost`. */
function webAuthnConfig(options: FakeProviderOptions): FakeWebAuthnConfig {
  const given = options.webAuthn ?? {};
  const page = pageLocation();
  return {
    client: given.client ?? createBrowserWebAuthnClient(),
    rpId: given.rpId ?? page?.hostname ?? 'localhost',
    rpName: given.rpName ?? 'Doorway',
    origin: given.origin ?? page?.origin ?? 'http://localhost',
    challengeTtl: given.challengeTtlMs ?? PASSKEY_CHALLENGE_TTL_MS,
  };
}

/** Resolves `options` against the defaults. */
export function createConfig(options: FakeProviderOptions): FakeConfig {
  return {
    clock: options.clock ?? { now: () => Date.now() },
    actionCodeTtl: options.actionCodeTtlMs ?? DEFAULT_ACTION_CODE_TTL_MS,
    smsCodeTtl: options.smsCodeTtlMs ?? DEFAULT_SMS_CODE_TTL_MS,
    actionUrl: options.actionUrl ?? 'http://localhost/__/auth/action',
    storage: options.storage ?? createMemoryStorage(),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    initialFaults: { ...DEFAULT_FAULTS, ...options.faults },
    webAuthn: webAuthnConfig(options),
    baseCapabilities: {
      password: true,
      emailLink: true,
      phone: true,
      anonymous: true,
      federated: [...(options.federatedProviders ?? DEFAULT_FEDERATED_PROVIDERS)],
      popup: true,
      redirect: true,
      tenants: true,
      reliableSignInMethodLookup: true,
      actionCodes: [...ACTION_MODES],
      captcha: true,
      secondFactors: ['phone', 'totp'],
      passkeys: true,
      account: [...ACCOUNT_OPERATIONS],
      ...options.capabilities,
    },
    options,
  };
}
