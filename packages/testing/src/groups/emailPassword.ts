import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail } from '../fixtures.ts';

/** Registers the email and password group (capability: password). */
export function emailPasswordTests(h: ContractContext): void {
  // Password accounts are the base of most other groups; providers without them skip it.
  describe.skipIf(!h.caps.password)('email and password (capability: password)', () => {
    createUserTests(h);
    passwordSignInTests(h);
    passwordCredentialTests(h);
  });
}

/** Creating accounts, and the rejections of createUser. */
function createUserTests(h: ContractContext): void {
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
}

/** Signing in with the right password, a wrong one, or an email without an account. */
function passwordSignInTests(h: ContractContext): void {
  const { reliable } = h;
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
}

/** Malformed addresses, disabled accounts, and the password credential. */
function passwordCredentialTests(h: ContractContext): void {
  const { hooks } = h;
  it('signInWithEmailAndPassword - should reject invalid-email for a malformed address', async () => {
    await expectAuthError(h.provider.signInWithEmailAndPassword('not-an-email', PASSWORD), 'invalid-email');
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
}
