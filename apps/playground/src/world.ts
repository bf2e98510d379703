/**
 * The playground's "world": a fake backend (adapter-fake) plus the widget config, persisted across page
 * loads and shared between browser contexts.
 *
 * adapter-fake keeps everything in memory and has no serialisation, so the world is an append-only log of
 * what changed the backend (successful provider calls, admin actions, fault switches, config). Every page
 * load replays the log into a fresh, deterministic fake (counter ids, seeded SMS codes, recorded times and
 * IdP answers), which rebuilds the same users, codes and outbox. The log lives on the dev/preview server
 * (`/__world/<id>`, see `worldStore.ts`), so a link opened in another browser context (another "device")
 * sees the same backend; without that server it falls back to localStorage.
 *
 * Each tab is a "device": after replay, a user signed in by another device is signed out locally, as it
 * would be on a real second device.
 */
import {
  createFakeProvider,
  type FakeFaults,
  type FakeIdentity,
  type FakeIdpRequest,
  type FakeMethod,
  type FakeProvider,
  type FakeUserInput,
  type ProviderMethod,
} from '@doorway/adapter-fake';
import {
  type ActionLinkSettings,
  AuthError,
  type AuthProvider,
  type CaptchaVerifier,
  type Clock,
  type FederatedOptions,
  POPUP_HEIGHT,
  POPUP_WIDTH,
} from '@doorway/auth-core';
import { changedTheBackend, loggedSecondFactors, methodOf, replayArgs, savedArgs } from './loggedCalls.ts';

/** The widget switches the side panel offers. */
export interface PlaygroundConfig {
  displayMode: 'optionFirst' | 'identifierFirst';
  signInFlow: 'popup' | 'redirect';
  emailMethod: 'password' | 'emailLink';
  /** The widget's `theme` option: the system's light or dark, or one of them forced. */
  theme: 'auto' | 'light' | 'dark';
  requireName: boolean;
  tenants: boolean;
  autoUpgrade: boolean;
  restrictSignUp: boolean;
  forceSameDevice: boolean;
  noStorage: boolean;
}

export const DEFAULT_CONFIG: PlaygroundConfig = {
  displayMode: 'optionFirst',
  signInFlow: 'popup',
  emailMethod: 'password',
  theme: 'auto',
  requireName: true,
  tenants: false,
  autoUpgrade: false,
  restrictSignUp: false,
  forceSameDevice: false,
  noStorage: false,
};

/** Users every world starts with, one per interesting path. */
export const SEED_USERS: readonly FakeUserInput[] = [
  { email: 'ada@example.com', password: 'secret123', displayName: 'Ada Lovelace', emailVerified: true },
  {
    email: 'grace@example.com',
    displayName: 'Grace Hopper',
    federated: { providerId: 'google.com', sub: 'google.com:grace@example.com' },
  },
  { email: 'linus@example.com', displayName: 'Linus', emailLink: true },
  {
    email: 'margaret@example.com',
    federated: { providerId: 'microsoft.com', sub: 'microsoft.com:margaret@example.com' },
  },
  { email: 'ken@acme.com', password: 'secret123', displayName: 'Ken', tenantId: 'acme' },
  // Second factors: the SMS code shows in the panel's outbox, the authenticator app's code in the panel too.
  {
    email: 'sms@example.com',
    password: 'secret123',
    displayName: 'Sam',
    emailVerified: true,
    secondFactors: [{ kind: 'phone', phoneNumber: '+15555550100', displayName: 'Work phone' }],
  },
  {
    email: 'totp@example.com',
    password: 'secret123',
    displayName: 'Tove',
    emailVerified: true,
    secondFactors: [{ kind: 'totp', secret: 'JBSWY3DPEHPK3PXP', displayName: 'Phone authenticator' }],
  },
  {
    email: 'both@example.com',
    password: 'secret123',
    displayName: 'Bo',
    emailVerified: true,
    secondFactors: [
      { kind: 'phone', phoneNumber: '+15555550101' },
      { kind: 'totp', secret: 'KRUGS4ZANFZSAYJAORSXG5BAONSWG4TF' },
    ],
  },
];

