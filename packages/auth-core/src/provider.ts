/**
 * The narrow provider interface every adapter implements (spec §7). auth-core imports no vendor SDK:
 * adapters map their SDK to these methods and reject only with {@link AuthError} catalogue codes.
 * @module
 */

/** The action modes of spec §2, as they appear in the `mode` query value. */
export const ACTION_MODES = [
  'resetPassword',
  'recoverEmail',
  'revertSecondFactorAddition',
  'verifyEmail',
  'verifyAndChangeEmail',
  'signIn',
  'select',
] as const;
/** One action mode. */
export type ActionMode = (typeof ACTION_MODES)[number];

/** A signed-in (or anonymous) user, as plain data. */
export interface AuthUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  phoneNumber: string | null;
  emailVerified: boolean;
  isAnonymous: boolean;
  /** Sign-in methods linked to the user: `password`, `emailLink`, `phone` or a federated provider id. */
  providerIds: readonly string[];
  tenantId: string | null;
}

/** A sign-in method as returned by {@link AuthProvider.fetchSignInMethodsForEmail}. */
export type SignInMethod = 'password' | 'emailLink' | 'phone' | (string & {});

/**
 * A credential as plain, serialisable data, so it can wait in storage or travel to a callback.
 * `federated` carries what the IdP returned; adapters read `idToken`/`accessToken`/`raw`.
 */
export type AuthCredential =
  | { kind: 'password'; email: string; password: string }
  | { kind: 'emailLink'; email: string; link: string }
  | { kind: 'phone'; verificationId: string; code: string }
  | { kind: 'federated'; providerId: string; idToken?: string; accessToken?: string; raw?: string };

/** What a completed sign-in resolves to. */
export interface SignInResult {
  user: AuthUser;
  /** `true` when this sign-in created the account. */
  isNewUser: boolean;
  /** The provider id used to sign in (`password`, `emailLink`, `phone`, `anonymous`, `passkey`, `google.com`, …). */
  providerId: string;
  /** The federated credential used, when there was one (for later linking). */
  credential?: AuthCredential;
}

/** Options for a federated sign-in. */
export interface FederatedOptions {
  mode: 'popup' | 'redirect';
  /** Prefill for the IdP's account chooser. */
  loginHint?: string;
  /** Link to the current user (anonymous upgrade) instead of signing in. */
  link?: boolean;
  /** Extra scopes to request. */
  scopes?: readonly string[];
  /** Extra custom parameters for the IdP. */
  customParameters?: Readonly<Record<string, string>>;
}

/** An opaque captcha handle obtained from {@link AuthProvider.createCaptchaVerifier}. */
export interface CaptchaVerifier {
  /** Provider-specific; the flow only passes it back to {@link AuthProvider.startPhoneSignIn}. */
  readonly kind: string;
  /** Renders the captcha (visible or invisible) into its container. Rejects with `captcha-check-failed`. */
  render(): Promise<void>;
  /** Whether the person has solved it (invisible captchas count as solved). */
  isSolved(): boolean;
  /** Releases the captcha widget. */
  clear(): void;
}

/** Settings for links the provider emails (reset password, email-link sign-in). */
export interface ActionLinkSettings {
  /** Continue URL placed in the link, where the widget handles the code. */
  url: string;
  /** Whether the link opens in the app (always `true` for email-link sign-in). */
  handleCodeInApp?: boolean;
}

/** What {@link AuthProvider.checkActionCode} learns about an action code. */
export interface ActionCodeInfo {
  operation:
    | 'resetPassword'
    | 'recoverEmail'
    | 'revertSecondFactorAddition'
    | 'verifyEmail'
    | 'verifyAndChangeEmail'
    | 'signIn';
  /** The email the code is for (for recoverEmail: the restored email). */
  email: string | null;
  /** recoverEmail: the email the account had been changed to; verifyAndChangeEmail: the old email. */
  previousEmail: string | null;
  /** revertSecondFactorAddition: the factor's description, e.g. a masked phone number. */
  factor?: string;
}

/**
 * What a provider can do. The flow adapts to these instead of assuming them, and the contract suite
 * gates its groups on them.
 */
