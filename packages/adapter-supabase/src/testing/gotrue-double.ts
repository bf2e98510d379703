/**
 * A TEST DOUBLE of the Supabase Auth (GoTrue) REST API, in memory, served through msw. It is not GoTrue: it
 * follows the request and response shapes that supabase-js 2.108 (`@supabase/auth-js`) sends and parses, and
 * the behaviour of supabase/auth's handlers (signup.go, otp.go, magic_link.go, verify.go, token.go, user.go,
 * external.go, identity.go, anonymous.go) as far as the adapter depends on it. Everything the adapter's tests
 * prove, they prove against this double only; see the README's "Checked against the double only".
 *
 * What it has: users, identities, sessions and refresh tokens (HS256 JWTs), email/SMS one-time tokens stored as
 * GoTrue stores them (sha224 of address + OTP, `pkce_` prefix in PKCE flows), PKCE flow states, rendered
 * emails from configurable templates (GoTrue's defaults unless told), an outbox of emails and SMS, a fake
 * OAuth/OIDC IdP, an admin side (create users, generate links, ban), a simulated clock and fault switches.
 * @module
 */
import { HttpResponse, http, type RequestHandler } from 'msw';
import {
  fromBase64Url,
  hmacSha256,
  randomInt,
  randomUUID,
  sha224 as sha224Bytes,
  sha256,
  toBase64Url,
  toHex,
} from './hash.ts';

/** GoTrue's mail templates the double renders. */
export type DoubleTemplateName = 'confirmation' | 'magicLink' | 'recovery' | 'emailChange' | 'invite';

/** GoTrue's default templates (internal/mailer/template.go), which link to `{{ .ConfirmationURL }}`. */
export const GOTRUE_DEFAULT_TEMPLATES: Readonly<Record<DoubleTemplateName, string>> = {
  confirmation:
    '<h2>Confirm your email</h2>\n\n<p>Follow this link to confirm your email:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your email address</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  magicLink:
    '<h2>Magic Link</h2>\n\n<p>Follow this link to login:</p>\n<p><a href="{{ .ConfirmationURL }}">Log In</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  recovery:
    '<h2>Reset password</h2>\n\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset password</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  emailChange:
    '<h2>Confirm email address change</h2>\n\n<p>Follow this link to confirm the update of your email address from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change email address</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
  invite:
    '<h2>You have been invited</h2>\n\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>\n<p>Alternatively, enter the code: {{ .Token }}</p>',
};

/** Project settings of the double, named after GoTrue's configuration. Defaults are Supabase's hosted ones. */
export interface GoTrueDoubleOptions {
  /** Project URL (the double serves `<projectUrl>/auth/v1`). Default: a unique `http://double-N.supabase.test`. */
  projectUrl?: string;
  /** SITE_URL. Default `http://localhost:3000`. */
  siteUrl?: string;
  /** URI_ALLOW_LIST globs (`*`, `**`). Default none (only the Site URL's host). */
  uriAllowList?: readonly string[];
  /** MAILER_AUTOCONFIRM ("Confirm email" off). Default `false`. */
  mailerAutoconfirm?: boolean;
  /** SMS_AUTOCONFIRM ("Confirm phone" off). Default `false`. */
  smsAutoconfirm?: boolean;
  /** DISABLE_SIGNUP. Default `false`. */
  disableSignup?: boolean;
  /** EXTERNAL_ANONYMOUS_USERS_ENABLED. Default `false`. */
  anonymousUsers?: boolean;
  /** SECURITY_MANUAL_LINKING_ENABLED. Default `false`. */
  manualLinking?: boolean;
  /** MAILER_SECURE_EMAIL_CHANGE_ENABLED. Default `true`. */
  secureEmailChange?: boolean;
  /** Enabled OAuth providers (Supabase names). Default `['google', 'github']`. */
  externalProviders?: readonly string[];
  /** PASSWORD_MIN_LENGTH. Default 6. */
  passwordMinLength?: number;
  /** MAILER_OTP_EXP / SMS_OTP_EXP in seconds. Defaults 3600 / 60. */
  mailerOtpExpSeconds?: number;
  smsOtpExpSeconds?: number;
  /** SMTP_MAX_FREQUENCY / SMS_MAX_FREQUENCY in seconds. Defaults 60 / 60. */
  smtpMaxFrequencySeconds?: number;
  smsMaxFrequencySeconds?: number;
  /** Mail templates; missing ones are GoTrue's defaults. */
  templates?: Partial<Record<DoubleTemplateName, string>>;
  /** SECURITY_CAPTCHA_ENABLED, with the one token the double's "captcha provider" accepts. */
  captchaToken?: string;
  /** Whether to honour `X-Supabase-Api-Version` (newer GoTrue) or always answer the legacy error shape. */
  apiVersioning?: boolean;
  /**
   * Simulated time: start (ms) and how far it moves per request. Defaults: now, 1000 ms. With `wall: true`
   * it follows the real clock instead (never backwards; `clock.advance` still moves it ahead), as a double
   * that serves a real app must: tokens it mints then expire when the app's own clock says they do.
   */
  clock?: { start?: number; tickMs?: number; wall?: boolean };
  /**
   * State saved by {@link GoTrueDouble.snapshot} to start from (users, sessions, tokens, outbox, clock). The
   * simulated time resumes at the later of the saved time and `clock.start` (default now).
   */
  state?: GoTrueDoubleState;
}

/**
 * Everything the double remembers, as plain JSON (see {@link GoTrueDouble.snapshot}): what lets a double
 * survive a page load in a browser. Opaque: only {@link GoTrueDoubleOptions.state} reads it.
 */
export interface GoTrueDoubleState {
  version: 1;
  time: number;
  users: unknown[];
  sessions: unknown[];
  refreshTokens: [string, unknown][];
  flowStates: unknown[];
  idpCodes: [string, unknown][];
  idpQueue: unknown[];
  emails: DoubleEmail[];
  sms: DoubleSms[];
}

/** An email in the double's outbox. */
export interface DoubleEmail {
  to: string;
  template: DoubleTemplateName;
  /** GoTrue's verification type of the token in it. */
  type: 'signup' | 'magiclink' | 'recovery' | 'email_change' | 'invite';
  html: string;
  /** The first link in the rendered mail (entities decoded). */
  link: string | null;
  /** The template data (SiteURL, ConfirmationURL, Email, NewEmail, Token, TokenHash, RedirectTo). */
  data: Readonly<Record<string, string>>;
  sentAt: number;
}

/** An SMS in the double's outbox. */
export interface DoubleSms {
  /** E.164 with `+`. */
  to: string;
  otp: string;
  type: 'sms' | 'phone_change';
  sentAt: number;
}

/** An identity a fake IdP returns. */
export interface DoubleIdpIdentity {
  sub: string;
  email: string;
  displayName?: string;
  emailVerified?: boolean;
}

/** A GoTrue error the double answers with. */
export interface DoubleError {
  status: number;
  code: string;
  message?: string;
}

interface Identity {
  identityId: string;
  id: string;
  userId: string;
  provider: string;
  identityData: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  lastSignInAt: number;
}

interface UserRecord {
  id: string;
  email: string;
  phone: string;
  password: string | null;
  emailConfirmedAt: number | null;
  phoneConfirmedAt: number | null;
  confirmationToken: string;
  confirmationSentAt: number | null;
  recoveryToken: string;
  recoverySentAt: number | null;
  emailChange: string;
  emailChangeTokenNew: string;
  emailChangeTokenCurrent: string;
  emailChangeSentAt: number | null;
  emailChangeConfirmStatus: number;
  phoneChange: string;
  phoneChangeToken: string;
  phoneChangeSentAt: number | null;
  invitedAt: number | null;
  lastSignInAt: number | null;
  createdAt: number;
  updatedAt: number;
  isAnonymous: boolean;
  bannedUntil: number | null;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  identities: Identity[];
}

interface FlowState {
  id: string;
  providerType: string;
  authMethod: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  authCode: string;
  userId: string | null;
  referrer: string;
  linkingTargetId: string | null;
  createdAt: number;
}

/** A GoTrue error while handling a request (the only class: an Error subclass). */
class GoTrueDoubleError extends Error {
  readonly status: number;
  readonly code: string;
  readonly weakPassword: boolean;
  constructor(status: number, code: string, message: string, weakPassword = false) {
    super(message);
    this.status = status;
    this.code = code;
    this.weakPassword = weakPassword;
  }
}

/** An OAuth-style error body (`{ error, error_description }`), as GoTrue answers some /token failures. */
class OAuthDoubleError extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

const API_VERSION = '2024-01-01';
const JWT_SECRET = 'gotrue-double-jwt-secret-not-a-real-secret-0123456789';
const IDP_SECRET = 'gotrue-double-idp-secret';
const IDP_CLIENT_ID = 'gotrue-double-client';
const FLOW_STATE_EXPIRY_MS = 300_000;
// GoTrue's checkmail pattern and E.164 check.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const E164 = /^[1-9]\d{1,14}$/;
const ID_TOKEN_PROVIDERS = ['google', 'apple', 'azure', 'facebook', 'kakao', 'keycloak'];

let doubles = 0;

const b64url = toBase64Url;
const sha224 = (s: string) => toHex(sha224Bytes(s));
const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());
const otp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
const formatPhone = (phone: string) => phone.replace(/[^\d]/g, '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(payload));
  const sig = toBase64Url(hmacSha256(secret, `${head}.${body}`));
  return `${head}.${body}.${sig}`;
}

function verifyJwt(token: string, secret: string): Record<string, unknown> | null {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return null;
  const expected = toBase64Url(hmacSha256(secret, `${head}.${body}`));
  if (expected !== sig) return null;
  try {
    const payload: unknown = JSON.parse(fromBase64Url(body));
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/.]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
}

