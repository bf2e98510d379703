/**
 * Passkeys: adding one for the signed-in user, listing it, signing in with it after signing out (the same
 * user, `providerId` `passkey`), a replayed assertion and one made for another origin refused, removal
 * (after which the passkey is not recognised), and a dismissed authenticator. The ceremonies run on the
 * harness's authenticator (`inspect.authenticator`, e.g. `@doorway/testing/soft-authenticator`), which the
 * adapter was given as its WebAuthn client.
 * @module
 */
import type { PasskeyInfo, PasskeyOperations } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail } from '../fixtures.ts';
import type { ContractAuthenticator } from '../types.ts';

/** An origin no relying party under test is on. */
const OTHER_ORIGIN = 'https://phishing.example';

/** Registers the passkeys group (capabilities: passkeys, password; hook: inspect.authenticator). */
export function passkeyTests(h: ContractContext): void {
  describe.skipIf(!h.caps.passkeys || !h.caps.password || !h.hooks.authenticator)(
    'passkeys (capabilities: passkeys, password; inspect.authenticator)',
    () => {
      passkeySignInTests(h);
      passkeyManagementTests(h);
    },
  );
}

/** The provider's passkey operations (the capability promises them). */
function ops(h: ContractContext): PasskeyOperations {
  return requireValue(h.provider.passkeys, 'provider.passkeys (capabilities.passkeys is true)');
}

function authenticator(h: ContractContext): ContractAuthenticator {
  return requireValue(h.inspect.authenticator, 'inspect.authenticator');
}

/** A new password account, signed in, with one passkey added; resolves its uid and the passkey. */
async function accountWithPasskey(h: ContractContext): Promise<{ uid: string; passkey: PasskeyInfo }> {
  const { user } = await h.provider.createUser(uniqueEmail('passkey'), PASSWORD);
  const passkey = await ops(h).add('Laptop');
  return { uid: user.uid, passkey };
}

/** Signing in with the passkey; the assertions the relying party must refuse. */
function passkeySignInTests(h: ContractContext): void {
  it('passkeys.signIn - should sign the same user in with the passkey added, providerId passkey', async () => {
    const { uid } = await accountWithPasskey(h);
    await h.provider.signOut();
    const result = await ops(h).signIn();
    expect(result).toMatchObject({ providerId: 'passkey', isNewUser: false });
    expect(result.user.uid).toBe(uid);
    expect(h.provider.getCurrentUser()?.uid).toBe(uid);
  });

  it('passkeys.signIn - should refuse a replayed assertion with passkey-invalid', async () => {
    await accountWithPasskey(h);
    await h.provider.signOut();
    await ops(h).signIn();
    await h.provider.signOut();
    authenticator(h).replayNext();
    await expectAuthError(ops(h).signIn(), 'passkey-invalid');
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('passkeys.signIn - should refuse an assertion made for another origin with passkey-invalid', async () => {
    await accountWithPasskey(h);
    await h.provider.signOut();
    authenticator(h).originNext(OTHER_ORIGIN);
    await expectAuthError(ops(h).signIn(), 'passkey-invalid');
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('passkeys.signIn - should reject user-cancelled when the person dismisses the authenticator', async () => {
    await accountWithPasskey(h);
    await h.provider.signOut();
    authenticator(h).cancelNext('NotAllowedError');
    await expectAuthError(ops(h).signIn(), 'user-cancelled');
    expect(h.provider.getCurrentUser()).toBeNull();
  });
}

/** Adding, listing and removing; and what needs someone signed in. */
function passkeyManagementTests(h: ContractContext): void {
  it('passkeys.add - should add a passkey for the signed-in user, which list then shows', async () => {
    const { passkey } = await accountWithPasskey(h);
    expect(passkey).toMatchObject({
      id: expect.any(String),
      name: 'Laptop',
      createdAt: expect.any(Number),
      lastUsedAt: null,
      backedUp: expect.any(Boolean),
    });
    expect(await ops(h).list()).toEqual([passkey]);
  });

  it('passkeys.remove - should remove the passkey; signing in with it then rejects passkey-not-found', async () => {
    const { passkey } = await accountWithPasskey(h);
    await ops(h).remove(passkey.id);
    expect(await ops(h).list()).toEqual([]);
    await h.provider.signOut();
    await expectAuthError(ops(h).signIn(), 'passkey-not-found');
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('passkeys.add - should reject user-cancelled when the person dismisses the authenticator', async () => {
    await h.provider.createUser(uniqueEmail('passkey'), PASSWORD);
    authenticator(h).cancelNext('NotAllowedError');
    await expectAuthError(ops(h).add('Laptop'), 'user-cancelled');
    expect(await ops(h).list()).toEqual([]);
  });

  it('passkeys.add - should reject requires-recent-login with nobody signed in', async () => {
    await h.provider.signOut();
    await expectAuthError(ops(h).add('Laptop'), 'requires-recent-login');
  });

  it('passkeys.remove - should reject passkey-not-found for a passkey the user does not have', async () => {
    await accountWithPasskey(h);
    await expectAuthError(ops(h).remove('bm90LWEtcGFzc2tleQ'), 'passkey-not-found');
    expect(await ops(h).list()).toHaveLength(1);
  });
}
