/**
 * `@doorway/auth-core/testing`: the contract every {@link AuthProvider} adapter runs.
 *
 * {@link runProviderContract} registers a vitest suite that checks each provider method's success data and
 * its documented rejection codes. Each test gets a fresh harness (provider + backend inspection) and its own
 * users; groups a provider cannot support are gated on its capabilities (or on optional harness hooks), and
 * say so in their titles.
 *
 * @example
 * // packages/adapter-x/src/contract.test.ts
 * import { runProviderContract } from '@doorway/auth-core/testing';
 * runProviderContract({
 *   name: 'adapter-x',
 *   create: async () => {
 *     const provider = createXProvider();
 *     return { provider, inspect: { ...readsFromTheEmulator }, dispose: () => provider.signOut() };
 *   },
 * });
 * @module
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PHONE_CODE_LENGTH } from '../constants.ts';
import { AuthError } from '../errors.ts';
import type { ErrorCode } from '../messages.ts';
import {
  ACTION_MODES,
  type AuthCredential,
  type AuthProvider,
  type CaptchaVerifier,
  type ProviderCapabilities,
  type SignInResult,
} from '../provider.ts';

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
  /** What to pass to `createCaptchaVerifier` (a DOM element on the web; default `null`). */
  captchaContainer?(): unknown;
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
}

/**
 * The action code inside an emailed link: the `oobCode` query value, looked up in nested `link`,
 * `deep_link_id` and `continueUrl` values when not at the top level. `null` when there is none.
 * @example oobCodeFromLink('https://app.test/finish?mode=signIn&oobCode=abc&apiKey=k') // 'abc'
 */
export function oobCodeFromLink(link: string): string | null {
  return findOobCode(link, 0);
}

function findOobCode(link: string, depth: number): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const code = url.searchParams.get('oobCode');
  if (code !== null && code !== '') return code;
  if (depth >= 3) return null;
  for (const name of ['link', 'deep_link_id', 'continueUrl']) {
    const nested = url.searchParams.get(name);
    const found = nested === null ? null : findOobCode(nested, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Awaits `promise`, asserts it rejects with an {@link AuthError} whose `code` is `code` (or one of `code`),
 * and returns the error for further checks.
 * @example const error = await expectAuthError(provider.createUser(email, 'abc'), 'weak-password');
 */
export async function expectAuthError(
  promise: Promise<unknown>,
  code: ErrorCode | readonly ErrorCode[],
): Promise<AuthError> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) return expect.fail(`expected a rejection with ${String(code)}, but it resolved`);
  expect(outcome.error).toBeInstanceOf(AuthError);
  if (!(outcome.error instanceof AuthError)) throw outcome.error;
  if (typeof code === 'string') expect(outcome.error.code).toBe(code);
  else expect(code).toContain(outcome.error.code);
  return outcome.error;
}

const PASSWORD = 'Secret-123';
const NEW_PASSWORD = 'N3w-secret-456';
const UNKNOWN_CODE = 'not-a-real-code';

