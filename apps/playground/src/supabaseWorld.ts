/**
 * The playground's Supabase mode (`?provider=supabase`): the widget on `@doorway/adapter-supabase`, whose
 * supabase-js auth client talks over HTTP to the in-memory GoTrue TEST DOUBLE that the playground's dev and
 * preview servers serve for each world (`<DOUBLE_PATH>/<world>`, `../gotrueDouble.ts`). It is not Supabase:
 * see the double's README and the adapter's, "Checked against the double only".
 *
 * The double lives on the server, so an emailed link survives the navigation it causes and can be opened in
 * another browser context. The panel's widget switches are saved in the same server store as the fake's
 * worlds (`PUT /__world/supabase.<id>`, `worldStore.ts`; else localStorage). The signed-in session is
 * supabase-js's own (localStorage).
 */

import { createSupabaseProvider } from '@doorway/adapter-supabase';
import type { AuthProvider } from '@doorway/auth-core';
import { DOUBLE_PATH, type DoubleView, type OutboxEmail, type OutboxSms } from './supabaseSetup.ts';
import { DEFAULT_CONFIG, type PlaygroundConfig } from './world.ts';

export { SUPABASE_SEED_USERS } from './supabaseSetup.ts';

/** The UI's name of this mode: a double, never "Supabase" alone. */
export const SUPABASE_DOUBLE_LABEL = 'Supabase (local GoTrue double)';

/** supabase-js's storage key for the double's session. */
const SESSION_KEY = 'sb-gotrue-double-auth-token';
/** The widget's own keys (email-link session, redirect state). */
const WIDGET_KEYS = ['doorway.emailLink', 'doorway.redirect'];

/** What is saved: the panel's widget switches. */
interface SavedWorld {
  config?: PlaygroundConfig;
}

interface DocumentStore {
  load(): Promise<SavedWorld>;
  save(doc: SavedWorld): Promise<void>;
  clear(): Promise<void>;
}

function serverStore(key: string): DocumentStore {
  const url = `/__world/${encodeURIComponent(key)}`;
  return {
    async load() {
      const res = await fetch(url);
      if (!res.ok || !res.headers.get('content-type')?.includes('json')) throw new Error('no world server');
      const log = (await res.json()) as SavedWorld[];
      return log.at(-1) ?? {};
    },
    async save(doc) {
      const res = await fetch(url, { method: 'PUT', body: JSON.stringify(doc) });
      if (!res.ok) throw new Error(`world store: ${res.status}`);
    },
    async clear() {
      await fetch(url, { method: 'DELETE' });
    },
  };
}

function localStore(key: string): DocumentStore {
  const storageKey = `playground.world.${key}`;
  return {
    load: async () => JSON.parse(localStorage.getItem(storageKey) ?? '{}') as SavedWorld,
    save: async (doc) => localStorage.setItem(storageKey, JSON.stringify(doc)),
    clear: async () => localStorage.removeItem(storageKey),
  };
}

/** The double's outbox as the panel shows it, newest last. */
export interface SupabaseOutbox {
  emails: readonly OutboxEmail[];
  sms: readonly OutboxSms[];
}

/** The Supabase world as the app uses it. */
export interface SupabaseWorld {
  id: string;
  /** The adapter on the double. */
  provider: AuthProvider;
  /** The double's outbox, as of its last request. */
  outbox(): SupabaseOutbox;
  config(): PlaygroundConfig;
  setConfig(config: PlaygroundConfig): void;
  /** The playground page of this world in Supabase mode (where emailed links land). */
  pageUrl(): string;
  /** Calls `listener` after the double changed (its outbox read again) or the config did. */
  subscribe(listener: () => void): () => void;
  /** Resolves when everything so far is saved and read: wait for it before navigating away. */
  flushed(): Promise<void>;
  /** Makes this tab a new device: forgets the supabase-js session and the widget's email-link state. */
  becomeAnotherDevice(): void;
  /** Forgets the world (the double and this device's session). */
  reset(): Promise<void>;
}

/** The saved document of world `key`: on the dev/preview server, else (no such server) in localStorage. */
async function openDocument(key: string): Promise<{ store: DocumentStore; saved: SavedWorld }> {
  const store = serverStore(key);
  try {
    return { store, saved: await store.load() };
  } catch {
    const local = localStore(key);
    return { store: local, saved: await local.load() };
  }
}

/** The playground page of world `id` in Supabase mode (where emailed links land). */
function supabasePageUrl(id: string): string {
  const url = new URL('/', location.href);
  url.searchParams.set('provider', 'supabase');
  if (id !== 'default') url.searchParams.set('world', id);
  return url.href;
}

/** World `id`'s double as the server describes it (made on this first request). */
async function readDouble(id: string): Promise<DoubleView> {
  const res = await fetch(`${DOUBLE_PATH}/${encodeURIComponent(id)}`, { cache: 'no-store' });
  if (!res.ok || !res.headers.get('content-type')?.includes('json')) {
    throw new Error('The GoTrue double is served by the playground’s dev or preview server only');
  }
  return (await res.json()) as DoubleView;
}

/** Forgets this device: the supabase-js session and the widget's email-link state. */
function forgetDevice(): void {
  for (const k of [SESSION_KEY, ...WIDGET_KEYS]) localStorage.removeItem(k);
}

/** Opens the Supabase world named by `?world=` (default `default`), on the server's double of that world. */
export async function openSupabaseWorld(): Promise<SupabaseWorld> {
  const id = new URLSearchParams(location.search).get('world') ?? 'default';
  const [{ store, saved }, view] = await Promise.all([openDocument(`supabase.${id}`), readDouble(id)]);
  let config = saved.config ?? DEFAULT_CONFIG;
  let outbox: SupabaseOutbox = view;

  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  let pending: Promise<void> = Promise.resolve();
  const queue = (work: () => Promise<void>) => {
    pending = pending.then(work).catch(() => undefined);
    void pending.then(emit);
  };
  const readOutbox = () =>
    queue(async () => {
      outbox = await readDouble(id);
    });

  // Every request supabase-js makes goes to the double on the server; then the panel reads its outbox.
  const doubleFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    try {
      return await fetch(input, init);
    } finally {
      readOutbox();
    }
  };

  const provider = createSupabaseProvider(
    {
      url: new URL(`${DOUBLE_PATH}/${encodeURIComponent(id)}`, location.origin).href,
      anonKey: view.anonKey,
      auth: { fetch: doubleFetch, flowType: 'implicit', storageKey: SESSION_KEY },
    },
    { actionUrl: supabasePageUrl(id), phone: true },
  );
  await provider.ready;

  return {
    id,
    provider,
    outbox: () => outbox,
    config: () => config,
    setConfig(next) {
      config = next;
      queue(() => store.save({ config }));
      emit();
    },
    pageUrl: () => supabasePageUrl(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flushed: () => pending,
    becomeAnotherDevice: forgetDevice,
    async reset() {
      await pending;
      await Promise.all([
        store.clear(),
        fetch(`${DOUBLE_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      ]);
      forgetDevice();
    },
  };
}
