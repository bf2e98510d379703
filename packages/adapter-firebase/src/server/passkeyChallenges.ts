/**
 * Where the passkey server keeps a ceremony's challenge between its options and its answer: under a
 * random id the options carry, single-use (taking one removes it) and short-lived. The default store is
 * this process's memory: with several server processes (or instances behind a load balancer) the answer
 * may reach another one, so give them a shared store (Redis, a database table with a TTL…) implementing
 * {@link PasskeyChallengeStore}.
 * @module
 */

/** A waiting ceremony. */
export interface PasskeyChallenge {
  kind: 'registration' | 'authentication';
  /** The challenge the authenticator signs, base64url. */
  challenge: string;
  /** Registration: the user it was asked for; authentication: `null` (anyone may answer). */
  uid: string | null;
  /** When it expires (ms since the epoch, on the passkey server's clock). */
  expiresAt: number;
}

/**
 * A store of waiting challenges. `take` must be atomic (a challenge taken twice at once must be given to
 * one of the two only): with Redis e.g. `GETDEL`, with SQL a `DELETE … RETURNING`. A shared store that
 * cannot answer should reject `AuthError('network-request-failed')`, which the passkey server answers
 * with 503 (anything else unexpected is a 500 `generic`).
 */
export interface PasskeyChallengeStore {
  /** Keeps `challenge` under `id` until it is taken or expires. */
  put(id: string, challenge: PasskeyChallenge): void | Promise<void>;
  /** Removes and returns the challenge under `id`, or `null` when there is none (expiry is checked by the caller). */
  take(id: string): PasskeyChallenge | null | Promise<PasskeyChallenge | null>;
}

/** Options of {@link createMemoryChallengeStore}. */
export interface MemoryChallengeStoreOptions {
  /** The clock expired challenges are swept by (default `Date.now`). */
  now?: () => number;
  /**
   * The most challenges kept at once (default 10 000): anyone may ask for sign-in options, so when it is
   * full the oldest are dropped (their ceremonies then fail with `session-expired`).
   */
  maxEntries?: number;
}

/** A process-local {@link PasskeyChallengeStore}: a `Map`, swept of expired challenges on each `put`.
 * Give one lifetime to the challenges of one store, as the passkey server does (they are swept oldest first). */
export function createMemoryChallengeStore(options: MemoryChallengeStoreOptions = {}): PasskeyChallengeStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const waiting = new Map<string, PasskeyChallenge>();
  return {
    put(id, challenge) {
      const at = now();
      // Challenges are put in expiry order (one lifetime per server): sweep from the oldest.
      for (const [key, entry] of waiting) {
        if (entry.expiresAt > at) break;
        waiting.delete(key);
      }
      while (waiting.size >= maxEntries) {
        const oldest = waiting.keys().next();
        if (oldest.done === true) break;
        waiting.delete(oldest.value);
      }
      waiting.set(id, challenge);
    },
    take(id) {
      const entry = waiting.get(id) ?? null;
      waiting.delete(id);
      return entry;
    },
  };
}