export interface ProviderCapabilities {
  /** Email/password sign-in and sign-up. */
  password: boolean;
  /** Email-link sign-in. */
  emailLink: boolean;
  /** Phone sign-in with a captcha and an SMS code. */
  phone: boolean;
  /** Anonymous users and their upgrade. */
  anonymous: boolean;
  /** Federated provider ids the provider can sign in with. */
  federated: readonly string[];
  /** Federated sign-in in a popup. */
  popup: boolean;
  /** Federated sign-in by redirect. */
  redirect: boolean;
  /** Multi-tenancy. */
  tenants: boolean;
  /**
   * Whether {@link AuthProvider.fetchSignInMethodsForEmail} tells the truth. `false` under email
   * enumeration protection: the flow then uses the combined sign-in card and never reveals whether an
   * account exists.
   */
  reliableSignInMethodLookup: boolean;
  /** Action modes {@link AuthProvider.checkActionCode} / {@link AuthProvider.applyActionCode} support. */
  actionCodes: readonly ActionMode[];
  /** Whether the provider renders a captcha of its own for phone sign-in. */
  captcha: boolean;
  /**
   * The second factors accounts may have (absent: none): sign-in then may reject with
   * `second-factor-required`, and {@link AuthProvider.secondFactors} enrols and challenges them.
   */
  secondFactors?: readonly SecondFactorKind[];
  /**
   * Passkeys (WebAuthn discoverable credentials): sign-in with one, and the signed-in user's own
   * ({@link AuthProvider.passkeys}). Absent: none.
   */
  passkeys?: boolean;
  /**
   * The account operations the signed-in user may run on their own account ({@link AuthProvider.account}).
   * Absent or empty: none.
   */
  account?: readonly AccountOperation[];
}

/** A kind of second factor: a code by text message, or from an authenticator app (TOTP, RFC 6238). */
export type SecondFactorKind = 'phone' | 'totp';

/** A second factor enrolled on an account, as the factor chooser and the account page show it. */
export interface SecondFactorInfo {
  /** The provider's id of this enrolment. */
  uid: string;
  kind: SecondFactorKind;
  /** The name given at enrolment ("Work phone", "Authenticator"), if any. */
  displayName: string | null;
  /** `phone`: the number, masked as the provider gives it at sign-in (e.g. `+*******1234`). */
  phoneNumber: string | null;
  /** When it was enrolled (ms since the epoch), if the provider says. */
  enrolledAt: number | null;
}

/**
 * A sign-in waiting for its second factor: what a `second-factor-required` rejection carries. `session` is
 * the adapter's own (a resolver's session, a first-factor session at assurance level 1): plain JSON, so
 * that a server's flow can keep it in its sealed state; the widget only hands it back.
 */
export interface SecondFactorChallenge {
  factors: readonly SecondFactorInfo[];
  session: unknown;
  /**
   * What of the pending sign-in only the server that met the challenge may hold (a form provider's token
   * of the first factor's session), plain JSON too; absent from a browser provider's challenge. The server
   * runner keeps it in the sealed flow state only: the state it hands the page has `serverSession: null`
   * instead, and such a challenge is finished by posting its cards to that server, never in the browser.
   */
  serverSession?: unknown;
}

/** A new authenticator-app enrolment: the secret to show (as text and as an `otpauth://` QR code). */
export interface TotpEnrollment {
  /** Hands the enrolment back to {@link SecondFactorOperations.finishTotpEnrollment}. */
  enrollmentId: string;
  /** The shared secret, base32. */
  secret: string;
  /** `otpauth://totp/…` for the QR code. */
  uri: string;
}

/**
 * Second factors: the challenge after a first factor, and the signed-in user's enrolments. Present when
 * `capabilities.secondFactors` lists a kind. Rejections besides those listed: `requires-recent-login` for
 * enrolment and removal when the sign-in is not recent, `network-request-failed`, `generic`.
 */