/** Admin actions of the side panel. */
export type AdminAction =
  | { op: 'sendVerificationEmail' | 'sendPasswordReset'; uid: string; url: string }
  | { op: 'changeEmail' | 'verifyAndChangeEmail'; uid: string; email: string; url: string }
  | { op: 'addSecondFactor'; uid: string; phone: string; url: string }
  | { op: 'faults'; patch: Partial<FakeFaults> }
  | { op: 'captcha'; autoSolve: boolean }
  | { op: 'skew'; ms: number }
  | { op: 'config'; config: PlaygroundConfig };

type Entry =
  | {
      kind: 'call';
      device: string;
      t: number;
      method: FakeMethod;
      args: unknown[];
      identity?: FakeIdentity | null;
    }
  | { kind: 'admin'; device: string; t: number; action: AdminAction };

/** Where the log is kept. */
interface LogStore {
  load(): Promise<Entry[]>;
  append(entry: Entry): Promise<void>;
  clear(): Promise<void>;
}

function serverStore(world: string): LogStore {
  const url = `/__world/${encodeURIComponent(world)}`;
  return {
    async load() {
      const res = await fetch(url);
      if (!res.ok || !res.headers.get('content-type')?.includes('json')) throw new Error('no world server');
      return (await res.json()) as Entry[];
    },
    async append(entry) {
      await fetch(url, { method: 'POST', body: JSON.stringify(entry), keepalive: true });
    },
    async clear() {
      await fetch(url, { method: 'DELETE' });
    },
  };
}

function localStore(world: string): LogStore {
  const key = `playground.world.${world}`;
  const read = (): Entry[] => JSON.parse(localStorage.getItem(key) ?? '[]') as Entry[];
  return {
    load: async () => read(),
    append: async (entry) => localStorage.setItem(key, JSON.stringify([...read(), entry])),
    clear: async () => localStorage.removeItem(key),
  };
}

/** sessionStorage keys of a redirect round trip to the fake IdP page. */
export const IDP_REQUEST_KEY = 'playground.idpRequest';
export const IDP_RESULT_KEY = 'playground.idpResult';
const DEVICE_KEY = 'playground.device';

/** What the IdP page hands back (postMessage for popups, sessionStorage for redirects). */
export interface IdpAnswer {
  type: 'doorway-idp';
  identity: FakeIdentity | null;
}

/** The world as the app uses it. */
export interface World {
  id: string;
  /** The provider to give the widget: the fake, with every change logged. */
  provider: AuthProvider;
  fake: FakeProvider;
  /** The widget's clock: real time plus the "expired codes" skew. */
  clock: Clock;
  config(): PlaygroundConfig;
  skew(): number;
  /** Runs and records an admin action. */
  admin(action: AdminAction): void;
  /** Calls `listener` after backend changes. */
  subscribe(listener: () => void): () => void;
  /** Resolves when everything so far is saved: wait for it before navigating away. */
  flushed(): Promise<void>;
  /** Makes this tab a new device (another browser, as far as the app can tell). */
  becomeAnotherDevice(): void;
  /** Forgets the world (log and this device's widget storage). */
  reset(): Promise<void>;
}

const randomId = () => Math.random().toString(36).slice(2, 10);

/** What an open world's parts share and change: the log's store, the replay, the admin settings. */
interface WorldState {
  id: string;
  /** This tab's device id (calls it logs are recorded as its). */
  device: string;
  store: LogStore;
  /** The time of the entry being replayed; `null` once live. */
  replayAt: number | null;
  /** The "expired codes" clock skew. */
  skew: number;
  config: PlaygroundConfig;
  /** The log's writes so far, in order. */
  writes: Promise<void>;
  /** The options of the federated call in flight (the IdP handler is not told `link`) and the IdP's answer. */
  federated: { providerId: string; opts: FederatedOptions; identity?: FakeIdentity | null } | null;
  /** An answer that arrived before the call (back from a redirect): queued in the fake and recorded. */
  answered: FakeIdentity | null | undefined;
}

/** The log of world `id`: on the dev/preview server, else (no such server) in localStorage. */
async function openLog(id: string): Promise<{ store: LogStore; log: Entry[] }> {
  const store = serverStore(id);
  try {
    return { store, log: await store.load() };
  } catch {
    const local = localStore(id);
    return { store: local, log: await local.load() };
  }
}

