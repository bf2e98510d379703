/**
 * The double's types: what its users configure and read (exported from the package) and the records it keeps
 * (users, identities, sessions, flow states), named after GoTrue's tables.
 * @module
 */
import type { RequestHandler } from 'msw';

/** GoTrue's mail templates the double renders. */
export type DoubleTemplateName = 'confirmation' | 'magicLink' | 'recovery' | 'emailChange' | 'invite';

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
   * MFA (GOTRUE_MFA_*): authenticator-app factors (TOTP enrolment and verification, default on, as GoTrue),
   * phone factors (default off: opt-in, as GoTrue), and how often a phone factor may be texted a code
   * (MFA_PHONE_MAX_FREQUENCY, default 60 s).
   */
  mfa?: { totp?: boolean; phone?: boolean; phoneMaxFrequencySeconds?: number };
  /**
   * Passkeys (GOTRUE_PASSKEY_* and GOTRUE_WEBAUTHN_*): `enabled` (default on here; GoTrue ships it off), the
   * relying party's id (default the Site URL's host name), display name (default the same) and the origins
   * its assertions may come from (default the Site URL's origin), how long a challenge lives (default 300 s)
   * and how many passkeys a user may have (default 10). `refuseCounterRegression` (double-only, default off):
   * refuse an assertion whose signature counter did not rise, which GoTrue accepts (go-webauthn only flags it).
   */
  passkey?: {
    enabled?: boolean;
    refuseCounterRegression?: boolean;
    rpId?: string;
    rpDisplayName?: string;
    rpOrigins?: readonly string[];
    challengeExpirySeconds?: number;
    maxPasskeysPerUser?: number;
  };
  /**
   * Simulated time: start (ms) and how far it moves per request. Defaults: now, 1000 ms. With `wall: true`
   * it follows the real clock instead (never backwards; `clock.advance` still moves it ahead), as a double
   * that serves a real app must: tokens it mints then expire when the app's own clock says they do.
   */
  clock?: { start?: number; tickMs?: number; wall?: boolean };
  /**
   * GoTrue's rate limits, with its defaults (GOTRUE_RATE_LIMIT_*; raise them as a project's config can):
   * `header` (RATE_LIMIT_HEADER) names the header whose first value is the client address the per-client
   * limits count by (default: the peer address; a request without a value for a configured header is not
   * limited); per client, `tokenRefresh` `/token` calls per 5 min (150), `verify` `/verify` (30), `otp`
   * `/signup`, `/otp`, `/recover` and `PUT /user` each (30), `anonymousUsers` anonymous sign-ups per hour
   * (30), `mfaChallengeAndVerify` factor challenges and verifies each per minute (15), `passkey` passkey
   * sign-in options per 5 min (30), each a bucket of 30 (of `anonymousUsers` for that one) refilled at that
   * rate; for the whole project, `emailSent` and `smsSent` per hour (30 each, not counted while autoconfirm
   * is on).
   */
  rateLimits?: {
    header?: string;
    tokenRefresh?: number;
    verify?: number;
    otp?: number;
    anonymousUsers?: number;
    mfaChallengeAndVerify?: number;
    passkey?: number;
    emailSent?: number;
    smsSent?: number;
  };
  /** SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: how long a used refresh token may be used again (default 10 s). */
  refreshTokenReuseIntervalSeconds?: number;
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
  /** Pending WebAuthn challenges (absent in snapshots from before passkeys). */
  webauthnChallenges?: unknown[];
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
  /** `mfa`: a phone factor's challenge code. */
  type: 'sms' | 'phone_change' | 'mfa';
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
  /**
   * The service-role key the double accepts: in `apikey` like the anon key, and as the bearer of the admin
   * routes (`DELETE /admin/users/{id}`). A server-side secret on a real project.
   */
  readonly serviceRoleKey: string;
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

/** A row of GoTrue's `identities`. */
export interface Identity {
  identityId: string;
  id: string;
  userId: string;
  provider: string;
  identityData: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  lastSignInAt: number;
}

/** A row of GoTrue's `users`, with its one-time tokens as GoTrue stores them (hashed). */
export interface UserRecord {
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
  /** Its MFA factors (GoTrue's `mfa_factors`, loaded with the user as GoTrue loads them). */
  factors: FactorRecord[];
  /** Its passkeys (GoTrue's `webauthn_credentials`), oldest first. */
  passkeys: PasskeyRecord[];
}

/** A row of GoTrue's `webauthn_credentials`: a passkey. */
export interface PasskeyRecord {
  /** GoTrue's id of the passkey (a UUID): what the routes take. */
  id: string;
  /** The WebAuthn credential id, base64url. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  attestationType: string;
  aaguid: string;
  /** The signature counter last accepted. */
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  backedUp: boolean;
  friendlyName: string;
  createdAt: number;
  updatedAt: number;
  lastUsedAt: number | null;
}

/** A row of GoTrue's `webauthn_challenges`: a registration (bound to a user) or a discoverable sign-in. */
export interface WebAuthnChallengeRecord {
  id: string;
  type: 'registration' | 'authentication';
  userId: string | null;
  /** The challenge the options carried, base64url. */
  challenge: string;
  userVerification: 'required' | 'preferred' | 'discouraged';
  createdAt: number;
  expiresAt: number;
}

/** A row of GoTrue's `mfa_factors`, with its `mfa_challenges`. */
export interface FactorRecord {
  id: string;
  factorType: 'totp' | 'phone';
  status: 'unverified' | 'verified';
  /** `''` when none was given. */
  friendlyName: string;
  /** `totp`: the base32 secret (GoTrue may encrypt it; the double keeps it in clear). */
  secret: string;
  /** `phone`: the number's digits. */
  phone: string;
  createdAt: number;
  updatedAt: number;
  lastChallengedAt: number | null;
  challenges: ChallengeRecord[];
}

/** A row of GoTrue's `mfa_challenges`. */
export interface ChallengeRecord {
  id: string;
  createdAt: number;
  verifiedAt: number | null;
  /** `phone`: the code texted (`''` for TOTP). */
  otpCode: string;
}

/** A row of GoTrue's `flow_state` (PKCE and OAuth). */
export interface FlowState {
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
  /** When an emailed link handed its auth code out (a magic link's 5 minutes count from then). */
  authCodeIssuedAt?: number;
}

/**
 * A row of GoTrue's `sessions`; `amr` is how it was signed in. `mfa` (its aal2 AMR claim and associated
 * factor) is set once a second factor was verified on it: the session is then at aal2.
 */
export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: number;
  amr: string;
  mfa?: { factorId: string; method: 'totp' | 'mfa/phone'; at: number };
}

/** A refresh token and whether it has been used. */
export interface RefreshTokenRecord {
  sessionId: string;
  revoked: boolean;
  /** The token this one was swapped for (absent for a session's first). */
  parent?: string;
  /** When it was last changed (issued, or revoked by its swap). */
  updatedAt?: number;
}

/** A code the fake IdP handed back to `/callback`. */
export interface IdpGrant {
  provider: string;
  identity: DoubleIdpIdentity;
}

/** What the fake IdP's next visit does. */
export type IdpAction = { kind: 'identity'; identity: DoubleIdpIdentity } | { kind: 'cancel' };