export interface SecondFactorOperations {
  /**
   * Starts the challenge of one of `challenge.factors`: `phone` sends the code (the verifier is the
   * captcha), `totp` opens it. Rejects: `captcha-check-failed`, `phone-too-many-requests`, `code-expired`
   * (the pending sign-in has expired: start over).
   */
  startSignIn(
    challenge: SecondFactorChallenge,
    factorUid: string,
    verifier?: CaptchaVerifier,
  ): Promise<{ verificationId: string }>;
  /** Completes the sign-in with the code. Rejects: `invalid-verification-code`, `code-expired`. */
  finishSignIn(challenge: SecondFactorChallenge, verificationId: string, code: string): Promise<SignInResult>;
  /** Abandons the pending sign-in: no half-signed-in session is left behind. Never rejects. */
  cancelSignIn(challenge: SecondFactorChallenge): Promise<void>;
  /** The signed-in user's second factors. */
  list(): Promise<SecondFactorInfo[]>;
  /** Sends a code to a number to enrol. Rejects: `invalid-phone-number`, `captcha-check-failed`. */
  startPhoneEnrollment(phoneNumber: string, verifier: CaptchaVerifier): Promise<{ verificationId: string }>;
  /** Rejects: `invalid-verification-code`, `code-expired`. */
  finishPhoneEnrollment(
    verificationId: string,
    code: string,
    displayName?: string,
  ): Promise<SecondFactorInfo>;
  startTotpEnrollment(): Promise<TotpEnrollment>;
  /** Rejects: `invalid-verification-code`. */
  finishTotpEnrollment(enrollmentId: string, code: string, displayName?: string): Promise<SecondFactorInfo>;
  /** Removes one of the user's factors. Rejects: `requires-recent-login`. */
  unenroll(factorUid: string): Promise<void>;
}

/** A passkey registered on the signed-in user's account, as an account page lists it. */
export interface PasskeyInfo {
  /** The credential id (base64url): what {@link PasskeyOperations.remove} takes. */
  id: string;
  /** The name given when it was added ("Laptop"), if any. */
  name: string | null;
  /** When it was added (ms since the epoch). */
  createdAt: number;
  /** When it last signed in (ms since the epoch); `null` when it never has. */
  lastUsedAt: number | null;
  /** Whether the authenticator backs it up (a synced passkey, e.g. in a password manager). */
  backedUp: boolean;
}

/**
 * Passkeys: sign-in with a discoverable WebAuthn credential, and the signed-in user's passkeys. Present
 * when `capabilities.passkeys` is `true`. The ceremony runs through the adapter's
 * `WebAuthnClient` (`webauthn.ts`). Rejections besides those listed: `passkeys-unsupported` (no WebAuthn here),
 * `network-request-failed`, `generic`.
 */
export interface PasskeyOperations {
  /**
   * Signs in with a passkey the person picks (no email asked): `providerId` of the result is `'passkey'`.
   * `conditional` waits for a pick from the autofill of an input with `autocomplete="… webauthn"`
   * instead of opening a dialog; `signal` ends that wait. Whether a passkey sign-in is then asked for a
   * second factor is the provider's: on Supabase a passkey session is a first factor (`aal1`), so an
   * account with a verified second factor rejects `second-factor-required` with its challenge, as after a
   * password, and the flow asks for it (from the button and from the autofill alike). Rejects:
   * `user-cancelled` (dismissed, timed out or aborted), `passkey-not-found` (the passkey was removed or is
   * not of this app), `passkey-invalid` (the assertion does not verify: another origin, a replay),
   * `session-expired` (the challenge expired before the answer came), `user-disabled`,
   * `second-factor-required`.
   */
  signIn(options?: { conditional?: boolean; signal?: AbortSignal }): Promise<SignInResult>;
  /** The signed-in user's passkeys, oldest first. Rejects: `requires-recent-login` (nobody signed in). */
  list(): Promise<PasskeyInfo[]>;
  /**
   * Registers a new passkey for the signed-in user, with an optional name. Rejects: `requires-recent-login`,
   * `user-cancelled`, `credential-already-in-use` (this authenticator already holds one of the user's
   * passkeys), `passkey-invalid`, `session-expired`, `passkey-limit` (the account holds as many passkeys as
   * the provider keeps: one must be removed first).
   */
  add(name?: string): Promise<PasskeyInfo>;
  /** Removes one of the user's passkeys. Rejects: `requires-recent-login`, `passkey-not-found`. */
  remove(id: string): Promise<void>;
}

