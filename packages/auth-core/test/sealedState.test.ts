import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import {
  assertSealingSecret,
  createSealer,
  openState,
  SEALED_STATE_TTL_MS,
  type SealOptions,
  sealingSecretProblem,
  sealState,
} from '../src/sealedState.ts';

// Test values only, shaped as `openssl rand -base64 48` / `-hex 32` output.
const SECRET = 'sI-bvMrdKfXGKNH9gmmKjlb-SZsW2gwFe8hxhHDuWg8';
const OTHER = 'h2sC1NkV21XqZ5_i8QOzuzSH-q_lQDVtueX-EhaaC4o';
const NEWER = '3wzrQXiEivAJLGz0UBPfvsrNkDFqY00xzewxM3w2XdY';
const T0 = Date.UTC(2025, 0, 1);
const PURPOSE = 'doorway_flow';
const value = { card: 'emailEntry', email: 'ada@example.com', n: [1, 2, 3] };
const at = (now: number, secret: SealOptions['secret'] = SECRET, purpose = PURPOSE): SealOptions => ({
  secret,
  purpose,
  now,
});

/** Changes one byte of the sealed bytes (IV, ciphertext or tag), keeping the encoding valid. */
function flipByte(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  const i = index < 0 ? bytes.length + index : index;
  bytes[i] = (bytes[i] ?? 0) ^ 0x01;
  return `v2.${bytes.toString('base64url')}`;
}

describe('sealState / openState', () => {
  it('round-trips a value, unreadable in between, with the time its flow began', async () => {
    const sealed = await sealState(value, at(T0));
    expect(sealed).toMatch(/^v2\.[\w-]+$/);
    expect(sealed).not.toContain('ada');
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain('ada');
    expect(await openState(sealed, at(T0))).toEqual({ value, startedAt: T0 });
  });

  it('uses a fresh IV each time', async () => {
    const a = await sealState(value, at(T0));
    const b = await sealState(value, at(T0));
    expect(a).not.toBe(b);
    expect((await openState(b, at(T0)))?.value).toEqual(value);
  });

  it('refuses any changed byte (IV, ciphertext, tag)', async () => {
    const sealed = await sealState(value, at(T0));
    for (const index of [0, 5, 11, 12, 20, -17, -1]) {
      expect(await openState(flipByte(sealed, index), at(T0))).toBeNull();
    }
  });

  it('refuses a value sealed with another secret', async () => {
    const sealed = await sealState(value, at(T0));
    expect(await openState(sealed, at(T0, OTHER))).toBeNull();
  });

  it('returns null for malformed input, never throws', async () => {
    const sealed = await sealState(value, at(T0));
    for (const input of [
      '',
      'v2.',
      'v2',
      `v1.${sealed.slice(3)}`,
      `${sealed}.x`,
      'v2.!!!!',
      'v2.AAAA',
      sealed.slice(0, 20),
      `v2.${'A'.repeat(20_000)}`,
      null,
      undefined,
      42,
      { sealed },
    ]) {
      expect(await openState(input, at(T0))).toBeNull();
    }
    expect(await openState(sealed, at(T0, 'short'))).toBeNull();
  });
});

describe('sealed state: absolute lifetime (issue 24)', () => {
  it('stops opening an hour after the flow began, with an injected clock', async () => {
    const sealed = await sealState(value, at(T0));
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS - 1))).not.toBeNull();
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS))).toBeNull();
    expect(SEALED_STATE_TTL_MS).toBe(3_600_000);
  });

  it('sealing again keeps the start: a copy re-sealed every 10 minutes still dies at the hour', async () => {
    let sealed = await sealState(value, at(T0));
    let now = T0;
    for (let i = 0; i < 5; i++) {
      now += 10 * 60 * 1000;
      const opened = await openState(sealed, at(now));
      expect(opened?.startedAt).toBe(T0);
      sealed = await sealState(opened?.value, { ...at(now), startedAt: opened?.startedAt ?? now });
    }
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS - 1))).not.toBeNull();
    expect(await openState(sealed, at(T0 + SEALED_STATE_TTL_MS))).toBeNull();
  });
});

describe('sealed state: bound to its purpose (issue 24)', () => {
  it('a value sealed for one cookie name does not open under another', async () => {
    const sealed = await sealState(value, at(T0, SECRET, 'doorway_flow'));
    expect(await openState(sealed, at(T0, SECRET, '__Host-doorway_flow'))).toBeNull();
    expect(await openState(sealed, at(T0, SECRET, 'other'))).toBeNull();
    expect((await openState(sealed, at(T0, SECRET, 'doorway_flow')))?.value).toEqual(value);
  });
});

describe('sealed state: rotation (issue 24)', () => {
  it('the first secret seals, every listed one opens; a dropped secret no longer opens', async () => {
    const old = await sealState(value, at(T0, SECRET));
    const rotated = [NEWER, SECRET] as const;
    expect((await openState(old, at(T0, rotated)))?.value).toEqual(value);
    const fresh = await sealState(value, at(T0, rotated));
    expect((await openState(fresh, at(T0, NEWER)))?.value).toEqual(value);
    expect(await openState(fresh, at(T0, SECRET))).toBeNull();
    expect(await openState(old, at(T0, [NEWER]))).toBeNull();
  });

  it('a Sealer keeps working across many values (keys derived once)', async () => {
    const sealer = createSealer([NEWER, SECRET], PURPOSE);
    const sealed = await Promise.all([1, 2, 3].map((n) => sealer.seal({ n }, T0)));
    expect(await Promise.all(sealed.map(async (s) => (await sealer.open(s, T0))?.value))).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
  });
});

describe('sealed state: a secret must be random (issue 24)', () => {
  it('refuses a human secret, however long, saying how to make one', async () => {
    for (const weak of [
      'x'.repeat(64),
      'a-test-secret-that-is-long-enough-0123',
      'server-flow-test-secret-0123456789abcdef-and-more',
      'CorrectHorseBatteryStapleCorrectHorseBattery',
      'abcdefabcdefabcdefabcdefabcdef12', // 32 characters, hex-looking: 16 bytes
      '0123456789abcdef0123456789abcdef', // 32 hex digits: 16 bytes
      'Zm9vYmFyYmF6cXV4', // base64 of 12 bytes
      'has spaces and punctuation! 0123456789ABCDEFGHIJKLMNOP',
    ]) {
      expect(sealingSecretProblem(weak), weak).toMatch(/openssl rand -base64 48/);
      await expect(sealState(value, at(T0, weak))).rejects.toThrow(ConfigError);
    }
    expect(() => assertSealingSecret([SECRET, 'too-weak'])).toThrow(/`secret\[1\]` must be random/);
    expect(() => assertSealingSecret([])).toThrow(ConfigError);
  });

  it('accepts 32+ random bytes as base64, base64url or hex', () => {
    for (let i = 0; i < 50; i++) {
      const bytes = randomBytes(32);
      for (const encoded of [
        bytes.toString('base64'),
        bytes.toString('base64url'),
        bytes.toString('hex'),
        randomBytes(48).toString('base64'),
      ]) {
        expect(sealingSecretProblem(encoded), encoded).toBeNull();
      }
    }
    expect(
      sealingSecretProblem('5c670ea56037e642a5b2845b01b9f78b4bcbdca5fe0ab60100627f7bd1c0311d'),
    ).toBeNull();
  });
});