/** Appends to the log after the writes before it (a failed write is dropped, the world goes on). */
function append(s: WorldState, entry: Entry): void {
  s.writes = s.writes.then(() => s.store.append(entry)).catch(() => undefined);
}

/** The fake of a world: its seeded users, the replay's times, and the fake IdP page as identity provider. */
function worldFake(s: WorldState, clock: Clock): FakeProvider {
  return createFakeProvider({
    clock,
    federatedProviders: ['google.com', 'github.com', 'microsoft.com'],
    tenants: ['acme'],
    users: SEED_USERS,
    sleep: (ms) =>
      s.replayAt === null ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve(),
    idp: async (request) => {
      // Replays answer from the queue; reaching the IdP here would be a bug, never a navigation.
      if (s.replayAt !== null) throw new AuthError('user-cancelled');
      const identity = request.mode === 'popup' ? await askPopup(request) : await leaveForIdp(s, request);
      if (s.federated) s.federated.identity = identity;
      return identity;
    },
  });
}

function leaveForIdp(s: WorldState, request: FakeIdpRequest): Promise<FakeIdentity | null> {
  sessionStorage.setItem(
    IDP_REQUEST_KEY,
    JSON.stringify({ providerId: request.providerId, opts: s.federated?.opts }),
  );
  void s.writes.then(() => location.assign(idpUrl(request, 'redirect')));
  return new Promise(() => undefined); // the page is leaving
}

function applyAdmin(s: WorldState, fake: FakeProvider, action: AdminAction): void {
  const url: ActionLinkSettings | undefined = 'url' in action ? { url: action.url } : undefined;
  const b = fake.backend;
  switch (action.op) {
    case 'sendVerificationEmail':
      b.sendVerificationEmail(action.uid, url);
      return;
    case 'sendPasswordReset':
      b.sendPasswordReset(action.uid, url);
      return;
    case 'changeEmail':
      b.changeEmail(action.uid, action.email, url);
      return;
    case 'verifyAndChangeEmail':
      b.verifyAndChangeEmail(action.uid, action.email, url);
      return;
    case 'addSecondFactor':
      b.addSecondFactor(action.uid, action.phone, url);
      return;
    case 'faults':
      b.faults.set(action.patch);
      return;
    case 'captcha':
      b.captcha.autoSolve = action.autoSolve;
      return;
    case 'skew':
      s.skew = action.ms;
      return;
    case 'config':
      s.config = action.config;
      return;
  }
}

/**
 * Replays the log into the fresh fake. Only successful calls were recorded, and failed calls change
 * nothing. A user signed in by another device is signed out here, as on a real second device.
 */
async function replay(s: WorldState, fake: FakeProvider, log: readonly Entry[]): Promise<void> {
  let userChangedBy: string | null = null;
  for (const entry of log) {
    s.replayAt = entry.t;
    const before = fake.getCurrentUser()?.uid ?? null;
    try {
      if (entry.kind === 'admin') applyAdmin(s, fake, entry.action);
      else await replayCall(fake, entry);
    } catch {
      // A world saved by an older playground: skip what no longer applies.
    }
    if ((fake.getCurrentUser()?.uid ?? null) !== before) userChangedBy = entry.device;
  }
  s.replayAt = null;
  if (userChangedBy !== null && userChangedBy !== s.device) await fake.signOut();
}

/** The fake with every successful call logged as this device's, the IdP's answer with a federated one. */
function loggedProvider(s: WorldState, fake: FakeProvider, clock: Clock): AuthProvider {
  const record = (method: FakeMethod, args: unknown[], identity?: FakeIdentity | null) => {
    const entry: Entry = { kind: 'call', device: s.device, t: clock.now(), method, args };
    if (identity !== undefined) entry.identity = identity;
    append(s, entry);
  };
  return logged(fake, record, (providerId, opts) => {
    s.federated = { providerId, opts, identity: s.answered };
    s.answered = undefined;
    return () => {
      const identity = s.federated?.identity;
      s.federated = null;
      return identity;
    };
  });
}