/** One of the {@link AccountOperations}, as `capabilities.account` lists them. */
export type AccountOperation =
  | 'updateProfile'
  | 'changeEmail'
  | 'changePassword'
  | 'listMethods'
  | 'unlink'
  | 'signOutOtherSessions'
  | 'deleteAccount';

/** Every {@link AccountOperation}, in the order of {@link AccountOperations}. */
export const ACCOUNT_OPERATIONS: readonly AccountOperation[] = [
  'updateProfile',
  'changeEmail',
  'changePassword',
  'listMethods',
  'unlink',
  'signOutOtherSessions',
  'deleteAccount',
];

/** What {@link AccountOperations.changeEmail} started: the change waits for its confirmation. */
export interface PendingEmailChange {
  /** The address the account gets once the change is confirmed; until then the user keeps the old one. */
  pendingEmail: string;
  /**
   * Who must confirm by following an emailed link: `new` (the new address only) or `both` (the current
   * address too).
   */
  confirmBy: 'new' | 'both';
}

/**
 * Self-service account management for the signed-in user. Present when `capabilities.account` lists an
 * operation; an operation it leaves out rejects `operation-not-allowed`. Every operation rejects
 * `requires-recent-login` with nobody signed in, and where the backend wants a fresh sign-in first.
 * Rejections besides those listed: `network-request-failed`, `generic`.
 */
export interface AccountOperations {
  /** Sets the display name (`null` or blank: none). Resolves the updated user. */
  updateProfile(profile: { displayName: string | null }): Promise<AuthUser>;
  /**
   * Starts a change of the account's email the backend's safe way: the new address confirms by an emailed
   * link (on some backends the current one too) before the account uses it; the user keeps the current
   * address until then. Rejects: `invalid-email`, `email-already-in-use`, `invalid-continue-uri`.
   */
  changeEmail(newEmail: string, settings?: ActionLinkSettings): Promise<PendingEmailChange>;
  /**
   * Sets a new password, with the rules of sign-up; on an account without one, adds the `password` method.
   * With `currentPassword`, checks it first. Other sessions of the user may end. Rejects: `weak-password`,
   * `wrong-password` (a wrong `currentPassword`).
   */
  changePassword(newPassword: string, currentPassword?: string): Promise<void>;
  /** The sign-in methods linked to the account (as {@link AuthUser.providerIds}), fresh from the backend. */
  listMethods(): Promise<SignInMethod[]>;
  /**
   * Removes a linked sign-in method. Resolves the updated user. Rejects: `last-sign-in-method` (it is the
   * account's only one), `operation-not-allowed` (the account does not have it, or the backend cannot
   * remove it).
   */
  unlink(method: SignInMethod): Promise<AuthUser>;
  /** Ends the user's sessions everywhere but here; this one stays signed in. */
  signOutOtherSessions(): Promise<void>;
  /** Deletes the account and signs it out everywhere. */
  deleteAccount(): Promise<void>;
}

/**
 * The provider interface. Every method rejects only with {@link AuthError}; the codes listed per method are
 * the ones the contract suite checks. Any method may also reject with `network-request-failed`,
 * `too-many-requests` style rate limits and `generic`.
 */
