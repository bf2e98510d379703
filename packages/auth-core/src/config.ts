/**
 * Widget configuration (spec §1): sign-in options, tenants, success URL, terms-of-service and privacy-policy
 * URLs, callbacks and display mode. {@link normalizeConfig} validates it once and fails fast with a
 * message naming the bad option.
 * @module
 */
import type { ErrorInfo } from './errors.ts';
import { firebaseUiHint } from './firebaseuiNames.ts';
import type { AuthCredential, SignInResult } from './provider.ts';
import { isSafeRedirectUrl } from './redirect.ts';

/** The email option: password or email link, with sign-up rules. */
export interface EmailOptionInput {
  provider: 'email';
  /** `password` (default) or `emailLink`. */
  signInMethod?: 'password' | 'emailLink';
  /** Ask for a name on sign-up (default `true`). */
  requireDisplayName?: boolean;
  /** Sign-up is restricted: unknown emails get the unauthorized-user card. */
  disableSignUp?: boolean | { adminEmail?: string; helpLink?: string };
  /** Email link must be opened on the device that asked for it. */
  forceSameDevice?: boolean;
  /** URL the email link opens (default: the page the widget is on). */
  emailLinkUrl?: string;
}

/** The phone option. */
export interface PhoneOptionInput {
  provider: 'phone';
  /** ISO 3166-1 alpha-2 country selected first (default `US`). */
  defaultCountry?: string;
  /** Only these countries may be chosen (ISO alpha-2). */
  allowedCountries?: readonly string[];
  /** These countries may not be chosen (ISO alpha-2). */
  blockedCountries?: readonly string[];
  /** Prefilled phone number. */
  loginHint?: string;
}

/** A federated identity provider, e.g. `google.com`. */
export interface FederatedOptionInput {
  provider: string;
  /** Button label name (default: derived from the id, e.g. "Google"). */
  name?: string;
  scopes?: readonly string[];
  customParameters?: Readonly<Record<string, string>>;
  /** The button's whole label, also its accessible name (default: "Sign in with {name}"). */
  label?: string;
  /**
   * The button's icon: an http(s) URL, a path or a `data:image/…` URL (default: the provider's mark for the
   * built-in providers, a generic sign-in mark for others).
   */
  iconUrl?: string;
  /** The button's background colour, a CSS colour (`#0a66c2`, `rgb(…)`, a named colour). */
  buttonColor?: string;
  /** The button's text and border colour, a CSS colour; pick one with enough contrast on `buttonColor`. */
  textColor?: string;
}

/** One sign-in option; a bare string is shorthand for `{ provider }`. */
export type SignInOptionInput =
  | 'email'
  | 'phone'
  | 'anonymous'
  | 'passkey'
  | (string & {})
  | EmailOptionInput
  | PhoneOptionInput
  | { provider: 'anonymous' }
  | { provider: 'passkey' }
  | FederatedOptionInput;

/** A tenant the person can sign in to. */
export interface TenantInput {
  /** Tenant id, or `null` for the project-level (default) tenant. */
  id: string | null;
  /** Name on the tenant button. */
  displayName: string;
  /** Identifier-first: emails in these domains belong to this tenant (`acme.com`). */
  emailDomains?: readonly string[];
  /** This tenant's options (default: the top-level `signInOptions`). */
  signInOptions?: readonly SignInOptionInput[];
}

/** Callbacks, as in FirebaseUI. */
export interface WidgetCallbacks {
  /**
   * Called after a sign-in. Return `false` to stay on the page instead of redirecting to `redirectUrl`.
   * @example signInSuccess: (result) => { saveSession(result.user); return false; }
   */
  signInSuccess?: (
    result: SignInResult,
    redirectUrl: string | null,
  ) => boolean | undefined | Promise<boolean | undefined>;
  /**
   * Called when a sign-in fails in a way the app must resolve, notably an anonymous upgrade whose target
   * account exists (`anonymous-upgrade-merge-conflict`, with the pending `credential`).
   */
  signInFailure?: (error: ErrorInfo & { credential?: AuthCredential }) => void | Promise<void>;
  /** Called once when the first interactive card is shown. */
  uiShown?: () => void;
}