// Unique per run and per call, so backends that keep users between tests (emulators) never clash.
const RUN = Math.random().toString(36).slice(2, 8);
let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${RUN}-${sequence}@example.com`;
}
function uniquePhone(): string {
  sequence += 1;
  const base = Number.parseInt(RUN, 36) % 900_000;
  return `+16505${String((base + sequence) % 1_000_000).padStart(6, '0')}`;
}
function uniqueSub(label: string): string {
  sequence += 1;
  return `${label}-${RUN}-${sequence}`;
}

function requireValue<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) return expect.fail(`expected ${what}`);
  return value;
}

/** A code that differs from `code` in its last digit. */
function wrongCode(code: string): string {
  const last = Number(code.slice(-1));
  return `${code.slice(0, -1)}${Number.isNaN(last) ? 0 : (last + 1) % 10}`;
}

/**
 * Registers the provider contract suite: one `describe` named after `options.name`, with tests named
 * `"<method> - should …"`. Call it at the top level of a `*.test.ts` file.
 *
 * Groups run only where the provider (or `options.capabilities`) declares the capability, and some need
 * an optional harness hook (`actionCode`, `federatedCredential`, `idp`, `disableUser`); their titles say
 * which. When `reliableSignInMethodLookup` is `false`, the enumeration-safe variants run instead: no
 * lookup, and an unknown email fails like a wrong password (`wrong-password`).
 */
export function runProviderContract(options: ProviderContractOptions): void {
  describe(`${options.name} — AuthProvider contract`, async () => {
    // Gates are decided at collection time, from one throw-away harness.
    const probe = await options.create();
    const caps: ProviderCapabilities = { ...probe.provider.capabilities, ...options.capabilities };
    const hooks = {
      actionCode: probe.inspect.actionCode !== undefined,
      federatedCredential: probe.inspect.federatedCredential !== undefined,
      idp: probe.inspect.idp !== undefined,
      disableUser: probe.inspect.disableUser !== undefined,
    };
    await probe.dispose?.();

    const continueUrl = options.continueUrl ?? 'http://localhost/__/auth/action';
    const [tenantA, tenantB] = options.tenantIds ?? ['tenant-a', 'tenant-b'];
    const reliable = caps.reliableSignInMethodLookup;
    const federatedId = caps.federated[0];
    const accountExistsError = options.federatedAccountExistsError ?? true;
    const supportsCode = (mode: (typeof ACTION_MODES)[number]) => caps.actionCodes.includes(mode);

    let h: ContractHarness;
    beforeEach(async () => {
      h = await options.create();
    });
    afterEach(async () => {
      await h.dispose?.();
    });

    /** Signs a fresh user in by whatever the provider supports. */
    async function signInSomeone(): Promise<SignInResult> {
      if (caps.password) return h.provider.createUser(uniqueEmail('someone'), PASSWORD);
      if (caps.anonymous) return h.provider.signInAnonymously();
      return expect.fail('the provider supports neither password nor anonymous sign-in');
    }

    async function emailLinkFor(email: string, kind: ContractEmailKind): Promise<string> {
      return requireValue(await h.inspect.lastEmailLink(email, kind), `a ${kind} email to ${email}`);
    }

    async function sendSignInLink(email: string): Promise<string> {
      await h.provider.sendSignInLinkToEmail(email, { url: continueUrl, handleCodeInApp: true });
      return emailLinkFor(email, 'signIn');
    }

    async function smsSignInStart(phoneNumber: string): Promise<{ verificationId: string; code: string }> {
      const { verificationId } = await h.provider.startPhoneSignIn(phoneNumber, h.inspect.solvedVerifier());
      const code = requireValue(await h.inspect.lastSmsCode(phoneNumber), `an SMS code to ${phoneNumber}`);
      return { verificationId, code };
    }

    function federatedCredential(
      providerId: string,
      identity: { sub: string; email: string },
    ): AuthCredential {
      const make = requireValue(h.inspect.federatedCredential, 'inspect.federatedCredential');
      return make(providerId, identity);
    }

    describe('basics', () => {
      it('capabilities - should declare every capability with the right types', () => {
        const c = h.provider.capabilities;
        for (const key of [
          'password',
          'emailLink',
          'phone',
          'anonymous',
          'popup',
          'redirect',
          'tenants',
        ] as const) {
          expect(typeof c[key]).toBe('boolean');
        }
        expect(typeof c.reliableSignInMethodLookup).toBe('boolean');
        expect(typeof c.captcha).toBe('boolean');
        expect(c.federated.every((id) => typeof id === 'string' && id !== '')).toBe(true);
        expect(c.actionCodes.every((mode) => ACTION_MODES.includes(mode))).toBe(true);
      });

      it('getCurrentUser - should be null before anyone signs in', () => {
        expect(h.provider.getCurrentUser()).toBeNull();
      });

      it('getCurrentUser - should return the signed-in user', async () => {
        const result = await signInSomeone();
        expect(h.provider.getCurrentUser()).toEqual(result.user);
      });

      it('signOut - should clear the current user', async () => {
        await signInSomeone();
        await h.provider.signOut();
        expect(h.provider.getCurrentUser()).toBeNull();
      });

      it('signOut - should resolve when nobody is signed in', async () => {
        await expect(h.provider.signOut()).resolves.toBeUndefined();
        expect(h.provider.getCurrentUser()).toBeNull();
      });
    });

    // Password accounts are the base of most other groups; providers without them skip it.
    describe.skipIf(!caps.password)('email and password (capability: password)', () => {
      it('createUser - should create and sign in an account with a display name', async () => {
        const email = uniqueEmail('create');
        const result = await h.provider.createUser(email, PASSWORD, 'Ada Lovelace');
        expect(result.isNewUser).toBe(true);
        expect(result.providerId).toBe('password');
        expect(result.user).toMatchObject({ email, displayName: 'Ada Lovelace', isAnonymous: false });
        expect(result.user.uid).toEqual(expect.any(String));
        expect(result.user.providerIds).toContain('password');
        expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
      });

      it('createUser - should leave displayName null when none is given', async () => {
        const result = await h.provider.createUser(uniqueEmail('noname'), PASSWORD);
        expect(result.user.displayName).toBeNull();
      });

      it('createUser - should reject email-already-in-use for an existing email', async () => {
        const email = uniqueEmail('taken');
        await h.inspect.createUser({ email, password: PASSWORD });
        await expectAuthError(h.provider.createUser(email, PASSWORD), 'email-already-in-use');
      });

      it('createUser - should reject weak-password for a short password', async () => {
        await expectAuthError(h.provider.createUser(uniqueEmail('weak'), 'abc'), 'weak-password');
      });

      it('createUser - should reject invalid-email for a malformed address', async () => {
        await expectAuthError(h.provider.createUser('not-an-email', PASSWORD), 'invalid-email');
      });

      it('signInWithEmailAndPassword - should sign in an existing account', async () => {
        const email = uniqueEmail('signin');
        const uid = await h.inspect.createUser({ email, password: PASSWORD, displayName: 'Grace Hopper' });
        const result = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
        expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
        expect(result.user).toMatchObject({ uid, email, displayName: 'Grace Hopper', isAnonymous: false });
        expect(result.user.providerIds).toContain('password');
        expect(h.provider.getCurrentUser()?.uid).toBe(uid);
      });

      it('signInWithEmailAndPassword - should reject wrong-password for a wrong password', async () => {
        const email = uniqueEmail('wrong');
        await h.inspect.createUser({ email, password: PASSWORD });
        await expectAuthError(
          h.provider.signInWithEmailAndPassword(email, 'Not-the-password-1'),
          'wrong-password',
        );
        expect(h.provider.getCurrentUser()).toBeNull();
      });

      // Only a provider whose lookups are reliable may reveal that an account does not exist.
      it.runIf(reliable)(
        'signInWithEmailAndPassword - should reject user-not-found for an unknown email',
        async () => {
          await expectAuthError(
            h.provider.signInWithEmailAndPassword(uniqueEmail('nobody'), PASSWORD),
            'user-not-found',
          );
        },
      );

      // Enumeration protection: an unknown email must be indistinguishable from a wrong password.
      it.runIf(!reliable)(
        'signInWithEmailAndPassword - should reject an unknown email exactly like a wrong password',
        async () => {
          const email = uniqueEmail('exists');
          await h.inspect.createUser({ email, password: PASSWORD });
          const wrong = await expectAuthError(
            h.provider.signInWithEmailAndPassword(email, 'Nope-123'),
            'wrong-password',
          );
          const unknown = await expectAuthError(
            h.provider.signInWithEmailAndPassword(uniqueEmail('nobody'), 'Nope-123'),
            'wrong-password',
          );
          expect(unknown.message).toBe(wrong.message);
        },
      );

      it('signInWithEmailAndPassword - should reject invalid-email for a malformed address', async () => {
        await expectAuthError(
          h.provider.signInWithEmailAndPassword('not-an-email', PASSWORD),
          'invalid-email',
        );
      });

      // Needs the harness to disable a user server-side.
      it.runIf(hooks.disableUser)(
        'signInWithEmailAndPassword - should reject user-disabled for a disabled account',
        async () => {
          const email = uniqueEmail('disabled');
          const uid = await h.inspect.createUser({ email, password: PASSWORD });
          await requireValue(h.inspect.disableUser, 'inspect.disableUser')(uid);
          await expectAuthError(h.provider.signInWithEmailAndPassword(email, PASSWORD), 'user-disabled');
        },
      );

      it('signInWithCredential - should sign in with a password credential', async () => {
        const email = uniqueEmail('cred');
        const uid = await h.inspect.createUser({ email, password: PASSWORD });
        const result = await h.provider.signInWithCredential({ kind: 'password', email, password: PASSWORD });
        expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
        expect(result.user.uid).toBe(uid);
      });

      it('signInWithCredential - should reject wrong-password for a password credential with a wrong password', async () => {
        const email = uniqueEmail('credwrong');
        await h.inspect.createUser({ email, password: PASSWORD });
        await expectAuthError(
          h.provider.signInWithCredential({ kind: 'password', email, password: 'Nope-123' }),
          'wrong-password',
        );
      });
    });

    describe.skipIf(!caps.password)('fetchSignInMethodsForEmail (capability: password)', () => {
      // With enumeration protection the lookup answers [] for everyone; these need truthful lookups.
      describe.skipIf(!reliable)('reliable lookups (capability: reliableSignInMethodLookup)', () => {
        it('fetchSignInMethodsForEmail - should list password for a password account', async () => {
          const email = uniqueEmail('methods');
          await h.inspect.createUser({ email, password: PASSWORD });
          await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual(['password']);
        });

        it('fetchSignInMethodsForEmail - should return [] for an unknown email', async () => {
          await expect(h.provider.fetchSignInMethodsForEmail(uniqueEmail('unknown'))).resolves.toEqual([]);
        });

        // Needs a federated provider to create the account with.
        it.runIf(federatedId !== undefined)(
          'fetchSignInMethodsForEmail - should list the provider id for a federated account',
          async () => {
            const providerId = requireValue(federatedId, 'a federated provider id');
            const email = uniqueEmail('fedmethods');
            await h.inspect.createUser({ email, federated: { providerId, sub: uniqueSub('fed') } });
            await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([providerId]);
          },
        );
      });

      // Only meaningful under enumeration protection.
      it.runIf(!reliable)(
        'fetchSignInMethodsForEmail - should return [] even for an existing account',
        async () => {
          const email = uniqueEmail('hidden');
          await h.inspect.createUser({ email, password: PASSWORD });
          await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([]);
        },
      );

      it('fetchSignInMethodsForEmail - should reject invalid-email for a malformed address', async () => {
        await expectAuthError(h.provider.fetchSignInMethodsForEmail('not-an-email'), 'invalid-email');
      });
    });

    describe.skipIf(!caps.password)('password reset (capability: password)', () => {
      async function resetCodeFor(email: string): Promise<string> {
        await h.provider.sendPasswordResetEmail(email, { url: continueUrl });
        const link = await emailLinkFor(email, 'resetPassword');
        return requireValue(oobCodeFromLink(link), `an oobCode in ${link}`);
      }

      it('sendPasswordResetEmail - should email a link whose code verifyPasswordResetCode resolves to the email', async () => {
        const email = uniqueEmail('reset');
        await h.inspect.createUser({ email, password: PASSWORD });
        const code = await resetCodeFor(email);
        await expect(h.provider.verifyPasswordResetCode(code)).resolves.toBe(email);
      });

      it('sendPasswordResetEmail - should work without link settings', async () => {
        const email = uniqueEmail('resetplain');
        await h.inspect.createUser({ email, password: PASSWORD });
        await h.provider.sendPasswordResetEmail(email);
        const link = await emailLinkFor(email, 'resetPassword');
        expect(oobCodeFromLink(link)).toEqual(expect.any(String));
      });

      it('confirmPasswordReset - should replace the password', async () => {
        const email = uniqueEmail('confirm');
        const uid = await h.inspect.createUser({ email, password: PASSWORD });
        const code = await resetCodeFor(email);
        await h.provider.confirmPasswordReset(code, NEW_PASSWORD);
        const result = await h.provider.signInWithEmailAndPassword(email, NEW_PASSWORD);
        expect(result.user.uid).toBe(uid);
        await h.provider.signOut();
        await expectAuthError(h.provider.signInWithEmailAndPassword(email, PASSWORD), 'wrong-password');
      });

      it('confirmPasswordReset - should reject invalid-action-code for a code already used', async () => {
        const email = uniqueEmail('reuse');
        await h.inspect.createUser({ email, password: PASSWORD });
        const code = await resetCodeFor(email);
        await h.provider.confirmPasswordReset(code, NEW_PASSWORD);
        await expectAuthError(h.provider.confirmPasswordReset(code, 'Another-789'), 'invalid-action-code');
      });

      it('confirmPasswordReset - should reject weak-password for a short password', async () => {
        const email = uniqueEmail('resetweak');
        await h.inspect.createUser({ email, password: PASSWORD });
        const code = await resetCodeFor(email);
        await expectAuthError(h.provider.confirmPasswordReset(code, 'abc'), 'weak-password');
      });

      it('confirmPasswordReset - should reject invalid-action-code for an unknown code', async () => {
        await expectAuthError(
          h.provider.confirmPasswordReset(UNKNOWN_CODE, NEW_PASSWORD),
          'invalid-action-code',
        );
      });

      it('verifyPasswordResetCode - should reject invalid-action-code for an unknown code', async () => {
        await expectAuthError(h.provider.verifyPasswordResetCode(UNKNOWN_CODE), 'invalid-action-code');
      });

      // Only a provider whose lookups are reliable may reveal that an account does not exist.
      it.runIf(reliable)(
        'sendPasswordResetEmail - should reject user-not-found for an unknown email',
        async () => {
          await expectAuthError(h.provider.sendPasswordResetEmail(uniqueEmail('ghost')), 'user-not-found');
        },
      );

      // Enumeration protection: the call succeeds for an unknown email, but nothing is sent.
      it.runIf(!reliable)(
        'sendPasswordResetEmail - should resolve without sending for an unknown email',
        async () => {
          const email = uniqueEmail('ghost');
          await expect(h.provider.sendPasswordResetEmail(email)).resolves.toBeUndefined();
          await expect(h.inspect.lastEmailLink(email, 'resetPassword')).resolves.toBeNull();
        },
      );

      it('sendPasswordResetEmail - should reject invalid-email for a malformed address', async () => {
        await expectAuthError(h.provider.sendPasswordResetEmail('not-an-email'), 'invalid-email');
      });
    });

    describe.skipIf(!caps.emailLink)('email link (capability: emailLink)', () => {
      it('sendSignInLinkToEmail - should email a link that isSignInWithEmailLink recognises', async () => {
        const link = await sendSignInLink(uniqueEmail('link'));
        expect(oobCodeFromLink(link)).toEqual(expect.any(String));
        expect(h.provider.isSignInWithEmailLink(link)).toBe(true);
      });

      it('isSignInWithEmailLink - should be false for an ordinary URL', () => {
        expect(h.provider.isSignInWithEmailLink('https://example.com/some/page?x=1')).toBe(false);
        expect(h.provider.isSignInWithEmailLink('not a url')).toBe(false);
      });

      it('signInWithEmailLink - should create an account for an unknown email', async () => {
        const email = uniqueEmail('newlink');
        const result = await h.provider.signInWithEmailLink(email, await sendSignInLink(email));
        expect(result).toMatchObject({ isNewUser: true, providerId: 'emailLink' });
        expect(result.user).toMatchObject({ email, emailVerified: true, isAnonymous: false });
        expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
      });

      // Signing in to the existing account needs one to exist first.
      it.runIf(caps.password)(
        'signInWithEmailLink - should sign in to an existing password account',
        async () => {
          const email = uniqueEmail('oldlink');
          const uid = await h.inspect.createUser({ email, password: PASSWORD });
          const result = await h.provider.signInWithEmailLink(email, await sendSignInLink(email));
          expect(result).toMatchObject({ isNewUser: false, providerId: 'emailLink' });
          expect(result.user.uid).toBe(uid);
        },
      );

      it('signInWithEmailLink - should reject email-mismatch for another email', async () => {
        const link = await sendSignInLink(uniqueEmail('intended'));
        await expectAuthError(h.provider.signInWithEmailLink(uniqueEmail('other'), link), 'email-mismatch');
        expect(h.provider.getCurrentUser()).toBeNull();
      });

      it('signInWithEmailLink - should reject invalid-action-code for a link already used', async () => {
        const email = uniqueEmail('usedlink');
        const link = await sendSignInLink(email);
        await h.provider.signInWithEmailLink(email, link);
        await h.provider.signOut();
        await expectAuthError(h.provider.signInWithEmailLink(email, link), 'invalid-action-code');
      });

      it('signInWithEmailLink - should reject invalid-action-code for an unknown code', async () => {
        const email = uniqueEmail('badlink');
        const link = await sendSignInLink(email);
        const code = requireValue(oobCodeFromLink(link), 'an oobCode');
        await expectAuthError(
          h.provider.signInWithEmailLink(email, link.replaceAll(code, UNKNOWN_CODE)),
          'invalid-action-code',
        );
      });

      it('signInWithCredential - should sign in with an emailLink credential', async () => {
        const email = uniqueEmail('linkcred');
        const link = await sendSignInLink(email);
        const result = await h.provider.signInWithCredential({ kind: 'emailLink', email, link });
        expect(result.providerId).toBe('emailLink');
        expect(result.user.email).toBe(email);
      });

      it('sendSignInLinkToEmail - should reject invalid-email for a malformed address', async () => {
        await expectAuthError(
          h.provider.sendSignInLinkToEmail('not-an-email', { url: continueUrl, handleCodeInApp: true }),
          'invalid-email',
        );
      });

      it('sendSignInLinkToEmail - should reject invalid-continue-uri for a malformed continue URL', async () => {
        await expectAuthError(
          h.provider.sendSignInLinkToEmail(uniqueEmail('baduri'), {
            url: 'not a url',
            handleCodeInApp: true,
          }),
          'invalid-continue-uri',
        );
      });
    });

    describe.skipIf(!caps.anonymous)('anonymous users (capability: anonymous)', () => {
      it('signInAnonymously - should sign in a new anonymous user', async () => {
        const result = await h.provider.signInAnonymously();
        expect(result).toMatchObject({ isNewUser: true, providerId: 'anonymous' });
        expect(result.user).toMatchObject({ isAnonymous: true, email: null, providerIds: [] });
        expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
      });

      // Upgrading to a password account needs password accounts.
      describe.skipIf(!caps.password)('upgrade with a password (capability: password)', () => {
        it('linkWithCredential - should upgrade the anonymous user to a password account, keeping the uid', async () => {
          const anonymous = await h.provider.signInAnonymously();
          const email = uniqueEmail('upgrade');
          const result = await h.provider.linkWithCredential({ kind: 'password', email, password: PASSWORD });
          expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
          expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
          expect(result.user.providerIds).toContain('password');
          expect(h.provider.getCurrentUser()?.uid).toBe(anonymous.user.uid);
          await h.provider.signOut();
          const again = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
          expect(again.user.uid).toBe(anonymous.user.uid);
        });

        it('linkWithCredential - should reject, carrying the credential, when the email already has an account', async () => {
          const email = uniqueEmail('conflict');
          await h.inspect.createUser({ email, password: PASSWORD });
          await h.provider.signInAnonymously();
          const credential: AuthCredential = { kind: 'password', email, password: PASSWORD };
          const error = await expectAuthError(h.provider.linkWithCredential(credential), [
            'email-already-in-use',
            'credential-already-in-use',
          ]);
          expect(error.credential).toMatchObject({ kind: 'password', email });
        });
      });

      // Upgrading by email link needs email links.
      describe.skipIf(!caps.emailLink)('upgrade with an email link (capability: emailLink)', () => {
        it('linkWithCredential - should upgrade the anonymous user with an emailLink credential', async () => {
          const anonymous = await h.provider.signInAnonymously();
          const email = uniqueEmail('anonlink');
          const link = await sendSignInLink(email);
          const result = await h.provider.linkWithCredential({ kind: 'emailLink', email, link });
          expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
          // Firebase records an email-link account under the `password` provider; both name the email method.
          expect(result.user.providerIds.some((id) => id === 'emailLink' || id === 'password')).toBe(true);
        });

        it('signInWithEmailLink - should upgrade the anonymous user when link is true', async () => {
          const anonymous = await h.provider.signInAnonymously();
          const email = uniqueEmail('anonlink2');
          const link = await sendSignInLink(email);
          const result = await h.provider.signInWithEmailLink(email, link, { link: true });
          expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
        });
      });

      // Upgrading by phone needs phone sign-in.
      describe.skipIf(!caps.phone)('upgrade with a phone number (capability: phone)', () => {
        it('confirmPhoneCode - should upgrade the anonymous user when link is true', async () => {
          const anonymous = await h.provider.signInAnonymously();
          const phoneNumber = uniquePhone();
          const { verificationId, code } = await smsSignInStart(phoneNumber);
          const result = await h.provider.confirmPhoneCode(verificationId, code, { link: true });
          expect(result.user).toMatchObject({ uid: anonymous.user.uid, phoneNumber, isAnonymous: false });
          expect(result.user.providerIds).toContain('phone');
        });

        it('confirmPhoneCode - should reject credential-already-in-use, carrying the credential, for a number of another account', async () => {
          const phoneNumber = uniquePhone();
          await h.inspect.createUser({ phoneNumber });
          await h.provider.signInAnonymously();
          const { verificationId, code } = await smsSignInStart(phoneNumber);
          const error = await expectAuthError(
            h.provider.confirmPhoneCode(verificationId, code, { link: true }),
            'credential-already-in-use',
          );
          expect(error.credential).toMatchObject({ kind: 'phone', verificationId });
        });
      });

      // Needs a federated provider and a harness that can mint credentials for it.
      describe.skipIf(federatedId === undefined || !hooks.federatedCredential)(
        'upgrade with a federated credential (capability: federated, hook: federatedCredential)',
        () => {
          it('linkWithCredential - should upgrade the anonymous user with a federated credential', async () => {
            const providerId = requireValue(federatedId, 'a federated provider id');
            const anonymous = await h.provider.signInAnonymously();
            const email = uniqueEmail('anonfed');
            const result = await h.provider.linkWithCredential(
              federatedCredential(providerId, { sub: uniqueSub('anon'), email }),
            );
            expect(result.providerId).toBe(providerId);
            expect(result.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false });
            expect(result.user.providerIds).toContain(providerId);
          });
        },
      );
    });

    // A provider that cannot do anonymous sign-in must say so with a catalogue code.
    it.runIf(!caps.anonymous)('signInAnonymously - should reject operation-not-allowed', async () => {
      await expectAuthError(h.provider.signInAnonymously(), 'operation-not-allowed');
    });

    describe.skipIf(!caps.phone)('phone (capability: phone)', () => {
      // Rendering a provider's own captcha needs its widget (a DOM on the web).
      it.runIf(caps.captcha)(
        'createCaptchaVerifier - should return a verifier the flow can render and clear',
        async () => {
          const verifier = h.provider.createCaptchaVerifier(h.inspect.captchaContainer?.() ?? null);
          expect(verifier.kind).toEqual(expect.any(String));
          expect(typeof verifier.isSolved()).toBe('boolean');
          await verifier.render();
          verifier.clear();
        },
      );

      it('startPhoneSignIn - should send a 6-digit SMS code and resolve a verification id', async () => {
        const phoneNumber = uniquePhone();
        const { verificationId } = await h.provider.startPhoneSignIn(phoneNumber, h.inspect.solvedVerifier());
        expect(verificationId).toEqual(expect.any(String));
        expect(verificationId).not.toBe('');
        const code = await h.inspect.lastSmsCode(phoneNumber);
        expect(code).toMatch(new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`));
      });

      it('confirmPhoneCode - should create an account for a new phone number', async () => {
        const phoneNumber = uniquePhone();
        const { verificationId, code } = await smsSignInStart(phoneNumber);
        const result = await h.provider.confirmPhoneCode(verificationId, code);
        expect(result).toMatchObject({ isNewUser: true, providerId: 'phone' });
        expect(result.user).toMatchObject({ phoneNumber, isAnonymous: false });
        expect(result.user.providerIds).toContain('phone');
        expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
      });

      it('confirmPhoneCode - should sign in to an existing phone account', async () => {
        const phoneNumber = uniquePhone();
        const uid = await h.inspect.createUser({ phoneNumber });
        const { verificationId, code } = await smsSignInStart(phoneNumber);
        const result = await h.provider.confirmPhoneCode(verificationId, code);
        expect(result).toMatchObject({ isNewUser: false, providerId: 'phone' });
        expect(result.user.uid).toBe(uid);
      });

      it('confirmPhoneCode - should reject invalid-verification-code for a wrong code', async () => {
        const { verificationId, code } = await smsSignInStart(uniquePhone());
        await expectAuthError(
          h.provider.confirmPhoneCode(verificationId, wrongCode(code)),
          'invalid-verification-code',
        );
        expect(h.provider.getCurrentUser()).toBeNull();
      });

      it('signInWithCredential - should sign in with a phone credential', async () => {
        const phoneNumber = uniquePhone();
        const { verificationId, code } = await smsSignInStart(phoneNumber);
        const result = await h.provider.signInWithCredential({ kind: 'phone', verificationId, code });
        expect(result.providerId).toBe('phone');
        expect(result.user.phoneNumber).toBe(phoneNumber);
      });

      it('startPhoneSignIn - should reject invalid-phone-number for a number that is not E.164', async () => {
        await expectAuthError(
          h.provider.startPhoneSignIn('12345', h.inspect.solvedVerifier()),
          'invalid-phone-number',
        );
      });

      // Only a provider that runs a captcha can tell a solved one from an unsolved one.
      it.runIf(caps.captcha)(
        'startPhoneSignIn - should reject captcha-check-failed for an unsolved captcha',
        async () => {
          const unsolved: CaptchaVerifier = {
            kind: 'contract-unsolved',
            render: async () => {},
            isSolved: () => false,
            clear: () => {},
          };
          await expectAuthError(h.provider.startPhoneSignIn(uniquePhone(), unsolved), 'captcha-check-failed');
        },
      );
    });

    // Needs a federated provider and a harness that can mint credentials the backend accepts.
    describe.skipIf(federatedId === undefined || !hooks.federatedCredential)(
      'federated credentials (capability: federated, hook: federatedCredential)',
      () => {
        const providerId = federatedId ?? '';

        it('signInWithCredential - should create an account for a new federated identity', async () => {
          const email = uniqueEmail('fednew');
          const result = await h.provider.signInWithCredential(
            federatedCredential(providerId, { sub: uniqueSub('new'), email }),
          );
          expect(result).toMatchObject({ isNewUser: true, providerId });
          expect(result.user).toMatchObject({ email, isAnonymous: false });
          expect(result.user.providerIds).toContain(providerId);
          expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
        });

        it('signInWithCredential - should sign in again with the same federated identity', async () => {
          const identity = { sub: uniqueSub('again'), email: uniqueEmail('fedagain') };
          const first = await h.provider.signInWithCredential(federatedCredential(providerId, identity));
          await h.provider.signOut();
          const second = await h.provider.signInWithCredential(federatedCredential(providerId, identity));
          expect(second).toMatchObject({ isNewUser: false, providerId });
          expect(second.user.uid).toBe(first.user.uid);
        });

        // Some backends link a federated identity to a same-email account themselves; they opt out.
        it.runIf(caps.password && accountExistsError)(
          'signInWithCredential - should reject account-exists-with-different-credential for an email with a password account',
          async () => {
            const email = uniqueEmail('fedexists');
            await h.inspect.createUser({ email, password: PASSWORD });
            const error = await expectAuthError(
              h.provider.signInWithCredential(
                federatedCredential(providerId, { sub: uniqueSub('exists'), email }),
              ),
              'account-exists-with-different-credential',
            );
            expect(error.email).toBe(email);
            expect(error.credential).toMatchObject({ kind: 'federated', providerId });
            expect(h.provider.getCurrentUser()).toBeNull();
          },
        );

        // Linking to a password account needs password accounts.
        it.runIf(caps.password)(
          'linkWithCredential - should link a federated identity to the signed-in user',
          async () => {
            const email = uniqueEmail('fedlink');
            const user = await h.provider.createUser(email, PASSWORD);
            const result = await h.provider.linkWithCredential(
              federatedCredential(providerId, { sub: uniqueSub('link'), email }),
            );
            expect(result.providerId).toBe(providerId);
            expect(result.user.uid).toBe(user.user.uid);
            expect(result.user.providerIds).toEqual(expect.arrayContaining(['password', providerId]));
          },
        );

        // The second account is a password account.
        it.runIf(caps.password)(
          'linkWithCredential - should reject credential-already-in-use, carrying the credential, for an identity of another account',
          async () => {
            const credential = federatedCredential(providerId, {
              sub: uniqueSub('owned'),
              email: uniqueEmail('owner'),
            });
            await h.provider.signInWithCredential(credential);
            await h.provider.signOut();
            await h.provider.createUser(uniqueEmail('second'), PASSWORD);
            const error = await expectAuthError(
              h.provider.linkWithCredential(credential),
              'credential-already-in-use',
            );
            expect(error.credential).toMatchObject({ kind: 'federated', providerId });
          },
        );
      },
    );

    // Popups and redirects need an IdP the harness can drive (a real SDK's popup can't run offline).
    describe.skipIf(federatedId === undefined || !caps.popup || !hooks.idp)(
      'federated popup (capability: popup, hook: idp)',
      () => {
        const providerId = federatedId ?? '';
        const idp = () => requireValue(h.inspect.idp, 'inspect.idp');

        it('signInWithFederated - should sign in with the identity the IdP returns in a popup', async () => {
          const email = uniqueEmail('popup');
          idp().queue({ sub: uniqueSub('popup'), email, displayName: 'Popup Person' });
          const result = requireValue(
            await h.provider.signInWithFederated(providerId, { mode: 'popup' }),
            'a result',
          );
          expect(result).toMatchObject({ isNewUser: true, providerId });
          expect(result.user).toMatchObject({ email, displayName: 'Popup Person' });
          expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
        });

        it('signInWithFederated - should reject user-cancelled when the person cancels', async () => {
          idp().cancelNext();
          await expectAuthError(
            h.provider.signInWithFederated(providerId, { mode: 'popup' }),
            'user-cancelled',
          );
        });

        it('signInWithFederated - should reject popup-blocked when the browser blocks the popup', async () => {
          idp().blockPopup();
          await expectAuthError(
            h.provider.signInWithFederated(providerId, { mode: 'popup' }),
            'popup-blocked',
          );
        });

        // Same opt-out as for credentials; needs a password account to collide with.
        it.runIf(caps.password && accountExistsError)(
          'signInWithFederated - should reject account-exists-with-different-credential for an email with a password account',
          async () => {
            const email = uniqueEmail('popupexists');
            await h.inspect.createUser({ email, password: PASSWORD });
            idp().queue({ sub: uniqueSub('popupexists'), email });
            const error = await expectAuthError(
              h.provider.signInWithFederated(providerId, { mode: 'popup' }),
              'account-exists-with-different-credential',
            );
            expect(error.email).toBe(email);
            expect(error.credential).toMatchObject({ kind: 'federated', providerId });
          },
        );

        // Linking in a popup starts from an anonymous user.
        it.runIf(caps.anonymous)(
          'signInWithFederated - should link to the current user when link is true',
          async () => {
            const anonymous = await h.provider.signInAnonymously();
            idp().queue({ sub: uniqueSub('popuplink'), email: uniqueEmail('popuplink') });
            const result = await h.provider.signInWithFederated(providerId, { mode: 'popup', link: true });
            expect(result?.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false });
          },
        );
      },
    );

    // See the popup group: the redirect round trip needs an IdP the harness can drive.
    describe.skipIf(federatedId === undefined || !caps.redirect || !hooks.idp)(
      'federated redirect (capability: redirect, hook: idp)',
      () => {
        const providerId = federatedId ?? '';

        it('getRedirectResult - should resolve null when no redirect is pending', async () => {
          await expect(h.provider.getRedirectResult()).resolves.toBeNull();
        });

        it('signInWithFederated - should resolve null on redirect and deliver the result once through getRedirectResult', async () => {
          const email = uniqueEmail('redirect');
          requireValue(h.inspect.idp, 'inspect.idp').queue({ sub: uniqueSub('redirect'), email });
          await expect(h.provider.signInWithFederated(providerId, { mode: 'redirect' })).resolves.toBeNull();
          const result = requireValue(await h.provider.getRedirectResult(), 'a redirect result');
          expect(result).toMatchObject({ isNewUser: true, providerId });
          expect(result.user.email).toBe(email);
          await expect(h.provider.getRedirectResult()).resolves.toBeNull();
        });

        it('getRedirectResult - should reject user-cancelled when the person cancelled at the IdP', async () => {
          requireValue(h.inspect.idp, 'inspect.idp').cancelNext();
          await h.provider.signInWithFederated(providerId, { mode: 'redirect' });
          await expectAuthError(h.provider.getRedirectResult(), 'user-cancelled');
        });
      },
    );

    // Any provider that handles action codes must refuse codes it never issued.
    describe.skipIf(caps.actionCodes.length === 0)('action codes (capability: actionCodes)', () => {
      it('checkActionCode - should reject invalid-action-code for an unknown code', async () => {
        await expectAuthError(h.provider.checkActionCode(UNKNOWN_CODE), 'invalid-action-code');
      });

      it('applyActionCode - should reject invalid-action-code for an unknown code', async () => {
        await expectAuthError(h.provider.applyActionCode(UNKNOWN_CODE), 'invalid-action-code');
      });

      // Reset codes come from sendPasswordResetEmail, so this needs password accounts.
      it.runIf(caps.password && supportsCode('resetPassword'))(
        'checkActionCode - should describe a resetPassword code',
        async () => {
          const email = uniqueEmail('checkreset');
          await h.inspect.createUser({ email, password: PASSWORD });
          await h.provider.sendPasswordResetEmail(email, { url: continueUrl });
          const code = requireValue(
            oobCodeFromLink(await emailLinkFor(email, 'resetPassword')),
            'an oobCode',
          );
          await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
            operation: 'resetPassword',
            email,
          });
        },
      );

      // Email-link codes come from sendSignInLinkToEmail.
      it.runIf(caps.emailLink && supportsCode('signIn'))(
        'checkActionCode - should describe an email sign-in code',
        async () => {
          const email = uniqueEmail('checksignin');
          const code = requireValue(oobCodeFromLink(await sendSignInLink(email)), 'an oobCode');
          const info = await h.provider.checkActionCode(code);
          expect(info.operation).toBe('signIn');
          // Some backends (Firebase) do not reveal the address behind a sign-in code; none may reveal another.
          expect([email, null]).toContain(info.email);
        },
      );

      // The remaining codes are minted by the backend's admin side, through the harness.
      describe.skipIf(!hooks.actionCode || !caps.password)(
        'codes from the backend (hook: actionCode, capability: password)',
        () => {
          async function actionCodeOrSkip(
            skip: (note?: string) => void,
            email: string,
            kind: 'verifyEmail' | 'recoverEmail' | 'verifyAndChangeEmail',
            extra?: { newEmail: string },
          ): Promise<string> {
            const make = requireValue(h.inspect.actionCode, 'inspect.actionCode');
            const code = await make(email, kind, extra);
            // The harness said its backend cannot mint this kind of code.
            if (code === null) skip(`the backend cannot produce a ${kind} code`);
            return requireValue(code, `a ${kind} code`);
          }

          it.runIf(supportsCode('verifyEmail'))(
            'applyActionCode - should verify the email of a verifyEmail code',
            async ({ skip }) => {
              const email = uniqueEmail('verify');
              await h.inspect.createUser({ email, password: PASSWORD, emailVerified: false });
              const code = await actionCodeOrSkip(skip, email, 'verifyEmail');
              await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
                operation: 'verifyEmail',
                email,
              });
              await h.provider.applyActionCode(code);
              const result = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
              expect(result.user.emailVerified).toBe(true);
            },
          );

          it.runIf(supportsCode('verifyEmail'))(
            'applyActionCode - should reject invalid-action-code for a code already applied',
            async ({ skip }) => {
              const email = uniqueEmail('verifytwice');
              await h.inspect.createUser({ email, password: PASSWORD });
              const code = await actionCodeOrSkip(skip, email, 'verifyEmail');
              await h.provider.applyActionCode(code);
              await expectAuthError(h.provider.applyActionCode(code), 'invalid-action-code');
              await expectAuthError(h.provider.checkActionCode(code), 'invalid-action-code');
            },
          );

          it.runIf(supportsCode('recoverEmail'))(
            'applyActionCode - should restore the previous email with a recoverEmail code',
            async ({ skip }) => {
              const email = uniqueEmail('recover');
              const newEmail = uniqueEmail('changed');
              const uid = await h.inspect.createUser({ email, password: PASSWORD });
              const code = await actionCodeOrSkip(skip, email, 'recoverEmail', { newEmail });
              await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
                operation: 'recoverEmail',
                email,
                previousEmail: newEmail,
              });
              await h.provider.applyActionCode(code);
              const result = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
              expect(result.user.uid).toBe(uid);
            },
          );

          it.runIf(supportsCode('verifyAndChangeEmail'))(
            'applyActionCode - should change the email with a verifyAndChangeEmail code',
            async ({ skip }) => {
              const email = uniqueEmail('before');
              const newEmail = uniqueEmail('after');
              const uid = await h.inspect.createUser({ email, password: PASSWORD });
              const code = await actionCodeOrSkip(skip, email, 'verifyAndChangeEmail', { newEmail });
              await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
                operation: 'verifyAndChangeEmail',
                email: newEmail,
                previousEmail: email,
              });
              await h.provider.applyActionCode(code);
              const result = await h.provider.signInWithEmailAndPassword(newEmail, PASSWORD);
              expect(result.user).toMatchObject({ uid, email: newEmail, emailVerified: true });
            },
          );
        },
      );
    });

    // Tenant isolation is checked with password accounts.
    describe.skipIf(!caps.tenants || !caps.password)('tenants (capability: tenants, password)', () => {
      it('setTenant - should keep the users of one tenant invisible in another', async () => {
        const email = uniqueEmail('tenant');
        await h.provider.setTenant(tenantA);
        const inA = await h.provider.createUser(email, PASSWORD);
        expect(inA.user.tenantId).toBe(tenantA);
        await h.provider.signOut();

        await h.provider.setTenant(tenantB);
        if (reliable) await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([]);
        await expectAuthError(
          h.provider.signInWithEmailAndPassword(email, PASSWORD),
          reliable ? 'user-not-found' : 'wrong-password',
        );
        const inB = await h.provider.createUser(email, PASSWORD);
        expect(inB.user.tenantId).toBe(tenantB);
        expect(inB.user.uid).not.toBe(inA.user.uid);
        await h.provider.signOut();

        await h.provider.setTenant(tenantA);
        const again = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
        expect(again.user.uid).toBe(inA.user.uid);
      });

      it('setTenant - should return to the default tenant with null', async () => {
        await h.provider.setTenant(tenantA);
        await h.provider.setTenant(null);
        const result = await h.provider.createUser(uniqueEmail('default'), PASSWORD);
        expect(result.user.tenantId).toBeNull();
      });
    });
  });
}