export interface AuthProvider {
  /** What this provider supports. */
  readonly capabilities: ProviderCapabilities;
  /** The signed-in user right now, or `null`. */
  getCurrentUser(): AuthUser | null;
  /** Selects the tenant for later calls (`null`: the project's default tenant). Rejects: `generic`. */
  setTenant(tenantId: string | null): Promise<void>;
  /**
   * Sign-in methods the account with this email has (`[]` when none or when protected).
   * Rejects: `invalid-email`.
   */
  fetchSignInMethodsForEmail(email: string): Promise<SignInMethod[]>;
  /** Rejects: `wrong-password`, `user-not-found`, `too-many-requests`, `user-disabled`, `invalid-email`. */
  signInWithEmailAndPassword(email: string, password: string): Promise<SignInResult>;
  /**
   * Creates an email/password account, with an optional display name, and signs it in.
   * Rejects: `email-already-in-use`, `weak-password`, `invalid-email`, `sign-up-disabled`,
   * `sign-up-too-many-requests`.
   */
  createUser(email: string, password: string, displayName?: string): Promise<SignInResult>;
  /**
   * Signs in with a credential. Rejects: `account-exists-with-different-credential` (with `email` and the
   * pending `credential`), `wrong-password`, `user-not-found`, `invalid-verification-code`, `code-expired`.
   */
  signInWithCredential(credential: AuthCredential): Promise<SignInResult>;
  /**
   * Federated sign-in by popup (500×600) or redirect. A redirect navigates away and resolves `null`; its
   * result arrives from {@link getRedirectResult}. Rejects: `user-cancelled`, `popup-blocked`,
   * `account-exists-with-different-credential`, `credential-already-in-use` (when linking).
   */
  signInWithFederated(providerId: string, options: FederatedOptions): Promise<SignInResult | null>;
  /** The result of a redirect sign-in that just came back, or `null`. Rejects like {@link signInWithFederated}. */
  getRedirectResult(): Promise<SignInResult | null>;
  /** Rejects: `operation-not-allowed`. */
  signInAnonymously(): Promise<SignInResult>;
  /** A captcha for phone sign-in, rendered into `container` (a DOM element on the web). */
  createCaptchaVerifier(container: unknown): CaptchaVerifier;
  /**
   * Sends an SMS code. Resolves a verification id for {@link confirmPhoneCode}.
   * Rejects: `invalid-phone-number`, `unsupported-country`, `captcha-check-failed`, `phone-too-many-requests`.
   */
  startPhoneSignIn(phoneNumber: string, verifier: CaptchaVerifier): Promise<{ verificationId: string }>;
  /** Rejects: `invalid-verification-code`, `code-expired`. */
  confirmPhoneCode(verificationId: string, code: string, options?: { link?: boolean }): Promise<SignInResult>;
  /** Emails a sign-in link whose continue URL is `settings.url`. Rejects: `invalid-email`, `invalid-continue-uri`. */
  sendSignInLinkToEmail(email: string, settings: ActionLinkSettings): Promise<void>;
  /** Whether a URL is an email sign-in link of this provider. */
  isSignInWithEmailLink(link: string): boolean;
  /**
   * Completes email-link sign-in. Rejects: `email-mismatch` (link issued to another email),
   * `expired-action-code`, `invalid-action-code`.
   */
  signInWithEmailLink(email: string, link: string, options?: { link?: boolean }): Promise<SignInResult>;
  /** Rejects: `user-not-found` (only when lookups are reliable), `invalid-email`. */
  sendPasswordResetEmail(email: string, settings?: ActionLinkSettings): Promise<void>;
  /** Resolves the email the code resets. Rejects: `expired-action-code`, `invalid-action-code`. */
  verifyPasswordResetCode(code: string): Promise<string>;
  /** Rejects: `expired-action-code`, `invalid-action-code`, `weak-password`. */
  confirmPasswordReset(code: string, newPassword: string): Promise<void>;
  /** Rejects: `expired-action-code`, `invalid-action-code`. */
  checkActionCode(code: string): Promise<ActionCodeInfo>;
  /** Applies a verifyEmail / recoverEmail / verifyAndChangeEmail / revert code. Rejects like {@link checkActionCode}. */
  applyActionCode(code: string): Promise<void>;
  /**
   * Links a credential to the current user (anonymous upgrade, account linking).
   * Rejects: `credential-already-in-use`, `email-already-in-use` (both carry the `credential`),
   * `requires-recent-login`, `wrong-password`.
   */
  linkWithCredential(credential: AuthCredential): Promise<SignInResult>;
  /** Signs the current user out. Never rejects for "no user". */
  signOut(): Promise<void>;
  /** Second factors, when `capabilities.secondFactors` lists a kind. */
  readonly secondFactors?: SecondFactorOperations;
  /** Passkeys, when `capabilities.passkeys` is `true`. */
  readonly passkeys?: PasskeyOperations;
  /** The signed-in user's own account, when `capabilities.account` lists an operation. */
  readonly account?: AccountOperations;
}
