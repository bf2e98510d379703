import { AuthError } from '@doorway/auth-core';
import { runProviderContract } from '@doorway/testing';
import { describe, expect, it } from 'vitest';
import {
  createFakeProvider,
  createFakeServerProvider,
  createManualClock,
  verifyFakeSessionToken,
} from '../src/index.ts';

const setup = () => {
  const world = createFakeProvider({ clock: createManualClock(Date.UTC(2025, 0, 1)), tenants: ['acme'] });
  world.backend.createUser({ email: 'ada@example.com', password: 'secret1', displayName: 'Ada' });
  return world;
};

describe('createFakeServerProvider', () => {
  it('sees the users of its world, and signs in on its own session, not the world’s', async () => {
    const world = setup();
    const provider = createFakeServerProvider(world);
    const { user } = await provider.signInWithEmailAndPassword('ada@example.com', 'secret1');
    expect(user.email).toBe('ada@example.com');
    expect(provider.getCurrentUser()?.uid).toBe(user.uid);
    expect(world.getCurrentUser()).toBeNull();
    expect(createFakeServerProvider(world).getCurrentUser()).toBeNull();
  });

  it('creates users the world then knows', async () => {
    const world = setup();
    const provider = createFakeServerProvider(world);
    await provider.createUser('new@example.com', 'secret2', 'New');
    expect(world.backend.findUserByEmail('new@example.com')?.displayName).toBe('New');
    await expect(world.signInWithEmailAndPassword('new@example.com', 'secret2')).resolves.toBeTruthy();
  });

  it('keeps a tenant of its own', async () => {
    const world = setup();
    world.backend.createUser({ email: 'bo@acme.com', password: 'secret1', tenantId: 'acme' });
    const provider = createFakeServerProvider(world);
    await provider.setTenant('acme');
    expect(world.backend.tenantId).toBeNull();
    await expect(provider.fetchSignInMethodsForEmail('bo@acme.com')).resolves.toEqual(['password']);
    await expect(createFakeServerProvider(world).fetchSignInMethodsForEmail('bo@acme.com')).resolves.toEqual(
      [],
    );
  });

  it('hands out a session token per sign-in that the world maps back to the user, until sign-out', async () => {
    const world = setup();
    const provider = createFakeServerProvider(world);
    expect(provider.sessionToken()).toBeNull();
    const { user } = await provider.signInWithEmailAndPassword('ada@example.com', 'secret1');
    const token = provider.sessionToken();
    expect(token).toBe('fake-session-1');
    expect(verifyFakeSessionToken(world, token as string)?.uid).toBe(user.uid);
    await provider.signOut();
    expect(provider.sessionToken()).toBeNull();
    const other = createFakeServerProvider(world);
    await other.signInAnonymously();
    expect(other.sessionToken()).toBe('fake-session-2');
    expect(verifyFakeSessionToken(world, 'fake-session-2')?.isAnonymous).toBe(true);
  });

  it('verifies no token it did not issue, nor one of a deleted or disabled user', async () => {
    const world = setup();
    expect(verifyFakeSessionToken(world, 'fake-session-1')).toBeNull();
    const provider = createFakeServerProvider(world);
    const { user } = await provider.signInWithEmailAndPassword('ada@example.com', 'secret1');
    expect(verifyFakeSessionToken(setup(), 'fake-session-1')).toBeNull();
    world.backend.updateUser(user.uid, { disabled: true });
    expect(verifyFakeSessionToken(world, 'fake-session-1')).toBeNull();
    world.backend.deleteUser(user.uid);
    expect(verifyFakeSessionToken(world, 'fake-session-1')).toBeNull();
  });

  it('gives no token for a failed sign-in', async () => {
    const provider = createFakeServerProvider(setup());
    await expect(provider.signInWithEmailAndPassword('ada@example.com', 'nope')).rejects.toMatchObject({
      code: 'wrong-password',
    });
    expect(provider.sessionToken()).toBeNull();
  });

  it('refuses what needs a browser with operation-not-allowed, and says so in its capabilities', async () => {
    const world = setup();
    const provider = createFakeServerProvider(world);
    expect(provider.capabilities).toMatchObject({
      phone: false,
      popup: false,
      redirect: false,
      captcha: false,
    });
    expect(provider.capabilities.password).toBe(true);
    expect(provider.capabilities).toBe(provider.capabilities);
    expect(() => provider.createCaptchaVerifier(null)).toThrow(AuthError);
    const refused = { code: 'operation-not-allowed' };
    const verifier = world.createCaptchaVerifier(null);
    await expect(provider.startPhoneSignIn('+16505550100', verifier)).rejects.toMatchObject(refused);
    await expect(provider.confirmPhoneCode('vid-1', '123456')).rejects.toMatchObject(refused);
    await expect(provider.signInWithFederated('google.com', { mode: 'popup' })).rejects.toMatchObject(
      refused,
    );
    await expect(provider.getRedirectResult()).rejects.toMatchObject(refused);
    await expect(
      provider.signInWithCredential({ kind: 'password', email: 'ada@example.com', password: 'secret1' }),
    ).rejects.toMatchObject(refused);
    await expect(
      provider.linkWithCredential({ kind: 'password', email: 'ada@example.com', password: 'secret1' }),
    ).rejects.toMatchObject(refused);
    expect(world.backend.calls.map((c) => c.method)).toEqual([]);
  });

  it('follows its world’s enumeration protection', () => {
    const world = setup();
    const provider = createFakeServerProvider(world);
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(true);
    world.backend.faults.set({ enumerationProtection: true });
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
    expect(provider.capabilities.popup).toBe(false);
  });
});