function decodeHtml(s: string): string {
  return s.replace(/&#34;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The admin side of the double (GoTrue's service-role API, in process). */
export interface GoTrueDoubleAdmin {
  createUser(attrs: {
    email?: string;
    phone?: string;
    password?: string;
    email_confirm?: boolean;
    phone_confirm?: boolean;
    user_metadata?: Record<string, unknown>;
  }): Record<string, unknown>;
  /** GoTrue's POST /admin/generate_link (no mail is sent). */
  generateLink(params: {
    type: 'signup' | 'magiclink' | 'recovery' | 'invite' | 'email_change_current' | 'email_change_new';
    email: string;
    password?: string;
    new_email?: string;
    redirect_to?: string;
  }): {
    action_link: string;
    email_otp: string;
    hashed_token: string;
    redirect_to: string;
    verification_type: string;
    user: Record<string, unknown>;
  };
  /** GoTrue's PUT /admin/users/{id}: `ban_duration` (`'876000h'`, `'none'`), email confirmation. */
  updateUserById(
    id: string,
    attrs: { ban_duration?: string; email_confirm?: boolean },
  ): Record<string, unknown>;
  getUserById(id: string): Record<string, unknown>;
  listUsers(): Record<string, unknown>[];
  /** Double-only: gives a user an identity of an OAuth provider (as if they had signed in with it). */
  addIdentity(id: string, provider: string, identity: DoubleIdpIdentity): Record<string, unknown>;
  /** Double-only: creates a user from an IdP identity (as a first OAuth sign-in would). */
  createFederatedUser(provider: string, identity: DoubleIdpIdentity): Record<string, unknown>;
}

/** A GoTrue double: its msw handlers plus what tests read and drive. */
export interface GoTrueDouble {
  /** The project URL to give supabase-js. */
  readonly projectUrl: string;
  /** The anon key the double accepts. */
  readonly anonKey: string;
  /** Where the auth API lives (`<projectUrl>/auth/v1`). */
  readonly authUrl: string;
  /** msw handlers for the double and its IdP. */
  readonly handlers: RequestHandler[];
  /** Requests seen, to count round trips. */
  readonly requests: { method: string; path: string; at: number }[];
  /** Simulated time. */
  readonly clock: { now(): number; advance(ms: number): void };
  /** Fault switches. */
  readonly faults: {
    /** Every request fails at the network level (fetch rejects). */
    network: boolean;
    /** Every request answers 500. */
    serverError: boolean;
    /** Answers the next request to `route` (`'POST /token'`, `'PUT /user'`, …, or `'*'`) with this error. */
    failNext(route: string, error: DoubleError): void;
  };
  /** Emails and SMS the double "sent". */
  readonly outbox: {
    readonly emails: DoubleEmail[];
    readonly sms: DoubleSms[];
    lastEmail(to: string, type?: DoubleEmail['type']): DoubleEmail | null;
    lastSms(to: string): DoubleSms | null;
    clear(): void;
  };
  /** The fake IdP behind `/authorize` and ID tokens. */
  readonly idp: {
    /** The next IdP visit signs this identity in. */
    queue(identity: DoubleIdpIdentity): void;
    /** The next IdP visit is cancelled by the person. */
    cancelNext(): void;
    /** An ID token the double accepts for `signInWithIdToken` (Supabase provider name). */
    idToken(provider: string, identity: DoubleIdpIdentity): string;
  };
  /** A browser's view: follows a URL through the double and its IdP, returns where it lands. */
  follow(url: string): string;
  /**
   * The double as a `fetch` (give it to supabase-js as `auth.fetch`): answers requests to the double and its
   * IdP in process, without msw or a service worker. A network fault rejects, as `fetch` does; other URLs
   * reject too.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** The double's state as JSON, to start another double from ({@link GoTrueDoubleOptions.state}). */
  snapshot(): GoTrueDoubleState;
  readonly admin: GoTrueDoubleAdmin;
  /** GET /settings, as GoTrue answers it. */
  settings(): Record<string, unknown>;
}

/** Creates a fresh GoTrue double. Register `double.handlers` with an msw server. */
export function createGoTrueDouble(options: GoTrueDoubleOptions = {}): GoTrueDouble {
  doubles += 1;
  const projectUrl = options.projectUrl ?? `http://double-${doubles}.supabase.test`;
  const authUrl = `${projectUrl}/auth/v1`;
  const idpUrl = projectUrl.replace('://', '://idp.');
  const config = {
    siteUrl: options.siteUrl ?? 'http://localhost:3000',
    uriAllowList: (options.uriAllowList ?? []).map(globToRegExp),
    mailerAutoconfirm: options.mailerAutoconfirm ?? false,
    smsAutoconfirm: options.smsAutoconfirm ?? false,
    disableSignup: options.disableSignup ?? false,
    anonymousUsers: options.anonymousUsers ?? false,
    manualLinking: options.manualLinking ?? false,
    secureEmailChange: options.secureEmailChange ?? true,
    externalProviders: new Set(options.externalProviders ?? ['google', 'github']),
    passwordMinLength: options.passwordMinLength ?? 6,
    mailerOtpExpMs: (options.mailerOtpExpSeconds ?? 3600) * 1000,
    smsOtpExpMs: (options.smsOtpExpSeconds ?? 60) * 1000,
    smtpMaxFrequencyMs: (options.smtpMaxFrequencySeconds ?? 60) * 1000,
    smsMaxFrequencyMs: (options.smsMaxFrequencySeconds ?? 60) * 1000,
    templates: { ...GOTRUE_DEFAULT_TEMPLATES, ...options.templates },
    captchaToken: options.captchaToken ?? null,
    apiVersioning: options.apiVersioning ?? true,
    jwtExpSeconds: 3600,
  };
  const anonKey = signJwt({ iss: 'supabase-double', role: 'anon', ref: projectUrl }, JWT_SECRET);

  let time = Math.max(options.clock?.start ?? Date.now(), options.state?.time ?? 0);
  const tickMs = options.clock?.tickMs ?? 1000;
  const wall = options.clock?.wall === true;
  /** How far `clock.advance` has moved a wall clock ahead of the real one. */
  let skew = 0;
  const now = () => time;
  /** One step of simulated time: a request, or a redirect followed. */
  const tick = () => {
    time = wall ? Math.max(time, Date.now() + skew) : time + tickMs;
  };

  const users = new Map<string, UserRecord>();
  const sessions = new Map<string, { id: string; userId: string; createdAt: number; amr: string }>();
  const refreshTokens = new Map<string, { sessionId: string; revoked: boolean }>();
  const flowStates = new Map<string, FlowState>();
  const idpCodes = new Map<string, { provider: string; identity: DoubleIdpIdentity }>();
  const idpQueue: ({ kind: 'identity'; identity: DoubleIdpIdentity } | { kind: 'cancel' })[] = [];
  const emails: DoubleEmail[] = [];
  const smsOutbox: DoubleSms[] = [];
  const requests: { method: string; path: string; at: number }[] = [];
  const failures: { route: string; error: DoubleError }[] = [];
  const faults = { network: false, serverError: false };
  if (options.state) {
    const saved = structuredClone(options.state);
    for (const u of saved.users as UserRecord[]) users.set(u.id, u);
    for (const s of saved.sessions as { id: string; userId: string; createdAt: number; amr: string }[])
      sessions.set(s.id, s);
    for (const [k, v] of saved.refreshTokens)
      refreshTokens.set(k, v as { sessionId: string; revoked: boolean });
    for (const f of saved.flowStates as FlowState[]) flowStates.set(f.id, f);
    for (const [k, v] of saved.idpCodes)
      idpCodes.set(k, v as { provider: string; identity: DoubleIdpIdentity });
    idpQueue.push(...(saved.idpQueue as typeof idpQueue));
    emails.push(...saved.emails);
    smsOutbox.push(...saved.sms);
  }
  const snapshot = (): GoTrueDoubleState =>
    structuredClone({
      version: 1,
      time,
      users: [...users.values()],
      sessions: [...sessions.values()],
      refreshTokens: [...refreshTokens],
      flowStates: [...flowStates.values()],
      idpCodes: [...idpCodes],
      idpQueue: [...idpQueue],
      emails,
      sms: smsOutbox,
    });

  // ---- users ---------------------------------------------------------------------------------------------

  function findByEmail(email: string): UserRecord | undefined {
    const e = email.toLowerCase();
    for (const u of users.values()) if (u.email !== '' && u.email === e) return u;
    return undefined;
  }
  function findByPhone(phone: string): UserRecord | undefined {
    for (const u of users.values()) if (u.phone !== '' && u.phone === phone) return u;
    return undefined;
  }
  function isBanned(u: UserRecord) {
    return u.bannedUntil !== null && u.bannedUntil > now();
  }
  function newUser(fields: Partial<UserRecord>): UserRecord {
    const t = now();
    const user: UserRecord = {
      id: randomUUID(),
      email: '',
      phone: '',
      password: null,
      emailConfirmedAt: null,
      phoneConfirmedAt: null,
      confirmationToken: '',
      confirmationSentAt: null,
      recoveryToken: '',
      recoverySentAt: null,
      emailChange: '',
      emailChangeTokenNew: '',
      emailChangeTokenCurrent: '',
      emailChangeSentAt: null,
      emailChangeConfirmStatus: 0,
      phoneChange: '',
      phoneChangeToken: '',
      phoneChangeSentAt: null,
      invitedAt: null,
      lastSignInAt: null,
      createdAt: t,
      updatedAt: t,
      isAnonymous: false,
      bannedUntil: null,
      appMetadata: {},
      userMetadata: {},
      identities: [],
      ...fields,
    };
    users.set(user.id, user);
    return user;
  }
  function addIdentity(
    user: UserRecord,
    provider: string,
    sub: string,
    data: Record<string, unknown>,
  ): Identity {
    const t = now();
    const identity: Identity = {
      identityId: randomUUID(),
      id: sub,
      userId: user.id,
      provider,
      identityData: { sub, ...data },
      createdAt: t,
      updatedAt: t,
      lastSignInAt: t,
    };
    user.identities.push(identity);
    updateProviders(user);
    return identity;
  }
  function updateProviders(user: UserRecord) {
    const providers = [...new Set(user.identities.map((i) => i.provider))];
    if (providers.length === 0) return;
    user.appMetadata.providers = providers;
    if (typeof user.appMetadata.provider !== 'string') user.appMetadata.provider = providers[0];
  }
  function findIdentity(provider: string, sub: string): Identity | undefined {
    for (const u of users.values()) {
      const found = u.identities.find((i) => i.provider === provider && i.id === sub);
      if (found) return found;
    }
    return undefined;
  }
  function confirmEmail(user: UserRecord) {
    user.emailConfirmedAt ??= now();
    user.confirmationToken = '';
    for (const i of user.identities) {
      if (i.provider === 'email' || i.identityData.email === user.email) i.identityData.email_verified = true;
    }
  }
  function userJson(u: UserRecord): Record<string, unknown> {
    const json: Record<string, unknown> = {
      id: u.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: u.email,
      email_confirmed_at: iso(u.emailConfirmedAt),
      phone: u.phone,
      phone_confirmed_at: iso(u.phoneConfirmedAt),
      confirmation_sent_at: iso(u.confirmationSentAt),
      confirmed_at: iso(u.emailConfirmedAt ?? u.phoneConfirmedAt),
      recovery_sent_at: iso(u.recoverySentAt),
      new_email: u.emailChange || undefined,
      email_change_sent_at: iso(u.emailChangeSentAt),
      new_phone: u.phoneChange || undefined,
      phone_change_sent_at: iso(u.phoneChangeSentAt),
      invited_at: iso(u.invitedAt),
      last_sign_in_at: iso(u.lastSignInAt),
      banned_until: iso(u.bannedUntil),
      app_metadata: { ...u.appMetadata },
      user_metadata: { ...u.userMetadata },
      identities: u.identities.map((i) => ({
        identity_id: i.identityId,
        id: i.id,
        user_id: i.userId,
        identity_data: { ...i.identityData },
        provider: i.provider,
        last_sign_in_at: iso(i.lastSignInAt),
        created_at: iso(i.createdAt),
        updated_at: iso(i.updatedAt),
        email: typeof i.identityData.email === 'string' ? i.identityData.email : undefined,
      })),
      created_at: iso(u.createdAt),
      updated_at: iso(u.updatedAt),
      is_anonymous: u.isAnonymous,
    };
    for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
    return json;
  }

  // ---- validation (GoTrue's helpers) ---------------------------------------------------------------------

  function validateEmail(email: string): string {
    if (email === '') throw new GoTrueDoubleError(400, 'validation_failed', 'An email address is required');
    if (email.length > 255)
      throw new GoTrueDoubleError(400, 'validation_failed', 'An email address is too long');
    if (!EMAIL.test(email)) {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        'Unable to validate email address: invalid format',
      );
    }
    return email.toLowerCase();
  }
  function validatePhone(phone: string): string {
    const formatted = formatPhone(phone);
    if (!E164.test(formatted)) {
      throw new GoTrueDoubleError(400, 'validation_failed', 'Invalid phone number format (E.164 required)');
    }
    return formatted;
  }
  function checkPassword(password: string) {
    if (password.length < config.passwordMinLength) {
      throw new GoTrueDoubleError(
        422,
        'weak_password',
        `Password should be at least ${config.passwordMinLength} characters.`,
        true,
      );
    }
  }
  function checkCaptcha(body: Record<string, unknown>) {
    if (config.captchaToken === null) return;
    const security = isObject(body.gotrue_meta_security) ? body.gotrue_meta_security : {};
    const token = str(security.captcha_token).trim();
    if (token === '') {
      throw new GoTrueDoubleError(
        400,
        'captcha_failed',
        'captcha protection: request disallowed (no captcha_token found)',
      );
    }
    if (token !== config.captchaToken) {
      throw new GoTrueDoubleError(
        400,
        'captcha_failed',
        'captcha protection: request disallowed (invalid-input-response)',
      );
    }
  }
  function isRedirectValid(url: string): boolean {
    try {
      if (new URL(url).hostname === new URL(config.siteUrl).hostname) return true;
    } catch {
      return false;
    }
    return config.uriAllowList.some((re) => re.test(url));
  }
  /** GoTrue's GetReferrer: `redirect_to` if allowed, else the Site URL. */
  function referrer(redirectTo: string | null): string {
    return redirectTo && isRedirectValid(redirectTo) ? redirectTo : config.siteUrl;
  }

  // ---- sessions ------------------------------------------------------------------------------------------

  function issueSession(
    user: UserRecord,
    method: string,
    existingSessionId?: string,
  ): Record<string, unknown> {
    const t = now();
    user.lastSignInAt = t;
    let sessionId = existingSessionId;
    if (!sessionId || !sessions.has(sessionId)) {
      sessionId = randomUUID();
      sessions.set(sessionId, { id: sessionId, userId: user.id, createdAt: t, amr: method });
    }
    const refresh = randomUUID().replace(/-/g, '').slice(0, 12);
    refreshTokens.set(refresh, { sessionId, revoked: false });
    const iat = Math.floor(t / 1000);
    const exp = iat + config.jwtExpSeconds;
    const accessToken = signJwt(
      {
        aud: 'authenticated',
        exp,
        iat,
        iss: authUrl,
        sub: user.id,
        email: user.email,
        phone: user.phone,
        app_metadata: user.appMetadata,
        user_metadata: user.userMetadata,
        role: 'authenticated',
        aal: 'aal1',
        amr: [{ method, timestamp: iat }],
        session_id: sessionId,
        is_anonymous: user.isAnonymous,
      },
      JWT_SECRET,
    );
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: config.jwtExpSeconds,
      expires_at: exp,
      refresh_token: refresh,
      user: userJson(user),
    };
  }

  /** GoTrue's requireAuthentication: the bearer JWT's user and session. */
  function authenticate(request: Request): { user: UserRecord; sessionId: string } {
    const header = request.headers.get('authorization') ?? '';
    const token = header.toLowerCase().startsWith('bearer ') ? header.slice(7) : '';
    if (token === '')
      throw new GoTrueDoubleError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    const claims = verifyJwt(token, JWT_SECRET);
    if (!claims) {
      throw new GoTrueDoubleError(
        403,
        'bad_jwt',
        'invalid JWT: unable to parse or verify signature, signature is invalid',
      );
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 < now()) {
      throw new GoTrueDoubleError(
        403,
        'bad_jwt',
        'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
      );
    }
    const sub = str(claims.sub);
    if (sub === '') throw new GoTrueDoubleError(403, 'bad_jwt', 'invalid claim: missing sub claim');
    const user = users.get(sub);
    if (!user)
      throw new GoTrueDoubleError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    const sessionId = str(claims.session_id);
    if (!sessions.has(sessionId)) {
      throw new GoTrueDoubleError(
        403,
        'session_not_found',
        'Session from session_id claim in JWT does not exist',
      );
    }
    if (isBanned(user)) throw new GoTrueDoubleError(403, 'user_banned', 'User is banned');
    return { user, sessionId };
  }

  function newFlowState(
    fields: Partial<FlowState> & { providerType: string; authMethod: string },
  ): FlowState {
    const state: FlowState = {
      id: randomUUID(),
      codeChallenge: '',
      codeChallengeMethod: '',
      authCode: randomUUID(),
      userId: null,
      referrer: config.siteUrl,
      linkingTargetId: null,
      createdAt: now(),
      ...fields,
    };
    flowStates.set(state.id, state);
    return state;
  }
  function validatePkce(body: Record<string, unknown>): { challenge: string; method: string } | null {
    const challenge = str(body.code_challenge);
    const method = str(body.code_challenge_method);
    if (challenge === '' && method === '') return null;
    if (challenge === '' || method === '') {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        'PKCE flow requires code_challenge_method and code_challenge',
      );
    }
    if (method.toLowerCase() !== 's256' && method.toLowerCase() !== 'plain') {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        'Unsupported code_challenge_method, supported methods are: S256, plain',
      );
    }
    return { challenge, method: method.toLowerCase() };
  }

  // ---- mail and SMS --------------------------------------------------------------------------------------

  function render(template: string, data: Record<string, string>): string {
    return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, key: string) => escapeHtml(data[key] ?? ''));
  }
  function sendMail(
    to: string,
    template: DoubleTemplateName,
    type: DoubleEmail['type'],
    fields: { token: string; tokenHash: string; redirectTo: string; newEmail?: string; email?: string },
  ) {
    const confirmationUrl = `${authUrl}/verify?token=${fields.tokenHash}&type=${type}&redirect_to=${encodeURIComponent(fields.redirectTo)}`;
    const data: Record<string, string> = {
      SiteURL: config.siteUrl,
      ConfirmationURL: confirmationUrl,
      Email: fields.email ?? to,
      NewEmail: fields.newEmail ?? '',
      Token: fields.token,
      TokenHash: fields.tokenHash,
      RedirectTo: fields.redirectTo,
    };
    const html = render(config.templates[template], data);
    const href = /href="([^"]*)"/.exec(html)?.[1];
    emails.push({
      to,
      template,
      type,
      html,
      link: href === undefined ? null : decodeHtml(href),
      data,
      sentAt: now(),
    });
  }
  function checkEmailFrequency(sentAt: number | null) {
    if (sentAt !== null && now() - sentAt < config.smtpMaxFrequencyMs) {
      const left = Math.ceil((sentAt + config.smtpMaxFrequencyMs - now()) / 1000);
      throw new GoTrueDoubleError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${left} seconds.`,
      );
    }
  }
  function tokenFor(address: string, code: string, pkce: boolean) {
    const hash = sha224(address + code);
    return pkce ? `pkce_${hash}` : hash;
  }
  function sendConfirmation(user: UserRecord, redirectTo: string, pkce: boolean) {
    checkEmailFrequency(user.confirmationSentAt);
    const code = otp();
    user.confirmationToken = tokenFor(user.email, code, pkce);
    user.confirmationSentAt = now();
    sendMail(user.email, 'confirmation', 'signup', {
      token: code,
      tokenHash: user.confirmationToken,
      redirectTo,
    });
  }
  function sendRecovery(user: UserRecord, redirectTo: string, pkce: boolean, kind: 'recovery' | 'magiclink') {
    checkEmailFrequency(user.recoverySentAt);
    const code = otp();
    user.recoveryToken = tokenFor(user.email, code, pkce);
    user.recoverySentAt = now();
    sendMail(user.email, kind === 'recovery' ? 'recovery' : 'magicLink', kind, {
      token: code,
      tokenHash: user.recoveryToken,
      redirectTo,
    });
  }
  function sendEmailChange(user: UserRecord, newEmail: string, redirectTo: string, pkce: boolean) {
    checkEmailFrequency(user.emailChangeSentAt);
    const codeNew = otp();
    user.emailChange = newEmail;
    user.emailChangeTokenNew = tokenFor(newEmail, codeNew, pkce);
    user.emailChangeTokenCurrent = '';
    user.emailChangeConfirmStatus = 0;
    user.emailChangeSentAt = now();
    sendMail(newEmail, 'emailChange', 'email_change', {
      token: codeNew,
      tokenHash: user.emailChangeTokenNew,
      redirectTo,
      email: user.email,
      newEmail,
    });
    if (config.secureEmailChange && user.email !== '') {
      const codeCurrent = otp();
      user.emailChangeTokenCurrent = tokenFor(user.email, codeCurrent, pkce);
      sendMail(user.email, 'emailChange', 'email_change', {
        token: codeCurrent,
        tokenHash: user.emailChangeTokenCurrent,
        redirectTo,
        newEmail,
      });
    }
  }
  function sendSms(user: UserRecord, phone: string, type: 'sms' | 'phone_change') {
    const sentAt = type === 'sms' ? user.confirmationSentAt : user.phoneChangeSentAt;
    if (sentAt !== null && now() - sentAt < config.smsMaxFrequencyMs) {
      const left = Math.ceil((sentAt + config.smsMaxFrequencyMs - now()) / 1000);
      throw new GoTrueDoubleError(
        429,
        'over_sms_send_rate_limit',
        `For security purposes, you can only request this after ${left} seconds.`,
      );
    }
    const code = otp();
    if (type === 'sms') {
      user.confirmationToken = sha224(phone + code);
      user.confirmationSentAt = now();
    } else {
      user.phoneChangeToken = sha224(phone + code);
      user.phoneChangeSentAt = now();
    }
    smsOutbox.push({ to: `+${phone}`, otp: code, type, sentAt: now() });
  }

  // ---- shared handler logic ------------------------------------------------------------------------------

  function signupEmailUser(email: string, password: string, data: Record<string, unknown>): UserRecord {
    const user = newUser({
      email,
      password,
      userMetadata: { ...data },
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    addIdentity(user, 'email', user.id, { email, email_verified: false, phone_verified: false, ...data });
    return user;
  }
  function signupPhoneUser(phone: string, password: string, data: Record<string, unknown>): UserRecord {
    const user = newUser({
      phone,
      password,
      userMetadata: { ...data },
      appMetadata: { provider: 'phone', providers: ['phone'] },
    });
    addIdentity(user, 'phone', user.id, { phone, email_verified: false, phone_verified: false, ...data });
    return user;
  }

  function verifyTokenHash(type: string, hash: string): { user: UserRecord; type: string } {
    const matches = (stored: string) => stored !== '' && (stored === hash || stored === `pkce_${hash}`);
    let user: UserRecord | undefined;
    let resolved = type;
    for (const u of users.values()) {
      if ((type === 'signup' || type === 'invite') && matches(u.confirmationToken)) user = u;
      else if ((type === 'recovery' || type === 'magiclink') && matches(u.recoveryToken)) user = u;
      else if (
        type === 'email_change' &&
        (matches(u.emailChangeTokenNew) || matches(u.emailChangeTokenCurrent))
      )
        user = u;
      else if (type === 'email' && matches(u.confirmationToken)) {
        user = u;
        resolved = 'signup';
      } else if (type === 'email' && matches(u.recoveryToken)) {
        user = u;
        resolved = 'magiclink';
      }
      if (user) break;
    }
    if (!['signup', 'invite', 'recovery', 'magiclink', 'email_change', 'email'].includes(type)) {
      throw new GoTrueDoubleError(400, 'validation_failed', 'Invalid email verification type');
    }
    if (!user) throw new GoTrueDoubleError(403, 'otp_expired', 'Email link is invalid or has expired');
    if (isBanned(user)) throw new GoTrueDoubleError(403, 'user_banned', 'User is banned');
    const sentAt =
      resolved === 'signup' || resolved === 'invite'
        ? user.confirmationSentAt
        : resolved === 'email_change'
          ? user.emailChangeSentAt
          : user.recoverySentAt;
    if (sentAt === null || now() - sentAt > config.mailerOtpExpMs) {
      throw new GoTrueDoubleError(403, 'otp_expired', 'Email link is invalid or has expired');
    }
    return { user, type: resolved };
  }

  function verifyUserAndToken(
    type: string,
    email: string,
    phone: string,
    token: string,
  ): { user: UserRecord; type: string } {
    const invalid = () => new GoTrueDoubleError(403, 'otp_expired', 'Token has expired or is invalid');
    if (type === 'sms' || type === 'phone_change') {
      const user =
        type === 'sms'
          ? findByPhone(phone)
          : [...users.values()].find((u) => u.phoneChange !== '' && u.phoneChange === phone);
      if (!user) throw invalid();
      if (isBanned(user)) throw new GoTrueDoubleError(403, 'user_banned', 'User is banned');
      const expected = type === 'sms' ? user.confirmationToken : user.phoneChangeToken;
      const sentAt = type === 'sms' ? user.confirmationSentAt : user.phoneChangeSentAt;
      const ok =
        expected !== '' &&
        sentAt !== null &&
        now() - sentAt <= config.smsOtpExpMs &&
        expected === sha224(phone + token);
      if (!ok) throw invalid();
      return { user, type };
    }
    const user =
      type === 'email_change'
        ? [...users.values()].find(
            (u) => u.emailChange === email || (u.email === email && u.emailChange !== ''),
          )
        : findByEmail(email);
    if (!user) throw invalid();
    if (isBanned(user)) throw new GoTrueDoubleError(403, 'user_banned', 'User is banned');
    const hash = sha224(email + token);
    const valid = (stored: string, sentAt: number | null) =>
      stored !== '' &&
      sentAt !== null &&
      now() - sentAt <= config.mailerOtpExpMs &&
      (stored === hash || stored === `pkce_${hash}`);
    if (type === 'email') {
      if (valid(user.confirmationToken, user.confirmationSentAt)) return { user, type: 'signup' };
      if (valid(user.recoveryToken, user.recoverySentAt)) return { user, type: 'magiclink' };
      throw invalid();
    }
    const ok =
      type === 'signup' || type === 'invite'
        ? valid(user.confirmationToken, user.confirmationSentAt)
        : type === 'recovery' || type === 'magiclink'
          ? valid(user.recoveryToken, user.recoverySentAt)
          : valid(user.emailChangeTokenNew, user.emailChangeSentAt) ||
            valid(user.emailChangeTokenCurrent, user.emailChangeSentAt);
    if (!ok) throw invalid();
    return { user, type };
  }

  /** Applies a verified token; `null` when a secure email change still waits for its other link. */
  function applyVerification(user: UserRecord, type: string, hash: string): UserRecord | null {
    switch (type) {
      case 'signup':
      case 'invite':
        confirmEmail(user);
        return user;
      case 'recovery':
      case 'magiclink':
        user.recoveryToken = '';
        if (user.emailConfirmedAt === null) confirmEmail(user);
        return user;
      case 'email_change': {
        if (
          !config.mailerAutoconfirm &&
          config.secureEmailChange &&
          user.emailChangeConfirmStatus === 0 &&
          user.email !== ''
        ) {
          user.emailChangeConfirmStatus = 1;
          const matches = (s: string) => s === hash || s === `pkce_${hash}`;
          if (matches(user.emailChangeTokenCurrent)) user.emailChangeTokenCurrent = '';
          else if (matches(user.emailChangeTokenNew)) user.emailChangeTokenNew = '';
          return null;
        }
        return confirmEmailChange(user);
      }
      case 'sms':
        user.phoneConfirmedAt ??= now();
        user.confirmationToken = '';
        for (const i of user.identities) if (i.provider === 'phone') i.identityData.phone_verified = true;
        user.isAnonymous = false;
        return user;
      default: {
        // phone_change
        const identity = user.identities.find((i) => i.provider === 'phone');
        if (identity) {
          identity.identityData.phone = user.phoneChange;
          identity.identityData.phone_verified = true;
        } else {
          addIdentity(user, 'phone', user.id, { phone: user.phoneChange, phone_verified: true });
        }
        user.phone = user.phoneChange;
        user.phoneConfirmedAt = now();
        user.phoneChange = '';
        user.phoneChangeToken = '';
        user.isAnonymous = false;
        updateProviders(user);
        return user;
      }
    }
  }
  function confirmEmailChange(user: UserRecord): UserRecord {
    const identity = user.identities.find((i) => i.provider === 'email');
    if (identity) {
      identity.identityData.email = user.emailChange;
      identity.identityData.email_verified = true;
    } else {
      addIdentity(user, 'email', user.id, {
        email: user.emailChange,
        email_verified: true,
        phone_verified: false,
      });
    }
    user.email = user.emailChange;
    user.emailConfirmedAt = now();
    user.emailChange = '';
    user.emailChangeTokenNew = '';
    user.emailChangeTokenCurrent = '';
    user.emailChangeConfirmStatus = 0;
    user.isAnonymous = false;
    updateProviders(user);
    return user;
  }

  function identityData(provider: string, identity: DoubleIdpIdentity): Record<string, unknown> {
    return {
      iss: `${idpUrl}/${provider}`,
      sub: identity.sub,
      email: identity.email,
      email_verified: identity.emailVerified ?? true,
      phone_verified: false,
      provider_id: identity.sub,
      ...(identity.displayName ? { name: identity.displayName, full_name: identity.displayName } : {}),
    };
  }

  /** external.go's createAccountFromExternalIdentity, with automatic linking by verified email. */
  function accountFromIdentity(provider: string, identity: DoubleIdpIdentity): UserRecord {
    const data = identityData(provider, identity);
    const verified = identity.emailVerified ?? true;
    const existing = findIdentity(provider, identity.sub);
    let user: UserRecord;
    if (existing) {
      user = users.get(existing.userId) as UserRecord;
      existing.identityData = data;
      existing.lastSignInAt = now();
      Object.assign(user.userMetadata, data);
    } else {
      const sameEmail = verified ? findByEmail(identity.email) : undefined;
      if (sameEmail) {
        user = sameEmail;
        addIdentity(user, provider, identity.sub, data);
        Object.assign(user.userMetadata, data);
      } else {
        if (config.disableSignup)
          throw new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');
        user = newUser({
          email: identity.email.toLowerCase(),
          userMetadata: { ...data },
          appMetadata: { provider, providers: [provider] },
        });
        addIdentity(user, provider, identity.sub, data);
      }
    }
    if (isBanned(user)) throw new GoTrueDoubleError(403, 'user_banned', 'User is banned');
    if (user.emailConfirmedAt === null) {
      if (verified || config.mailerAutoconfirm) confirmEmail(user);
      else {
        sendConfirmation(user, config.siteUrl, false);
        throw new GoTrueDoubleError(
          422,
          'provider_email_needs_verification',
          `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
        );
      }
    }
    return user;
  }

  /** identity.go's linkIdentityToUser. */
  function linkIdentityToUser(target: UserRecord, provider: string, identity: DoubleIdpIdentity): UserRecord {
    const existing = findIdentity(provider, identity.sub);
    if (existing) {
      throw new GoTrueDoubleError(
        422,
        'identity_already_exists',
        existing.userId === target.id
          ? 'Identity is already linked'
          : 'Identity is already linked to another user',
      );
    }
    const data = identityData(provider, identity);
    if (target.email === '') {
      if (findByEmail(identity.email)) {
        throw new GoTrueDoubleError(
          400,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
    }
    addIdentity(target, provider, identity.sub, data);
    if (target.email === '') {
      target.email = identity.email.toLowerCase();
      if (!(identity.emailVerified ?? true)) {
        sendConfirmation(target, config.siteUrl, false);
        throw new GoTrueDoubleError(
          422,
          'email_not_confirmed',
          `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
        );
      }
      confirmEmail(target);
      target.isAnonymous = false;
    }
    updateProviders(target);
    return target;
  }

  // ---- the fake IdP --------------------------------------------------------------------------------------

  function issueIdToken(provider: string, identity: DoubleIdpIdentity): string {
    const iat = Math.floor(now() / 1000);
    return signJwt(
      {
        iss: `${idpUrl}/${provider}`,
        aud: IDP_CLIENT_ID,
        sub: identity.sub,
        email: identity.email,
        email_verified: identity.emailVerified ?? true,
        ...(identity.displayName ? { name: identity.displayName } : {}),
        iat,
        exp: iat + 3600,
      },
      IDP_SECRET,
    );
  }
  function verifyIdToken(provider: string, token: string): DoubleIdpIdentity | null {
    const claims = verifyJwt(token, IDP_SECRET);
    if (!claims || claims.iss !== `${idpUrl}/${provider}` || claims.aud !== IDP_CLIENT_ID) return null;
    if (typeof claims.exp === 'number' && claims.exp * 1000 < now()) return null;
    return {
      sub: str(claims.sub),
      email: str(claims.email),
      emailVerified: claims.email_verified !== false,
      ...(typeof claims.name === 'string' ? { displayName: claims.name } : {}),
    };
  }

  // ---- responses -----------------------------------------------------------------------------------------

  function errorResponse(error: unknown, request: Request): Response {
    if (error instanceof OAuthDoubleError) {
      return HttpResponse.json({ error: error.error, error_description: error.message }, { status: 400 });
    }
    const e =
      error instanceof GoTrueDoubleError
        ? error
        : new GoTrueDoubleError(
            500,
            'unexpected_failure',
            'Unexpected failure, please check server logs for more information',
          );
    const versioned =
      config.apiVersioning && (request.headers.get('x-supabase-api-version') ?? '') >= API_VERSION;
    const weak = e.weakPassword ? { weak_password: { reasons: ['length'] } } : {};
    if (versioned) {
      return HttpResponse.json(
        { code: e.code, message: e.message, ...weak },
        { status: e.status, headers: { 'X-Supabase-Api-Version': API_VERSION } },
      );
    }
    return HttpResponse.json(
      { code: e.status, error_code: e.code, msg: e.message, ...weak },
      { status: e.status },
    );
  }
  const json = (body: unknown, status = 200) =>
    HttpResponse.json(body as Record<string, unknown>, { status });
  const redirect = (location: string, status = 302) =>
    new HttpResponse(null, { status, headers: { Location: location } });

  function redirectWithError(
    base: string,
    error: GoTrueDoubleError | OAuthDoubleError,
    pkce: boolean,
  ): string {
    const url = new URL(base);
    const q = pkce ? url.searchParams : new URLSearchParams(url.search);
    const h = new URLSearchParams();
    if (error instanceof OAuthDoubleError) {
      for (const p of [q, h]) {
        p.set('error', error.error);
        p.set('error_description', error.message);
      }
    } else {
      const name = ['signup_disabled', 'user_banned', 'provider_email_needs_verification'].includes(
        error.code,
      )
        ? 'access_denied'
        : ((
            {
              400: 'invalid_request',
              401: 'unauthorized_client',
              403: 'access_denied',
              500: 'server_error',
            } as Record<number, string>
          )[error.status] ?? 'server_error');
      for (const p of [q, h]) {
        p.set('error', name);
        p.set('error_code', error.code);
        p.set('error_description', error.message);
      }
    }
    h.set('sb', '');
    url.search = q.toString();
    url.hash = h.toString();
    return url.href;
  }

  // ---- routes --------------------------------------------------------------------------------------------

  async function body(request: Request): Promise<Record<string, unknown>> {
    try {
      const parsed: unknown = await request.json();
      return isObject(parsed) ? parsed : {};
    } catch {
      throw new GoTrueDoubleError(400, 'bad_json', 'Could not parse request body as JSON');
    }
  }

  async function signup(request: Request, q: URLSearchParams) {
    const b = await body(request);
    checkCaptcha(b);
    const email = str(b.email);
    const phone = str(b.phone);
    const data = isObject(b.data) ? b.data : {};
    if (email === '' && phone === '') {
      if (!config.anonymousUsers)
        throw new GoTrueDoubleError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      if (config.disableSignup)
        throw new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');
      const user = newUser({ isAnonymous: true, userMetadata: { ...data } });
      return json(issueSession(user, 'anonymous'));
    }
    if (config.disableSignup)
      throw new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');
    const password = str(b.password);
    if (password === '')
      throw new GoTrueDoubleError(400, 'validation_failed', 'Signup requires a valid password');
    checkPassword(password);
    if (email !== '' && phone !== '') {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        'Only an email address or phone number should be provided on signup.',
      );
    }
    const pkce = validatePkce(b);
    if (email !== '') {
      const address = validateEmail(email);
      let user = findByEmail(address);
      if (user?.emailConfirmedAt) {
        if (config.mailerAutoconfirm || config.smsAutoconfirm) {
          throw new GoTrueDoubleError(422, 'user_already_exists', 'User already registered');
        }
        // sanitizeUser: a decoy that reveals nothing about the existing account.
        const t = now();
        return json({
          id: randomUUID(),
          aud: 'authenticated',
          role: '',
          email: address,
          phone: '',
          confirmation_sent_at: iso(t),
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: data,
          identities: [],
          created_at: iso(t),
          updated_at: iso(t),
          is_anonymous: false,
        });
      }
      user ??= signupEmailUser(address, password, data);
      if (config.mailerAutoconfirm) {
        confirmEmail(user);
        return json(issueSession(user, 'password'));
      }
      if (pkce) {
        newFlowState({
          providerType: 'email',
          authMethod: 'email/signup',
          codeChallenge: pkce.challenge,
          codeChallengeMethod: pkce.method,
          userId: user.id,
        });
      }
      sendConfirmation(user, referrer(q.get('redirect_to')), pkce !== null);
      return json(userJson(user));
    }
    const number = validatePhone(phone);
    let user = findByPhone(number);
    if (user?.phoneConfirmedAt) {
      if (config.mailerAutoconfirm || config.smsAutoconfirm) {
        throw new GoTrueDoubleError(422, 'user_already_exists', 'User already registered');
      }
      return json({
        id: randomUUID(),
        aud: 'authenticated',
        email: '',
        phone: number,
        identities: [],
        app_metadata: {},
        user_metadata: data,
        created_at: iso(now()),
      });
    }
    user ??= signupPhoneUser(number, password, data);
    if (config.smsAutoconfirm) {
      applyVerification(user, 'sms', '');
      return json(issueSession(user, 'password'));
    }
    sendSms(user, number, 'sms');
    return json(userJson(user));
  }

  async function otpRoute(request: Request, q: URLSearchParams) {
    const b = await body(request);
    checkCaptcha(b);
    const email = str(b.email);
    const phone = str(b.phone);
    const createUser = b.create_user !== false;
    const data = isObject(b.data) ? b.data : {};
    if (email !== '' && phone !== '') {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        'Only an email address or phone number should be provided',
      );
    }
    const pkce = validatePkce(b);
    if (email !== '') {
      const address = validateEmail(email);
      if (!createUser && !findByEmail(address))
        throw new GoTrueDoubleError(422, 'otp_disabled', 'Signups not allowed for otp');
      let user = findByEmail(address);
      const redirectTo = referrer(q.get('redirect_to'));
      if (!user || user.emailConfirmedAt === null) {
        if (config.disableSignup)
          throw new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');
        user ??= signupEmailUser(address, randomUUID(), data);
        if (!config.mailerAutoconfirm) {
          if (pkce) {
            newFlowState({
              providerType: 'email',
              authMethod: 'email/signup',
              codeChallenge: pkce.challenge,
              codeChallengeMethod: pkce.method,
              userId: user.id,
            });
          }
          // "otherwise confirmation email already contains 'magic link'"
          sendConfirmation(user, redirectTo, pkce !== null);
          return json({});
        }
        confirmEmail(user);
      }
      if (pkce) {
        newFlowState({
          providerType: 'magiclink',
          authMethod: 'magiclink',
          codeChallenge: pkce.challenge,
          codeChallengeMethod: pkce.method,
          userId: user.id,
        });
      }
      sendRecovery(user, redirectTo, pkce !== null, 'magiclink');
      return json({});
    }
    if (phone !== '') {
      const number = validatePhone(phone);
      let user = findByPhone(number);
      if (!createUser && !user)
        throw new GoTrueDoubleError(422, 'otp_disabled', 'Signups not allowed for otp');
      if (!user || user.phoneConfirmedAt === null) {
        if (config.disableSignup)
          throw new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');
        user ??= signupPhoneUser(number, randomUUID(), data);
        if (config.smsAutoconfirm) applyVerification(user, 'sms', '');
        sendSms(user, number, 'sms');
        return json({});
      }
      sendSms(user, number, 'sms');
      return json({ message_id: `double-${smsOutbox.length}` });
    }
    throw new GoTrueDoubleError(400, 'validation_failed', 'One of email or phone must be set');
  }

  async function verifyPost(request: Request) {
    const b = await body(request);
    const type = str(b.type);
    const token = str(b.token);
    const tokenHash = str(b.token_hash);
    const email = str(b.email);
    const phone = str(b.phone);
    if (type === '')
      throw new GoTrueDoubleError(400, 'validation_failed', 'Verify requires a verification type');
    if ((token === '' && tokenHash === '') || (token !== '' && tokenHash !== '')) {
      throw new GoTrueDoubleError(400, 'validation_failed', 'Verify requires either a token or a token hash');
    }
    let verified: { user: UserRecord; type: string };
    let hash = tokenHash;
    if (token !== '') {
      if (phone !== '' && email === '') {
        const number = validatePhone(phone);
        hash = sha224(number + token);
        verified = verifyUserAndToken(type, '', number, token);
      } else if (email !== '' && phone === '') {
        const address = validateEmail(email);
        hash = sha224(address + token);
        verified = verifyUserAndToken(type, address, '', token);
      } else {
        throw new GoTrueDoubleError(
          400,
          'validation_failed',
          'Only an email address or phone number should be provided on verify',
        );
      }
    } else {
      if (email !== '' || phone !== '' || str(b.redirect_to) !== '') {
        throw new GoTrueDoubleError(
          400,
          'validation_failed',
          'Only the token_hash and type should be provided',
        );
      }
      verified = verifyTokenHash(type, tokenHash);
    }
    const user = applyVerification(verified.user, verified.type, hash);
    if (!user) {
      return json({
        msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
        code: '200',
      });
    }
    return json(issueSession(user, 'otp'));
  }

  /** GET /verify: the `{{ .ConfirmationURL }}` of GoTrue's default templates. */
  function verifyGet(q: URLSearchParams): Response {
    const token = q.get('token') ?? '';
    const type = q.get('type') ?? '';
    const redirectTo = referrer(q.get('redirect_to'));
    const pkce = token.startsWith('pkce_');
    try {
      if (type === '' || token === '')
        throw new GoTrueDoubleError(400, 'validation_failed', 'Verify requires a token or a token hash');
      const verified = verifyTokenHash(type, token);
      const user = applyVerification(verified.user, verified.type, token);
      if (!user) {
        const url = new URL(redirectTo);
        url.hash = new URLSearchParams({
          message: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
        }).toString();
        return redirect(url.href, 303);
      }
      if (pkce) {
        const flow = [...flowStates.values()]
          .reverse()
          .find((f) => f.userId === user.id && f.providerType !== 'oauth');
        if (!flow)
          throw new GoTrueDoubleError(400, 'flow_state_not_found', 'No associated flow state found.');
        flow.authCode = randomUUID();
        flow.createdAt = now();
        const url = new URL(redirectTo);
        url.searchParams.set('code', flow.authCode);
        return redirect(url.href, 303);
      }
      const tokens = issueSession(user, 'otp');
      const h = new URLSearchParams({
        access_token: str(tokens.access_token),
        expires_at: String(tokens.expires_at),
        expires_in: String(tokens.expires_in),
        refresh_token: str(tokens.refresh_token),
        token_type: 'bearer',
        type,
      });
      return redirect(`${redirectTo}#${h.toString()}`, 303);
    } catch (e) {
      if (e instanceof GoTrueDoubleError) return redirect(redirectWithError(redirectTo, e, pkce), 303);
      throw e;
    }
  }

  async function recover(request: Request, q: URLSearchParams) {
    const b = await body(request);
    checkCaptcha(b);
    const email = str(b.email);
    if (email === '')
      throw new GoTrueDoubleError(400, 'validation_failed', 'Password recovery requires an email');
    const address = validateEmail(email);
    const pkce = validatePkce(b);
    const user = findByEmail(address);
    // Unknown emails succeed silently: GoTrue does not reveal accounts here.
    if (!user) return json({});
    if (pkce) {
      newFlowState({
        providerType: 'recovery',
        authMethod: 'recovery',
        codeChallenge: pkce.challenge,
        codeChallengeMethod: pkce.method,
        userId: user.id,
      });
    }
    sendRecovery(user, referrer(q.get('redirect_to')), pkce !== null, 'recovery');
    return json({});
  }

  async function userUpdate(request: Request, q: URLSearchParams) {
    const { user } = authenticate(request);
    const b = await body(request);
    const email = str(b.email) === '' ? '' : validateEmail(str(b.email));
    const phone = str(b.phone) === '' ? '' : validatePhone(str(b.phone));
    const password = typeof b.password === 'string' ? b.password : null;
    if (password !== null) checkPassword(password);
    if (user.isAnonymous && password && email === '' && phone === '') {
      throw new GoTrueDoubleError(
        422,
        'validation_failed',
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
    }
    if (email !== '' && email !== user.email) {
      const dup = findByEmail(email);
      if (dup && dup.id !== user.id) {
        throw new GoTrueDoubleError(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
    }
    if (phone !== '' && phone !== user.phone && findByPhone(phone)) {
      throw new GoTrueDoubleError(
        422,
        'phone_exists',
        'A user with this phone number has already been registered',
      );
    }
    if (password !== null && password !== '' && user.password === password) {
      throw new GoTrueDoubleError(
        422,
        'same_password',
        'New password should be different from the old password.',
      );
    }
    const pkce = validatePkce(b);
    if (password !== null) user.password = password;
    if (isObject(b.data)) Object.assign(user.userMetadata, b.data);
    if (email !== '' && email !== user.email) {
      if (user.isAnonymous && config.mailerAutoconfirm) {
        // "anonymous users can add an email with automatic confirmation, which is similar to signing up"
        user.emailChange = email;
        confirmEmailChange(user);
      } else {
        if (pkce) {
          newFlowState({
            providerType: 'email_change',
            authMethod: 'email_change',
            codeChallenge: pkce.challenge,
            codeChallengeMethod: pkce.method,
            userId: user.id,
          });
        }
        sendEmailChange(user, email, referrer(q.get('redirect_to')), pkce !== null);
      }
    }
    if (phone !== '' && phone !== user.phone) {
      user.phoneChange = phone;
      if (config.smsAutoconfirm) applyVerification(user, 'phone_change', '');
      else sendSms(user, phone, 'phone_change');
    }
    user.updatedAt = now();
    return json(userJson(user));
  }

  async function token(request: Request, q: URLSearchParams) {
    const grant = q.get('grant_type') ?? '';
    const b = await body(request);
    switch (grant) {
      case 'password': {
        checkCaptcha(b);
        const email = str(b.email);
        const phone = str(b.phone);
        if (email !== '' && phone !== '') {
          throw new GoTrueDoubleError(
            400,
            'validation_failed',
            'Only an email address or phone number should be provided on login.',
          );
        }
        let user: UserRecord | undefined;
        if (email !== '') user = findByEmail(email);
        else if (phone !== '') user = findByPhone(formatPhone(phone));
        else throw new GoTrueDoubleError(400, 'validation_failed', 'missing email or phone');
        const invalid = () => new GoTrueDoubleError(400, 'invalid_credentials', 'Invalid login credentials');
        if (!user || user.password === null) throw invalid();
        if (isBanned(user)) throw new GoTrueDoubleError(400, 'user_banned', 'User is banned');
        if (user.password !== str(b.password)) throw invalid();
        if (email !== '' && user.emailConfirmedAt === null)
          throw new GoTrueDoubleError(400, 'email_not_confirmed', 'Email not confirmed');
        if (phone !== '' && user.phoneConfirmedAt === null)
          throw new GoTrueDoubleError(400, 'phone_not_confirmed', 'Phone not confirmed');
        return json(issueSession(user, 'password'));
      }
      case 'refresh_token': {
        const record = refreshTokens.get(str(b.refresh_token));
        if (!record)
          throw new GoTrueDoubleError(
            400,
            'refresh_token_not_found',
            'Invalid Refresh Token: Refresh Token Not Found',
          );
        if (record.revoked)
          throw new GoTrueDoubleError(
            400,
            'refresh_token_already_used',
            'Invalid Refresh Token: Already Used',
          );
        const session = sessions.get(record.sessionId);
        const user = session ? users.get(session.userId) : undefined;
        if (!session || !user)
          throw new GoTrueDoubleError(
            400,
            'refresh_token_not_found',
            'Invalid Refresh Token: Refresh Token Not Found',
          );
        record.revoked = true;
        return json(issueSession(user, session.amr, session.id));
      }
      case 'pkce': {
        const authCode = str(b.auth_code);
        const verifier = str(b.code_verifier);
        if (authCode === '' || verifier === '') {
          throw new GoTrueDoubleError(
            400,
            'validation_failed',
            'invalid request: both auth code and code verifier should be non-empty',
          );
        }
        const flow = [...flowStates.values()].find((f) => f.authCode === authCode);
        if (!flow || flow.userId === null) {
          throw new GoTrueDoubleError(
            404,
            'flow_state_not_found',
            'invalid flow state, no valid flow state found',
          );
        }
        if (now() - flow.createdAt > FLOW_STATE_EXPIRY_MS) {
          throw new GoTrueDoubleError(
            422,
            'flow_state_expired',
            'invalid flow state, flow state has expired',
          );
        }
        const expected = flow.codeChallengeMethod === 's256' ? toBase64Url(sha256(verifier)) : verifier;
        if (expected !== flow.codeChallenge) {
          throw new GoTrueDoubleError(
            400,
            'bad_code_verifier',
            'code challenge does not match previously saved code verifier',
          );
        }
        const user = users.get(flow.userId);
        if (!user)
          throw new GoTrueDoubleError(
            404,
            'flow_state_not_found',
            'invalid flow state, no valid flow state found',
          );
        flowStates.delete(flow.id);
        return json(issueSession(user, flow.authMethod));
      }
      case 'id_token': {
        const idToken = str(b.id_token);
        const provider = str(b.provider);
        if (idToken === '') throw new OAuthDoubleError('invalid request', 'id_token required');
        if (provider === '')
          throw new OAuthDoubleError('invalid request', 'provider or client_id and issuer required');
        if (!ID_TOKEN_PROVIDERS.includes(provider)) {
          throw new GoTrueDoubleError(
            400,
            'validation_failed',
            `Custom OIDC provider "${provider}" not allowed`,
          );
        }
        if (!config.externalProviders.has(provider)) {
          throw new GoTrueDoubleError(
            400,
            'provider_disabled',
            `Provider (issuer "${idpUrl}/${provider}") is not enabled`,
          );
        }
        const identity = verifyIdToken(provider, idToken);
        if (!identity || identity.sub === '') throw new OAuthDoubleError('invalid request', 'Bad ID token');
        if (b.link_identity === true) {
          if (!config.manualLinking)
            throw new GoTrueDoubleError(404, 'manual_linking_disabled', 'Manual linking is disabled');
          const { user, sessionId } = authenticate(request);
          return json(issueSession(linkIdentityToUser(user, provider, identity), 'oauth', sessionId));
        }
        return json(issueSession(accountFromIdentity(provider, identity), 'oauth'));
      }
      default:
        throw new OAuthDoubleError('unsupported_grant_type', '');
    }
  }

  function authorize(q: URLSearchParams, linkingTarget: UserRecord | null): string {
    const provider = (q.get('provider') ?? '').toLowerCase();
    if (!config.externalProviders.has(provider)) {
      throw new GoTrueDoubleError(
        400,
        'validation_failed',
        `Unsupported provider: provider ${provider} could not be found`,
      );
    }
    const pkce = validatePkce({
      code_challenge: q.get('code_challenge') ?? '',
      code_challenge_method: q.get('code_challenge_method') ?? '',
    });
    const flow = newFlowState({
      providerType: 'oauth',
      authMethod: 'oauth',
      codeChallenge: pkce?.challenge ?? '',
      codeChallengeMethod: pkce?.method ?? '',
      referrer: referrer(q.get('redirect_to')),
      linkingTargetId: linkingTarget?.id ?? null,
    });
    const idp = new URL(`${idpUrl}/${provider}/authorize`);
    idp.searchParams.set('client_id', IDP_CLIENT_ID);
    idp.searchParams.set('redirect_uri', `${authUrl}/callback`);
    idp.searchParams.set('response_type', 'code');
    idp.searchParams.set('state', flow.id);
    const scopes = q.get('scopes');
    if (scopes) idp.searchParams.set('scope', scopes);
    for (const [key, value] of q) {
      if (
        ![
          'provider',
          'redirect_to',
          'scopes',
          'code_challenge',
          'code_challenge_method',
          'skip_http_redirect',
        ].includes(key)
      ) {
        idp.searchParams.set(key, value);
      }
    }
    return idp.href;
  }

  function callback(q: URLSearchParams): string {
    const state = q.get('state') ?? '';
    const flow = flowStates.get(state);
    const base = flow?.referrer ?? config.siteUrl;
    const pkce = (flow?.codeChallenge ?? '') !== '';
    try {
      if (state === '')
        throw new GoTrueDoubleError(400, 'bad_oauth_callback', 'OAuth state parameter missing');
      if (!flow) throw new GoTrueDoubleError(400, 'bad_oauth_state', 'OAuth state not found or expired');
      if (now() - flow.createdAt > FLOW_STATE_EXPIRY_MS)
        throw new GoTrueDoubleError(400, 'bad_oauth_state', 'OAuth state has expired');
      const idpError = q.get('error');
      if (idpError) throw new OAuthDoubleError(idpError, q.get('error_description') ?? '');
      const grant = idpCodes.get(q.get('code') ?? '');
      if (!grant) throw new OAuthDoubleError('server_error', 'Error exchanging code with provider');
      idpCodes.delete(q.get('code') ?? '');
      const target = flow.linkingTargetId ? users.get(flow.linkingTargetId) : undefined;
      const user = target
        ? linkIdentityToUser(target, grant.provider, grant.identity)
        : accountFromIdentity(grant.provider, grant.identity);
      if (pkce) {
        flow.userId = user.id;
        flow.authCode = randomUUID();
        flow.createdAt = now();
        const url = new URL(base);
        url.searchParams.set('code', flow.authCode);
        return url.href;
      }
      flowStates.delete(flow.id);
      const tokens = issueSession(user, 'oauth');
      const h = new URLSearchParams({
        access_token: str(tokens.access_token),
        expires_at: String(tokens.expires_at),
        expires_in: String(tokens.expires_in),
        provider_token: `idp-access-${grant.identity.sub}`,
        refresh_token: str(tokens.refresh_token),
        token_type: 'bearer',
      });
      return `${base}#${h.toString()}`;
    } catch (e) {
      if (e instanceof GoTrueDoubleError || e instanceof OAuthDoubleError)
        return redirectWithError(base, e, true);
      throw e;
    }
  }

  function idpAuthorize(url: URL): string {
    const provider = url.pathname.split('/')[1] ?? '';
    const back = new URL(url.searchParams.get('redirect_uri') ?? `${authUrl}/callback`);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    const next = idpQueue.shift();
    const hint = url.searchParams.get('login_hint');
    const action =
      next ??
      (hint
        ? { kind: 'identity' as const, identity: { sub: `hint-${sha224(hint).slice(0, 12)}`, email: hint } }
        : { kind: 'cancel' as const });
    if (action.kind === 'cancel') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request');
      return back.href;
    }
    const code = randomUUID();
    idpCodes.set(code, { provider, identity: action.identity });
    back.searchParams.set('code', code);
    return back.href;
  }

  function settingsJson() {
    const external: Record<string, boolean> = {
      anonymous_users: config.anonymousUsers,
      email: true,
      phone: true,
    };
    for (const p of [
      'apple',
      'azure',
      'bitbucket',
      'discord',
      'facebook',
      'figma',
      'github',
      'gitlab',
      'google',
      'kakao',
      'keycloak',
      'linkedin_oidc',
      'notion',
      'slack_oidc',
      'spotify',
      'twitch',
      'twitter',
      'workos',
      'zoom',
    ]) {
      external[p] = config.externalProviders.has(p);
    }
    return {
      external,
      disable_signup: config.disableSignup,
      mailer_autoconfirm: config.mailerAutoconfirm,
      phone_autoconfirm: config.smsAutoconfirm,
      sms_provider: 'twilio',
      saml_enabled: false,
    };
  }

  /** One request to `<projectUrl>/auth/v1/*`, like GoTrue's router. */
  async function route(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/';
    const method = request.method.toUpperCase();
    const q = url.searchParams;
    if (
      request.headers.get('apikey') !== anonKey &&
      path !== '/verify' &&
      path !== '/callback' &&
      path !== '/authorize'
    ) {
      return HttpResponse.json(
        { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
        { status: 401 },
      );
    }
    switch (`${method} ${path}`) {
      case 'POST /signup':
        return signup(request, q);
      case 'POST /otp':
        return otpRoute(request, q);
      case 'POST /verify':
        return verifyPost(request);
      case 'GET /verify':
        return verifyGet(q);
      case 'POST /recover':
        return recover(request, q);
      case 'POST /token':
        return token(request, q);
      case 'GET /user':
        return json(userJson(authenticate(request).user));
      case 'PUT /user':
        return userUpdate(request, q);
      case 'POST /logout': {
        const { user, sessionId } = authenticate(request);
        const scope = q.get('scope') ?? 'global';
        for (const s of [...sessions.values()]) {
          const drop =
            scope === 'local'
              ? s.id === sessionId
              : scope === 'others'
                ? s.userId === user.id && s.id !== sessionId
                : s.userId === user.id;
          if (!drop) continue;
          sessions.delete(s.id);
          for (const [t, r] of refreshTokens) if (r.sessionId === s.id) refreshTokens.delete(t);
        }
        return new HttpResponse(null, { status: 204 });
      }
      case 'GET /authorize':
        return redirect(authorize(q, null));
      case 'GET /user/identities/authorize': {
        const { user } = authenticate(request);
        if (!config.manualLinking)
          throw new GoTrueDoubleError(404, 'manual_linking_disabled', 'Manual linking is disabled');
        const target = authorize(q, user);
        return q.get('skip_http_redirect') === 'true' ? json({ url: target }) : redirect(target);
      }
      case 'GET /callback':
        return redirect(callback(q));
      case 'GET /settings':
        return json(settingsJson());
      case 'GET /health':
        return json({ version: 'double', name: 'GoTrue', description: 'GoTrue double' });
      default:
        throw new GoTrueDoubleError(404, 'not_found', 'Not found');
    }
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    tick();
    const path = url.pathname.replace(/^\/auth\/v1/, '') || '/';
    requests.push({ method: request.method.toUpperCase(), path, at: now() });
    if (faults.network) return HttpResponse.error();
    if (faults.serverError)
      return errorResponse(new GoTrueDoubleError(500, 'unexpected_failure', 'Unexpected failure'), request);
    const failure = failures.findIndex(
      (f) => f.route === '*' || f.route === `${request.method.toUpperCase()} ${path}`,
    );
    if (failure !== -1) {
      const [{ error }] = failures.splice(failure, 1) as [{ route: string; error: DoubleError }];
      return errorResponse(
        new GoTrueDoubleError(error.status, error.code, error.message ?? 'Injected failure'),
        request,
      );
    }
    try {
      return await route(request);
    } catch (e) {
      return errorResponse(e, request);
    }
  }

  const handlers: RequestHandler[] = [
    http.all(`${authUrl}/*`, ({ request }) => handle(request)),
    http.get(`${idpUrl}/*`, ({ request }) => redirect(idpAuthorize(new URL(request.url)))),
  ];

  /** The double as a `fetch`: its own routes and the IdP's, in process. */
  async function doubleFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const url = new URL(request.url);
    let response: Response;
    if (url.href.startsWith(`${authUrl}/`)) response = await handle(request);
    else if (url.origin === idpUrl) response = redirect(idpAuthorize(url));
    else throw new TypeError(`gotrue double: no route to ${url.origin}`);
    if (response.type === 'error') throw new TypeError('Failed to fetch');
    return response;
  }

  /**
   * What a browser does with a URL on the double or its IdP: follows the redirects (synchronously, through
   * the same routes) until it leaves them, and returns where it lands.
   */
  function follow(start: string): string {
    let current = start;
    for (let hops = 0; hops < 10; hops++) {
      const url = new URL(current);
      tick();
      if (url.origin === idpUrl) current = idpAuthorize(url);
      else if (url.href.startsWith(`${authUrl}/authorize`)) current = authorize(url.searchParams, null);
      else if (url.href.startsWith(`${authUrl}/callback`)) current = callback(url.searchParams);
      else if (url.href.startsWith(`${authUrl}/verify`))
        current = verifyGet(url.searchParams).headers.get('Location') ?? '';
      else return current;
    }
    throw new Error('gotrue double: too many redirects');
  }

  const requireUser = (id: string) => {
    const user = users.get(id);
    if (!user) throw new GoTrueDoubleError(404, 'user_not_found', 'User not found');
    return user;
  };

  return {
    /** The project URL to give supabase-js. */
    projectUrl,
    /** The anon key the double accepts. */
    anonKey,
    /** Where the auth API lives. */
    authUrl,
    /** msw handlers for the double and its IdP. */
    handlers,
    /** Requests seen (`{ method, path, at }`), to count round trips. */
    requests,
    /** Simulated time. */
    clock: {
      now,
      advance(ms: number) {
        time += ms;
        skew += ms;
      },
    },
    /** Fault switches. */
    faults: {
      get network() {
        return faults.network;
      },
      set network(on: boolean) {
        faults.network = on;
      },
      get serverError() {
        return faults.serverError;
      },
      set serverError(on: boolean) {
        faults.serverError = on;
      },
      /** Answers the next request to `route` (`'POST /token'`, `'PUT /user'`, …, or `'*'`) with this error. */
      failNext(route: string, error: DoubleError) {
        failures.push({ route, error });
      },
    },
    /** Emails and SMS the double "sent". */
    outbox: {
      emails,
      sms: smsOutbox,
      lastEmail(to: string, type?: DoubleEmail['type']): DoubleEmail | null {
        const t = to.toLowerCase();
        return (
          [...emails].reverse().find((e) => e.to === t && (type === undefined || e.type === type)) ?? null
        );
      },
      lastSms(to: string): DoubleSms | null {
        return [...smsOutbox].reverse().find((s) => s.to === to) ?? null;
      },
      clear() {
        emails.length = 0;
        smsOutbox.length = 0;
      },
    },
    /** The fake IdP behind `/authorize` and ID tokens. */
    idp: {
      /** The next IdP visit signs this identity in. */
      queue(identity: DoubleIdpIdentity) {
        idpQueue.push({ kind: 'identity', identity });
      },
      /** The next IdP visit is cancelled by the person. */
      cancelNext() {
        idpQueue.push({ kind: 'cancel' });
      },
      /** An ID token the double accepts for `signInWithIdToken` (Supabase provider name). */
      idToken: issueIdToken,
    },
    /** A browser's view: follow a URL through the double and the IdP. */
    follow,
    /** The double as a `fetch`. */
    fetch: doubleFetch,
    /** The double's state as JSON. */
    snapshot,
    /** GoTrue's admin API (service role), in process. */
    admin: {
      createUser(attrs: {
        email?: string;
        phone?: string;
        password?: string;
        email_confirm?: boolean;
        phone_confirm?: boolean;
        user_metadata?: Record<string, unknown>;
      }): Record<string, unknown> {
        const email = attrs.email ? validateEmail(attrs.email) : '';
        const phone = attrs.phone ? validatePhone(attrs.phone) : '';
        if (email && findByEmail(email))
          throw new GoTrueDoubleError(
            422,
            'email_exists',
            'A user with this email address has already been registered',
          );
        if (phone && findByPhone(phone))
          throw new GoTrueDoubleError(
            422,
            'phone_exists',
            'A user with this phone number has already been registered',
          );
        const data = attrs.user_metadata ?? {};
        const provider = email ? 'email' : 'phone';
        const user = newUser({
          email,
          phone,
          password: attrs.password ?? null,
          userMetadata: { ...data },
          appMetadata: { provider, providers: [provider] },
          emailConfirmedAt: email && attrs.email_confirm ? now() : null,
          phoneConfirmedAt: phone && attrs.phone_confirm ? now() : null,
        });
        if (email)
          addIdentity(user, 'email', user.id, {
            email,
            email_verified: Boolean(attrs.email_confirm),
            phone_verified: false,
          });
        if (phone)
          addIdentity(user, 'phone', user.id, {
            phone,
            email_verified: false,
            phone_verified: Boolean(attrs.phone_confirm),
          });
        return userJson(user);
      },
      /** GoTrue's POST /admin/generate_link (no mail is sent). */
      generateLink(params: {
        type: 'signup' | 'magiclink' | 'recovery' | 'invite' | 'email_change_current' | 'email_change_new';
        email: string;
        password?: string;
        new_email?: string;
        redirect_to?: string;
      }) {
        const email = validateEmail(params.email);
        let user = findByEmail(email);
        const redirectTo = referrer(params.redirect_to ?? null);
        let hashed = '';
        let code = otp();
        let type: string = params.type;
        switch (params.type) {
          case 'signup':
          case 'invite':
            if (user?.emailConfirmedAt)
              throw new GoTrueDoubleError(
                422,
                'email_exists',
                'A user with this email address has already been registered',
              );
            user ??= signupEmailUser(email, params.password ?? randomUUID(), {});
            if (params.type === 'invite') user.invitedAt = now();
            user.confirmationToken = hashed = sha224(email + code);
            user.confirmationSentAt = now();
            break;
          case 'magiclink':
          case 'recovery':
            if (!user) throw new GoTrueDoubleError(404, 'user_not_found', 'User with this email not found');
            user.recoveryToken = hashed = sha224(email + code);
            user.recoverySentAt = now();
            break;
          default: {
            if (!user) throw new GoTrueDoubleError(404, 'user_not_found', 'User with this email not found');
            const newEmail = validateEmail(params.new_email ?? '');
            if (findByEmail(newEmail))
              throw new GoTrueDoubleError(
                422,
                'email_exists',
                'A user with this email address has already been registered',
              );
            const codeNew = otp();
            const codeCurrent = otp();
            user.emailChange = newEmail;
            user.emailChangeTokenNew = sha224(newEmail + codeNew);
            user.emailChangeTokenCurrent = config.secureEmailChange ? sha224(email + codeCurrent) : '';
            user.emailChangeConfirmStatus = 0;
            user.emailChangeSentAt = now();
            const current = params.type === 'email_change_current';
            hashed = current ? user.emailChangeTokenCurrent : user.emailChangeTokenNew;
            code = current ? codeCurrent : codeNew;
            type = 'email_change';
          }
        }
        return {
          action_link: `${authUrl}/verify?token=${hashed}&type=${type}&redirect_to=${encodeURIComponent(redirectTo)}`,
          email_otp: code,
          hashed_token: hashed,
          redirect_to: redirectTo,
          verification_type: type,
          user: userJson(user),
        };
      },
      /** GoTrue's PUT /admin/users/{id}: `ban_duration` (`'876000h'`, `'none'`), email, confirmation. */
      updateUserById(id: string, attrs: { ban_duration?: string; email_confirm?: boolean }) {
        const user = requireUser(id);
        if (attrs.ban_duration === 'none') user.bannedUntil = null;
        else if (attrs.ban_duration) {
          const hours = Number.parseInt(attrs.ban_duration, 10);
          user.bannedUntil = now() + (Number.isFinite(hours) ? hours : 876000) * 3_600_000;
          // A ban ends the user's sessions.
          for (const s of [...sessions.values()]) if (s.userId === id) sessions.delete(s.id);
        }
        if (attrs.email_confirm) confirmEmail(user);
        return userJson(user);
      },
      getUserById: (id: string) => userJson(requireUser(id)),
      listUsers: () => [...users.values()].map(userJson),
      /** Double-only: gives a user an identity of an OAuth provider (as if they had signed in with it). */
      addIdentity(id: string, provider: string, identity: DoubleIdpIdentity) {
        const user = requireUser(id);
        addIdentity(user, provider, identity.sub, identityData(provider, identity));
        return userJson(user);
      },
      /** Double-only: creates a user from an IdP identity (as a first OAuth sign-in would). */
      createFederatedUser(provider: string, identity: DoubleIdpIdentity) {
        return userJson(accountFromIdentity(provider, identity));
      },
    },
    /** GET /settings, as GoTrue answers it. */
    settings: settingsJson,
  };
}
