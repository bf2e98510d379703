/**
 * The flow runner: applies the engine's transition, publishes snapshots and executes effects (provider
 * calls through the engine, timers, callbacks, redirects), feeding outcomes back as events. The engine may
 * arrive later (a lazily loaded chunk): until then `START` alone is applied. A flow may also start from a
 * state a server rendered. Clock, storage and ids are injected.
 * @module
 */
import { parseActionUrl } from './actionUrl.ts';
import type { WidgetConfig } from './config.ts';
import type { KeyValueStorage } from './emailLinkStore.ts';
import { toErrorInfo } from './errors.ts';
import type { FlowEvent, TimerName } from './events.ts';
import type { FlowRuntime } from './execute.ts';
import { type Clock, isLazyProvider, type LazyProvider, systemClock, waitForProvider } from './loader.ts';
import type { MessageKey } from './messages.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type { AuthCredential, AuthProvider } from './provider.ts';
import { type FlowContext, go, initialState, startTransition, type TransitionResult } from './start.ts';
import type { FlowState } from './states.ts';

/** A running flow: the only surface the UI uses. */
export interface Flow {
  /** The current snapshot (immutable; same object until something changes). */
  getSnapshot(): FlowState;
  /** Calls `listener` after each change (once per `send`). Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Sends an event. Ignored after {@link dispose}. */
  send(event: FlowEvent): void;
  /** Stops timers and ignores late results. */
  dispose(): void;
}

/** Options of `createFlow` and {@link runFlow}. */
export interface CreateFlowOptions {
  /** The provider, or a lazily loaded one (5 s script load, 10 s library wait). */
  provider: AuthProvider | LazyProvider;
  /** A config from `normalizeConfig`. */
  config: WidgetConfig;
  /** The page URL (reads action codes, email links, `signInSuccessUrl`). */
  url: string;
  clock?: Clock;
  /**
   * Storage for the email-link session and redirect state. Default: `localStorage` when usable. `null`:
   * none (email-link sign-in then shows the web-storage-unsupported card).
   */
  storage?: KeyValueStorage | null;
  /** Random ids for email-link sessions. Default: `crypto.randomUUID`. */
  createId?: () => string;
  /** Performs the redirect after sign-in. Default: `location.assign`. */
  navigate?: (url: string) => void;
  /** Start by signing out and showing the sign-out card. */
  signOut?: boolean;
  /**
   * Start from this state instead of sending `START`: the state a server rendered (its flow already did
   * `START`, so action codes, email links and `signOut` are not applied again). It must have no call in
   * flight (`pending: null`), as every state a server hands over has. When a federated redirect's result
   * is waiting in `storage`, which only the browser can read, the flow starts with `START` as without it.
   *
   * Nothing waits for a lazy provider that a step does not need: its load starts at once, in the
   * background; an event whose transition reads the provider's capabilities (e.g. `SUBMIT_EMAIL`: whether
   * sign-in methods can be looked up) is applied once it has loaded, and a provider call waits for it,
   * within the same limits as the load at `START` (5 s script, 10 s library). If it cannot load, such an
   * event ends on the unrecoverable error card and such a call fails with `provider-load-timeout`.
   */
  initialState?: FlowState;
}

/** Where the redirect flow keeps its pending credential while the page is away. */
export const REDIRECT_KEY = 'doorway.redirect';

/** The pending credential the redirect flow stored before leaving, if any. */
export function readRedirectState(
  storage: KeyValueStorage | null,
): { pendingCredential: AuthCredential | null } | null {
  try {
    const raw = storage?.getItem(REDIRECT_KEY);
    return raw ? (JSON.parse(raw) as { pendingCredential: AuthCredential | null }) : null;
  } catch {
    return null;
  }
}

/**
 * The flow's provider: at once when it is there; else a lazy provider's load (5 s script, 10 s library),
 * started once and shared by everything that waits for it. A failed load is tried again by the next caller.
 */
export function providerOf(rt: FlowRuntime): Promise<AuthProvider> {
  if (rt.provider) return Promise.resolve(rt.provider);
  rt.loading ??= waitForProvider(rt.source as LazyProvider, rt.clock).then(
    (provider) => {
      rt.provider = provider;
      return provider;
    },
    (error: unknown) => {
      rt.loading = null;
      throw error;
    },
  );
  return rt.loading;
}

