/**
 * The account page's own operations on the server (`createSupabaseServer(…).accountProvider(cookie)`'s
 * `account`), against the GoTrue double through `double.fetch`: the provider contract's account group (with
 * the rest of the contract, as the form provider runs it: test/form-contract.test.ts says why each setting),
 * then what the host relies on beyond it: the session's token after each operation, the secure email
 * change confirmed at both addresses, and deleting the account with the service-role key only.
 * Checked against the double only.
 */
import type { AuthProvider } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError, oobCodeFromLink, runProviderContract } from '@doorway/testing';
import { describe, expect, it } from 'vitest';
import { createSupabaseServer, type SupabaseServer } from '../src/server.ts';
import { CONTRACT_PROJECT, doubleInspect } from './inspect.ts';

const ACTION_URL = 'http://localhost/__/auth/action';
const PASSWORD = 'Secret-123';
const NEW_PASSWORD = 'Another-456';
let n = 0;
const email = (label: string) => `${label}-server-account-${++n}@example.com`;

/** The provider with password and email-link credentials signed in by their own methods. */
function credentialsByMethod(provider: ServerAuthProvider): AuthProvider {
  return {
    ...provider,
    async signInWithCredential(credential) {
      if (credential.kind === 'password') {
        return provider.signInWithEmailAndPassword(credential.email, credential.password);
      }
      if (credential.kind === 'emailLink')
        return provider.signInWithEmailLink(credential.email, credential.link);
      return provider.signInWithCredential(credential);
    },
  };
}

/** A server on `double`, with the service-role key unless `withKey` is false. */
function serverOn(double: GoTrueDouble, withKey = true): SupabaseServer {
  return createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
    ...(withKey ? { serviceRoleKey: double.serviceRoleKey } : {}),
  });
}

/** A password account signed up over the form path: its uid, email and session cookie (the access token). */
async function signedUp(server: SupabaseServer, address = email('user')) {
  const form = server.formProvider({ actionUrl: ACTION_URL });
  const { user } = await form.createUser(address, PASSWORD);
  return { uid: user.uid, email: address, cookie: form.sessionToken() ?? '' };
}

/** The account provider of `cookie` (the session must verify). */
async function accountOf(server: SupabaseServer, cookie: string, secureEmailChange = false) {
  const provider = await server.accountProvider(cookie, { actionUrl: ACTION_URL, secureEmailChange });
  if (provider === null || provider.account === undefined) throw new Error('no account provider');
  return { provider, account: provider.account };
}

/** Another sign-in of the same account (another device): its access token. */
async function otherDevice(server: SupabaseServer, address: string, password = PASSWORD) {
  const form = server.formProvider();
  await form.signInWithEmailAndPassword(address, password);
  return form.sessionToken() ?? '';
}

runProviderContract({
  name: 'adapter-supabase account provider (GoTrue double)',
  create: async () => {
    const double = createGoTrueDouble({ ...CONTRACT_PROJECT, anonymousUsers: false });
    const server = serverOn(double);
    // The account provider of a session, signed out again: the contract signs its own users up on it.
    const { cookie } = await signedUp(server, email('opener'));
    const { provider } = await accountOf(server, cookie);
    await provider.signOut();
    const { federatedCredential: _, ...inspect } = doubleInspect(double, () => ({
      kind: 'none',
      render: async () => {},
      isSolved: () => true,
      clear: () => {},
    }));
    return { provider: credentialsByMethod(provider), inspect };
  },
  continueUrl: ACTION_URL,
  capabilities: { anonymous: false, actionCodes: ['resetPassword', 'verifyEmail'] },
});

