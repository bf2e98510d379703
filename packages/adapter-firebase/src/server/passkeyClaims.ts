/**
 * Passkeys kept in a Firebase user's custom claims: one compact array per credential under one claim
 * (default `pk`), merged with the user's other claims, within Firebase's 1000-byte limit on the claims'
 * JSON. Public keys and credential ids are not secrets (an ID token carries them to its holder).
 *
 * An entry is `[id, publicKey, counter, flags, createdAtSec, lastUsedAtSec, name?]`: the credential id and
 * its COSE public key as base64url, the signature counter, flags (bit 0 backed up, bit 1 backup
 * eligible), when it was added and last used in seconds since the epoch (`0`: never), and the name.
 * An ES256 passkey with a 16-byte id and a short name takes about 170 bytes, one with a 32-byte id about
 * 195: four or five fit beside a few other claims; an RS256 key takes about 400 bytes on its own.
 * @module
 */
import type { PasskeyInfo } from '@doorway/auth-core';

/** Firebase's limit on the JSON of a user's custom claims. */
export const CUSTOM_CLAIMS_LIMIT = 1000;
/** The longest name kept (longer names are cut): names cost claims space. */
export const PASSKEY_NAME_MAX = 32;

const BACKED_UP = 1;
const BACKUP_ELIGIBLE = 2;

/** A stored passkey, decoded. */
export interface StoredPasskey {
  /** Credential id, base64url. */
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  backedUp: boolean;
  backupEligible: boolean;
  /** Seconds since the epoch. */
  createdAt: number;
  /** Seconds since the epoch; `0` when never used. */
  lastUsedAt: number;
  name: string | null;
}

type Entry =
  | [string, string, number, number, number, number]
  | [string, string, number, number, number, number, string];

function isEntry(value: unknown): value is Entry {
  if (!Array.isArray(value) || (value.length !== 6 && value.length !== 7)) return false;
  const [id, publicKey, ...numbers] = value;
  const name = numbers.length === 5 ? numbers.pop() : undefined;
  return (
    typeof id === 'string' &&
    typeof publicKey === 'string' &&
    numbers.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    (name === undefined || typeof name === 'string')
  );
}

/** The passkeys in a user's claims under `claim`, oldest first (malformed entries are skipped). */
export function decodePasskeys(claims: Record<string, unknown> | undefined, claim: string): StoredPasskey[] {
  const raw = claims?.[claim];
  if (!Array.isArray(raw)) return [];
  return raw.filter(isEntry).map(([id, publicKey, counter, flags, createdAt, lastUsedAt, name]) => ({
    id,
    publicKey,
    counter,
    backedUp: (flags & BACKED_UP) !== 0,
    backupEligible: (flags & BACKUP_ELIGIBLE) !== 0,
    createdAt,
    lastUsedAt,
    name: name ?? null,
  }));
}

function encodePasskey(passkey: StoredPasskey): Entry {
  const flags = (passkey.backedUp ? BACKED_UP : 0) | (passkey.backupEligible ? BACKUP_ELIGIBLE : 0);
  const head: Entry = [
    passkey.id,
    passkey.publicKey,
    passkey.counter,
    flags,
    passkey.createdAt,
    passkey.lastUsedAt,
  ];
  return passkey.name === null ? head : [...head, passkey.name];
}

/** The user's claims with `passkeys` under `claim` (the claim dropped when there are none). */
export function withPasskeys(
  claims: Record<string, unknown> | undefined,
  claim: string,
  passkeys: readonly StoredPasskey[],
): Record<string, unknown> {
  const { [claim]: _old, ...others } = claims ?? {};
  return passkeys.length === 0 ? others : { ...others, [claim]: passkeys.map(encodePasskey) };
}

/** The size Firebase measures the claims by (their JSON), in UTF-8 bytes. */
export function claimsSize(claims: Record<string, unknown>): number {
  return new TextEncoder().encode(JSON.stringify(claims)).length;
}

/** Whether the claims fit Firebase's limit. */
export function claimsFit(claims: Record<string, unknown>): boolean {
  return claimsSize(claims) <= CUSTOM_CLAIMS_LIMIT;
}

/** A name as it is kept: trimmed, cut to {@link PASSKEY_NAME_MAX} characters, `null` when empty. */
export function passkeyName(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const trimmed = [...name.trim()].slice(0, PASSKEY_NAME_MAX).join('');
  return trimmed === '' ? null : trimmed;
}

/** A stored passkey as the provider interface lists it. */
export function passkeyInfo(passkey: StoredPasskey): PasskeyInfo {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.createdAt * 1000,
    lastUsedAt: passkey.lastUsedAt === 0 ? null : passkey.lastUsedAt * 1000,
    backedUp: passkey.backedUp,
  };
}