function defaultStorage(): KeyValueStorage | null {
  try {
    const s = (globalThis as { localStorage?: KeyValueStorage }).localStorage;
    if (!s) return null;
    const probe = 'doorway.probe';
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

function defaultId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  throw new Error('Doorway: no crypto.randomUUID; pass createId to createFlow');
}

function defaultNavigate(url: string): void {
  (globalThis as { location?: { assign(u: string): void } }).location?.assign(url);
}

/**
 * The engine a flow runs on: the transition for every event and the provider calls. `createFlow`
 * uses `flowEngine`; the widget loads it in a chunk of its own after the first card (`runFlow`).
 */
export interface FlowEngine {
  transition(state: FlowState, event: FlowEvent, ctx: FlowContext): TransitionResult;
  execute(op: ProviderOp, rt: FlowRuntime): Promise<unknown>;
}

const NO_CAPABILITIES: FlowContext['capabilities'] = {
  password: false,
  emailLink: false,
  phone: false,
  anonymous: false,
  federated: [],
  popup: false,
  redirect: false,
  tenants: false,
  reliableSignInMethodLookup: false,
  actionCodes: [],
  captcha: false,
};

/**
 * Creates a running flow and sends `START` (or starts from `options.initialState`), with the engine given
 * now or as a promise (a lazily loaded chunk). Until a promised engine arrives, `START` shows the first card
 * through {@link startTransition}; every later event waits, in order, and provider calls start once the
 * engine is there. If it fails to load, the flow shows the unrecoverable error card
 * (`network-request-failed`).
 * @example
 * const flow = runFlow(options, import('@doorway/auth-core').then((m) => m.flowEngine));
 * // Taking over the card a server rendered:
 * const taken = runFlow({ ...options, initialState: loaderData.state }, engine);
 */
export function runFlow(options: CreateFlowOptions, engine: FlowEngine | PromiseLike<FlowEngine>): Flow {
  const clock = options.clock ?? systemClock;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const navigate = options.navigate ?? defaultNavigate;
  const { config } = options;
  const rt: FlowRuntime = {
    provider: isLazyProvider(options.provider) ? null : options.provider,
    source: options.provider,
    config,
    clock,
    storage,
    createId: options.createId ?? defaultId,
    signOut: options.signOut === true,
    lastVerifier: null,
    linkSignIn: null,
  };
  let loaded: FlowEngine | null = 'transition' in engine ? engine : null;
  const ready = Promise.resolve(engine);
  // A redirect's result is read by `START`, in the browser: a server could not have. So is an email
  // sign-in link's session when this browser sent the link (it is in this browser's storage): on such a
  // page the browser checks the link again rather than take the server's verdict.
  const link = parseActionUrl(options.url);
  const from =
    readRedirectState(storage) || (link?.mode === 'signIn' && link.oobCode !== null)
      ? undefined
      : options.initialState;
  let state = from ?? initialState(options.url);
  let disposed = false;
  let dispatching = false;
  const queue: FlowEvent[] = [];
  const listeners = new Set<() => void>();
  const timers = new Map<TimerName, unknown>();

  const stopTimers = () => {
    for (const handle of timers.values()) clock.clearTimeout(handle);
    timers.clear();
  };
  // Set when a transition read the capabilities of a provider still loading: its result is not used.
  let blind = false;
  const ctx = (): FlowContext => {
    const provider = rt.provider;
    if (provider) return { config, capabilities: provider.capabilities };
    return {
      config,
      get capabilities() {
        blind = true;
        return NO_CAPABILITIES;
      },
    };
  };

  /** Ends the flow on the unrecoverable error card. */
  const crash = (message: MessageKey) => {
    if (disposed) return;
    queue.length = 0;
    stopTimers();
    const [next, effects] = go(state, { card: 'unrecoverableError', message });
    state = next;
    for (const l of [...listeners]) l();
    for (const effect of effects) run(effect);
  };

  if (!loaded) {
    ready.then(
      (e) => {
        loaded = e;
        drain();
      },
      () => crash('network-request-failed'),
    );
  }

  function send(event: FlowEvent): void {
    if (disposed) return;
    queue.push(event);
    drain();
  }

  /** Applies queued events in order; one still waiting for the engine stops the queue. */
  function drain(): void {
    if (disposed || dispatching) return;
    dispatching = true;
    let changed = false;
    const effects: Effect[] = [];
    try {
      while (queue.length > 0) {
        const next = queue[0] as FlowEvent;
        blind = false;
        const result = loaded ? loaded.transition(state, next, ctx()) : startTransition(state, next, ctx());
        if (blind) {
          // Applied again once the provider is there; the events after it wait, in order.
          providerOf(rt).then(drain, (error: unknown) => {
            if (queue.length > 0) crash(toErrorInfo(error).code);
          });
          break;
        }
        if (!result) break; // not the first card's: waits for the engine
        queue.shift();
        const [nextState, out] = result;
        if (nextState !== state) {
          state = nextState;
          changed = true;
        }
        effects.push(...out);
      }
    } finally {
      dispatching = false;
    }
    if (changed) for (const l of [...listeners]) l();
    for (const effect of effects) run(effect);
  }

  function run(effect: Effect): void {
    if (disposed) return;
    switch (effect.type) {
      case 'call': {
        const { id, op } = effect;
        const start = (e: FlowEngine) => {
          if (disposed) return;
          e.execute(op, rt).then(
            (result) => send({ type: 'PROVIDER_RESOLVED', id, result }),
            (error: unknown) => send({ type: 'PROVIDER_REJECTED', id, error: toErrorInfo(error) }),
          );
        };
        // A call asked for before the engine arrived starts when it does (never, if it fails to load).
        if (loaded) start(loaded);
        else ready.then(start, () => undefined);
        return;
      }
      case 'startTimer': {
        const old = timers.get(effect.name);
        if (old !== undefined) clock.clearTimeout(old);
        const name = effect.name;
        timers.set(
          name,
          clock.setTimeout(() => {
            timers.delete(name);
            send({ type: 'TIMER', name });
          }, effect.ms),
        );
        return;
      }
      case 'cancelTimer': {
        const handle = timers.get(effect.name);
        if (handle !== undefined) clock.clearTimeout(handle);
        timers.delete(effect.name);
        return;
      }
      case 'redirect':
        navigate(effect.url);
        return;
      case 'signInSuccess': {
        const cb = config.callbacks.signInSuccess;
        Promise.resolve()
          .then(() => (cb ? cb(effect.result, effect.redirectUrl) : true))
          .then(
            (answer) => send({ type: 'CALLBACK_RESULT', redirect: answer !== false }),
            () => send({ type: 'CALLBACK_RESULT', redirect: false }),
          );
        return;
      }
      case 'signInFailure':
        Promise.resolve()
          .then(() => config.callbacks.signInFailure?.(effect.error))
          .catch(() => undefined);
        return;
      case 'uiShown':
        try {
          config.callbacks.uiShown?.();
        } catch {
          // An app callback's failure must not break the widget.
        }
        return;
    }
  }

  const flow: Flow = {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send,
    dispose() {
      disposed = true;
      stopTimers();
      listeners.clear();
    },
  };

  if (from) {
    // The server knows no browser user: an anonymous one the SDK restores is the one to upgrade (what
    // `START` does with `currentUser`), once the provider is there.
    const adopt = (provider: AuthProvider) => {
      const user = provider.getCurrentUser();
      if (disposed || !config.autoUpgradeAnonymousUsers || !user?.isAnonymous || state.upgradeUid !== null)
        return;
      state = { ...state, upgradeUid: user.uid };
      for (const l of [...listeners]) l();
    };
    if (rt.provider) adopt(rt.provider);
    else providerOf(rt).then(adopt, () => undefined); // in the background; a caller retries a failure
    if (from.shown) run({ type: 'uiShown' });
  } else if (rt.provider) {
    send({
      type: 'START',
      url: options.url,
      currentUser: rt.provider.getCurrentUser(),
      redirectPending: readRedirectState(storage) !== null,
      signOut: rt.signOut,
    });
  } else {
    send({ type: 'START', url: options.url, currentUser: null, redirectPending: false, lazy: true });
  }
  return flow;
}
