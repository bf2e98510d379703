/**
 * The host's configuration, read from environment variables in one place and checked once at start-up.
 * {@link parseHostConfig} is pure (it takes the environment as data) so every rule is unit-tested;
 * {@link hostConfig} reads `process.env` once. Only {@link publicConfig} ever reaches the browser.
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  type EmailOptionInput,
  normalizeConfig,
  type SignInOptionInput,
  type TenantInput,
} from '@doorway/auth-core';
import { sealingSecretProblem } from '@doorway/auth-core/server';
import { unverifiedClaims } from './jwt.server.ts';
import {
  ACTION_PATH,
  type FirebaseWebConfig,
  type HostProviderName,
  type PublicConfig,
  type SupabaseWebConfig,
  widgetConfigInput,
} from './public-config.ts';

export type { PublicConfig } from './public-config.ts';

/** The environment, as `process.env` gives it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The default sign-in options (`DOORWAY_SIGN_IN_OPTIONS` unset) on Firebase. */
export const DEFAULT_SIGN_IN_OPTIONS: readonly string[] = [
  'email',
  'phone',
  'google.com',
  'anonymous',
  'passkey',
];

/**
 * The default sign-in options on Supabase: email and password only, what every Supabase project has on
 * (phone needs an SMS provider, OAuth providers and anonymous sign-ins must be enabled in the project;
 * passkeys are experimental in GoTrue and off unless the project turns them on).
 */
export const SUPABASE_DEFAULT_SIGN_IN_OPTIONS: readonly string[] = ['email'];

/**
 * Settings only the Firebase provider has. With `DOORWAY_PROVIDER=supabase` they are refused when set (a
 * setting that silently does nothing is worse than a start-up error): Supabase Auth has no tenants, no
 * reCAPTCHA of its own and no sign-in-method lookup to protect. `FIREBASE_*` variables are ignored there
 * instead: they name their provider, and the scripts set them for every run.
 */
export const FIREBASE_ONLY_VARIABLES: readonly string[] = [
  'DOORWAY_TENANTS',
  'DOORWAY_RECAPTCHA',
  'DOORWAY_EMAIL_ENUMERATION_PROTECTION',
  // Supabase's passkeys are GoTrue's, on the relying party configured there.
  'DOORWAY_PASSKEY_RP_ID',
  'DOORWAY_PASSKEY_RP_NAME',
];

