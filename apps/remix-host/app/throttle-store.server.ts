/**
 * Where the host's throttle (`throttle.server.ts`) keeps its counters: a small store interface, so one
 * process counts in its own memory and several share a store (Redis: `INCR` with `PEXPIRE … NX`, `PTTL`),
 * and the counters of that memory, bounded however many clients there are.
 * @module
 */

/** A counter of one window: how many hits it has taken, and when it ends (ms since the epoch). */
export interface Counter {
  count: number;
  resetAt: number;
}

/**
 * The throttle's counters. Every method is async, so a shared store can sit behind it. `hit` must be
 * atomic (two hits at once count two): with Redis `INCR` then `PEXPIRE key windowMs NX`.
 */
export interface CounterStore {
  /**
   * Adds one to the counter under `key` and resolves it. A counter that has ended (or never was) starts
   * again at 1, ending `windowMs` from now; later hits in that window do not move its end.
   */
  hit(key: string, windowMs: number): Promise<Counter>;
  /** The counter under `key`, or `null` when there is none or it has ended. */
  get(key: string): Promise<Counter | null>;
  /** Forgets the counter under `key`. */
  reset(key: string): Promise<void>;
}

/** Options of {@link createMemoryCounterStore}. */
export interface MemoryCounterStoreOptions {
  /** The clock windows are measured by (default `Date.now`). */
  now?: () => number;
  /**
   * The most counters kept at once (default 100 000, a few MB). Past it, ended counters are dropped, then
   * the oldest: a flood from many addresses costs memory up to this bound, never more.
   */
  maxEntries?: number;
}

// How often ended counters are swept when the store is not full (a quiet process frees them too).
const SWEEP_EVERY_MS = 60_000;

/**
 * A {@link CounterStore} in this process's memory: a `Map` in insertion order, swept of ended counters
 * once a minute and whenever it is full, then trimmed oldest first to nine tenths of its bound (so a full
 * store is not swept on every hit).
 */
export function createMemoryCounterStore(options: MemoryCounterStoreOptions = {}): CounterStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 100_000;
  const counters = new Map<string, Counter>();
  let sweptAt = now();
  const sweep = (at: number) => {
    sweptAt = at;
    for (const [key, counter] of counters) if (counter.resetAt <= at) counters.delete(key);
    if (counters.size < maxEntries) return;
    const keep = Math.floor(maxEntries * 0.9);
    for (const key of counters.keys()) {
      if (counters.size <= keep) break;
      counters.delete(key);
    }
  };
  const live = (key: string, at: number): Counter | null => {
    const counter = counters.get(key);
    if (counter === undefined) return null;
    if (counter.resetAt > at) return counter;
    counters.delete(key);
    return null;
  };
  return {
    async hit(key, windowMs) {
      const at = now();
      const counter = live(key, at);
      if (counter !== null) {
        counter.count += 1;
        return { ...counter };
      }
      if (counters.size >= maxEntries || at - sweptAt >= SWEEP_EVERY_MS) sweep(at);
      const fresh = { count: 1, resetAt: at + windowMs };
      counters.set(key, fresh);
      return { ...fresh };
    },
    async get(key) {
      const counter = live(key, now());
      return counter === null ? null : { ...counter };
    },
    async reset(key) {
      counters.delete(key);
    },
  };
}