/** Back from the fake IdP page after a redirect: finishes the sign-in the page left for. */
async function finishRedirect(s: WorldState, fake: FakeProvider, provider: AuthProvider): Promise<void> {
  const answer = sessionStorage.getItem(IDP_RESULT_KEY);
  const asked = sessionStorage.getItem(IDP_REQUEST_KEY);
  sessionStorage.removeItem(IDP_RESULT_KEY);
  sessionStorage.removeItem(IDP_REQUEST_KEY);
  if (!answer || !asked) return;
  const { identity } = JSON.parse(answer) as IdpAnswer;
  const { providerId, opts } = JSON.parse(asked) as { providerId: string; opts: FederatedOptions };
  queueIdentity(fake, identity);
  s.answered = identity;
  try {
    await provider.signInWithFederated(providerId, { ...opts, mode: 'redirect' });
  } catch {
    // getRedirectResult reports it to the widget
  }
}

/** Forgets this device's widget storage (email-link session, redirect state). */
function forgetWidgetStorage(): void {
  for (const key of ['doorway.emailLink', 'doorway.redirect']) localStorage.removeItem(key);
}

/** Opens (replays) the world named by `?world=` (default `default`). */
export async function openWorld(): Promise<World> {
  const id = new URLSearchParams(location.search).get('world') ?? 'default';
  const device = sessionStorage.getItem(DEVICE_KEY) ?? randomId();
  sessionStorage.setItem(DEVICE_KEY, device);
  const { store, log } = await openLog(id);
  const s: WorldState = {
    id,
    device,
    store,
    replayAt: null,
    skew: 0,
    config: DEFAULT_CONFIG,
    writes: Promise.resolve(),
    federated: null,
    answered: undefined,
  };
  const clock: Clock = {
    now: () => s.replayAt ?? Date.now() + s.skew,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  const fake = worldFake(s, clock);
  await replay(s, fake, log);
  const provider = loggedProvider(s, fake, clock);
  const world = worldOf(s, fake, provider, clock);
  await finishRedirect(s, fake, provider);
  return world;
}

/** The world as the app uses it, over its state. */
function worldOf(s: WorldState, fake: FakeProvider, provider: AuthProvider, clock: Clock): World {
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  fake.backend.subscribe(() => setTimeout(emit, 0));
  return {
    id: s.id,
    provider,
    fake,
    clock,
    config: () => s.config,
    skew: () => s.skew,
    admin(action) {
      applyAdmin(s, fake, action);
      append(s, { kind: 'admin', device: s.device, t: clock.now(), action });
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flushed: () => s.writes,
    becomeAnotherDevice() {
      s.device = randomId();
      sessionStorage.setItem(DEVICE_KEY, s.device);
      forgetWidgetStorage();
    },
    async reset() {
      await s.writes;
      await s.store.clear();
      forgetWidgetStorage();
    },
  };
}

function queueIdentity(fake: FakeProvider, identity: FakeIdentity | null | undefined): void {
  if (identity === null) fake.backend.idp.cancelNext();
  else if (identity !== undefined) fake.backend.idp.queue(identity);
}

async function replayCall(fake: FakeProvider, entry: Extract<Entry, { kind: 'call' }>): Promise<void> {
  const args = replayArgs(fake, entry.method, entry.args);
  if (entry.method === 'signInWithFederated') queueIdentity(fake, entry.identity);
  await methodOf(fake, entry.method)(...args);
}

/** The fake IdP page's URL for a request. */
function idpUrl(request: FakeIdpRequest, mode: 'popup' | 'redirect'): string {
  const q = new URLSearchParams({ providerId: request.providerId, mode, return: location.href });
  if (request.loginHint) q.set('login_hint', request.loginHint);
  const world = new URLSearchParams(location.search).get('world');
  if (world) q.set('world', world);
  return `/idp?${q}`;
}

/** Opens the fake IdP in a 500×600 popup and waits for its answer; closing it cancels. */
function askPopup(request: FakeIdpRequest): Promise<FakeIdentity | null> {
  const popup = window.open(
    idpUrl(request, 'popup'),
    'doorway-idp',
    `width=${POPUP_WIDTH},height=${POPUP_HEIGHT}`,
  );
  if (!popup) return Promise.reject(new AuthError('popup-blocked'));
  return new Promise((resolve) => {
    const done = (identity: FakeIdentity | null) => {
      window.removeEventListener('message', onMessage);
      clearInterval(poll);
      if (!popup.closed) popup.close();
      resolve(identity);
    };
    const onMessage = (event: MessageEvent<IdpAnswer>) => {
      if (event.origin !== location.origin || event.source !== popup || event.data?.type !== 'doorway-idp')
        return;
      done(event.data.identity);
    };
    window.addEventListener('message', onMessage);
    const poll = setInterval(() => popup.closed && done(null), 300);
  });
}

type AsyncMethods = Pick<AuthProvider, ProviderMethod>;

/**
 * The fake with every successful call recorded, and every call that failed but changed the backend (a
 * right first factor that asks for a second one). `onFederated` is told about a federated call before it
 * runs and returns how to read the identity the IdP gave.
 */
function logged(
  fake: FakeProvider,
  record: (method: FakeMethod, args: unknown[], identity?: FakeIdentity | null) => void,
  onFederated: (providerId: string, opts: FederatedOptions) => () => FakeIdentity | null | undefined,
): AuthProvider {
  const wrap =
    <M extends ProviderMethod>(method: M) =>
    async (...args: Parameters<AsyncMethods[M]>): Promise<Awaited<ReturnType<AsyncMethods[M]>>> => {
      const readIdentity =
        method === 'signInWithFederated' ? onFederated(args[0] as string, args[1] as FederatedOptions) : null;
      const run = fake[method] as (...a: unknown[]) => Promise<Awaited<ReturnType<AsyncMethods[M]>>>;
      const save = () => record(method, savedArgs(method, args), readIdentity?.() ?? undefined);
      try {
        const result = await run(...args);
        save();
        return result;
      } catch (error) {
        if (changedTheBackend(error)) save();
        throw error;
      }
    };
  const secondFactors = fake.secondFactors && loggedSecondFactors(fake.secondFactors, record);
  return {
    get capabilities() {
      return fake.capabilities;
    },
    getCurrentUser: () => fake.getCurrentUser(),
    isSignInWithEmailLink: (link) => fake.isSignInWithEmailLink(link),
    createCaptchaVerifier: (container) => captcha(fake, container),
    setTenant: wrap('setTenant'),
    fetchSignInMethodsForEmail: wrap('fetchSignInMethodsForEmail'),
    signInWithEmailAndPassword: wrap('signInWithEmailAndPassword'),
    createUser: wrap('createUser'),
    signInWithCredential: wrap('signInWithCredential'),
    signInWithFederated: wrap('signInWithFederated'),
    getRedirectResult: wrap('getRedirectResult'),
    signInAnonymously: wrap('signInAnonymously'),
    startPhoneSignIn: wrap('startPhoneSignIn'),
    confirmPhoneCode: wrap('confirmPhoneCode'),
    sendSignInLinkToEmail: wrap('sendSignInLinkToEmail'),
    signInWithEmailLink: wrap('signInWithEmailLink'),
    sendPasswordResetEmail: wrap('sendPasswordResetEmail'),
    verifyPasswordResetCode: wrap('verifyPasswordResetCode'),
    confirmPasswordReset: wrap('confirmPasswordReset'),
    checkActionCode: wrap('checkActionCode'),
    applyActionCode: wrap('applyActionCode'),
    linkWithCredential: wrap('linkWithCredential'),
    signOut: wrap('signOut'),
    secondFactors,
    // Not logged: a passkey's ceremony is the browser's authenticator's, which a replay cannot repeat. The
    // passkeys (and a passkey sign-in) last until the page reloads.
    passkeys: fake.passkeys,
  };
}

/**
 * The fake's captcha, made visible: when solving is required (auto-solve off), an "I'm not a robot"
 * checkbox in the widget's captcha container solves it.
 */
function captcha(fake: FakeProvider, container: unknown): CaptchaVerifier {
  const inner = fake.createCaptchaVerifier(container);
  let box: HTMLElement | null = null;
  return {
    kind: inner.kind,
    async render() {
      await inner.render();
      if (fake.backend.captcha.autoSolve || !(container instanceof HTMLElement)) return;
      box = document.createElement('label');
      box.className = 'playground-captcha';
      const input = document.createElement('input');
      input.type = 'checkbox';
      input.addEventListener('change', () => input.checked && fake.backend.captcha.solve(inner));
      box.append(input, " I'm not a robot");
      container.append(box);
    },
    isSolved: () => inner.isSolved(),
    clear() {
      box?.remove();
      inner.clear();
    },
  };
}
