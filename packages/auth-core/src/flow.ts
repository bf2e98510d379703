/**
 * The flow runner: applies {@link transition}, publishes snapshots and executes effects against the
 * provider, feeding outcomes back as events. Clock, storage and ids are injected.
 * @module
 */
import { handleActionCode } from './action.ts';
import type { WidgetConfig } from './config.ts';
import {
  assessEmailLink,
  buildEmailLinkUrl,
  clearEmailLinkSession,
  type KeyValueStorage,
  loadEmailLinkSession,
  saveEmailLinkSession,
} from './emailLinkStore.ts';
import { AuthError, toErrorInfo } from './errors.ts';
import type { FlowEvent, TimerName } from './events.ts';
import { type Clock, isLazyProvider, type LazyProvider, systemClock, waitForProvider } from './loader.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type { AuthCredential, AuthProvider, CaptchaVerifier, SignInResult } from './provider.ts';
import type { FlowState } from './states.ts';
import { type FlowContext, initialState, type ProviderLoaded, transition } from './transition.ts';

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

/** Options of {@link createFlow}. */
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
}

const REDIRECT_KEY = 'doorway.redirect';

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
 * Creates a running flow and sends `START`.
 * @example
 * const flow = createFlow({ provider, config: normalizeConfig(input, location.origin), url: location.href });
 * flow.subscribe(() => render(flow.getSnapshot()));
 */
