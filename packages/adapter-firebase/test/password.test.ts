// Email/password against the Auth emulator: every failure arrives as its spec §8 catalogue message.
import { errorMessages } from '@doorway/auth-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import {
  clearAccounts,
  createAccount,
  expectAuthError,
  freshProvider,
  setDisabled,
  setEmailEnumerationProtection,
  uniqueEmail,
} from './emulator.ts';

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await clearAccounts();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

describe('email enumeration protection off (the emulator default)', () => {
  beforeAll(() => setEmailEnumerationProtection(false));

  it('createUser - should create the account, set the display name and sign it in', async () => {
    const email = uniqueEmail('ada');
    const result = await provider.createUser(email, 'secret123', 'Ada Lovelace');
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'password',
      user: {
        email,
        displayName: 'Ada Lovelace',
        isAnonymous: false,
        providerIds: ['password'],
        tenantId: null,
      },
    });
    expect(result.credential).toBeUndefined();
    expect(provider.getCurrentUser()).toEqual(result.user);
  });

  it('signInWithEmailAndPassword - should sign in an existing account', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    const result = await provider.signInWithEmailAndPassword(email, 'secret123');
    expect(result).toMatchObject({ isNewUser: false, providerId: 'password', user: { email } });
  });

  it('signInWithEmailAndPassword - should reject a wrong password with wrong-password', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    const error = await expectAuthError(
      provider.signInWithEmailAndPassword(email, 'not-it-123'),
      'wrong-password',
    );
    expect(error.message).toBe("The email and password you entered don't match");
  });

  it('signInWithEmailAndPassword - should reject an unknown email with user-not-found', async () => {
    const error = await expectAuthError(
      provider.signInWithEmailAndPassword(uniqueEmail('nobody'), 'secret123'),
      'user-not-found',
    );
    expect(error.message).toBe("That email address doesn't match an existing account");
  });

  it('signInWithEmailAndPassword - should reject a disabled account with user-disabled', async () => {
    const email = uniqueEmail();
    const uid = await createAccount({ email, password: 'secret123' });
    await setDisabled(uid, true);
    await expectAuthError(provider.signInWithEmailAndPassword(email, 'secret123'), 'user-disabled');
  });

  it('signInWithEmailAndPassword - should reject a malformed email with invalid-email', async () => {
    await expectAuthError(provider.signInWithEmailAndPassword('not-an-email', 'secret123'), 'invalid-email');
  });

  it('createUser - should reject a taken email with email-already-in-use', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    const error = await expectAuthError(provider.createUser(email, 'other-pass-1'), 'email-already-in-use');
    expect(error.message).toBe(errorMessages['email-already-in-use']);
    expect(error.message).toBe('The email address is already used by another account');
  });

  it('createUser - should reject a short password with weak-password', async () => {
    const error = await expectAuthError(provider.createUser(uniqueEmail(), 'abc'), 'weak-password');
    expect(error.message).toBe('Use at least 6 characters with letters and numbers');
  });

  it('fetchSignInMethodsForEmail - should list the methods of an account and nothing for an unknown email', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    expect(await provider.fetchSignInMethodsForEmail(email)).toEqual(['password']);
    expect(await provider.fetchSignInMethodsForEmail(uniqueEmail('nobody'))).toEqual([]);
  });

  it('sendPasswordResetEmail - should reject an unknown email with user-not-found', async () => {
    await expectAuthError(provider.sendPasswordResetEmail(uniqueEmail('nobody')), 'user-not-found');
  });

  it('signOut - should sign the user out, and not fail when nobody is signed in', async () => {
    await provider.createUser(uniqueEmail(), 'secret123');
    await provider.signOut();
    expect(provider.getCurrentUser()).toBeNull();
    await expect(provider.signOut()).resolves.toBeUndefined();
  });
});

describe('email enumeration protection on', () => {
  let protectedProvider: FirebaseProvider;
  let disposeProtected: () => Promise<void>;

  beforeAll(async () => {
    await setEmailEnumerationProtection(true);
    ({ provider: protectedProvider, dispose: disposeProtected } = freshProvider({
      emailEnumerationProtection: true,
    }));
  });
  afterAll(async () => {
    await disposeProtected();
    await setEmailEnumerationProtection(false);
  });

  it('capabilities - should declare sign-in method lookups unreliable', () => {
    expect(protectedProvider.capabilities.reliableSignInMethodLookup).toBe(false);
  });

  it('fetchSignInMethodsForEmail - should resolve [] even for an existing account', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    expect(await protectedProvider.fetchSignInMethodsForEmail(email)).toEqual([]);
  });

  it('signInWithEmailAndPassword - should reject a wrong password and an unknown email alike with wrong-password', async () => {
    const email = uniqueEmail();
    await createAccount({ email, password: 'secret123' });
    await expectAuthError(
      protectedProvider.signInWithEmailAndPassword(email, 'not-it-123'),
      'wrong-password',
    );
    await expectAuthError(
      protectedProvider.signInWithEmailAndPassword(uniqueEmail('nobody'), 'secret123'),
      'wrong-password',
    );
  });

  it('sendPasswordResetEmail - should resolve for an unknown email (nothing revealed)', async () => {
    await expect(protectedProvider.sendPasswordResetEmail(uniqueEmail('nobody'))).resolves.toBeUndefined();
  });
});
