import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.ts';
import { openState, SEALED_STATE_TTL_MS, sealState } from './sealedState.ts';

const SECRET = 'a-test-secret-that-is-long-enough-0123';
const OTHER = 'another-test-secret-long-enough-456789';
const T0 = Date.UTC(2025, 0, 1);
const value = { card: 'emailEntry', email: 'ada@example.com', n: [1, 2, 3] };

/** Changes one byte of the sealed bytes (IV, ciphertext or tag), keeping the encoding valid. */
function flipByte(sealed: string, at: number): string {
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  const i = at < 0 ? bytes.length + at : at;
  bytes[i] = (bytes[i] ?? 0) ^ 0x01;
  return `v1.${bytes.toString('base64url')}`;
}

describe('sealState / openState', () => {
  it('round-trips a value, unreadable in between', async () => {
    const sealed = await sealState(value, SECRET, T0);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ada');
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain('ada');
    expect(await openState(sealed, SECRET, T0)).toEqual(value);
  });

  it('uses a fresh IV each time', async () => {
    const a = await sealState(value, SECRET, T0);
    const b = await sealState(value, SECRET, T0);
    expect(a).not.toBe(b);
    expect(await openState(b, SECRET, T0)).toEqual(value);
  });

  it('refuses a tampered value: one changed character anywhere', async () => {
    const sealed = await sealState(value, SECRET, T0);
    // The IV (first 12 bytes), the ciphertext, and the tag (last 16).
    for (const at of [0, 11, 12, 20, -17, -16, -1]) {
      expect(await openState(flipByte(sealed, at), SECRET, T0)).toBeNull();
    }
  });

  it('lasts one hour', async () => {
    const sealed = await sealState(value, SECRET, T0);
    expect(await openState(sealed, SECRET, T0 + SEALED_STATE_TTL_MS - 1)).toEqual(value);
    expect(await openState(sealed, SECRET, T0 + SEALED_STATE_TTL_MS)).toBeNull();
    expect(SEALED_STATE_TTL_MS).toBe(3_600_000);
  });

  it('opens only with the secret it was sealed with', async () => {
    const sealed = await sealState(value, SECRET, T0);
    expect(await openState(sealed, OTHER, T0)).toBeNull();
  });

  it('returns null for malformed input, never throws', async () => {
    const sealed = await sealState(value, SECRET, T0);
    for (const input of [
      '',
      'v1.',
      'v1',
      `v2.${sealed.slice(3)}`,
      `${sealed}.x`,
      'v1.!!!!',
      'v1.AAAA',
      sealed.slice(0, 20),
      `v1.${'A'.repeat(20_000)}`,
      null,
      undefined,
      42,
      { sealed },
    ]) {
      expect(await openState(input, SECRET, T0)).toBeNull();
    }
    expect(await openState(sealed, 'short', T0)).toBeNull();
  });

  it('refuses a secret shorter than 32 characters with a configuration error', async () => {
    await expect(sealState(value, 'x'.repeat(31), T0)).rejects.toThrow(ConfigError);
    await expect(sealState(value, 'x'.repeat(31), T0)).rejects.toThrow(/`secret` must be .* 32 characters/);
    await expect(sealState(value, 'x'.repeat(32), T0)).resolves.toMatch(/^v1\./);
  });
});