/** Everything the host reads from its environment. */
export interface HostConfig {
  /** The identity provider behind the widget (`DOORWAY_PROVIDER`, default `firebase`). */
  provider: HostProviderName;
  /** The Firebase web app; `null` on Supabase. */
  firebase: FirebaseWebConfig | null;
  /** The Supabase project (`DOORWAY_SUPABASE_URL`, `DOORWAY_SUPABASE_ANON_KEY`); `null` on Firebase. */
  supabase: SupabaseWebConfig | null;
  /**
   * The Supabase project's service-role key (`DOORWAY_SUPABASE_SERVICE_ROLE_KEY`, optional), kept on the
   * server: the account page deletes accounts with it (GoTrue's admin API). `null`: no deletion offered.
   */
  supabaseServiceRoleKey: string | null;
  /**
   * `host:port` of the Firebase Auth emulator, or `null` for a real project (and on Supabase). Only ever
   * set for a `demo-…` project: firebase-admin skips token signature checks on the emulator.
   */
  emulatorHost: string | null;
  /** Whether the project has email enumeration protection on (default: on, except on the emulator). */
  emailEnumerationProtection: boolean;
  /** reCAPTCHA of phone sign-in: `normal` (default, FirebaseUI's visible checkbox), `compact` or `invisible`. */
  recaptchaSize: 'normal' | 'compact' | 'invisible';
  /**
   * The relying party id of the Firebase passkey server (`DOORWAY_PASSKEY_RP_ID`: a domain name, never an
   * IP address); `null`: the hostname of each request (passkeys are then unavailable on an IP address).
   */
  passkeyRpId: string | null;
  /** The name authenticators show for the relying party (`DOORWAY_PASSKEY_RP_NAME`, default `Doorway`). */
  passkeyRpName: string;
  /** The widget's sign-in options; email options get {@link ACTION_PATH} as their link URL. */
  signInOptions: readonly SignInOptionInput[];
  displayMode: 'optionFirst' | 'identifierFirst';
  tenants: readonly TenantInput[] | null;
  /** Where to go after sign-in when the page does not ask for a (safe) `signInSuccessUrl`. */
  successUrl: string;
  tosUrl: string | null;
  privacyUrl: string | null;
  /**
   * Origins besides the request's own that redirects may go to and that may post forms here
   * (`DOORWAY_ALLOWED_ORIGINS`, then {@link HostConfig.publicOrigin} when set).
   */
  allowedOrigins: readonly string[];
  /**
   * The origin visitors reach the host on (`DOORWAY_PUBLIC_ORIGIN`, e.g. `https://app.example.com`), which
   * every emailed URL is built from, never the request's `Host`. `null` (development): a request's own
   * origin when its hostname is loopback, else `http://localhost:<port>` (see `services.server.ts`).
   */
  publicOrigin: string | null;
  /** The port the host's server listens on (read by server.mjs itself; checked here to fail fast). */
  port: number;
  /**
   * The secrets the sign-in form path seals its flow cookie with: `DOORWAY_FLOW_SECRET` (it seals and
   * opens), then each of `DOORWAY_FLOW_SECRET_PREVIOUS` (they only open: rotation). Each is at least 32
   * random bytes, encoded (`openssl rand -base64 48`). Unset: a random one per process, so a restart (or a
   * second instance) starts visitors' unfinished sign-ins over; set it when more than one process serves
   * the host.
   */
  flowSecret: readonly [string, ...string[]];
  /**
   * The Redis several host processes share their throttle counters and passkey challenges through
   * (`DOORWAY_REDIS_URL`, `redis://` or `rediss://`; it may hold a password, so it is never logged or
   * echoed); `null`: this process's memory. Set, it requires `DOORWAY_FLOW_SECRET` (several processes).
   */
  redisUrl: string | null;
}

/** A bad environment variable; the message names it. */
export class HostConfigError extends Error {
  override readonly name = 'HostConfigError';
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`remix-host: ${variable} ${problem}`);
    this.variable = variable;
  }
}

const value = (env: Env, name: string): string | null => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? null : v;
};

function parseJson(env: Env, name: string): unknown {
  const raw = value(env, name);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new HostConfigError(name, 'must be valid JSON');
  }
}

function list(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Email options send their links (sign-in and linking) to the action route unless told otherwise. */
function withActionLink(option: SignInOptionInput): SignInOptionInput {
  if (option === 'email' || option === 'password') return { provider: 'email', emailLinkUrl: ACTION_PATH };
  if (option === 'emailLink') {
    return { provider: 'email', signInMethod: 'emailLink', emailLinkUrl: ACTION_PATH };
  }
  if (typeof option === 'object' && option.provider === 'email' && !('emailLinkUrl' in option)) {
    const email: EmailOptionInput = { ...(option as EmailOptionInput), emailLinkUrl: ACTION_PATH };
    return email;
  }
  return option;
}

function signInOptions(env: Env, defaults: readonly string[]): SignInOptionInput[] {
  const name = 'DOORWAY_SIGN_IN_OPTIONS';
  const raw = value(env, name);
  let options: unknown;
  if (raw === null) options = defaults;
  else if (raw.startsWith('[')) options = parseJson(env, name);
  else options = list(raw);
  if (!Array.isArray(options) || options.length === 0) {
    throw new HostConfigError(name, 'must be a comma-separated list of provider ids or a JSON array');
  }
  return (options as SignInOptionInput[]).map(withActionLink);
}

function tenants(env: Env): TenantInput[] | null {
  const parsed = parseJson(env, 'DOORWAY_TENANTS');
  if (parsed === null) return null;
  if (!Array.isArray(parsed)) throw new HostConfigError('DOORWAY_TENANTS', 'must be a JSON array of tenants');
  return (parsed as TenantInput[]).map((t) =>
    typeof t === 'object' && t !== null && Array.isArray(t.signInOptions)
      ? { ...t, signInOptions: t.signInOptions.map(withActionLink) }
      : t,
  );
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name);
  if (raw === null) return fallback;
  if (/^(1|true|on|yes)$/i.test(raw)) return true;
  if (/^(0|false|off|no)$/i.test(raw)) return false;
  throw new HostConfigError(name, 'must be true or false');
}

