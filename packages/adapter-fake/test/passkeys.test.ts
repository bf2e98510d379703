/**
 * Passkeys in the fake, beyond the contract: the challenge's lifetime on the injected clock, the counter
 * and last use kept per passkey, a counter that does not rise, the RP id and origin from the options,
 * the backend's view, second factors not asked, tenants, faults and the capability switch.
 */
import type { WebAuthnClient } from '@doorway/auth-core';
import { expectAuthError } from '@doorway/testing';
import { createSoftAuthenticator, type SoftAuthenticatorOptions } from '@doorway/testing/soft-authenticator';
import { describe, expect, it } from 'vitest';
import {
  createFakeProvider,
  createManualClock,
  type FakeProviderOptions,
  PASSKEY_CHALLENGE_TTL_MS,
} from '../src/index.ts';

const START = Date.UTC(2025, 0, 1);
const EMAIL = 'ann@example.com';
const PASSWORD = 'secret-123';

function setup(options: FakeProviderOptions = {}, authenticatorOptions: SoftAuthenticatorOptions = {}) {
  const clock = createManualClock(START);
  const authenticator = createSoftAuthenticator(authenticatorOptions);
  const provider = createFakeProvider({
    clock,
    users: [{ email: EMAIL, password: PASSWORD }],
    ...options,
    webAuthn: { client: authenticator, ...options.webAuthn },
  });
  const ops = provider.passkeys;
  if (ops === undefined) throw new Error('the fake offers passkeys');
  const uid = provider.backend.findUserByEmail(EMAIL)?.uid ?? '';
  return { clock, provider, backend: provider.backend, ops, uid, authenticator };
}

/** Signs in with the password, adds a passkey, signs out. */
async function withPasskey(s: ReturnType<typeof setup>, name = 'Laptop') {
  await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
  const info = await s.ops.add(name);
  await s.provider.signOut();
  return info;
}

describe('passkeys - challenges on the injected clock', () => {
  it('passkeys.signIn - should refuse an answer that comes after the challenge expired (session-expired)', async () => {
    let late = false;
    const s = setup(
      {},
      {
        onCeremony: (kind) => {
          if (kind === 'get' && late) s.clock.advance(PASSKEY_CHALLENGE_TTL_MS);
        },
      },
    );
    await withPasskey(s);
    late = true;
    await expectAuthError(s.ops.signIn(), 'session-expired');
    expect(s.provider.getCurrentUser()).toBeNull();
    late = false;
    expect((await s.ops.signIn()).user.uid).toBe(s.uid);
  });

  it('passkeys.signIn - should accept an answer just before expiry, with the configured lifetime', async () => {
    const s = setup({ webAuthn: { challengeTtlMs: 60_000 } }, { onCeremony: () => s.clock.advance(59_999) });
    await withPasskey(s);
    expect((await s.ops.signIn()).providerId).toBe('passkey');
  });

  it('passkeys.add - should refuse a registration whose challenge expired, and store nothing', async () => {
    const s = setup({}, { onCeremony: () => s.clock.advance(PASSKEY_CHALLENGE_TTL_MS + 1) });
    await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    await expectAuthError(s.ops.add('Late'), 'session-expired');
    expect(await s.ops.list()).toEqual([]);
  });

  it('passkeys.signIn - should give each ceremony a new challenge and hold none after it', async () => {
    const challenges: string[] = [];
    const s = setup({}, { onCeremony: (_kind, options) => void challenges.push(options.challenge) });
    await withPasskey(s);
    await s.ops.signIn();
    await s.provider.signOut();
    await s.ops.signIn();
    expect(new Set(challenges).size).toBe(3);
  });
});

describe('passkeys - counter and use', () => {
  it('passkeys.signIn - should store the rising counter and the time of last use', async () => {
    const s = setup();
    const info = await withPasskey(s);
    expect(info).toMatchObject({ name: 'Laptop', createdAt: START, lastUsedAt: null, backedUp: true });
    expect(s.backend.passkeys(EMAIL)).toEqual([
      expect.objectContaining({ id: info.id, counter: 0, deviceType: 'multiDevice', lastUsedAt: null }),
    ]);
    s.clock.advance(1_000);
    await s.ops.signIn();
    expect(s.backend.passkeys(EMAIL)[0]).toMatchObject({ counter: 1, lastUsedAt: START + 1_000 });
    await s.provider.signOut();
    s.clock.advance(1_000);
    await s.ops.signIn();
    expect(s.backend.passkeys(EMAIL)[0]).toMatchObject({ counter: 2, lastUsedAt: START + 2_000 });
    expect((await s.ops.list())[0]).toMatchObject({ id: info.id, lastUsedAt: START + 2_000 });
  });

  it('passkeys.signIn - should refuse an assertion whose counter did not rise (a cloned authenticator)', async () => {
    const s = setup();
    await withPasskey(s);
    await s.ops.signIn();
    await s.provider.signOut();
    s.authenticator.holdCounterNext();
    await expectAuthError(s.ops.signIn(), 'passkey-invalid');
    expect(s.provider.getCurrentUser()).toBeNull();
    expect(s.backend.passkeys(EMAIL)[0]?.counter).toBe(1);
  });

  it('passkeys.add - should keep a single-device passkey as not backed up', async () => {
    const s = setup({}, { backedUp: false });
    const info = await withPasskey(s);
    expect(info.backedUp).toBe(false);
    expect(s.backend.passkeys(EMAIL)[0]?.deviceType).toBe('singleDevice');
  });

  it('backend.passkeys - should give [] for an unknown email and carry no key material', async () => {
    const s = setup();
    await withPasskey(s);
    expect(s.backend.passkeys('nobody@example.com')).toEqual([]);
    expect(Object.keys(s.backend.passkeys(EMAIL)[0] ?? {})).not.toContain('publicKey');
  });
});

