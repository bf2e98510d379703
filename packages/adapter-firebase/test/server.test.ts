// Server entry (`@doorway/adapter-firebase/server`) against the emulator: firebase-admin session cookies.
import { signInWithCustomToken } from 'firebase/auth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createFirebaseServer } from '../src/server.ts';
import { expectAuthError, freshProvider, PROJECT_ID, resetEmulator, uniqueEmail } from './emulator.ts';

const FIVE_MINUTES = 5 * 60 * 1000;
const server = createFirebaseServer({ projectId: PROJECT_ID });

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

async function signedInIdToken(email = uniqueEmail('session')): Promise<string> {
  await provider.createUser(email, 'secret123', 'Ada');
  const user = provider.auth.currentUser;
  if (user === null) throw new Error('not signed in');
  // Refreshed so the token carries the display name set after sign-up (its `name` claim).
  return user.getIdToken(true);
}

describe('sessions', () => {
  it('createSessionCookie + verifySessionCookie - should turn an ID token into a cookie naming the user', async () => {
    const email = uniqueEmail('session');
    const idToken = await signedInIdToken(email);
    const cookie = await server.createSessionCookie(idToken, { expiresInMs: FIVE_MINUTES });
    const user = await server.verifySessionCookie(cookie, { checkRevoked: true });
    expect(user).toMatchObject({
      uid: provider.getCurrentUser()?.uid,
      email,
      displayName: 'Ada',
      emailVerified: false,
      isAnonymous: false,
      tenantId: null,
      signInProvider: 'password',
      identities: ['email'],
    });
    expect(user?.expiresAt).toBeGreaterThan(Date.now());
    expect(user?.expiresAt).toBeLessThanOrEqual(Date.now() + FIVE_MINUTES + 60_000);
  });

  it('verifySessionCookie - should resolve null for a missing or malformed cookie', async () => {
    expect(await server.verifySessionCookie(undefined)).toBeNull();
    expect(await server.verifySessionCookie('')).toBeNull();
    expect(await server.verifySessionCookie('not-a-cookie', { checkRevoked: true })).toBeNull();
  });

  it('revokeSessions - should make a revoked cookie verify as null when checking revocation', async () => {
    const idToken = await signedInIdToken();
    const cookie = await server.createSessionCookie(idToken, { expiresInMs: FIVE_MINUTES });
    const uid = provider.getCurrentUser()?.uid as string;
    // Revocation compares whole seconds: a revoke in the sign-in's own second would not count.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await server.revokeSessions(uid);
    expect(await server.verifySessionCookie(cookie, { checkRevoked: true })).toBeNull();
    // (Against the emulator firebase-admin checks revocation even without `checkRevoked`.)
  });

  it('createSessionCookie - should reject a bad ID token with session-expired', async () => {
    await expectAuthError(
      server.createSessionCookie('not-a-token', { expiresInMs: FIVE_MINUTES }),
      'session-expired',
    );
  });

  it('getUser - should read the user record as AuthUser, and null for an unknown uid', async () => {
    await signedInIdToken();
    const uid = provider.getCurrentUser()?.uid as string;
    expect(await server.getUser(uid)).toEqual(provider.getCurrentUser());
    expect(await server.getUser('no-such-uid')).toBeNull();
  });

  it('verifySessionCookie - should mark an anonymous session', async () => {
    await provider.signInAnonymously();
    const idToken = await (provider.auth.currentUser?.getIdToken() as Promise<string>);
    const cookie = await server.createSessionCookie(idToken, { expiresInMs: FIVE_MINUTES });
    expect(await server.verifySessionCookie(cookie)).toMatchObject({
      isAnonymous: true,
      signInProvider: 'anonymous',
    });
  });
});

describe('createCustomToken', () => {
  it('createCustomToken - should mint a token the browser SDK signs in with as the same user', async () => {
    const email = uniqueEmail('custom');
    await signedInIdToken(email);
    const uid = provider.getCurrentUser()?.uid as string;
    await provider.signOut();
    const token = await server.createCustomToken(uid);
    await signInWithCustomToken(provider.auth, token);
    expect(provider.getCurrentUser()).toMatchObject({ uid, email });
  });
});
