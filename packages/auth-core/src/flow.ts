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
import { type Clock, isLazyProvider, type LazyProvider, systemClock } from './loader.ts';
import type { MessageKey } from './messages.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type { AuthProvider, SignInResult } from './provider.ts';
import { type FlowRuntime, providerOf, readRedirectState } from './runtime.ts';
import { initialState, startTransition } from './start.ts';
import type { FlowState } from './states.ts';
import { type FlowContext, go, type TransitionResult } from './steps/step.ts';

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
  const r = createRunner(options, engine);
  if (!r.loaded) r.ready.then(engineArrived(r), () => crash(r, 'network-request-failed'));
  const flow: Flow = {
    getSnapshot: () => r.state,
    subscribe(listener) {
      r.listeners.add(listener);
      return () => r.listeners.delete(listener);
    },
    send: (event) => send(r, event),
    dispose() {
      r.disposed = true;
      stopTimers(r);
      r.listeners.clear();
    },
  };
  begin(r, options);
  return flow;
}

/** One running flow's moving parts, shared by the small functions below. */
interface Runner {
  readonly rt: FlowRuntime;
  readonly config: WidgetConfig;
  readonly clock: Clock;
  readonly navigate: (url: string) => void;
  /** The engine once it is there; `ready` resolves with it. */
  loaded: FlowEngine | null;
  readonly ready: PromiseLike<FlowEngine>;
  /** The state the flow began from instead of `START` (a server's), if any. */
  readonly from: FlowState | undefined;
  state: FlowState;
  disposed: boolean;
  dispatching: boolean;
  /** Set when a transition read the capabilities of a provider still loading: its result is not used. */
  blind: boolean;
  readonly queue: FlowEvent[];
  readonly listeners: Set<() => void>;
  readonly timers: Map<TimerName, unknown>;
}

function createRunner(options: CreateFlowOptions, engine: FlowEngine | PromiseLike<FlowEngine>): Runner {
  const clock = options.clock ?? systemClock;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
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
  // A redirect's result is read by `START`, in the browser: a server could not have. So is an email
  // sign-in link's session when this browser sent the link (it is in this browser's storage): on such a
  // page the browser checks the link again rather than take the server's verdict.
  const link = parseActionUrl(options.url);
  const from =
    readRedirectState(storage) || (link?.mode === 'signIn' && link.oobCode !== null)
      ? undefined
      : options.initialState;
  return {
    rt,
    config,
    clock,
    navigate: options.navigate ?? defaultNavigate,
    loaded: 'transition' in engine ? engine : null,
    ready: Promise.resolve(engine),
    from,
    state: from ?? initialState(options.url),
    disposed: false,
    dispatching: false,
    blind: false,
    queue: [],
    listeners: new Set(),
    timers: new Map(),
  };
}

/** `START`, or taking over the state a server handed over. */
function begin(r: Runner, options: CreateFlowOptions): void {
  const { rt } = r;
  if (r.from) {
    if (rt.provider) adoptAnonymousUser(r, rt.provider);
    else
      providerOf(rt).then(
        (p) => adoptAnonymousUser(r, p),
        () => undefined,
      ); // a caller retries a failure
    if (r.from.shown) run(r, { type: 'uiShown' });
  } else if (rt.provider) {
    send(r, {
      type: 'START',
      url: options.url,
      currentUser: rt.provider.getCurrentUser(),
      redirectPending: readRedirectState(rt.storage) !== null,
      signOut: rt.signOut,
    });
  } else {
    send(r, { type: 'START', url: options.url, currentUser: null, redirectPending: false, lazy: true });
  }
}

/**
 * The server knows no browser user: an anonymous one the SDK restores is the one to upgrade (what `START`
 * does with `currentUser`), once the provider is there.
 */
function adoptAnonymousUser(r: Runner, provider: AuthProvider): void {
  const user = provider.getCurrentUser();
  if (r.disposed || !r.config.autoUpgradeAnonymousUsers || !user?.isAnonymous || r.state.upgradeUid !== null)
    return;
  r.state = { ...r.state, upgradeUid: user.uid };
  notify(r);
}

function engineArrived(r: Runner): (engine: FlowEngine) => void {
  return (engine) => {
    r.loaded = engine;
    drain(r);
  };
}

function notify(r: Runner): void {
  for (const l of [...r.listeners]) l();
}

function stopTimers(r: Runner): void {
  for (const handle of r.timers.values()) r.clock.clearTimeout(handle);
  r.timers.clear();
}