describe('accountProvider - account', () => {
  it('lists every operation with the service-role key, and all but deleteAccount without it', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const { cookie } = await signedUp(serverOn(double));
    const withKey = await accountOf(serverOn(double), cookie);
    expect(withKey.provider.capabilities.account).toEqual([
      'updateProfile',
      'changeEmail',
      'changePassword',
      'listMethods',
      'unlink',
      'signOutOtherSessions',
      'deleteAccount',
    ]);
    const withoutKey = await accountOf(serverOn(double, false), cookie);
    expect(withoutKey.provider.capabilities.account).not.toContain('deleteAccount');
    expect(withoutKey.provider.capabilities.account).toHaveLength(6);
    await expectAuthError(withoutKey.account.deleteAccount(), 'operation-not-allowed');
    expect(await serverOn(double).verifySession(cookie)).not.toBeNull();
    // The form path's provider has no account page.
    expect(serverOn(double).formProvider().account).toBeUndefined();
  });

  it('updateProfile - should set and clear the display name, the session keeping its token', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, uid } = await signedUp(server);
    const { provider, account } = await accountOf(server, cookie);
    await expect(account.updateProfile({ displayName: '  Ada Lovelace ' })).resolves.toMatchObject({
      uid,
      displayName: 'Ada Lovelace',
    });
    expect((await server.verifySession(cookie))?.user.displayName).toBe('Ada Lovelace');
    await expect(account.updateProfile({ displayName: ' ' })).resolves.toMatchObject({ displayName: null });
    expect(double.admin.getUserById(uid).user_metadata).not.toHaveProperty('full_name');
    expect(provider.sessionToken()).toBe(cookie);
  });

  it('changeEmail - should change the address once both addresses followed their links (secure email change)', async () => {
    const double = createGoTrueDouble({
      ...CONTRACT_PROJECT,
      secureEmailChange: true,
      mailerAutoconfirm: false,
    });
    const server = serverOn(double);
    const before = email('before');
    const { id } = double.admin.createUser({ email: before, password: PASSWORD, email_confirm: true });
    const cookie = await otherDevice(server, before);
    const { account, provider } = await accountOf(server, cookie, true);
    const after = email('after');
    await expect(account.changeEmail(after.toUpperCase())).resolves.toEqual({
      pendingEmail: after,
      confirmBy: 'both',
    });
    expect(provider.getCurrentUser()?.email).toBe(before);
    const links = [after, before].map((to) => double.outbox.lastEmail(to, 'email_change')?.link ?? '');
    for (const link of links) {
      expect(new URL(link).searchParams.get('mode')).toBe('verifyAndChangeEmail');
      expect(link.startsWith(ACTION_URL)).toBe(true);
    }
    const [first, second] = links.map((link) => oobCodeFromLink(link) ?? '') as [string, string];
    await server.serverProvider().applyActionCode(first);
    expect(double.admin.getUserById(String(id)).email).toBe(before);
    await server.serverProvider().applyActionCode(second);
    expect(double.admin.getUserById(String(id)).email).toBe(after);
    await expect(server.formProvider().signInWithEmailAndPassword(after, PASSWORD)).resolves.toMatchObject({
      user: { uid: id, email: after },
    });
  });

  it('changeEmail - should answer confirmBy new where the project confirms the new address only', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, email: before } = await signedUp(server);
    const { account } = await accountOf(server, cookie, false);
    const after = email('single');
    await expect(account.changeEmail(after, { url: 'http://localhost/elsewhere' })).resolves.toEqual({
      pendingEmail: after,
      confirmBy: 'new',
    });
    const link = double.outbox.lastEmail(after, 'email_change')?.link ?? '';
    expect(link.startsWith('http://localhost/elsewhere?')).toBe(true);
    expect(double.outbox.lastEmail(before, 'email_change')).toBeNull();
  });

  it('changeEmail - should reject email-already-in-use and invalid-email', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const taken = (await signedUp(server)).email;
    const { cookie } = await signedUp(server);
    const { account } = await accountOf(server, cookie);
    await expectAuthError(account.changeEmail(taken), 'email-already-in-use');
    await expectAuthError(account.changeEmail('not-an-email'), 'invalid-email');
  });

  it('changePassword - should check the current password, end the other sessions and keep this one', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, email: address } = await signedUp(server);
    const elsewhere = await otherDevice(server, address);
    const { provider, account } = await accountOf(server, cookie);
    const sessions = double.snapshot().sessions.length;
    await expectAuthError(account.changePassword(NEW_PASSWORD, 'Not-the-0ne'), 'wrong-password');
    await expectAuthError(account.changePassword('abc', PASSWORD), 'weak-password');
    // The grants that checked the current password left no session behind.
    expect(double.snapshot().sessions).toHaveLength(sessions);
    await account.changePassword(NEW_PASSWORD, PASSWORD);
    expect(provider.sessionToken()).toBe(cookie);
    expect(await server.verifySession(cookie)).not.toBeNull();
    expect(await server.verifySession(elsewhere)).toBeNull();
    await expectAuthError(
      server.formProvider().signInWithEmailAndPassword(address, PASSWORD),
      'wrong-password',
    );
    await expect(otherDevice(server, address, NEW_PASSWORD)).resolves.not.toBe('');
  });

  it("signOutOtherSessions - should end the user's other sessions and keep this cookie", async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, email: address } = await signedUp(server);
    const elsewhere = await otherDevice(server, address);
    const { provider, account } = await accountOf(server, cookie);
    await account.signOutOtherSessions();
    expect(provider.sessionToken()).toBe(cookie);
    expect(await server.verifySession(elsewhere)).toBeNull();
    expect(await server.verifySession(cookie)).not.toBeNull();
  });

  it('listMethods and unlink - should remove a linked identity, never the last one', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, uid, email: address } = await signedUp(server);
    double.admin.addIdentity(uid, 'google', { sub: `google-${uid}`, email: address });
    const { provider, account } = await accountOf(server, cookie);
    await expect(account.listMethods()).resolves.toEqual(['password', 'emailLink', 'google.com']);
    await expectAuthError(account.unlink('github.com'), 'operation-not-allowed');
    const user = await account.unlink('google.com');
    expect(user.providerIds).toEqual(['password', 'emailLink']);
    expect(provider.getCurrentUser()?.providerIds).toEqual(['password', 'emailLink']);
    await expectAuthError(account.unlink('password'), 'last-sign-in-method');
    await expect(account.listMethods()).resolves.toEqual(['password', 'emailLink']);
  });

  it('deleteAccount - should delete the account with the service-role key and end every session', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie, uid, email: address } = await signedUp(server);
    const elsewhere = await otherDevice(server, address);
    const { provider, account } = await accountOf(server, cookie);
    await account.deleteAccount();
    expect(provider.sessionToken()).toBeNull();
    expect(provider.getCurrentUser()).toBeNull();
    expect(double.admin.listUsers().some((u) => u.id === uid)).toBe(false);
    expect(await server.verifySession(cookie)).toBeNull();
    expect(await server.verifySession(elsewhere)).toBeNull();
    await expectAuthError(account.listMethods(), 'requires-recent-login');
    await expectAuthError(
      server.formProvider().signInWithEmailAndPassword(address, PASSWORD),
      'wrong-password',
    );
  });

  it('deleteAccount - should reject generic when the project refuses the key, and keep the account', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const { cookie, uid } = await signedUp(serverOn(double));
    // A user's own access token is no service-role key: GoTrue answers 403 not_admin.
    const misconfigured = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
      serviceRoleKey: cookie,
    });
    const { account } = await accountOf(misconfigured, cookie);
    await expectAuthError(account.deleteAccount(), 'generic');
    expect(double.admin.listUsers().some((u) => u.id === uid)).toBe(true);
  });

  it('should reject requires-recent-login once the session is gone (signed out elsewhere)', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const server = serverOn(double);
    const { cookie } = await signedUp(server);
    const { account } = await accountOf(server, cookie);
    await server.revokeSession(cookie);
    await expectAuthError(account.updateProfile({ displayName: 'Late' }), 'requires-recent-login');
    await expectAuthError(account.signOutOtherSessions(), 'requires-recent-login');
  });
});