/** What an app passes to the widget. */
export interface WidgetConfigInput {
  signInOptions: readonly SignInOptionInput[];
  /** `optionFirst` (default): choose a tenant / option first. `identifierFirst`: email first. */
  displayMode?: 'optionFirst' | 'identifierFirst';
  tenants?: readonly TenantInput[];
  /** Where to go after sign-in; passes through `safeRedirect`. */
  signInSuccessUrl?: string;
  tosUrl?: string;
  privacyPolicyUrl?: string;
  /** Federated sign-in in a `popup` (default) or by `redirect`. */
  signInFlow?: 'popup' | 'redirect';
  /** Link instead of sign in when the current user is anonymous. */
  autoUpgradeAnonymousUsers?: boolean;
  /** Absolute origins besides the page's own that redirects may go to (`https://app.example.com`). */
  allowedOrigins?: readonly string[];
  /**
   * `auto` (default): light or dark as the person's system says (`prefers-color-scheme`); `light` or `dark`
   * for a host with its own theme switch.
   */
  theme?: 'light' | 'dark' | 'auto';
  /**
   * Mark the method this browser last signed in with on the chooser ("Last used"; default `true`). Only the
   * method's id is kept (e.g. `github.com`), never an email or a token; `false` also forgets it.
   */
  showLastUsed?: boolean;
  callbacks?: WidgetCallbacks;
}

/** Normalised email option. */
export interface EmailOption {
  provider: 'email';
  signInMethod: 'password' | 'emailLink';
  requireDisplayName: boolean;
  disableSignUp: boolean;
  adminEmail: string | null;
  helpLink: string | null;
  forceSameDevice: boolean;
  emailLinkUrl: string | null;
}
/** Normalised phone option. */
export interface PhoneOption {
  provider: 'phone';
  defaultCountry: string;
  allowedCountries: readonly string[] | null;
  blockedCountries: readonly string[];
  loginHint: string | null;
}
/** Normalised federated option. */
export interface FederatedOption {
  provider: 'federated';
  providerId: string;
  name: string;
  scopes: readonly string[];
  customParameters: Readonly<Record<string, string>>;
  /** The button's own label, icon and colours, when configured. */
  label: string | null;
  iconUrl: string | null;
  buttonColor: string | null;
  textColor: string | null;
}
/** Normalised anonymous option. */
export interface AnonymousOption {
  provider: 'anonymous';
}
/**
 * Sign in with a passkey (a discoverable WebAuthn credential): shown where the provider has
 * `capabilities.passkeys` and the browser has WebAuthn, never without scripts.
 */
export interface PasskeyOption {
  provider: 'passkey';
}
/** One normalised option. */
export type SignInOption = EmailOption | PhoneOption | FederatedOption | AnonymousOption | PasskeyOption;

/** A normalised tenant. */
export interface Tenant {
  id: string | null;
  displayName: string;
  emailDomains: readonly string[];
  signInOptions: readonly SignInOption[];
}

/** The configuration the engine works with; produced only by {@link normalizeConfig}. */
export interface WidgetConfig {
  signInOptions: readonly SignInOption[];
  displayMode: 'optionFirst' | 'identifierFirst';
  tenants: readonly Tenant[] | null;
  signInSuccessUrl: string | null;
  tosUrl: string | null;
  privacyPolicyUrl: string | null;
  signInFlow: 'popup' | 'redirect';
  autoUpgradeAnonymousUsers: boolean;
  /** The page's origin, always allowed. */
  origin: string;
  /** Origins redirects may go to: the page's origin first, then the configured ones. */
  allowedOrigins: readonly string[];
  theme: 'light' | 'dark' | 'auto';
  showLastUsed: boolean;
  callbacks: WidgetCallbacks;
}

/** Thrown by {@link normalizeConfig}; the message names the option at fault. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly option: string;
  constructor(option: string, problem: string) {
    super(`Doorway config: \`${option}\` ${problem}`);
    this.option = option;
  }
}

/** What to use instead of a FirebaseUI name, in development builds only (production bundles drop the table). */
function hintFor(key: string): string {
  try {
    if (process.env.NODE_ENV !== 'production') return firebaseUiHint(key);
  } catch {
    // No bundler replaced `process.env.NODE_ENV`, and this runtime has no `process`.
  }
  return '';
}

/** Keys of normalised objects that are not options. */
const NOT_INPUT = /^(origin|providerId|adminEmail|helpLink)$/;

/**
 * Returns `out`, the normalised form of `input`, after refusing a key of `input` that `out` does not have
 * (the options are the normalised object's keys), naming it with its path (`at` + key).
 */
