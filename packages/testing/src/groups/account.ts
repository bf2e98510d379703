/**
 * Account management (`provider.account`): each operation the provider lists in `capabilities.account`, on
 * a password account the test signs up: the display name, an email change (pending until its link is
 * followed), the password (with the rules of sign-up), the linked sign-in methods and unlinking them (never
 * the last one), signing out the other sessions (this one stays), and deleting the account.
 * @module
 */
import type { AccountOperation, AccountOperations } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { expectAuthError, oobCodeFromLink, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { NEW_PASSWORD, PASSWORD, uniqueEmail, uniqueSub } from '../fixtures.ts';
import { emailLinkFor, federatedCredential } from '../steps.ts';

/** Registers the account group (capabilities: account, password), one test per operation listed. */
export function accountTests(h: ContractContext): void {
  const listed = h.caps.account ?? [];
  describe.skipIf(listed.length === 0 || !h.caps.password)(
    'account (capabilities: account, password)',
    () => {
      profileAndEmailTests(h, listed);
      passwordTests(h, listed);
      methodTests(h, listed);
      sessionTests(h, listed);
    },
  );
}

/** The provider's account operations (the capability promises them). */
function ops(h: ContractContext): AccountOperations {
  return requireValue(h.provider.account, 'provider.account (capabilities.account lists operations)');
}

/** A new password account, signed in; resolves its email and uid. */
async function signedUp(h: ContractContext, label: string): Promise<{ email: string; uid: string }> {
  const email = uniqueEmail(label);
  const { user } = await h.provider.createUser(email, PASSWORD);
  return { email, uid: user.uid };
}

function profileAndEmailTests(h: ContractContext, listed: readonly AccountOperation[]): void {
  it.runIf(listed.includes('updateProfile'))(
    'account.updateProfile - should set the display name, and clear it with null',
    async () => {
      await signedUp(h, 'profile');
      const user = await ops(h).updateProfile({ displayName: 'Ada Lovelace' });
      expect(user.displayName).toBe('Ada Lovelace');
      expect(h.provider.getCurrentUser()?.displayName).toBe('Ada Lovelace');
      const cleared = await ops(h).updateProfile({ displayName: null });
      expect(cleared.displayName).toBeNull();
    },
  );

  it.runIf(listed.includes('changeEmail'))(
    'account.changeEmail - should email the new address and keep the current one until it is confirmed',
    async () => {
      const { email } = await signedUp(h, 'change');
      const newEmail = uniqueEmail('changed');
      const pending = await ops(h).changeEmail(newEmail, { url: h.continueUrl });
      expect(pending).toEqual({ pendingEmail: newEmail, confirmBy: expect.stringMatching(/^(new|both)$/) });
      expect(h.provider.getCurrentUser()?.email).toBe(email);
      await emailLinkFor(h, newEmail, 'verifyAndChangeEmail');
    },
  );

  it.runIf(listed.includes('changeEmail') && h.supportsCode('verifyAndChangeEmail'))(
    'account.changeEmail - should change the address once the emailed codes are applied',
    async () => {
      const { email, uid } = await signedUp(h, 'apply');
      const newEmail = uniqueEmail('applied');
      const { confirmBy } = await ops(h).changeEmail(newEmail, { url: h.continueUrl });
      const confirming = confirmBy === 'both' ? [newEmail, email] : [newEmail];
      for (const to of confirming) {
        const link = await emailLinkFor(h, to, 'verifyAndChangeEmail');
        await h.provider.applyActionCode(requireValue(oobCodeFromLink(link), `an oobCode in ${link}`));
      }
      await h.provider.signOut();
      const { user } = await h.provider.signInWithEmailAndPassword(newEmail, PASSWORD);
      expect(user).toMatchObject({ uid, email: newEmail });
    },
  );

  it.runIf(listed.includes('changeEmail'))(
    'account.changeEmail - should reject email-already-in-use for the address of another account',
    async () => {
      const taken = uniqueEmail('taken');
      await h.inspect.createUser({ email: taken, password: PASSWORD });
      const { email } = await signedUp(h, 'clash');
      await expectAuthError(ops(h).changeEmail(taken), 'email-already-in-use');
      expect(h.provider.getCurrentUser()?.email).toBe(email);
    },
  );

  it.runIf(listed.includes('changeEmail'))(
    'account.changeEmail - should reject invalid-email for a malformed address',
    async () => {
      await signedUp(h, 'malformed');
      await expectAuthError(ops(h).changeEmail('not-an-email'), 'invalid-email');
    },
  );
}

function passwordTests(h: ContractContext, listed: readonly AccountOperation[]): void {
  const runs = it.runIf(listed.includes('changePassword'));
  runs('account.changePassword - should replace the password, checking the current one', async () => {
    const { email, uid } = await signedUp(h, 'newpass');
    await ops(h).changePassword(NEW_PASSWORD, PASSWORD);
    expect(h.provider.getCurrentUser()?.uid).toBe(uid);
    await h.provider.signOut();
    await expectAuthError(h.provider.signInWithEmailAndPassword(email, PASSWORD), 'wrong-password');
    const { user } = await h.provider.signInWithEmailAndPassword(email, NEW_PASSWORD);
    expect(user.uid).toBe(uid);
  });

  runs('account.changePassword - should reject weak-password for a short password', async () => {
    const { email } = await signedUp(h, 'weakpass');
    await expectAuthError(ops(h).changePassword('abc'), 'weak-password');
    await h.provider.signOut();
    await expect(h.provider.signInWithEmailAndPassword(email, PASSWORD)).resolves.toBeDefined();
  });

  runs('account.changePassword - should reject wrong-password for a wrong current password', async () => {
    const { email } = await signedUp(h, 'wrongcurrent');
    await expectAuthError(ops(h).changePassword(NEW_PASSWORD, 'Not-the-0ne'), 'wrong-password');
    await h.provider.signOut();
    await expect(h.provider.signInWithEmailAndPassword(email, PASSWORD)).resolves.toBeDefined();
  });

  it.runIf(listed.includes('changePassword') && h.hooks.federatedCredential && h.federatedId !== undefined)(
    'account.changePassword - should give a federated account without a password one to sign in with',
    async () => {
      const providerId = requireValue(h.federatedId, 'a federated provider id');
      const email = uniqueEmail('fedpass');
      const credential = federatedCredential(h, providerId, { sub: uniqueSub('fedpass'), email });
      const { user } = await h.provider.signInWithCredential(credential);
      await ops(h).changePassword(NEW_PASSWORD);
      await h.provider.signOut();
      const signedIn = await h.provider.signInWithEmailAndPassword(email, NEW_PASSWORD);
      expect(signedIn.user.uid).toBe(user.uid);
    },
  );
}

function methodTests(h: ContractContext, listed: readonly AccountOperation[]): void {
  it.runIf(listed.includes('listMethods'))(
    'account.listMethods - should list the password of a password account',
    async () => {
      await signedUp(h, 'methods');
      expect(await ops(h).listMethods()).toContain('password');
    },
  );

  it.runIf(listed.includes('unlink'))(
    'account.unlink - should reject last-sign-in-method for the only sign-in method, which stays',
    async () => {
      const { email } = await signedUp(h, 'lastmethod');
      await expectAuthError(ops(h).unlink('password'), 'last-sign-in-method');
      await h.provider.signOut();
      await expect(h.provider.signInWithEmailAndPassword(email, PASSWORD)).resolves.toBeDefined();
    },
  );

  it.runIf(listed.includes('unlink'))(
    'account.unlink - should reject operation-not-allowed for a method the account does not have',
    async () => {
      await signedUp(h, 'notlinked');
      await expectAuthError(ops(h).unlink('phone'), 'operation-not-allowed');
    },
  );

  it.runIf(listed.includes('unlink') && h.hooks.federatedCredential && h.federatedId !== undefined)(
    'account.unlink - should remove a linked federated identity, then refuse the last method',
    async () => {
      const providerId = requireValue(h.federatedId, 'a federated provider id');
      const { email } = await signedUp(h, 'unlinkfed');
      await h.provider.linkWithCredential(federatedCredential(h, providerId, { sub: uniqueSub('u'), email }));
      const user = await ops(h).unlink(providerId);
      expect(user.providerIds).not.toContain(providerId);
      expect(h.provider.getCurrentUser()?.providerIds).not.toContain(providerId);
      if (listed.includes('listMethods')) expect(await ops(h).listMethods()).not.toContain(providerId);
      await expectAuthError(ops(h).unlink('password'), 'last-sign-in-method');
    },
  );
}

function sessionTests(h: ContractContext, listed: readonly AccountOperation[]): void {
  it.runIf(listed.includes('signOutOtherSessions'))(
    'account.signOutOtherSessions - should keep this session signed in',
    async () => {
      const { uid } = await signedUp(h, 'others');
      await ops(h).signOutOtherSessions();
      expect(h.provider.getCurrentUser()?.uid).toBe(uid);
      // The session still works against the backend.
      const user = await ops(h)
        .updateProfile({ displayName: 'Still here' })
        .catch(() => null);
      if (listed.includes('updateProfile')) expect(user?.uid).toBe(uid);
    },
  );

  it.runIf(listed.includes('deleteAccount'))(
    'account.deleteAccount - should delete the account and sign it out',
    async () => {
      const { email } = await signedUp(h, 'delete');
      await ops(h).deleteAccount();
      expect(h.provider.getCurrentUser()).toBeNull();
      const gone = h.reliable ? 'user-not-found' : 'wrong-password';
      await expectAuthError(h.provider.signInWithEmailAndPassword(email, PASSWORD), gone);
    },
  );

  it('account - should reject requires-recent-login for every listed operation with nobody signed in', async () => {
    await h.provider.signOut();
    const calls: Record<AccountOperation, () => Promise<unknown>> = {
      updateProfile: () => ops(h).updateProfile({ displayName: 'Nobody' }),
      changeEmail: () => ops(h).changeEmail(uniqueEmail('nobody')),
      changePassword: () => ops(h).changePassword(NEW_PASSWORD),
      listMethods: () => ops(h).listMethods(),
      unlink: () => ops(h).unlink('password'),
      signOutOtherSessions: () => ops(h).signOutOtherSessions(),
      deleteAccount: () => ops(h).deleteAccount(),
    };
    for (const operation of listed) await expectAuthError(calls[operation](), 'requires-recent-login');
  });
}
