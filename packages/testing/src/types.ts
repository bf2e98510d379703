/**
 * What an adapter hands the contract suite: the provider under test, the inspection of the backend behind
 * it, and the suite's options.
 * @module
 */
import type { AuthCredential, AuthProvider, CaptchaVerifier, ProviderCapabilities } from '@doorway/auth-core';

/** Kinds of emailed link the harness can read back. */
export type ContractEmailKind =
  | 'signIn'
  | 'resetPassword'
  | 'verifyEmail'
  | 'recoverEmail'
  | 'verifyAndChangeEmail';

/** A user the harness creates server-side (admin), bypassing the client API. */
export interface ContractUserInput {
  email?: string;
  password?: string;
  phoneNumber?: string;
  displayName?: string;
  emailVerified?: boolean;
  federated?: { providerId: string; sub: string };
}

/** An identity a fake/emulated IdP returns. */
export interface ContractIdentity {
  sub: string;
  email: string;
  displayName?: string;
}

/**
 * The authenticator behind `provider.passkeys` (the WebAuthn client the adapter was given), as the passkeys
 * group tampers with it. `createSoftAuthenticator` of `@doorway/testing/soft-authenticator` is one.
 */
export interface ContractAuthenticator {
  /** The next ceremony rejects with a `DOMException` of `name` (`NotAllowedError`: the person dismissed it). */
  cancelNext(name?: string): void;
  /** The next assertion is the last one again, byte for byte. */
  replayNext(): void;
  /** The next answer is made as if on `origin` (relayed from another site). */
  originNext(origin: string): void;
}

/** Reads and drives the backend behind the provider under test. */
export interface ContractInspect {
  /** The latest out-of-band link the backend "sent" to `email` for `kind`, or `null`. */
  lastEmailLink(email: string, kind: ContractEmailKind): Promise<string | null>;
  /** The latest SMS code the backend "sent" to `phoneNumber`, or `null`. */
  lastSmsCode(phoneNumber: string): Promise<string | null>;
  /** Creates a user server-side (admin), bypassing the client API; resolves its uid. */
  createUser(user: ContractUserInput): Promise<string>;
  /**
   * Produces an action code of `kind` for the user with `email` (e.g. via the backend's admin API); `null`
   * when the backend can't. `recoverEmail` changes the email to `extra.newEmail` and returns the code that
   * restores it; `verifyAndChangeEmail` returns the code that changes it to `extra.newEmail`.
   */
  actionCode?(
    email: string,
    kind: 'verifyEmail' | 'resetPassword' | 'recoverEmail' | 'verifyAndChangeEmail',
    extra?: { newEmail?: string },
  ): Promise<string | null>;
  /** A federated credential the backend accepts for an IdP identity. Enables the federated group. */
  federatedCredential?(providerId: string, identity: { sub: string; email: string }): AuthCredential;
  /** A captcha verifier that counts as solved. */
  solvedVerifier(): CaptchaVerifier;
  /** Disables a user server-side. Enables the `user-disabled` checks. */
  disableUser?(uid: string): Promise<void>;
  /**
   * Marks the email of the account with `email` verified server-side (admin). For backends that enrol
   * second factors only on verified emails (Firebase): the second-factor group calls it before enrolling,
   * then signs in again so the session knows.
   */
  verifyEmail?(email: string): Promise<void>;
  /** What to pass to `createCaptchaVerifier` (a DOM element on the web; default `null`). */
  captchaContainer?(): unknown;
  /**
   * The backend's time, ms since the epoch (default `Date.now()`): the TOTP codes the second-factor group
   * computes, as an authenticator app would, are for this time. A backend on an injected clock says it.
   */
  now?(): number;
  /** The authenticator the adapter's WebAuthn client talks to. Enables the passkeys group. */
  authenticator?: ContractAuthenticator;
  /**
   * Drives the IdP behind `signInWithFederated` (popup and redirect). Enables the popup/redirect groups;
   * adapters whose IdP can't be driven in tests leave it out.
   */
  idp?: {
    queue(identity: ContractIdentity): void;
    cancelNext(): void;
    blockPopup(): void;
  };
}

/** A provider under test plus what the tests need to see behind it. */
export interface ContractHarness {
  provider: AuthProvider;
  inspect: ContractInspect;
  /** Called after each test. */
  dispose?: () => Promise<void> | void;
}

/** Options of {@link runProviderContract}. */
export interface ProviderContractOptions {
  /** Suite title, usually the adapter's name. */
  name: string;
  /** A fresh provider per test (plus anything the test helpers need). Also called once to read capabilities. */
  create: () => Promise<ContractHarness> | ContractHarness;
  /** Overrides of the capabilities the suite gates on (default: the provider's own `capabilities`). */
  capabilities?: Partial<ProviderCapabilities>;
  /** Continue URL for emailed links (default `http://localhost/__/auth/action`). */
  continueUrl?: string;
  /** Two tenant ids for the tenant group (default `['tenant-a', 'tenant-b']`). */
  tenantIds?: readonly [string, string];
  /**
   * `false` when the backend links a federated identity to an existing account with the same email by
   * itself instead of rejecting with `account-exists-with-different-credential` (default `true`).
   */
  federatedAccountExistsError?: boolean;
  /**
   * What the backend cannot do, each with the reason: a key is a group's title (e.g.
   * `'anonymous (capability: anonymous)'`: every test in it) or a test's title (e.g.
   * `'linkWithCredential - should link a password credential to an anonymous user'`). Each such test is
   * reported skipped with `skipped: <reason>` as its note; a key that names no test of the suite fails it.
   */
  skip?: Readonly<Record<string, string>>;
}