function known<T extends object>(input: object, at: string, out: T, notInput = NOT_INPUT): T {
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(out, key) || notInput.test(key)) {
      throw new ConfigError(at + key, `is not an option${hintFor(key)}`);
    }
  }
  return out;
}

/** `value` if it is one of `allowed` (the first when `value` is missing), else a ConfigError naming `option`. */
function oneOf<const T extends string>(value: unknown, option: string, allowed: readonly T[]): T {
  const v = value ?? allowed[0];
  if (!allowed.includes(v as T)) throw new ConfigError(option, `must be "${allowed.join('" or "')}"`);
  return v as T;
}

const KNOWN_NAMES: Readonly<Record<string, string>> = {
  'google.com': 'Google',
  'github.com': 'GitHub',
  'facebook.com': 'Facebook',
  'twitter.com': 'X',
  'microsoft.com': 'Microsoft',
  'apple.com': 'Apple',
  'yahoo.com': 'Yahoo',
};

/** Human name of a federated provider id (`google.com` → `Google`). */
export function providerName(providerId: string): string {
  return KNOWN_NAMES[providerId] ?? providerId.replace(/\.com$/, '').replace(/^\w/, (c) => c.toUpperCase());
}

const COUNTRY = /^[A-Z]{2}$/;

function countries(value: unknown, option: string): string[] {
  if (!Array.isArray(value)) throw new ConfigError(option, 'must be an array');
  return value.map((c, i) => {
    if (typeof c !== 'string' || !COUNTRY.test(c.toUpperCase())) {
      throw new ConfigError(`${option}[${i}]`, 'must be a country code such as "US"');
    }
    return c.toUpperCase();
  });
}