function recaptchaSize(env: Env): HostConfig['recaptchaSize'] {
  const raw = value(env, 'DOORWAY_RECAPTCHA') ?? 'normal';
  if (raw !== 'normal' && raw !== 'compact' && raw !== 'invisible') {
    throw new HostConfigError('DOORWAY_RECAPTCHA', 'must be normal, compact or invisible');
  }
  return raw;
}

// Which env variable a widget option comes from, to name it when normalizeConfig refuses it.
const VARIABLE_OF: Readonly<Record<string, string>> = {
  signInOptions: 'DOORWAY_SIGN_IN_OPTIONS',
  displayMode: 'DOORWAY_DISPLAY_MODE',
  tenants: 'DOORWAY_TENANTS',
  signInSuccessUrl: 'DOORWAY_SUCCESS_URL',
  tosUrl: 'DOORWAY_TOS_URL',
  privacyPolicyUrl: 'DOORWAY_PRIVACY_URL',
  allowedOrigins: 'DOORWAY_ALLOWED_ORIGINS',
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function supabaseUrl(env: Env): string {
  const name = 'DOORWAY_SUPABASE_URL';
  const raw = value(env, name);
  if (raw === null) {
    throw new HostConfigError(name, 'is required with DOORWAY_PROVIDER=supabase (https://<ref>.supabase.co)');
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HostConfigError(name, 'must be the project URL, e.g. https://<ref>.supabase.co');
  }
  // Values are never echoed: a mistyped variable may hold something secret.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new HostConfigError(name, 'must use https (plain http only on 127.0.0.1 or localhost)');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new HostConfigError(name, 'must be the bare project URL (no credentials, query or fragment)');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The `role` claim of a JWT-style key, if it is one. */
function keyRole(key: string): string | null {
  if (key.split('.').length !== 3) return null;
  const role = unverifiedClaims(key)?.role;
  return typeof role === 'string' ? role : null;
}

/** `DOORWAY_SUPABASE_SERVICE_ROLE_KEY`: the server's key for deleting accounts, or `null` when unset. */
function supabaseServiceRoleKey(env: Env): string | null {
  const name = 'DOORWAY_SUPABASE_SERVICE_ROLE_KEY';
  const raw = value(env, name);
  if (raw === null) return null;
  if (!/^[\w.-]+$/.test(raw)) throw new HostConfigError(name, 'is not an API key');
  if (!raw.startsWith('sb_secret_') && keyRole(raw) !== 'service_role') {
    throw new HostConfigError(name, 'is not a service-role (secret) key');
  }
  return raw;
}

function supabaseAnonKey(env: Env): string {
  const name = 'DOORWAY_SUPABASE_ANON_KEY';
  const raw = value(env, name);
  if (raw === null) {
    throw new HostConfigError(name, "is required with DOORWAY_PROVIDER=supabase (the project's anon key)");
  }
  if (!/^[\w.-]+$/.test(raw)) throw new HostConfigError(name, 'is not an API key');
  // The browser gets this key: a service-role / secret key there would give every visitor admin rights.
  if (raw.startsWith('sb_secret_') || keyRole(raw) === 'service_role') {
    throw new HostConfigError(
      name,
      'is a secret (service-role) key; it goes to every browser, so it must be the anon / publishable key',
    );
  }
  return raw;
}

const DEFAULT_PASSKEY_RP_NAME = 'Doorway';
// A domain name: labels of letters, digits and inner hyphens (WebAuthn takes no IP address, port or URL).
const DOMAIN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function passkeyRpId(env: Env): string | null {
  const name = 'DOORWAY_PASSKEY_RP_ID';
  const raw = value(env, name);
  if (raw === null) return null;
  const id = raw.toLowerCase();
  if (!DOMAIN.test(id) || /^[\d.]+$/.test(id)) {
    throw new HostConfigError(
      name,
      'must be a domain name, e.g. example.com or localhost (no scheme, port, path or IP address)',
    );
  }
  return id;
}

function passkeyRpName(env: Env): string {
  const raw = value(env, 'DOORWAY_PASSKEY_RP_NAME') ?? DEFAULT_PASSKEY_RP_NAME;
  const control = [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (raw.length > 64 || control) {
    throw new HostConfigError('DOORWAY_PASSKEY_RP_NAME', 'must be a name of at most 64 characters');
  }
  return raw;
}

/** A secret for this process alone: 48 random bytes, base64url. */
function processFlowSecret(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * `DOORWAY_FLOW_SECRET`, then the older secrets of `DOORWAY_FLOW_SECRET_PREVIOUS` (comma-separated), each
 * random enough to seal with (HKDF is not a password hash: a phrase is refused). Unset: one for this
 * process ({@link processFlowSecret}). The message names the variable, never its value.
 */
function flowSecret(env: Env): readonly [string, ...string[]] {
  const current = value(env, 'DOORWAY_FLOW_SECRET');
  const previousRaw = value(env, 'DOORWAY_FLOW_SECRET_PREVIOUS');
  if (current === null) {
    if (previousRaw !== null) {
      throw new HostConfigError('DOORWAY_FLOW_SECRET_PREVIOUS', 'is set without DOORWAY_FLOW_SECRET');
    }
    return [processFlowSecret()];
  }
  const currentProblem = sealingSecretProblem(current);
  if (currentProblem !== null) throw new HostConfigError('DOORWAY_FLOW_SECRET', currentProblem);
  const previous = (previousRaw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const old of previous) {
    const problem = sealingSecretProblem(old);
    if (problem !== null)
      throw new HostConfigError('DOORWAY_FLOW_SECRET_PREVIOUS', `has a secret that ${problem}`);
  }
  return [current, ...previous];
}

/**
 * `DOORWAY_REDIS_URL`: a `redis://` or `rediss://` URL with a host, or `null`. Set, it says several
 * processes serve the host, so `DOORWAY_FLOW_SECRET` is required: each process would otherwise seal flow
 * cookies with its own random secret, and a sign-in started on one could not go on on another. Messages
 * name the variable, never its value (it may hold a password).
 */
function redisUrl(env: Env): string | null {
  const name = 'DOORWAY_REDIS_URL';
  const raw = value(env, name);
  if (raw === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Refused below, without the value.
  }
  if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new HostConfigError(name, 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379');
  }
  if (value(env, 'DOORWAY_FLOW_SECRET') === null) {
    throw new HostConfigError(
      'DOORWAY_FLOW_SECRET',
      'is required with DOORWAY_REDIS_URL: several processes must share one flow secret (openssl rand -base64 48, the same in every process)',
    );
  }
  return raw;
}

/** `DOORWAY_PUBLIC_ORIGIN`: an http(s) origin, nothing after it (a trailing `/` is tolerated). */
function publicOrigin(env: Env): string | null {
  const name = 'DOORWAY_PUBLIC_ORIGIN';
  const raw = value(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HostConfigError(name, 'must be an origin such as https://www.example.com');
  }
  const bare =
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '';
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !bare || !/^[^?#]*$/.test(raw)) {
    throw new HostConfigError(
      name,
      'must be an http(s) origin such as https://www.example.com (no path or query)',
    );
  }
  return url.origin;
}

/** Origins the host trusts besides a request's own: the configured ones, then the public origin. */
function allowedOrigins(env: Env, publicAt: string | null): string[] {
  const configured = list(value(env, 'DOORWAY_ALLOWED_ORIGINS') ?? '');
  return publicAt === null || configured.includes(publicAt) ? configured : [...configured, publicAt];
}

function parseProvider(env: Env): HostProviderName {
  const provider = value(env, 'DOORWAY_PROVIDER') ?? 'firebase';
  if (provider !== 'firebase' && provider !== 'supabase') {
    throw new HostConfigError('DOORWAY_PROVIDER', 'must be firebase (the default) or supabase');
  }
  return provider;
}

/** What depends on the provider. */
type ProviderPart = Pick<
  HostConfig,
  | 'firebase'
  | 'supabase'
  | 'supabaseServiceRoleKey'
  | 'emulatorHost'
  | 'emailEnumerationProtection'
  | 'recaptchaSize'
  | 'tenants'
  | 'passkeyRpId'
  | 'passkeyRpName'
>;

/** The Supabase part of the configuration, refusing Firebase-only settings. */
function supabasePart(env: Env): ProviderPart {
  for (const name of FIREBASE_ONLY_VARIABLES) {
    if (value(env, name) !== null) {
      throw new HostConfigError(name, 'is a Firebase setting; Supabase Auth has no equivalent (unset it)');
    }
  }
  return {
    firebase: null,
    supabase: { url: supabaseUrl(env), anonKey: supabaseAnonKey(env) },
    supabaseServiceRoleKey: supabaseServiceRoleKey(env),
    emulatorHost: null,
    // Supabase has no sign-in-method lookup: the widget always takes the combined, enumeration-safe card.
    emailEnumerationProtection: true,
    recaptchaSize: 'normal',
    tenants: null,
    passkeyRpId: null,
    passkeyRpName: DEFAULT_PASSKEY_RP_NAME,
  };
}

/** The Firebase part of the configuration (emulator by default). */
function firebasePart(env: Env): ProviderPart {
  const projectId = value(env, 'FIREBASE_PROJECT_ID') ?? 'demo-doorway';
  if (!/^[a-z0-9-]{4,64}$/.test(projectId)) {
    throw new HostConfigError(
      'FIREBASE_PROJECT_ID',
      'must be a Firebase project id (lower-case letters, digits, -)',
    );
  }
  const demo = projectId.startsWith('demo-');
  const emulatorHost = value(env, 'FIREBASE_AUTH_EMULATOR_HOST') ?? (demo ? '127.0.0.1:9099' : null);
  if (emulatorHost !== null && !/^[\w.-]+:\d{1,5}$/.test(emulatorHost)) {
    throw new HostConfigError('FIREBASE_AUTH_EMULATOR_HOST', 'must be host:port, e.g. 127.0.0.1:9099');
  }
  // firebase-admin trusts the emulator's unsigned tokens: a real project pointed at it (a variable left
  // over from development) would accept forged sessions. Firebase keeps `demo-` ids for emulator-only use.
  if (emulatorHost !== null && !demo) {
    throw new HostConfigError(
      'FIREBASE_AUTH_EMULATOR_HOST',
      'is set for a FIREBASE_PROJECT_ID that is not a demo- project; the emulator is only trusted for demo-… ids (unset it for a real project)',
    );
  }
  return {
    firebase: {
      apiKey: value(env, 'FIREBASE_API_KEY') ?? 'demo-api-key',
      projectId,
      authDomain: value(env, 'FIREBASE_AUTH_DOMAIN') ?? `${projectId}.firebaseapp.com`,
    },
    supabase: null,
    supabaseServiceRoleKey: null,
    emulatorHost,
    emailEnumerationProtection: flag(env, 'DOORWAY_EMAIL_ENUMERATION_PROTECTION', emulatorHost === null),
    recaptchaSize: recaptchaSize(env),
    tenants: tenants(env),
    passkeyRpId: passkeyRpId(env),
    passkeyRpName: passkeyRpName(env),
  };
}

/**
 * Reads the host configuration from an environment. Throws {@link HostConfigError} naming the variable
 * at fault (never its value); never returns a half-valid configuration.
 * @example parseHostConfig({ FIREBASE_PROJECT_ID: 'demo-doorway' }).emulatorHost // "127.0.0.1:9099"
 */
export function parseHostConfig(env: Env): HostConfig {
  const provider = parseProvider(env);
  const portRaw = value(env, 'PORT') ?? '3000';
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new HostConfigError('PORT', 'must be a port number');
  }
  const displayMode = value(env, 'DOORWAY_DISPLAY_MODE') ?? 'optionFirst';
  const publicAt = publicOrigin(env);
  const config: HostConfig = {
    provider,
    ...(provider === 'supabase' ? supabasePart(env) : firebasePart(env)),
    signInOptions: signInOptions(
      env,
      provider === 'supabase' ? SUPABASE_DEFAULT_SIGN_IN_OPTIONS : DEFAULT_SIGN_IN_OPTIONS,
    ),
    displayMode: displayMode as HostConfig['displayMode'],
    successUrl: value(env, 'DOORWAY_SUCCESS_URL') ?? '/account',
    tosUrl: value(env, 'DOORWAY_TOS_URL'),
    privacyUrl: value(env, 'DOORWAY_PRIVACY_URL'),
    allowedOrigins: allowedOrigins(env, publicAt),
    publicOrigin: publicAt,
    port,
    flowSecret: flowSecret(env),
    redisUrl: redisUrl(env),
  };
  // The widget's own validation, once, so a bad value fails at start-up rather than on a visitor's page.
  try {
    normalizeConfig(widgetConfigInput(config, config.successUrl), 'http://127.0.0.1');
  } catch (e) {
    if (e instanceof ConfigError) {
      const top = e.option.split(/[.[]/)[0] ?? e.option;
      throw new HostConfigError(VARIABLE_OF[top] ?? top, e.message.replace(/^Doorway config: /, ''));
    }
    throw e;
  }
  return config;
}

function federatedIds(options: readonly SignInOptionInput[]): string[] {
  const builtIn = new Set(['email', 'password', 'emailLink', 'phone', 'anonymous']);
  return options.map((o) => (typeof o === 'string' ? o : o.provider)).filter((id) => !builtIn.has(id));
}

/** What the browser may see: no credentials, no server-only settings. */
export function publicConfig(config: HostConfig): PublicConfig {
  const tenantOptions = (config.tenants ?? []).flatMap((t) => t.signInOptions ?? []);
  return {
    provider: config.provider,
    firebase: config.firebase,
    supabase: config.supabase,
    emulatorUrl: config.emulatorHost === null ? null : `http://${config.emulatorHost}`,
    emailEnumerationProtection: config.emailEnumerationProtection,
    recaptchaSize: config.recaptchaSize,
    federatedProviders: [...new Set(federatedIds([...config.signInOptions, ...tenantOptions]))],
    signInOptions: config.signInOptions,
    displayMode: config.displayMode,
    tenants: config.tenants,
    tosUrl: config.tosUrl,
    privacyUrl: config.privacyUrl,
    allowedOrigins: config.allowedOrigins,
  };
}

let cached: HostConfig | null = null;

/** The configuration of this process, from `process.env`, parsed on first use. */
export function hostConfig(): HostConfig {
  cached ??= parseHostConfig(process.env);
  return cached;
}
