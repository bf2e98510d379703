/**
 * The playground's Supabase mode (`?provider=supabase`): the widget on `@doorway/adapter-supabase`, whose
 * supabase-js auth client talks to the in-memory GoTrue TEST DOUBLE from `@doorway/gotrue-double`
 * running in this page (given to supabase-js as its `fetch`: no network, no service worker). It is not
 * Supabase: see its README and the adapter's, "Checked against the double only".
 *
 * The double's state (users, sessions, tokens, outbox, clock) is saved after every request to the same
 * dev/preview-server store as the fake's worlds (`PUT /__world/supabase.<id>`, `worldStore.ts`; else
 * localStorage), and restored on every page load, so an emailed link survives the navigation it causes and
 * can be opened in another browser context. The signed-in session is supabase-js's own (localStorage).
 */

import { createSupabaseProvider, SUPABASE_EMAIL_TEMPLATES } from '@doorway/adapter-supabase';
import type { AuthProvider } from '@doorway/auth-core';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleState } from '@doorway/gotrue-double';
import { DEFAULT_CONFIG, type PlaygroundConfig } from './world.ts';

/** The UI's name of this mode: a double, never "Supabase" alone. */
export const SUPABASE_DOUBLE_LABEL = 'Supabase (local GoTrue double)';

/** The double's project URL: never reached over the network (the double answers supabase-js's fetch). */
const PROJECT_URL = 'http://gotrue-double.supabase.test';
/** supabase-js's storage key for that project (`sb-<first label of the host>-auth-token`). */
const SESSION_KEY = 'sb-gotrue-double-auth-token';
/** The widget's own keys (email-link session, redirect state). */
const WIDGET_KEYS = ['doorway.emailLink', 'doorway.redirect'];

/** Users a new Supabase world starts with. */
export const SUPABASE_SEED_USERS = [
  { email: 'ada@example.com', password: 'secret123', name: 'Ada Lovelace' },
] as const;

/** What is saved: the double and the panel's widget switches. */
interface SavedWorld {
  double?: GoTrueDoubleState;
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

/** The Supabase world as the app uses it. */
export interface SupabaseWorld {
  id: string;
  /** The adapter on the double. */
  provider: AuthProvider;
  /** The double (outbox, admin side). */
  double: GoTrueDouble;
  config(): PlaygroundConfig;
  setConfig(config: PlaygroundConfig): void;
  /** The playground page of this world in Supabase mode (where emailed links land). */
  pageUrl(): string;
  /** Calls `listener` after the double changed and was saved. */
  subscribe(listener: () => void): () => void;
  /** Resolves when everything so far is saved: wait for it before navigating away. */
  flushed(): Promise<void>;
  /** Makes this tab a new device: forgets the supabase-js session and the widget's email-link state. */
  becomeAnotherDevice(): void;
  /** Forgets the world (the double's state and this device's session). */
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

/** The double as saved, or a new one with the seeded users. */
function restoreDouble(saved: GoTrueDoubleState | undefined): GoTrueDouble {
  const double = createGoTrueDouble({
    projectUrl: PROJECT_URL,
    siteUrl: location.origin,
    uriAllowList: [`${location.origin}/**`],
    // "Confirm email" off, "Secure email change" off, "Confirm phone" on: as the adapter's contract runs.
    mailerAutoconfirm: true,
    smsAutoconfirm: false,
    anonymousUsers: true,
    manualLinking: true,
    secureEmailChange: false,
    templates: SUPABASE_EMAIL_TEMPLATES,
    ...(saved ? { state: saved } : {}),
  });
  if (saved) return double;
  for (const user of SUPABASE_SEED_USERS) {
    double.admin.createUser({
      email: user.email,
      password: user.password,
      email_confirm: true,
      user_metadata: { full_name: user.name },
    });
  }
  return double;
}

/** Forgets this device: the supabase-js session and the widget's email-link state. */
function forgetDevice(): void {
  for (const k of [SESSION_KEY, ...WIDGET_KEYS]) localStorage.removeItem(k);
}

/** Opens the Supabase world named by `?world=` (default `default`), restoring its double. */
export async function openSupabaseWorld(): Promise<SupabaseWorld> {
  const id = new URLSearchParams(location.search).get('world') ?? 'default';
  const { store, saved } = await openDocument(`supabase.${id}`);
  const double = restoreDouble(saved.double);
  let config = saved.config ?? DEFAULT_CONFIG;

  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  let writes: Promise<void> = Promise.resolve();
  const save = () => {
    const doc: SavedWorld = { double: double.snapshot(), config };
    writes = writes.then(() => store.save(doc)).catch(() => undefined);
    void writes.then(emit);
  };
  if (!saved.double) save();

  // Every request supabase-js makes is answered by the double in this page, then the double is saved.
  const doubleFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    try {
      return await double.fetch(input, init);
    } finally {
      save();
    }
  };

  const provider = createSupabaseProvider(
    { url: PROJECT_URL, anonKey: double.anonKey, auth: { fetch: doubleFetch, flowType: 'implicit' } },
    { actionUrl: supabasePageUrl(id), phone: true },
  );
  await provider.ready;

  return {
    id,
    provider,
    double,
    config: () => config,
    setConfig(next) {
      config = next;
      save();
      emit();
    },
    pageUrl: () => supabasePageUrl(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flushed: () => writes,
    becomeAnotherDevice: forgetDevice,
    async reset() {
      await writes;
      await store.clear();
      forgetDevice();
    },
  };
}
