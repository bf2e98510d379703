/**
 * Sealing: a value encrypted and authenticated with a key derived from the host's secret (AES-256-GCM over
 * WebCrypto, so it runs in Node 20 and in edge runtimes alike), so a client can carry it but neither read
 * nor change it. The form path keeps its flow state in a cookie sealed this way.
 * @module
 */
import { ConfigError } from './config.ts';

/** How long a sealed value stays valid: 1 hour, in ms. */
export const SEALED_STATE_TTL_MS = 60 * 60 * 1000;
/** The shortest secret {@link sealState} accepts, in characters. */
export const MIN_SECRET_LENGTH = 32;

const VERSION = 'v1';
const IV_BYTES = 12;
// Sealed values longer than this are not ours (a cookie holds about 4 kB).
const MAX_SEALED_LENGTH = 16_384;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A key derived from a secret, for {@link sealWith} and {@link openWith}. */
export type SealingKey = CryptoKey;

/**
 * Throws {@link ConfigError} unless `secret` is a string of at least {@link MIN_SECRET_LENGTH} characters.
 * Hosts call it (through `createServerFlow`) once at setup, so a weak secret fails at start, not per request.
 */
export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      'secret',
      `must be a random string of at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 48\`)`,
    );
  }
}

/**
 * Derives the AES-GCM key of a secret (HKDF-SHA-256). Throws {@link ConfigError} for a secret shorter than
 * {@link MIN_SECRET_LENGTH} characters.
 */
export async function deriveSealingKey(secret: string): Promise<SealingKey> {
  assertSecret(secret);
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('doorway sealed state v1'),
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** Seals `value` (JSON-serialisable) with a derived key; valid until `now` + {@link SEALED_STATE_TTL_MS}. */
export async function sealWith(value: unknown, key: SealingKey, now: number): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const plain = encoder.encode(JSON.stringify({ exp: now + SEALED_STATE_TTL_MS, value }));
  const cipher = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  const out = new Uint8Array(IV_BYTES + cipher.length);
  out.set(iv);
  out.set(cipher, IV_BYTES);
  return `${VERSION}.${toBase64Url(out)}`;
}

/**
 * Opens what {@link sealWith} sealed. `null` when it is malformed, tampered with, sealed with another key,
 * or expired at `now`. Never throws.
 */
export async function openWith(sealed: unknown, key: SealingKey, now: number): Promise<unknown> {
  try {
    if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_LENGTH) return null;
    const [version, body, extra] = sealed.split('.');
    if (version !== VERSION || body === undefined || extra !== undefined) return null;
    const bytes = fromBase64Url(body);
    // An IV and at least the 16-byte GCM tag.
    if (!bytes || bytes.length < IV_BYTES + 16) return null;
    const plain = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES) },
      key,
      bytes.subarray(IV_BYTES),
    );
    const payload: unknown = JSON.parse(decoder.decode(plain));
    if (typeof payload !== 'object' || payload === null || !('exp' in payload)) return null;
    const { exp } = payload as { exp: unknown };
    if (typeof exp !== 'number' || !(now < exp)) return null;
    return (payload as { value?: unknown }).value ?? null;
  } catch {
    return null;
  }
}

/**
 * Seals a JSON-serialisable value: AES-256-GCM with a key derived from `secret` (HKDF-SHA-256), a random
 * 12-byte IV, base64url, `v1.` first. The sealed value carries its expiry: 1 hour after `now`. Throws
 * {@link ConfigError} for a secret shorter than 32 characters.
 * @example
 * const sealed = await sealState({ card: 'emailEntry' }, process.env.FLOW_SECRET, Date.now());
 * await openState(sealed, process.env.FLOW_SECRET, Date.now()); // { card: 'emailEntry' }
 */
export async function sealState(value: unknown, secret: string, now: number): Promise<string> {
  return sealWith(value, await deriveSealingKey(secret), now);
}

/**
 * Opens what {@link sealState} sealed with the same secret. `null` when the input is malformed, tampered
 * with, sealed with another secret, or expired at `now` (or the secret is too short). Never throws.
 */
export async function openState(sealed: unknown, secret: string, now: number): Promise<unknown> {
  let key: SealingKey;
  try {
    key = await deriveSealingKey(secret);
  } catch {
    return null;
  }
  return openWith(sealed, key, now);
}
