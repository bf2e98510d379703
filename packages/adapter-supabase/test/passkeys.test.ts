/**
 * Passkeys of the browser provider beyond the contract's passkeys group, on the GoTrue double with the
 * software authenticator: supabase-js's experimental flag on a client the app made, the setting that turns
 * passkeys on, the requests made, a second factor after a passkey (GoTrue's passkey session is at aal1),
 * an expired challenge, a counter that did not rise (accepted, as GoTrue does) and no WebAuthn at all.
 */
import type { PasskeyOperations } from '@doorway/auth-core';
import { expectAuthError } from '@doorway/testing';
import { GoTrueClient } from '@supabase/supabase-js';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { createSupabaseProvider, type SupabaseProvider } from '../src/index.ts';
import { createSupabaseHarness, type SupabaseHarness, server } from './harness.ts';

afterAll(() => server.close());

const PASSWORD = 'Secret-123';
let n = 0;
const email = (label: string) => `${label}-${++n}@example.com`;

function passkeysOf(provider: SupabaseProvider): PasskeyOperations {
  const ops = provider.passkeys;
  if (!ops) throw new Error('passkeys missing');
  return ops;
}

/** A new password account signed in, with one passkey: its uid. */
async function accountWithPasskey(h: SupabaseHarness): Promise<{ email: string; uid: string }> {
  const address = email('passkey');
  const { user } = await h.provider.createUser(address, PASSWORD);
  await passkeysOf(h.provider).add();
  return { email: address, uid: user.uid };
}

/** The paths of the requests made since `from`. */
const pathsSince = (h: SupabaseHarness, from: number) =>
  h.double.requests.slice(from).map((r) => `${r.method} ${r.path}`);

/** An auth client the app made itself, on the harness's double. */
function appClient(h: SupabaseHarness, experimental?: { passkey?: boolean }): GoTrueClient {
  return new GoTrueClient({
    url: h.double.authUrl,
    headers: { apikey: h.double.anonKey, Authorization: `Bearer ${h.double.anonKey}` },
    persistSession: false,
    autoRefreshToken: false,
    detectSessionInUrl: false,
    ...(experimental ? { experimental } : {}),
  });
}

describe('browser provider: turning passkeys on', () => {
  it('settings.passkeys - should leave passkeys off unless set (GoTrue ships them off)', () => {
    const h = createSupabaseHarness({ settings: { passkeys: undefined } });
    expect(h.provider.capabilities.passkeys).toBeUndefined();
    expect(h.provider.passkeys).toBeUndefined();
  });

  it("createSupabaseProvider - should offer passkeys on an app's client only with supabase-js's experimental.passkey", async () => {
    const h = createSupabaseHarness();
    const settings = { passkeys: true, webAuthn: { client: h.authenticator } };
    const without = createSupabaseProvider({ client: { auth: appClient(h) } }, settings);
    expect(without.capabilities.passkeys).toBeUndefined();
    expect(without.passkeys).toBeUndefined();
    const withFlag = createSupabaseProvider({ client: { auth: appClient(h, { passkey: true }) } }, settings);
    expect(withFlag.capabilities.passkeys).toBe(true);
    const { user } = await withFlag.createUser(email('own-client'), PASSWORD);
    await passkeysOf(withFlag).add('Laptop');
    await withFlag.signOut();
    expect((await passkeysOf(withFlag).signIn()).user.uid).toBe(user.uid);
    without.dispose();
    withFlag.dispose();
  });
});