function contextOf(r: Runner): FlowContext {
  const { config, rt } = r;
  if (rt.provider) return { config, capabilities: rt.provider.capabilities };
  return {
    config,
    get capabilities() {
      r.blind = true;
      return NO_CAPABILITIES;
    },
  };
}

/** Ends the flow on the unrecoverable error card. */
function crash(r: Runner, message: MessageKey): void {
  if (r.disposed) return;
  r.queue.length = 0;
  stopTimers(r);
  const [next, effects] = go(r.state, { card: 'unrecoverableError', message });
  r.state = next;
  notify(r);
  for (const effect of effects) run(r, effect);
}

function send(r: Runner, event: FlowEvent): void {
  if (r.disposed) return;
  r.queue.push(event);
  drain(r);
}

/** Applies queued events in order; one still waiting for the engine stops the queue. */
function drain(r: Runner): void {
  if (r.disposed || r.dispatching) return;
  r.dispatching = true;
  let changed = false;
  const effects: Effect[] = [];
  try {
    while (r.queue.length > 0) {
      const result = applyFirst(r);
      if (!result) break;
      const [nextState, out] = result;
      if (nextState !== r.state) {
        r.state = nextState;
        changed = true;
      }
      effects.push(...out);
    }
  } finally {
    r.dispatching = false;
  }
  if (changed) notify(r);
  for (const effect of effects) run(r, effect);
}

/** The transition of the first queued event, taken off the queue; `null` when it has to wait. */
function applyFirst(r: Runner): TransitionResult | null {
  const next = r.queue[0] as FlowEvent;
  r.blind = false;
  const result = r.loaded
    ? r.loaded.transition(r.state, next, contextOf(r))
    : startTransition(r.state, next, contextOf(r));
  if (r.blind) {
    // Applied again once the provider is there; the events after it wait, in order.
    providerOf(r.rt).then(
      () => drain(r),
      (error: unknown) => {
        if (r.queue.length > 0) crash(r, toErrorInfo(error).code);
      },
    );
    return null;
  }
  if (!result) return null; // not the first card's: waits for the engine
  r.queue.shift();
  return result;
}

function run(r: Runner, effect: Effect): void {
  if (r.disposed) return;
  switch (effect.type) {
    case 'call':
      call(r, effect.id, effect.op);
      break;
    case 'startTimer':
      startTimer(r, effect.name, effect.ms);
      break;
    case 'cancelTimer':
      cancelTimer(r, effect.name);
      break;
    case 'redirect':
      r.navigate(effect.url);
      break;
    case 'signInSuccess':
      askSignInSuccess(r, effect.result, effect.redirectUrl);
      break;
    case 'signInFailure':
      Promise.resolve()
        .then(() => r.config.callbacks.signInFailure?.(effect.error))
        .catch(() => undefined);
      break;
    case 'uiShown':
      try {
        r.config.callbacks.uiShown?.();
      } catch {
        // An app callback's failure must not break the widget.
      }
      break;
  }
}

function call(r: Runner, id: number, op: ProviderOp): void {
  const start = (engine: FlowEngine) => {
    if (r.disposed) return;
    engine.execute(op, r.rt).then(
      (result) => send(r, { type: 'PROVIDER_RESOLVED', id, result }),
      (error: unknown) => send(r, { type: 'PROVIDER_REJECTED', id, error: toErrorInfo(error) }),
    );
  };
  // A call asked for before the engine arrived starts when it does (never, if it fails to load).
  if (r.loaded) start(r.loaded);
  else r.ready.then(start, () => undefined);
}

function startTimer(r: Runner, name: TimerName, ms: number): void {
  cancelTimer(r, name);
  r.timers.set(
    name,
    r.clock.setTimeout(() => {
      r.timers.delete(name);
      send(r, { type: 'TIMER', name });
    }, ms),
  );
}

function cancelTimer(r: Runner, name: TimerName): void {
  const handle = r.timers.get(name);
  if (handle !== undefined) r.clock.clearTimeout(handle);
  r.timers.delete(name);
}

function askSignInSuccess(r: Runner, result: SignInResult, redirectUrl: string | null): void {
  const cb = r.config.callbacks.signInSuccess;
  Promise.resolve()
    .then(() => (cb ? cb(result, redirectUrl) : true))
    .then(
      (answer) => send(r, { type: 'CALLBACK_RESULT', redirect: answer !== false }),
      () => send(r, { type: 'CALLBACK_RESULT', redirect: false }),
    );
}
