/**
 * The fake's account management beyond the contract: other sessions signed out (and this one kept), the
 * email change's undo link to the old address, the call log and faults of `account.*`.
 */
import { describe, expect, it } from 'vitest';
import { createFakeProvider, createManualClock } from '../src/index.ts';
import { openFakeSession } from '../src/provider.ts';

const PASSWORD = 'Secret-123';

function setup() {
  const provider = createFakeProvider({ clock: createManualClock(0) });
  const uid = provider.backend.createUser({
    email: 'ada@example.com',
    password: PASSWORD,
    emailVerified: true,
  });
  return { provider, uid };
}

describe('account', () => {
  it('signOutOtherSessions - should sign the user out of its other sessions and keep this one', async () => {
    const { provider, uid } = setup();
    const other = openFakeSession(provider);
    await provider.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    await other.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    await provider.account?.signOutOtherSessions();
    expect(provider.getCurrentUser()?.uid).toBe(uid);
    expect(other.getCurrentUser()).toBeNull();
    // Signing in again afterwards works.
    await other.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    expect(other.getCurrentUser()?.uid).toBe(uid);
  });

  it('deleteAccount - should sign the user out of every session', async () => {
    const { provider } = setup();
    const other = openFakeSession(provider);
    await provider.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    await other.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    await provider.account?.deleteAccount();
    expect(other.getCurrentUser()).toBeNull();
    expect(provider.backend.listUsers()).toEqual([]);
  });

  it('changeEmail - should mail the old address a recoverEmail code once the change is applied, which undoes it', async () => {
    const { provider, uid } = setup();
    await provider.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    await provider.account?.changeEmail('lovelace@example.com');
    expect(provider.backend.outbox.lastEmail('ada@example.com', 'recoverEmail')).toBeNull();
    const change = provider.backend.outbox.lastEmail('lovelace@example.com', 'verifyAndChangeEmail');
    await provider.applyActionCode(change?.oobCode ?? '');
    expect(provider.backend.getUser(uid)?.email).toBe('lovelace@example.com');
    const undo = provider.backend.outbox.lastEmail('ada@example.com', 'recoverEmail');
    await expect(provider.checkActionCode(undo?.oobCode ?? '')).resolves.toEqual({
      operation: 'recoverEmail',
      email: 'ada@example.com',
      previousEmail: 'lovelace@example.com',
    });
    await provider.applyActionCode(undo?.oobCode ?? '');
    expect(provider.backend.getUser(uid)?.email).toBe('ada@example.com');
  });

  it('account.* - should be logged and fail on demand like every call', async () => {
    const { provider } = setup();
    await provider.signInWithEmailAndPassword('ada@example.com', PASSWORD);
    provider.backend.faults.failNext('account.listMethods', 'network-request-failed');
    await expect(provider.account?.listMethods()).rejects.toMatchObject({ code: 'network-request-failed' });
    await expect(provider.account?.listMethods()).resolves.toEqual(['password']);
    expect(provider.backend.calls.filter((c) => c.method === 'account.listMethods')).toHaveLength(2);
  });

  it('capabilities - an operation left out of capabilities.account rejects operation-not-allowed', async () => {
    const provider = createFakeProvider({ capabilities: { account: ['listMethods'] } });
    await provider.createUser('grace@example.com', PASSWORD);
    await expect(provider.account?.deleteAccount()).rejects.toMatchObject({ code: 'operation-not-allowed' });
    await expect(provider.account?.listMethods()).resolves.toEqual(['password']);
  });
});