describe('passkeys - relying party', () => {
  it('passkeys.add - should ask for the configured RP id, and verify answers against the configured origin', async () => {
    const s = setup(
      { webAuthn: { rpId: 'example.com', origin: 'https://app.example.com', rpName: 'Example' } },
      { origin: 'https://app.example.com' },
    );
    const info = await withPasskey(s);
    expect(s.authenticator.credentials()[0]).toMatchObject({ id: info.id, rpId: 'example.com' });
    expect((await s.ops.signIn()).user.uid).toBe(s.uid);
  });

  it('passkeys.add - should reject passkey-invalid when the page is not the configured origin', async () => {
    const s = setup({}, { origin: 'http://localhost:5173' });
    await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    await expectAuthError(s.ops.add(), 'passkey-invalid');
    expect(await s.ops.list()).toEqual([]);
  });

  it('passkeys.add - should reject credential-already-in-use when the authenticator holds one already', async () => {
    const s = setup();
    await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    await s.ops.add('First');
    await expectAuthError(s.ops.add('Second'), 'credential-already-in-use');
    expect((await s.ops.list()).map((p) => p.name)).toEqual(['First']);
  });
});

describe('passkeys - around the sign-in', () => {
  it('passkeys.signIn - should not ask for a second factor', async () => {
    const s = setup();
    await withPasskey(s);
    s.backend.addSecondFactor(s.uid, '+15555550100');
    await expectAuthError(s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'second-factor-required');
    expect((await s.ops.signIn()).user.uid).toBe(s.uid);
  });

  it('passkeys.signIn - should reject user-disabled for a disabled account', async () => {
    const s = setup();
    await withPasskey(s);
    s.backend.updateUser(s.uid, { disabled: true });
    await expectAuthError(s.ops.signIn(), 'user-disabled');
  });

  it('passkeys.signIn - should reject passkey-not-found once the user is deleted, or on another tenant', async () => {
    const s = setup();
    await withPasskey(s);
    await s.provider.setTenant('tenant-a');
    await expectAuthError(s.ops.signIn(), 'passkey-not-found');
    await s.provider.setTenant(null);
    s.backend.deleteUser(s.uid);
    await expectAuthError(s.ops.signIn(), 'passkey-not-found');
  });

  it('passkeys.signIn - should reject user-cancelled for an aborted signal, and pass conditional on', async () => {
    const seen: boolean[] = [];
    const s = setup();
    await withPasskey(s);
    const inner: WebAuthnClient = s.authenticator;
    const spy: WebAuthnClient = {
      create: (options, signal) => inner.create(options, signal),
      get: (options, how) => {
        seen.push(how.conditional);
        return inner.get(options, how);
      },
    };
    const p = createFakeProvider({
      users: [{ email: EMAIL, password: PASSWORD }],
      webAuthn: { client: spy },
    });
    const controller = new AbortController();
    controller.abort();
    await expectAuthError(
      p.passkeys!.signIn({ conditional: true, signal: controller.signal }),
      'user-cancelled',
    );
    expect(seen).toEqual([true]);
  });

  it('passkeys - should reject passkeys-unsupported where the client has no WebAuthn', async () => {
    const none: WebAuthnClient = {
      create: () => Promise.reject(new DOMException('no', 'NotSupportedError')),
      get: () => Promise.reject(new DOMException('no', 'NotSupportedError')),
    };
    const s = setup({ webAuthn: { client: none } });
    await expectAuthError(s.ops.signIn(), 'passkeys-unsupported');
    await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    await expectAuthError(s.ops.add(), 'passkeys-unsupported');
  });

  it('passkeys - the default (browser) client should reject passkeys-unsupported where there is no WebAuthn', async () => {
    const provider = createFakeProvider({ users: [{ email: EMAIL, password: PASSWORD }] });
    await expectAuthError(provider.passkeys!.signIn(), 'passkeys-unsupported');
    await expectAuthError(provider.passkeys!.signIn({ conditional: true }), 'passkeys-unsupported');
    await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    await expectAuthError(provider.passkeys!.add(), 'passkeys-unsupported');
  });

  it('passkeys - should log calls as passkeys.*, and fail them on demand', async () => {
    const s = setup();
    s.backend.faults.failNext('passkeys.signIn', 'network-request-failed');
    await expectAuthError(s.ops.signIn(), 'network-request-failed');
    expect(s.backend.calls.map((c) => c.method)).toEqual(['passkeys.signIn']);
  });

  it('capabilities.passkeys false - should leave provider.passkeys out', () => {
    const provider = createFakeProvider({ capabilities: { passkeys: false } });
    expect(provider.capabilities.passkeys).toBe(false);
    expect(provider.passkeys).toBeUndefined();
  });

  it('backend.reset - should forget the passkeys', async () => {
    const s = setup();
    await withPasskey(s);
    s.backend.reset();
    expect(s.backend.passkeys(EMAIL)).toEqual([]);
    await expectAuthError(s.ops.signIn(), 'passkey-not-found');
  });
});
