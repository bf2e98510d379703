// Federated sign-in through credentials. The SDK's popup and redirect paths load apis.google.com and
// cannot run offline; the emulator accepts an unsigned JSON id token as a Google/OIDC credential, and an
// access token as a Facebook/GitHub one, which proves the Firebase side of those paths.
import type { AuthCredential } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createAccount, expectAuthError, freshProvider, resetEmulator, uniqueEmail } from './emulator.ts';

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

function google(sub: string, email: string, emailVerified = true): AuthCredential {
  return {
    kind: 'federated',
    providerId: 'google.com',
    idToken: JSON.stringify({ sub, email, email_verified: emailVerified }),
  };
}

describe('federated credentials', () => {
  it('signInWithCredential - should create a federated account and return its credential for later linking', async () => {
    const email = uniqueEmail('g');
    const result = await provider.signInWithCredential(google('g-1', email));
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'google.com',
      user: { email, emailVerified: true, providerIds: ['google.com'] },
      credential: { kind: 'federated', providerId: 'google.com' },
    });
    // The returned credential signs in again (through its raw JSON).
    await provider.signOut();
    const again = await provider.signInWithCredential(result.credential as AuthCredential);
    expect(again).toMatchObject({ isNewUser: false, user: { uid: result.user.uid } });
  });

  it('signInWithCredential - should reject an unverified federated email of a password account with account-exists-with-different-credential, then link after password sign-in', async () => {
    const email = uniqueEmail('linked');
    await createAccount({ email, password: 'secret123' });
    const error = await expectAuthError(
      provider.signInWithCredential(google('g-2', email, false)),
      'account-exists-with-different-credential',
    );
    expect(error.email).toBe(email);
    expect(error.credential).toMatchObject({ kind: 'federated', providerId: 'google.com' });
    expect(await provider.fetchSignInMethodsForEmail(email)).toEqual(['password']);

    await provider.signInWithEmailAndPassword(email, 'secret123');
    const linked = await provider.linkWithCredential(error.credential as AuthCredential);
    expect(linked.providerId).toBe('google.com');
    expect([...linked.user.providerIds].sort()).toEqual(['google.com', 'password']);
    expect((await provider.fetchSignInMethodsForEmail(email)).sort()).toEqual(['google.com', 'password']);
  });

  it('signInWithCredential - should also raise account-exists-with-different-credential for Facebook access tokens', async () => {
    const email = uniqueEmail('fb');
    await createAccount({ email, password: 'secret123' });
    const error = await expectAuthError(
      provider.signInWithCredential({
        kind: 'federated',
        providerId: 'facebook.com',
        accessToken: JSON.stringify({ sub: 'fb-1', email }),
      }),
      'account-exists-with-different-credential',
    );
    expect(error).toMatchObject({ email, credential: { providerId: 'facebook.com' } });
  });

  it('linkWithCredential - should reject a federated identity of another account with credential-already-in-use, carrying the credential', async () => {
    const taken = google('g-3', uniqueEmail('owner'));
    await provider.signInWithCredential(taken);
    await provider.signOut();
    await provider.createUser(uniqueEmail('other'), 'secret123');
    const error = await expectAuthError(provider.linkWithCredential(taken), 'credential-already-in-use');
    expect(error.credential).toMatchObject({ kind: 'federated', providerId: 'google.com' });
  });

  it('getRedirectResult - should resolve null when no redirect came back', async () => {
    expect(await provider.getRedirectResult()).toBeNull();
  });
});