function optionalUrl(value: unknown, option: string, origin: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ConfigError(option, 'must be a non-empty URL string');
  try {
    const url = new URL(value, origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(option, 'must be an http(s) URL or a path');
  }
  return value;
}

const COLOR = /^(#[\da-f]{3,8}|[a-z]+|(rgb|hsl)a?\([\d\s.,%/]+\))$/i;

/** A button colour: a CSS colour, nothing that could end the declaration it is put in. */
function optionalColor(value: unknown, option: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !COLOR.test(value)) {
    throw new ConfigError(option, 'must be a CSS colour such as "#0a66c2"');
  }
  return value;
}

/** A button icon: an http(s) URL, a path or an image data URL, without quotes, brackets or spaces. */
function optionalIcon(value: unknown, option: string, origin: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || /["'()\\\s]/.test(value)) {
    throw new ConfigError(option, 'must be an image URL without quotes, brackets or spaces');
  }
  return value.startsWith('data:image/') ? value : optionalUrl(value, option, origin);
}

/** The option id a sign-in's `providerId` counts as (`password` and `emailLink` are the email option). */
export function methodOf(providerId: string): string {
  return providerId === 'password' || providerId === 'emailLink' ? 'email' : providerId;
}

function normalizeOption(raw: unknown, at: string, origin: string): SignInOption {
  const input = typeof raw === 'string' ? { provider: raw } : raw;
  if (
    typeof input !== 'object' ||
    input === null ||
    typeof (input as { provider?: unknown }).provider !== 'string'
  ) {
    throw new ConfigError(at, 'must be a provider id or an object with a `provider` id');
  }
  const o = input as Record<string, unknown> & { provider: string };
  switch (o.provider) {
    case 'email':
    case 'password': {
      const method = oneOf(o.signInMethod, `${at}.signInMethod`, ['password', 'emailLink']);
      const disable = o.disableSignUp;
      const disableObj =
        typeof disable === 'object' && disable !== null ? (disable as Record<string, unknown>) : null;
      // Its own keys, less those the pattern refuses: all but adminEmail and helpLink.
      if (disableObj) known(disableObj, `${at}.disableSignUp.`, disableObj, /^(?!(adminEmail|helpLink)$)/);
      return known(o, `${at}.`, {
        provider: 'email',
        signInMethod: method,
        requireDisplayName: o.requireDisplayName === undefined ? true : Boolean(o.requireDisplayName),
        disableSignUp: disableObj !== null || disable === true,
        adminEmail: typeof disableObj?.adminEmail === 'string' ? disableObj.adminEmail : null,
        // Rendered as a link: only http(s) URLs and paths, like tosUrl.
        helpLink:
          typeof disableObj?.helpLink === 'string'
            ? optionalUrl(disableObj.helpLink, `${at}.disableSignUp.helpLink`, origin)
            : null,
        forceSameDevice: Boolean(o.forceSameDevice),
        emailLinkUrl: optionalUrl(o.emailLinkUrl, `${at}.emailLinkUrl`, origin),
      });
    }
    case 'emailLink':
      return normalizeOption({ ...o, provider: 'email', signInMethod: 'emailLink' }, at, origin);
    case 'phone': {
      const defaultCountry = typeof o.defaultCountry === 'string' ? o.defaultCountry.toUpperCase() : 'US';
      if (!COUNTRY.test(defaultCountry)) {
        throw new ConfigError(`${at}.defaultCountry`, 'must be a country code such as "US"');
      }
      const allowed =
        o.allowedCountries === undefined ? null : countries(o.allowedCountries, `${at}.allowedCountries`);
      const blocked =
        o.blockedCountries === undefined ? [] : countries(o.blockedCountries, `${at}.blockedCountries`);
      if (allowed && blocked.length > 0) {
        throw new ConfigError(`${at}.blockedCountries`, 'cannot be combined with allowedCountries');
      }
      if (allowed?.length === 0) throw new ConfigError(`${at}.allowedCountries`, 'must not be empty');
      return known(o, `${at}.`, {
        provider: 'phone',
        defaultCountry,
        allowedCountries: allowed,
        blockedCountries: blocked,
        loginHint: typeof o.loginHint === 'string' ? o.loginHint : null,
      });
    }
    case 'anonymous':
    case 'passkey':
      return known(o, `${at}.`, { provider: o.provider });
    default: {
      if (!/^[a-z0-9][a-z0-9.:_-]*$/i.test(o.provider)) {
        throw new ConfigError(`${at}.provider`, `"${o.provider}" is not a provider id`);
      }
      return known(o, `${at}.`, {
        provider: 'federated',
        providerId: o.provider,
        name: typeof o.name === 'string' && o.name !== '' ? o.name : providerName(o.provider),
        scopes: Array.isArray(o.scopes) ? o.scopes.filter((s): s is string => typeof s === 'string') : [],
        customParameters:
          typeof o.customParameters === 'object' && o.customParameters !== null
            ? (o.customParameters as Record<string, string>)
            : {},
        label: typeof o.label === 'string' && o.label !== '' ? o.label : null,
        iconUrl: optionalIcon(o.iconUrl, `${at}.iconUrl`, origin),
        buttonColor: optionalColor(o.buttonColor, `${at}.buttonColor`),
        textColor: optionalColor(o.textColor, `${at}.textColor`),
      });
    }
  }
}

function normalizeOptions(raw: unknown, at: string, origin: string): SignInOption[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new ConfigError(at, 'must be a non-empty array');
  const options = raw.map((o, i) => normalizeOption(o, `${at}[${i}]`, origin));
  const seen = new Set<string>();
  for (const [i, o] of options.entries()) {
    const key = o.provider === 'federated' ? o.providerId : o.provider;
    if (seen.has(key)) throw new ConfigError(`${at}[${i}]`, `repeats the "${key}" option`);
    seen.add(key);
  }
  return options;
}

/**
 * Validates and fills in a widget configuration. Throws {@link ConfigError} naming the option when it is
 * wrong; never returns a half-valid config.
 * @param origin the page's origin (`https://example.com`); redirects are allowed to it and to `allowedOrigins`.
 */
export function normalizeConfig(input: WidgetConfigInput, origin: string): WidgetConfig {
  if (typeof input !== 'object' || input === null) throw new ConfigError('config', 'must be an object');
  let pageOrigin: string;
  try {
    pageOrigin = new URL(origin).origin;
  } catch {
    throw new ConfigError('origin', 'must be an origin such as "https://app.example.com"');
  }
  const signInOptions = normalizeOptions(input.signInOptions, 'signInOptions', pageOrigin);
  const displayMode = oneOf(input.displayMode, 'displayMode', ['optionFirst', 'identifierFirst']);
  if (input.allowedOrigins !== undefined && !Array.isArray(input.allowedOrigins)) {
    throw new ConfigError('allowedOrigins', 'must be an array');
  }
  const allowedOrigins = (input.allowedOrigins ?? []).map((o, i) => {
    try {
      const u = new URL(o);
      if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== o.replace(/\/$/, ''))
        throw new Error();
      return u.origin;
    } catch {
      throw new ConfigError(`allowedOrigins[${i}]`, 'must be an origin such as "https://app.example.com"');
    }
  });
  let tenants: Tenant[] | null = null;
  if (input.tenants !== undefined) {
    if (!Array.isArray(input.tenants) || input.tenants.length === 0) {
      throw new ConfigError('tenants', 'must be a non-empty array');
    }
    const ids = new Set<string | null>();
    tenants = (input.tenants as readonly TenantInput[]).map((t, i) => {
      if (typeof t !== 'object' || t === null) throw new ConfigError(`tenants[${i}]`, 'must be an object');
      if (t.id !== null && (typeof t.id !== 'string' || t.id === '')) {
        throw new ConfigError(`tenants[${i}].id`, 'must be a non-empty string, or null');
      }
      if (ids.has(t.id)) throw new ConfigError(`tenants[${i}].id`, 'repeats another tenant');
      ids.add(t.id);
      if (typeof t.displayName !== 'string' || t.displayName === '') {
        throw new ConfigError(`tenants[${i}].displayName`, 'must be a non-empty string');
      }
      const domains: unknown = t.emailDomains ?? [];
      if (!Array.isArray(domains) || domains.some((d) => typeof d !== 'string')) {
        throw new ConfigError(`tenants[${i}].emailDomains`, 'must be an array of domains');
      }
      return known(t, `tenants[${i}].`, {
        id: t.id,
        displayName: t.displayName,
        emailDomains: (domains as string[]).map((d) => d.toLowerCase().replace(/^@/, '')),
        signInOptions:
          t.signInOptions === undefined
            ? signInOptions
            : normalizeOptions(t.signInOptions, `tenants[${i}].signInOptions`, pageOrigin),
      });
    });
  }
  const signInFlow = oneOf(input.signInFlow, 'signInFlow', ['popup', 'redirect']);
  const signInSuccessUrl = optionalUrl(input.signInSuccessUrl, 'signInSuccessUrl', pageOrigin);
  if (signInSuccessUrl !== null && !isSafeRedirectUrl(signInSuccessUrl, [pageOrigin, ...allowedOrigins])) {
    throw new ConfigError('signInSuccessUrl', 'must be on the page origin or in `allowedOrigins`');
  }
  const theme = oneOf(input.theme, 'theme', ['auto', 'light', 'dark']);
  const callbacks = input.callbacks ?? {};
  // As disableSignUp: any key but the three callbacks is refused.
  known(callbacks, 'callbacks.', callbacks, /^(?!(signInSuccess|signInFailure|uiShown)$)/);
  for (const [name, fn] of Object.entries(callbacks)) {
    if (fn !== undefined && typeof fn !== 'function') {
      throw new ConfigError(`callbacks.${name}`, 'must be a function');
    }
  }
  return known(input, '', {
    signInOptions,
    displayMode,
    tenants,
    signInSuccessUrl,
    tosUrl: optionalUrl(input.tosUrl, 'tosUrl', pageOrigin),
    privacyPolicyUrl: optionalUrl(input.privacyPolicyUrl, 'privacyPolicyUrl', pageOrigin),
    signInFlow,
    autoUpgradeAnonymousUsers: Boolean(input.autoUpgradeAnonymousUsers),
    origin: pageOrigin,
    allowedOrigins: [pageOrigin, ...allowedOrigins.filter((o) => o !== pageOrigin)],
    theme,
    showLastUsed: input.showLastUsed !== false,
    callbacks,
  });
}

/** The options in force for a tenant (the top-level ones when there are no tenants). */
export function optionsFor(
  config: WidgetConfig,
  tenantId: string | null | undefined,
): readonly SignInOption[] {
  if (!config.tenants || tenantId === undefined) return config.signInOptions;
  return config.tenants.find((t) => t.id === tenantId)?.signInOptions ?? config.signInOptions;
}

/** The email option in force, if any. */
export function emailOptionOf(options: readonly SignInOption[]): EmailOption | null {
  return options.find((o): o is EmailOption => o.provider === 'email') ?? null;
}

/** The phone option in force, if any. */
export function phoneOptionOf(options: readonly SignInOption[]): PhoneOption | null {
  return options.find((o): o is PhoneOption => o.provider === 'phone') ?? null;
}

/** Identifier-first: the tenant whose email domains include this email's domain (else the first tenant). */
export function tenantForEmail(config: WidgetConfig, email: string): Tenant | null {
  if (!config.tenants) return null;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return config.tenants.find((t) => t.emailDomains.includes(domain)) ?? config.tenants[0] ?? null;
}