describe('browser provider: passkeys on GoTrue', () => {
  it("passkeys.add - should take three requests (options, verify, the name) and keep GoTrue's name without one", async () => {
    const h = createSupabaseHarness();
    await h.provider.createUser(email('requests'), PASSWORD);
    const before = h.double.requests.length;
    const named = await passkeysOf(h.provider).add('Laptop');
    expect(pathsSince(h, before)).toEqual([
      'POST /passkeys/registration/options',
      'POST /passkeys/registration/verify',
      `PATCH /passkeys/${named.id}`,
    ]);
    h.authenticator.forget(h.authenticator.credentials()[0]?.id ?? '');
    const unnamed = await passkeysOf(h.provider).add();
    expect(unnamed).toMatchObject({ name: 'Passkey', lastUsedAt: null, backedUp: false });
    expect((await passkeysOf(h.provider).list()).map((p) => p.name)).toEqual(['Laptop', 'Passkey']);
  });

  it('passkeys.signIn - should sign in through two requests and record the last use', async () => {
    const h = createSupabaseHarness();
    const { uid } = await accountWithPasskey(h);
    await h.provider.signOut();
    const before = h.double.requests.length;
    const result = await passkeysOf(h.provider).signIn();
    expect(result).toMatchObject({ providerId: 'passkey', isNewUser: false, user: { uid } });
    expect(pathsSince(h, before).slice(0, 2)).toEqual([
      'POST /passkeys/authentication/options',
      'POST /passkeys/authentication/verify',
    ]);
    const [listed] = await passkeysOf(h.provider).list();
    expect(listed?.lastUsedAt).toEqual(expect.any(Number));
  });

  it('passkeys.signIn - should ask for the second factor of an account that has one (the passkey session is aal1)', async () => {
    const h = createSupabaseHarness();
    const { uid } = await accountWithPasskey(h);
    const factors = h.provider.secondFactors;
    if (!factors) throw new Error('secondFactors missing');
    const { enrollmentId, secret } = await factors.startTotpEnrollment();
    const code = () => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: h.double.clock.now() });
    await factors.finishTotpEnrollment(enrollmentId, code());
    await h.provider.signOut();
    const error = await expectAuthError(passkeysOf(h.provider).signIn(), 'second-factor-required');
    expect(h.provider.getCurrentUser()).toBeNull();
    const challenge = error.challenge;
    if (!challenge) throw new Error('no challenge');
    const { verificationId } = await factors.startSignIn(challenge, challenge.factors[0]?.uid ?? '');
    const result = await factors.finishSignIn(challenge, verificationId, code());
    expect(result).toMatchObject({ providerId: 'passkey', user: { uid } });
  });

  it('passkeys.signIn - should reject session-expired when the person answers after the challenge expired', async () => {
    const h = createSupabaseHarness();
    await accountWithPasskey(h);
    await h.provider.signOut();
    const slow = createSupabaseProvider(
      { url: h.double.projectUrl, anonKey: h.double.anonKey },
      {
        passkeys: true,
        webAuthn: {
          client: {
            create: (options, signal) => h.authenticator.create(options, signal),
            get: (options, how) => {
              h.double.clock.advance(301_000);
              return h.authenticator.get(options, how);
            },
          },
        },
      },
    );
    await expectAuthError(passkeysOf(slow).signIn(), 'session-expired');
    expect(slow.getCurrentUser()).toBeNull();
    slow.dispose();
  });

  it('passkeys.signIn - should accept a signature counter that did not rise, as GoTrue does', async () => {
    const h = createSupabaseHarness();
    const { uid } = await accountWithPasskey(h);
    await h.provider.signOut();
    await passkeysOf(h.provider).signIn();
    await h.provider.signOut();
    h.authenticator.holdCounterNext();
    expect((await passkeysOf(h.provider).signIn()).user.uid).toBe(uid);
  });

  it('passkeys - should reject passkeys-unsupported where there is no WebAuthn (the default client in Node)', async () => {
    const h = createSupabaseHarness({ settings: { webAuthn: {} } });
    await h.provider.createUser(email('no-webauthn'), PASSWORD);
    await expectAuthError(passkeysOf(h.provider).add('Laptop'), 'passkeys-unsupported');
    await h.provider.signOut();
    await expectAuthError(passkeysOf(h.provider).signIn(), 'passkeys-unsupported');
  });

  it('passkeys - should reject operation-not-allowed when the project has passkeys off', async () => {
    const h = createSupabaseHarness({ double: { passkey: { enabled: false } } });
    await h.provider.createUser(email('off'), PASSWORD);
    await expectAuthError(passkeysOf(h.provider).add('Laptop'), 'operation-not-allowed');
    await expectAuthError(passkeysOf(h.provider).list(), 'operation-not-allowed');
    await h.provider.signOut();
    await expectAuthError(passkeysOf(h.provider).signIn(), 'operation-not-allowed');
  });
});
