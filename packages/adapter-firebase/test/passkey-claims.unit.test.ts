// The passkey server's compact custom-claims encoding and its process-local challenge store, without the
// emulator.
import { describe, expect, it } from 'vitest';
import { createMemoryChallengeStore, type PasskeyChallenge } from '../src/server/passkeyChallenges.ts';
import {
  CUSTOM_CLAIMS_LIMIT,
  claimsFit,
  claimsSize,
  decodePasskeys,
  passkeyInfo,
  passkeyName,
  type StoredPasskey,
  withPasskeys,
} from '../src/server/passkeyClaims.ts';

const PASSKEY: StoredPasskey = {
  id: 'A'.repeat(22),
  publicKey: 'B'.repeat(103),
  counter: 7,
  backedUp: true,
  backupEligible: true,
  createdAt: 1_800_000_000,
  lastUsedAt: 0,
  name: 'Laptop',
};

describe('passkey claims', () => {
  it('encodes a passkey as one compact array and decodes it back', () => {
    const claims = withPasskeys({ role: 'editor' }, 'pk', [PASSKEY, { ...PASSKEY, id: 'C', name: null }]);
    expect(claims).toEqual({
      role: 'editor',
      pk: [
        ['A'.repeat(22), 'B'.repeat(103), 7, 3, 1_800_000_000, 0, 'Laptop'],
        ['C', 'B'.repeat(103), 7, 3, 1_800_000_000, 0],
      ],
    });
    expect(decodePasskeys(claims, 'pk')).toEqual([PASSKEY, { ...PASSKEY, id: 'C', name: null }]);
  });

  it('drops the claim when no passkey is left, keeping the other claims', () => {
    expect(withPasskeys({ role: 'editor', pk: [] }, 'pk', [])).toEqual({ role: 'editor' });
  });

  it('skips malformed entries and claims', () => {
    expect(decodePasskeys({ pk: 'nope' }, 'pk')).toEqual([]);
    expect(decodePasskeys(undefined, 'pk')).toEqual([]);
    expect(decodePasskeys({ pk: [['id', 'key', 'x', 0, 0, 0], ['id'], null] }, 'pk')).toEqual([]);
  });

  it('measures the claims as Firebase does (their JSON) against the 1000-byte limit', () => {
    const claims = withPasskeys({}, 'pk', [PASSKEY]);
    expect(claimsSize(claims)).toBe(JSON.stringify(claims).length);
    expect(claimsFit(claims)).toBe(true);
    const many = withPasskeys(
      {},
      'pk',
      Array.from({ length: 7 }, (_, i) => ({ ...PASSKEY, id: `${i}${PASSKEY.id}` })),
    );
    expect(claimsSize(many)).toBeGreaterThan(CUSTOM_CLAIMS_LIMIT);
    expect(claimsFit(many)).toBe(false);
    expect(claimsSize({ name: 'é' })).toBe(JSON.stringify({ name: 'é' }).length + 1);
  });

  it('keeps names trimmed and at most 32 characters; empty is none', () => {
    expect(passkeyName('  Laptop ')).toBe('Laptop');
    expect(passkeyName('x'.repeat(40))).toBe('x'.repeat(32));
    expect(passkeyName('   ')).toBeNull();
    expect(passkeyName(42)).toBeNull();
  });

  it('lists a passkey with dates in ms, never used as null', () => {
    expect(passkeyInfo(PASSKEY)).toEqual({
      id: PASSKEY.id,
      name: 'Laptop',
      createdAt: 1_800_000_000_000,
      lastUsedAt: null,
      backedUp: true,
    });
    expect(passkeyInfo({ ...PASSKEY, lastUsedAt: 1_800_000_100 }).lastUsedAt).toBe(1_800_000_100_000);
  });
});

describe('memory challenge store', () => {
  const challenge = (expiresAt: number): PasskeyChallenge => ({
    kind: 'authentication',
    challenge: 'c',
    uid: null,
    expiresAt,
  });

  it('gives a challenge once', () => {
    const store = createMemoryChallengeStore({ now: () => 0 });
    store.put('a', challenge(10));
    expect(store.take('a')).toEqual(challenge(10));
    expect(store.take('a')).toBeNull();
    expect(store.take('unknown')).toBeNull();
  });

  it('sweeps expired challenges, and drops the oldest when full', () => {
    let now = 0;
    const store = createMemoryChallengeStore({ now: () => now, maxEntries: 2 });
    store.put('old', challenge(10));
    now = 10;
    store.put('a', challenge(20));
    expect(store.take('old')).toBeNull();
    store.put('b', challenge(20));
    store.put('c', challenge(20));
    expect(store.take('a')).toBeNull();
    expect(store.take('b')).not.toBeNull();
    expect(store.take('c')).not.toBeNull();
  });
});
