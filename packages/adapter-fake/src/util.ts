/**
 * Small pure helpers of the fake: clock, ids, links, phone numbers, federated credentials and errors.
 * @module
 */
import { type AuthCredential, AuthError, type AuthErrorDetails, type ErrorCode } from '@doorway/auth-core';
import type { FakeIdentity, FakeStorage, ManualClock } from './types.ts';

/**
 * A clock that only moves when told to.
 * @example
 * const clock = createManualClock(0);
 * const provider = createFakeProvider({ clock });
 * clock.advance(5 * 60_000); // SMS codes sent before now are expired
 */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}

/** Counter-based ids: `uid-1`, `oob-1`, `vid-1`, … */
export function createCounterIds(): (prefix: string) => string {
  const counters = new Map<string, number>();
  return (prefix) => {
    const next = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, next);
    return `${prefix}-${next}`;
  };
}

/** Unsigned 32-bit words from a seeded generator (mulberry32), so runs are reproducible. */
export function createWordGenerator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Six-digit codes from a seeded generator, so runs are reproducible. */
export function createCodeGenerator(seed: number): () => string {
  const next = createWordGenerator(seed);
  return () => String(Math.floor((next() / 4294967296) * 1_000_000)).padStart(6, '0');
}

/** Strips the separators people type (`+1 (650) 555-1234`) and returns the E.164 form, or `null`. */
export function normalizePhone(value: string): string | null {
  const compact = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}

/** `+16505551234` → `+*******1234`: what a revertSecondFactorAddition card and a challenge show. */
export function maskPhone(phone: string): string {
  return phone.replace(/\d(?=\d{4})/g, '*');
}

/** Whether a continue URL is an absolute http(s) URL. */
export function isContinueUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Appends query parameters to a URL, keeping its existing query and fragment. */
export function appendParams(url: string, params: Readonly<Record<string, string>>): string {
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const query = new URLSearchParams(params).toString();
  const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${sep}${query}${hash}`;
}

// Links may arrive wrapped (a deep link inside `link`, or the handler URL with the code in `continueUrl`).
const NESTED_PARAMS = ['link', 'deep_link_id', 'continueUrl'] as const;

/** The `mode` and `oobCode` of an action link, looking inside nested link parameters; `null` when absent. */
export function readActionLink(link: string, depth = 0): { mode: string; oobCode: string } | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const mode = url.searchParams.get('mode');
  const oobCode = url.searchParams.get('oobCode');
  if (mode !== null && oobCode !== null && oobCode !== '') return { mode, oobCode };
  if (depth >= 3) return null;
  for (const name of NESTED_PARAMS) {
    const nested = url.searchParams.get(name);
    const found = nested === null ? null : readActionLink(nested, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A federated credential the fake accepts: the identity as JSON in `idToken`, in the shape the Firebase
 * Auth emulator accepts (`{"sub","email","email_verified","name"}`).
 * @example signInWithCredential(fakeFederatedCredential('google.com', { sub: 'g-1', email: 'a@b.co' }))
 */
export function fakeFederatedCredential(providerId: string, identity: FakeIdentity): AuthCredential {
  const token: Record<string, string | boolean> = { sub: identity.sub };
  if (identity.email !== undefined) token.email = identity.email;
  token.email_verified = identity.emailVerified ?? true;
  if (identity.displayName !== undefined) token.name = identity.displayName;
  return { kind: 'federated', providerId, idToken: JSON.stringify(token) };
}

/** Reads the identity back from a federated credential's `idToken` (or `raw`); `null` when malformed. */
export function identityFromCredential(
  credential: Extract<AuthCredential, { kind: 'federated' }>,
): FakeIdentity | null {
  const token = credential.idToken ?? credential.raw;
  if (token === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(token);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const sub = 'sub' in value ? value.sub : undefined;
  if (typeof sub !== 'string' || sub === '') return null;
  const identity: FakeIdentity = {
    sub,
    emailVerified: 'email_verified' in value && value.email_verified === true,
  };
  if ('email' in value && typeof value.email === 'string') identity.email = value.email;
  if ('name' in value && typeof value.name === 'string') identity.displayName = value.name;
  return identity;
}

/** An in-memory {@link FakeStorage}. */
export function createMemoryStorage(): FakeStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

/** Throws the {@link AuthError} of `code`: every refusal of the fake goes through here. */
export function fail(code: ErrorCode, details?: AuthErrorDetails): never {
  throw new AuthError(code, details);
}

/** The last item matching `predicate`, or `null`. */
export function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | null {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const item = items[i];
    if (item !== undefined && predicate(item)) return item;
  }
  return null;
}
