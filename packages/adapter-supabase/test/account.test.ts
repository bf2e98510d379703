/**
 * Account management of the browser provider beyond the contract, on the GoTrue double: a secure email
 * change (both addresses confirm), signing out the other sessions, and what the browser cannot do.
 */
import { expectAuthError, oobCodeFromLink } from '@doorway/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION_URL, createSupabaseHarness, server } from './harness.ts';

afterAll(() => server.close());

const PASSWORD = 'Secret-123';
let n = 0;
const email = (label: string) => `${label}-account-${++n}@example.com`;

describe('account', () => {
  it('changeEmail - should change the address only once both addresses followed their links (secure email change)', async () => {
    const { provider, double } = createSupabaseHarness({
      double: { secureEmailChange: true, mailerAutoconfirm: false },
    });
    const before = email('before');
    const after = email('after');
    double.admin.createUser({ email: before, password: PASSWORD, email_confirm: true });
    const { user } = await provider.signInWithEmailAndPassword(before, PASSWORD);
    await expect(provider.account?.changeEmail(after, { url: ACTION_URL })).resolves.toEqual({
      pendingEmail: after,
      confirmBy: 'both',
    });
    expect(provider.getCurrentUser()?.email).toBe(before);
    const codes = [after, before].map((to) =>
      oobCodeFromLink(double.outbox.lastEmail(to, 'email_change')?.link ?? ''),
    );
    expect(codes).toEqual([expect.any(String), expect.any(String)]);
    const [first, second] = codes as [string, string];
    await provider.applyActionCode(first);
    await provider.signOut();
    await expectAuthError(provider.signInWithEmailAndPassword(after, PASSWORD), 'wrong-password');
    await provider.applyActionCode(second);
    await expect(provider.signInWithEmailAndPassword(after, PASSWORD)).resolves.toMatchObject({
      user: { uid: user.uid, email: after },
    });
  });

  it('changeEmail - should answer confirmBy new when the project confirms at the new address only', async () => {
    const { provider, double } = createSupabaseHarness({ double: { secureEmailChange: false } });
    const before = email('single');
    await provider.createUser(before, PASSWORD);
    const after = email('single-new');
    await expect(provider.account?.changeEmail(after)).resolves.toEqual({
      pendingEmail: after,
      confirmBy: 'new',
    });
    expect(double.outbox.lastEmail(before, 'email_change')).toBeNull();
  });

  it("signOutOtherSessions - should end the user's session in another browser and keep this one", async () => {
    const here = createSupabaseHarness();
    const there = createSupabaseHarness({ on: here.double });
    const address = email('others');
    const { user } = await here.provider.createUser(address, PASSWORD);
    await there.provider.signInWithEmailAndPassword(address, PASSWORD);
    await here.provider.account?.signOutOtherSessions();
    expect(here.provider.getCurrentUser()?.uid).toBe(user.uid);
    await expect(here.provider.account?.listMethods()).resolves.toContain('password');
    await expect(there.provider.account?.listMethods()).rejects.toThrow();
    expect(here.double.requests.some((r) => r.method === 'POST' && r.path === '/logout')).toBe(true);
  });

  it('unlink - should reject operation-not-allowed when the project has manual linking off', async () => {
    const { provider, double } = createSupabaseHarness({ double: { manualLinking: false } });
    const address = email('manual');
    const { user } = await provider.createUser(address, PASSWORD);
    double.admin.addIdentity(user.uid, 'google', { sub: 'google-manual', email: address });
    await expectAuthError(
      provider.account?.unlink('google.com') ?? Promise.resolve(),
      'operation-not-allowed',
    );
    await expect(provider.account?.listMethods()).resolves.toEqual(['password', 'emailLink', 'google.com']);
  });

  it('deleteAccount - should not be offered in the browser (it needs the service key)', async () => {
    const { provider } = createSupabaseHarness();
    expect(provider.capabilities.account).not.toContain('deleteAccount');
    await provider.createUser(email('delete'), PASSWORD);
    await expectAuthError(provider.account?.deleteAccount() ?? Promise.resolve(), 'operation-not-allowed');
    expect(provider.getCurrentUser()).not.toBeNull();
  });
});