export function createFlow(options: CreateFlowOptions): Flow {
  const clock = options.clock ?? systemClock;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const createId = options.createId ?? defaultId;
  const navigate = options.navigate ?? defaultNavigate;
  const { config } = options;
  let provider: AuthProvider | null = isLazyProvider(options.provider) ? null : options.provider;
  let state = initialState(options.url);
  let disposed = false;
  let dispatching = false;
  const queue: FlowEvent[] = [];
  const listeners = new Set<() => void>();
  const timers = new Map<TimerName, unknown>();
  let lastVerifier: CaptchaVerifier | null = null;
  // An email link signs in once. When linking the pending credential fails after that sign-in, the retry
  // links on the sign-in already made instead of spending the used link again.
  let linkSignIn: { link: string; result: SignInResult } | null = null;

  const need = (): AuthProvider => {
    if (!provider) throw new AuthError('provider-load-timeout');
    return provider;
  };
  const ctx = (): FlowContext => ({
    config,
    capabilities: provider?.capabilities ?? {
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
    },
  });
  const store = (): KeyValueStorage => {
    if (!storage) throw new AuthError('web-storage-unsupported');
    return storage;
  };
  const guardStorage = <T>(fn: (s: KeyValueStorage) => T): T => {
    const s = store();
    try {
      return fn(s);
    } catch {
      throw new AuthError('web-storage-unsupported');
    }
  };

  function send(event: FlowEvent): void {
    if (disposed) return;
    queue.push(event);
    if (dispatching) return;
    dispatching = true;
    let changed = false;
    const effects: Effect[] = [];
    try {
      while (queue.length > 0) {
        const next = queue.shift() as FlowEvent;
        const [nextState, out] = transition(state, next, ctx());
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
        execute(op).then(
          (result) => send({ type: 'PROVIDER_RESOLVED', id, result }),
          (error: unknown) => send({ type: 'PROVIDER_REJECTED', id, error: toErrorInfo(error) }),
        );
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

  async function linkPending(
    result: SignInResult | null,
    credential: AuthCredential | null,
  ): Promise<SignInResult | null> {
    if (!result || !credential) return result;
    return need().linkWithCredential(credential);
  }

  async function execute(op: ProviderOp): Promise<unknown> {
    switch (op.kind) {
      case 'loadProvider': {
        provider = await waitForProvider(options.provider as LazyProvider, clock);
        const user = provider.getCurrentUser();
        const loaded: ProviderLoaded = {
          currentUser: user ? { uid: user.uid, isAnonymous: user.isAnonymous } : null,
          redirectPending: redirectPending(),
          signOut: options.signOut === true,
        };
        return loaded;
      }
      case 'redirectResult': {
        const pending = readRedirectState();
        try {
          storage?.removeItem(REDIRECT_KEY);
        } catch {
          // unreadable storage: nothing to clear
        }
        const result = await need().getRedirectResult();
        return linkPending(result, pending?.pendingCredential ?? null);
      }
      case 'lookupEmail': {
        const p = need();
        if (op.tenantId !== undefined) await p.setTenant(op.tenantId);
        return p.capabilities.reliableSignInMethodLookup ? p.fetchSignInMethodsForEmail(op.email) : [];
      }
      case 'setTenant':
        return need().setTenant(op.tenantId);
      case 'passwordSignIn':
        return op.link
          ? need().linkWithCredential({ kind: 'password', email: op.email, password: op.password })
          : need().signInWithEmailAndPassword(op.email, op.password);
      case 'createUser':
        return op.link
          ? need().linkWithCredential({ kind: 'password', email: op.email, password: op.password })
          : need().createUser(op.email, op.password, op.name ?? undefined);
      case 'sendPasswordReset':
        return need().sendPasswordResetEmail(op.email, { url: op.url });
      case 'startPhone': {
        const verifier = op.verifier ?? lastVerifier;
        if (!verifier) throw new AuthError('captcha-check-failed');
        lastVerifier = verifier;
        return need().startPhoneSignIn(op.phoneNumber, verifier);
      }
      case 'confirmPhone':
        return need().confirmPhoneCode(op.verificationId, op.code, { link: op.link });
      case 'sendEmailLink': {
        const sid = createId();
        const linking = op.pendingCredential?.kind === 'federated' ? op.pendingCredential.providerId : null;
        const url = buildEmailLinkUrl(op.url, {
          sid,
          anonymousUid: op.anonymousUid,
          forceSameDevice: op.forceSameDevice,
          linking,
        });
        guardStorage((s) =>
          saveEmailLinkSession(s, {
            sid,
            email: op.email,
            createdAt: clock.now(),
            pendingCredential: op.pendingCredential,
            anonymousUid: op.anonymousUid,
          }),
        );
        await need().sendSignInLinkToEmail(op.email, { url, handleCodeInApp: true });
        return undefined;
      }
      case 'checkEmailLink': {
        const session = guardStorage((s) => loadEmailLinkSession(s));
        return assessEmailLink(op.url, session, clock.now(), need().getCurrentUser()?.uid ?? null);
      }
      case 'completeEmailLink': {
        const p = need();
        const earlier =
          linkSignIn?.link === op.link && p.getCurrentUser()?.uid === linkSignIn.result.user.uid
            ? linkSignIn.result
            : null;
        const result = earlier ?? (await p.signInWithEmailLink(op.email, op.link, { link: op.upgrade }));
        linkSignIn = { link: op.link, result };
        const linked = await linkPending(result, op.pendingCredential);
        linkSignIn = null;
        try {
          if (storage) clearEmailLinkSession(storage);
        } catch {
          // The session expires on its own.
        }
        return linked;
      }
      case 'federated': {
        if (op.mode === 'redirect') {
          guardStorage((s) =>
            s.setItem(REDIRECT_KEY, JSON.stringify({ pendingCredential: op.pendingCredential })),
          );
        }
        const result = await need().signInWithFederated(op.providerId, {
          mode: op.mode,
          ...(op.loginHint ? { loginHint: op.loginHint } : {}),
          link: op.link,
          scopes: op.scopes,
          customParameters: op.customParameters,
        });
        return linkPending(result, op.pendingCredential);
      }
      case 'anonymous':
        return need().signInAnonymously();
      case 'lookupForLinking': {
        const p = need();
        return p.capabilities.reliableSignInMethodLookup ? p.fetchSignInMethodsForEmail(op.email) : [];
      }
      case 'passwordSignInAndLink': {
        await need().signInWithEmailAndPassword(op.email, op.password);
        return need().linkWithCredential(op.credential);
      }
      case 'actionCode':
        return handleActionCode(op.url, need(), { allowedOrigins: config.allowedOrigins });
      case 'confirmPasswordReset':
        return need().confirmPasswordReset(op.code, op.password);
      case 'signOut':
        return need().signOut();
    }
  }

  function readRedirectState(): { pendingCredential: AuthCredential | null } | null {
    try {
      const raw = storage?.getItem(REDIRECT_KEY);
      return raw ? (JSON.parse(raw) as { pendingCredential: AuthCredential | null }) : null;
    } catch {
      return null;
    }
  }

  function redirectPending(): boolean {
    return readRedirectState() !== null;
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
      for (const handle of timers.values()) clock.clearTimeout(handle);
      timers.clear();
      listeners.clear();
    },
  };

  if (provider) {
    const user = provider.getCurrentUser();
    send({
      type: 'START',
      url: options.url,
      currentUser: user,
      redirectPending: redirectPending(),
      signOut: options.signOut === true,
    });
  } else {
    send({ type: 'START', url: options.url, currentUser: null, redirectPending: false, lazy: true });
  }
  return flow;
}
