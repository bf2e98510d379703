/**
 * The flow's storage on a server: a {@link KeyValueStorage} over a plain object that travels, sealed, with
 * the flow state (the email-link session a link opened in the same browser completes with).
 * @module
 */
import type { KeyValueStorage } from './emailLinkStore.ts';

/** A server storage: the storage a flow runs on, and what to seal afterwards. */
export interface ServerStorage {
  /** The storage for the flow's runtime. */
  readonly storage: KeyValueStorage;
  /** Its contents now, as a plain object of strings (a copy). */
  snapshot(): Record<string, string>;
}

// Only what the flow stores (the email-link session) ever lives here; these bound what a cookie may bring.
const MAX_ITEMS = 8;
const MAX_VALUE_LENGTH = 4096;

/**
 * Creates a server storage holding `items` (what an earlier request sealed). Anything but string keys
 * with string values is dropped, so a value from elsewhere cannot break the storage. Never throws.
 * @example
 * const kv = createServerStorage(opened?.storage);
 * runtime.storage = kv.storage; // …run the flow…
 * seal({ state, storage: kv.snapshot() });
 */
export function createServerStorage(items?: unknown): ServerStorage {
  const map = new Map<string, string>();
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
    for (const [k, v] of Object.entries(items)) {
      if (map.size >= MAX_ITEMS) break;
      if (typeof v === 'string' && v.length <= MAX_VALUE_LENGTH) map.set(k, v);
    }
  }
  return {
    storage: {
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, String(v)),
      removeItem: (k) => void map.delete(k),
    },
    snapshot: () => Object.fromEntries(map),
  };
}