// The provider contract on the server provider: what needs a browser is off, as it declares. The anonymous
// group is about upgrading an anonymous user (linking), which the server refuses, so it runs on a world
// without anonymous users, where `signInAnonymously` must reject operation-not-allowed.
runProviderContract({
  name: 'adapter-fake server provider',
  create: () => {
    const clock = createManualClock(Date.UTC(2025, 0, 1));
    const world = createFakeProvider({ clock, capabilities: { anonymous: false, federated: [] } });
    const { backend } = world;
    const provider = createFakeServerProvider(world);
    return {
      // The contract's credential tests sign in with password and email-link credentials: here by the
      // methods those credentials stand for (the server refuses credentials as such).
      provider: {
        ...provider,
        capabilities: provider.capabilities,
        signInWithCredential: (credential) =>
          credential.kind === 'password'
            ? provider.signInWithEmailAndPassword(credential.email, credential.password)
            : credential.kind === 'emailLink'
              ? provider.signInWithEmailLink(credential.email, credential.link)
              : provider.signInWithCredential(credential),
      },
      inspect: {
        lastEmailLink: async (email, kind) => backend.outbox.lastEmail(email, kind)?.link ?? null,
        lastSmsCode: async (phoneNumber) => backend.outbox.lastSms(phoneNumber)?.code ?? null,
        createUser: async (user) => backend.createUser(user),
        actionCode: async (email, kind, extra) => {
          const user = backend.findUserByEmail(email);
          if (user === null) return null;
          switch (kind) {
            case 'verifyEmail':
              return backend.sendVerificationEmail(user.uid).oobCode;
            case 'resetPassword':
              return backend.sendPasswordReset(user.uid).oobCode;
            case 'recoverEmail':
              return backend.changeEmail(user.uid, extra?.newEmail ?? `changed.${email}`).oobCode;
            case 'verifyAndChangeEmail':
              return backend.verifyAndChangeEmail(user.uid, extra?.newEmail ?? `new.${email}`).oobCode;
          }
        },
        solvedVerifier: () => world.createCaptchaVerifier(null),
        disableUser: async (uid) => backend.updateUser(uid, { disabled: true }),
        now: () => clock.now(),
      },
    };
  },
  capabilities: { anonymous: false, federated: [] },
});
