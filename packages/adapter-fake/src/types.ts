/**
 * Public types of the in-memory provider: options, the backend control surface, outbox records and user
 * records.
 * @module
 */
import type {
  AccountOperations,
  ActionLinkSettings,
  AuthErrorDetails,
  AuthProvider,
  ErrorCode,
  PasskeyOperations,
  ProviderCapabilities,
  SecondFactorOperations,
  WebAuthnClient,
} from '@doorway/auth-core';

/** A source of time in epoch milliseconds. Inject one to test expiry without waiting. */
export interface FakeClock {
  now(): number;
}

/** A clock tests move by hand (see {@link createManualClock}). */
export interface ManualClock extends FakeClock {
  /** Moves time forward by `ms`. */
  advance(ms: number): void;
  /** Sets the time to `ms`. */
  set(ms: number): void;
}

/** The asynchronous (round-trip) methods of {@link AuthProvider}, by name. */
export type ProviderMethod = {
  [K in keyof AuthProvider]-?: AuthProvider[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof AuthProvider];

/** The {@link SecondFactorOperations} of `provider.secondFactors`, by name, as the call log names them. */
export type SecondFactorMethod = `secondFactors.${keyof SecondFactorOperations}`;

/** The {@link PasskeyOperations} of `provider.passkeys`, by name, as the call log names them. */
export type PasskeyMethod = `passkeys.${keyof PasskeyOperations}`;

/** The {@link AccountOperations} of `provider.account`, by name, as the call log names them. */
export type AccountMethod = `account.${keyof AccountOperations}`;

/**
 * Every asynchronous call the fake logs and can fail: a provider method, a second-factor, passkey or
 * account operation.
 */
export type FakeMethod = ProviderMethod | SecondFactorMethod | PasskeyMethod | AccountMethod;

/** Kinds of email the fake backend sends. */
export type FakeEmailKind =
  | 'signIn'
  | 'resetPassword'
  | 'verifyEmail'
  | 'recoverEmail'
  | 'verifyAndChangeEmail'
  | 'revertSecondFactorAddition';

/** An email the backend "sent". `link` is the continue URL with `mode`, `oobCode` and `apiKey` appended. */
export interface OutboxEmail {
  to: string;
  kind: FakeEmailKind;
  link: string;
  oobCode: string;
  sentAt: number;
  tenantId: string | null;
}

/** An SMS the backend "sent". */
export interface OutboxSms {
  to: string;
  code: string;
  verificationId: string;
  sentAt: number;
  tenantId: string | null;
}

/** What the backend "sent", oldest first. The arrays are live: they grow as the provider sends. */
export interface FakeOutbox {
  readonly emails: readonly OutboxEmail[];
  readonly sms: readonly OutboxSms[];
  /** The latest email to `to` (optionally of one kind), or `null`. Emails compare case-insensitively. */
  lastEmail(to: string, kind?: FakeEmailKind): OutboxEmail | null;
  /** The latest SMS to `to`, or `null`. */
  lastSms(to: string): OutboxSms | null;
  /** Empties both lists. */
  clear(): void;
}

/** An identity the fake IdP returns, as the IdP's ID token would carry it. */
export interface FakeIdentity {
  /** The IdP's stable user id. */
  sub: string;
  email?: string;
  displayName?: string;
  /** Whether the IdP vouches for `email` (default `true`). */
  emailVerified?: boolean;
}

/** What the fake IdP is asked, for the {@link FakeProviderOptions.idp} callback. */
export interface FakeIdpRequest {
  providerId: string;
  mode: 'popup' | 'redirect';
  loginHint: string | undefined;
  scopes: readonly string[];
  customParameters: Readonly<Record<string, string>>;
}

/**
 * Answers the fake IdP: an identity, or `null` when the person closes the popup / cancels consent
 * (`user-cancelled`).
 */
export type FakeIdpHandler = (request: FakeIdpRequest) => FakeIdentity | null | Promise<FakeIdentity | null>;

/** Controls the fake IdP. Queued answers are used first, then the `idp` option, then a default identity. */
export interface FakeIdpControl {
  /** The next federated sign-in returns this identity. */
  queue(identity: FakeIdentity): void;
  /** The next federated sign-in is cancelled by the person (`user-cancelled`). */
  cancelNext(): void;
  /** The next `times` popup sign-ins are blocked by the browser (`popup-blocked`); redirects are unaffected. */
  blockPopup(times?: number): void;
  /** Drops queued answers and popup blocks. */
  clear(): void;
}

/** Selects methods a fault applies to: all (`true`), none (`false`) or a list. */
export type MethodSelector = boolean | { readonly methods: readonly FakeMethod[] };

/** Faults and backend settings that can change at run time. */
export interface FakeFaults {
  /**
   * Network failure: matching methods reject with `network-request-failed`. `true` leaves the local methods
   * `signOut`, `setTenant` and `secondFactors.cancelSignIn` alone; list them to fail them too.
   */
  network: MethodSelector;
  /**
   * Rate limiting: matching methods reject with their own code: `too-many-requests` (password sign-in and
   * the rest), `sign-up-too-many-requests` (createUser), `phone-too-many-requests` (startPhoneSignIn).
   * `phone-too-many-requests` for `secondFactors.startSignIn` and `secondFactors.startPhoneEnrollment` too.
   * `true` leaves the local methods alone.
   */
  rateLimit: MethodSelector;
  /** Client-side account creation is off: every path that would create an account rejects `sign-up-disabled`. */
  signUpDisabled: boolean;
  /**
   * Email enumeration protection: `capabilities.reliableSignInMethodLookup` becomes `false`,
   * `fetchSignInMethodsForEmail` resolves `[]`, an unknown email signs in with `wrong-password`, and a
   * password reset for an unknown email resolves without sending.
   */
  enumerationProtection: boolean;
  /** Every call waits this long (through the injected `sleep`) before it runs; `0` means no wait. */
  latencyMs: number;
}

/** Run-time fault switches. */
export interface FakeFaultControl {
  /** Changes some switches, keeping the others. */
  set(patch: Partial<FakeFaults>): void;
  /** The current switches. */
  get(): Readonly<FakeFaults>;
  /** Back to the switches the provider was created with. */
  reset(): void;
  /** The next call of `method` rejects with `code` (once). Several queue up in order. */
  failNext(method: FakeMethod, code: ErrorCode, details?: AuthErrorDetails): void;
  /**
   * The `nth` call of `method` from now (1: the next one) rejects with `code`, once; the calls before it run
   * normally. For a flow that calls a method more than once (a resent SMS code, a second federated sign-in
   * to link), to fail one particular call. Throws `RangeError` unless `nth` is a positive integer.
   * @example
   * backend.faults.failNth('startPhoneSignIn', 2, 'network-request-failed'); // the resend fails, once
   */
  failNth(method: FakeMethod, nth: number, code: ErrorCode, details?: AuthErrorDetails): void;
}

/** Captcha behaviour of verifiers from `createCaptchaVerifier`. */
export interface FakeCaptchaControl {
  /** Verifiers count as solved at once (default `true`). */
  autoSolve: boolean;
  /** Marks one verifier (or every live one) as solved, for `autoSolve: false`. */
  solve(verifier?: unknown): void;
}

/** One provider call in {@link FakeBackend.calls}. */
export interface FakeCall {
  method: FakeMethod;
  /** Clock time when the call started. */
  at: number;
}

/** A federated identity linked to a user. */
export interface FakeFederatedLink {
  providerId: string;
  sub: string;
}

/** A user as the backend stores it (a copy; change users through {@link FakeBackend.updateUser}). */
export interface FakeUserRecord {
  uid: string;
  tenantId: string | null;
  email: string | null;
  password: string | null;
  displayName: string | null;
  phoneNumber: string | null;
  emailVerified: boolean;
  isAnonymous: boolean;
  disabled: boolean;
  /** Sign-in methods in the order they were added: `password`, `emailLink`, `phone`, federated ids. */
  providerIds: readonly string[];
  federated: readonly FakeFederatedLink[];
  /** Enrolled second factors, oldest first. */
  secondFactors: readonly FakeSecondFactor[];
  createdAt: number;
}

/** A second factor enrolled on a user, as the backend stores it. */
export type FakeSecondFactor =
  | {
      /** The enrolment's id (`mfa-1`, …), the `uid` of its `SecondFactorInfo`. */
      uid: string;
      kind: 'phone';
      /** E.164, unmasked (a challenge shows it masked: `+*******0100`). */
      phoneNumber: string;
      displayName: string | null;
      enrolledAt: number;
    }
  | {
      uid: string;
      kind: 'totp';
      /** The shared secret, base32 (upper case, no padding): what the person's authenticator app holds. */
      secret: string;
      displayName: string | null;
      enrolledAt: number;
    };

/** A second factor a user is created with (see {@link FakeUserInput.secondFactors}). */
export type FakeSecondFactorInput =
  | { kind: 'phone'; phoneNumber: string; displayName?: string }
  | {
      kind: 'totp';
      /** Base32 (RFC 4648; spaces, padding and lower case are accepted). */
      secret: string;
      displayName?: string;
    };

/** A user the admin creates, bypassing the client API (and `signUpDisabled`). */
export interface FakeUserInput {
  email?: string;
  password?: string;
  phoneNumber?: string;
  displayName?: string;
  emailVerified?: boolean;
  disabled?: boolean;
  isAnonymous?: boolean;
  /** Adds the `emailLink` sign-in method. */
  emailLink?: boolean;
  federated?: FakeFederatedLink | readonly FakeFederatedLink[];
  /**
   * Enrolled second factors: every first-factor sign-in of the user then rejects `second-factor-required`.
   * A phone number that is not E.164 throws `invalid-phone-number`; a secret that is not base32 throws a
   * `TypeError`.
   * @example [{ kind: 'phone', phoneNumber: '+15555550100' }, { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP' }]
   */
  secondFactors?: readonly FakeSecondFactorInput[];
  /** Default: the provider's current tenant. */
  tenantId?: string | null;
}

/** A passkey as the backend stores it, without its public key (see {@link FakeBackend.passkeys}). */
export interface FakePasskeyRecord {
  /** The credential id, base64url. */
  id: string;
  uid: string;
  name: string | null;
  /** The signature counter of its last verified use (0: the authenticator keeps none). */
  counter: number;
  /** Whether the authenticator may back it up (`multiDevice`) or not (`singleDevice`). */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  transports: readonly string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/** The relying party of the fake's passkeys and the client that runs the WebAuthn ceremonies. */
export interface FakeWebAuthnOptions {
  /**
   * Runs the ceremonies (default: the browser's `navigator.credentials` through `@simplewebauthn/browser`,
   * loaded on first use). In Node tests, a software authenticator such as `@doorway/testing`'s.
   */
  client?: WebAuthnClient;
  /** The RP id (default: `location.hostname`, else `localhost`). */
  rpId?: string;
  /** The RP name authenticators show (default `Doorway`). */
  rpName?: string;
  /** The origin answers must come from (default: `location.origin`, else `http://localhost`). */
  origin?: string;
  /** How long a ceremony's challenge lives (default 5 minutes). */
  challengeTtlMs?: number;
}

/** Fields the admin may change on a user. */
export type FakeUserPatch = Partial<
  Pick<FakeUserRecord, 'displayName' | 'disabled' | 'emailVerified' | 'password' | 'phoneNumber' | 'email'>
>;

/** Web-storage-like place for a pending redirect sign-in (e.g. `sessionStorage`). */
export interface FakeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The backend behind a fake provider: admin operations, outbox, fault switches, IdP and captcha control,
 * and a log of calls. Admin operations are synchronous and throw {@link AuthError} on bad input.
 */
export interface FakeBackend {
  readonly outbox: FakeOutbox;
  readonly faults: FakeFaultControl;
  readonly idp: FakeIdpControl;
  readonly captcha: FakeCaptchaControl;
  /**
   * Every asynchronous provider call, oldest first (a live array), so tests can count round trips.
   * Synchronous methods (`getCurrentUser`, `isSignInWithEmailLink`, `createCaptchaVerifier`) are local and
   * not logged.
   */
  readonly calls: readonly FakeCall[];
  /** Empties {@link calls}. */
  clearCalls(): void;
  /** The tenant selected by `setTenant` (`null`: default tenant). */
  readonly tenantId: string | null;
  /** Creates a user; returns its uid. Throws `email-already-in-use` / `credential-already-in-use` on clashes. */
  createUser(input: FakeUserInput): string;
  /** A copy of the user, or `null`. */
  getUser(uid: string): FakeUserRecord | null;
  /** The user with this email in a tenant (default: the current one), or `null`. */
  findUserByEmail(email: string, tenantId?: string | null): FakeUserRecord | null;
  /** Users of a tenant (default: the current one), oldest first. */
  listUsers(tenantId?: string | null): FakeUserRecord[];
  /** Changes a user. Throws `user-not-found`. */
  updateUser(uid: string, patch: FakeUserPatch): void;
  /** Deletes a user (and its passkeys) and signs it out of every session. */
  deleteUser(uid: string): void;
  /** Emails a verifyEmail link to the user's address. */
  sendVerificationEmail(uid: string, settings?: ActionLinkSettings): OutboxEmail;
  /** Emails a password-reset link to the user's address (the admin way, whatever enumeration protection says). */
  sendPasswordReset(uid: string, settings?: ActionLinkSettings): OutboxEmail;
  /** Changes the email at once and sends a recoverEmail link to the old address. */
  changeEmail(uid: string, newEmail: string, settings?: ActionLinkSettings): OutboxEmail;
  /** Sends a verifyAndChangeEmail link to the new address; the email changes when the code is applied. */
  verifyAndChangeEmail(uid: string, newEmail: string, settings?: ActionLinkSettings): OutboxEmail;
  /** Enrols a phone second factor and sends a revertSecondFactorAddition link to the user's email. */
  addSecondFactor(uid: string, phoneNumber: string, settings?: ActionLinkSettings): OutboxEmail;
  /**
   * What the user's authenticator app shows now (on the provider's clock): the code of TOTP factor
   * `factorUid`, else of the TOTP enrolment the user has in progress, else of its latest TOTP factor; `null`
   * when there is none.
   */
  totpCode(uid: string, factorUid?: string): string | null;
  /**
   * The passkeys of the user with this email in a tenant (default: the current one), oldest first; `[]`
   * when there is no such user.
   */
  passkeys(email: string, tenantId?: string | null): FakePasskeyRecord[];
  /** Called after every call and admin change (e.g. to refresh an outbox panel). Returns an unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Forgets everything: users, codes, outbox, calls, IdP queue, pending redirect, faults, signed-in user. */
  reset(): void;
}

/** An {@link AuthProvider} with its in-memory {@link FakeBackend}. */
export interface FakeProvider extends AuthProvider {
  readonly backend: FakeBackend;
}

/** Options of `createFakeProvider`. Everything is optional; the defaults make a deterministic provider. */
export interface FakeProviderOptions {
  /** Default `Date`-based. */
  clock?: FakeClock;
  /** Ids for uids (`uid`), action codes (`oob`) and phone verifications (`vid`). Default `uid-1`, `oob-1`, … */
  createId?: (prefix: 'uid' | 'oob' | 'vid') => string;
  /** Seed of the SMS code generator (default `1`): the same seed gives the same codes. */
  seed?: number;
  /** Federated provider ids (default `['google.com', 'github.com']`). */
  federatedProviders?: readonly string[];
  /** Overrides of the advertised capabilities; a method whose capability is off rejects `operation-not-allowed`. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Lifetime of emailed action codes (default 1 hour). */
  actionCodeTtlMs?: number;
  /** Lifetime of SMS codes (default 5 minutes). */
  smsCodeTtlMs?: number;
  /** Where links point when no continue URL is given (default `http://localhost/__/auth/action`). */
  actionUrl?: string;
  /** E.164 prefixes phone sign-in refuses with `unsupported-country`, e.g. `['+7', '+98']`. */
  blockedCountryPrefixes?: readonly string[];
  /** When given, `setTenant` accepts only these tenant ids (and `null`). */
  tenants?: readonly string[];
  /** Initial fault switches. */
  faults?: Partial<FakeFaults>;
  /** Answers federated sign-ins that have nothing queued. */
  idp?: FakeIdpHandler;
  /** Where a redirect sign-in waits for `getRedirectResult` (default: in memory). */
  storage?: FakeStorage;
  /** Called with the fake IdP's URL when a redirect sign-in "leaves the page". */
  navigate?: (url: string) => void;
  /** How latency is waited for (default `setTimeout`). */
  sleep?: (ms: number) => Promise<void>;
  /** Users that exist from the start. */
  users?: readonly FakeUserInput[];
  /** Passkeys: the relying party and the WebAuthn client (see {@link FakeWebAuthnOptions}). */
  webAuthn?: FakeWebAuthnOptions;
}
