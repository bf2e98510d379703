/**
 * The account page's passkeys on the server (`SupabaseServer.accountPasskeys`), on the GoTrue double with the
 * software authenticator standing in for the browser between the two steps of adding one: the session
 * required, the requests made, the name, and the refusals as catalogue codes.
 */
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { describe, expect, it } from 'vitest';
import { createSupabaseServer, type SupabaseAccountPasskeys } from '../src/server.ts';
import { CONTRACT_PROJECT } from './inspect.ts';

const ORIGIN = 'http://localhost';
const PASSWORD = 'Secret-123';
let n = 0;
const email = (label: string) => `${label}-${++n}@example.com`;

function setUp() {
  const double = createGoTrueDouble({
    ...CONTRACT_PROJECT,
    passkey: { rpId: 'localhost', rpOrigins: [ORIGIN] },
  });
  const host = createSupabaseServer({ url: double.projectUrl, anonKey: double.anonKey, fetch: double.fetch });
  const authenticator = createSoftAuthenticator({ origin: ORIGIN });
  return { double, host, authenticator };
}

/** A new password account's session (its access token) and its account passkeys. */
async function signedUp(
  host: ReturnType<typeof setUp>['host'],
): Promise<{ cookie: string; passkeys: SupabaseAccountPasskeys; uid: string }> {
  const form = host.formProvider();
  const { user } = await form.createUser(email('server-passkey'), PASSWORD);
  const cookie = form.sessionToken() ?? '';
  const passkeys = await host.accountPasskeys(cookie);
  if (passkeys === null) throw new Error('no account passkeys');
  return { cookie, passkeys, uid: user.uid };
}

const pathsSince = (double: GoTrueDouble, from: number) =>
  double.requests.slice(from).map((r) => `${r.method} ${r.path}`);

describe('server: account passkeys', () => {
  it('accountPasskeys - should be null without a session that verifies', async () => {
    const { host } = setUp();
    expect(await host.accountPasskeys(null)).toBeNull();
    expect(await host.accountPasskeys(undefined)).toBeNull();
    expect(await host.accountPasskeys('not-a-token')).toBeNull();
  });

  it('startAdd, finishAdd - should register the credential the browser made, named, and list it', async () => {
    const { double, host, authenticator } = setUp();
    const { cookie, passkeys } = await signedUp(host);
    expect(await passkeys.list()).toEqual([]);
    const before = double.requests.length;
    const started = await passkeys.startAdd();
    expect(started.challengeId).toEqual(expect.any(String));
    expect(started.options.rp.id).toBe('localhost');
    const credential = await authenticator.create(started.options);
    const added = await passkeys.finishAdd(started.challengeId, credential, '  Laptop  ');
    expect(added).toMatchObject({ name: 'Laptop', lastUsedAt: null, backedUp: false });
    expect(pathsSince(double, before)).toEqual([
      'POST /passkeys/registration/options',
      'POST /passkeys/registration/verify',
      `PATCH /passkeys/${added.id}`,
    ]);
    // The session's token is unchanged: a later request lists with the same cookie.
    expect(await (await host.accountPasskeys(cookie))?.list()).toEqual([added]);
  });

  it("finishAdd - should keep GoTrue's name without one, and refuse a used challenge (session-expired)", async () => {
    const { host, authenticator } = setUp();
    const { passkeys } = await signedUp(host);
    const started = await passkeys.startAdd();
    const credential = await authenticator.create(started.options);
    const added = await passkeys.finishAdd(started.challengeId, credential);
    expect(added.name).toBe('Passkey');
    await expectAuthError(passkeys.finishAdd(started.challengeId, credential), 'session-expired');
    await expectAuthError(passkeys.finishAdd(crypto.randomUUID(), credential), 'session-expired');
  });

  it('finishAdd - should refuse a credential for another origin (passkey-invalid)', async () => {
    const { host } = setUp();
    const { passkeys } = await signedUp(host);
    const started = await passkeys.startAdd();
    const elsewhere = createSoftAuthenticator({ origin: 'http://localhost:9999' });
    const credential = await elsewhere.create(started.options);
    await expectAuthError(passkeys.finishAdd(started.challengeId, credential), 'passkey-invalid');
    expect(await passkeys.list()).toEqual([]);
  });

  it('remove - should remove a passkey; one already removed is passkey-not-found', async () => {
    const { host, authenticator } = setUp();
    const { passkeys } = await signedUp(host);
    const started = await passkeys.startAdd();
    const added = await passkeys.finishAdd(started.challengeId, await authenticator.create(started.options));
    await passkeys.remove(added.id);
    expect(await passkeys.list()).toEqual([]);
    await expectAuthError(passkeys.remove(added.id), 'passkey-not-found');
  });

  it('list - should answer requires-recent-login once the session is signed out (as the browser provider)', async () => {
    const { host } = setUp();
    const { cookie, passkeys } = await signedUp(host);
    await host.revokeSession(cookie);
    await expectAuthError(passkeys.list(), 'requires-recent-login');
    expect(await host.accountPasskeys(cookie)).toBeNull();
  });
});
