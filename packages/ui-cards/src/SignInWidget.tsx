import type {
  AuthProvider,
  Clock,
  Flow,
  FlowState,
  KeyValueStorage,
  LazyProvider,
  WidgetConfig,
  WidgetConfigInput,
} from '@doorway/auth-core';
import {
  initialState,
  isLazyProvider,
  methodOf,
  normalizeConfig,
  runFlow,
  startTransition,
  firstCardText as uiText,
} from '@doorway/auth-core/first-card';
import { type ComponentType, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { EmailEntry, PhoneEntry, ProviderChooser, SpinnerCard, UnrecoverableError } from './cards/start.tsx';
import type { FirstCardName, LaterCardName } from './cardsChunk.tsx';
import { type CardProps, type UiEvent, WidgetContext, type WidgetEnv } from './context.ts';
import { cardsFailed, loadCards, loadedCards } from './loadCards.ts';
import { Spinner } from './parts.tsx';
import { useFlow } from './useFlow.ts';

/** Props of {@link SignInWidget}. All are read once, when the widget mounts. */
export interface SignInWidgetProps {
  /** The widget configuration; normalised once (a bad option throws `ConfigError` naming it). */
  config: WidgetConfigInput;
  /** The provider, or a lazily loaded one. */
  provider: AuthProvider | LazyProvider;
  /** The page URL (action codes, email links). Default: `location.href`, or `http://localhost/` on a server. */
  url?: string;
  /** Storage for the email-link session. Default: `localStorage`; `null`: none. */
  storage?: KeyValueStorage | null;
  /** Timer functions (tests use fake ones). */
  clock?: Clock;
  /** Performs redirects. Default: `location.assign`. */
  navigate?: (url: string) => void;
  /** Start by signing out and showing the sign-out card. */
  signOut?: boolean;
  /** Random ids for email-link sessions. Default: `crypto.randomUUID`. */
  createId?: () => string;
  /**
   * The state a server rendered for this page (e.g. from the host's loader data). The first render shows
   * exactly its card, on the server and in the browser (so hydration matches), and once mounted the flow
   * takes over from it instead of starting anew (`runFlow`'s `initialState`: no `START`, so `signOut`,
   * action codes and email links are left to the server). On a server, a card after the first ones needs
   * the cards chunk: `await loadCards()` before rendering.
   */
  initialState?: FlowState;
  /**
   * The sign-in option this browser last used (`email`, `phone`, `github.com`, …) as the page's server
   * knows it (e.g. from a cookie), so that its render marks it "Last used" too. Default: the one the widget
   * kept in `storage` (read once mounted). Ignored with `showLastUsed: false`.
   */
  lastUsed?: string | null;
  /**
   * Called with the page title of the card shown (`cardTitle` of `@doorway/auth-core`: "Enter your
   * password", "Error: Enter your password" while it shows an error) once the widget is running and on
   * every change, for the host to make the document's title, e.g.
   * `onTitle={(t) => { document.title = \`${t} – Sign in – Example\`; }}`.
   */
  onTitle?: (title: string) => void;
}

/** Where the widget keeps the last used option's id (only the id: never an email or a token). */
export const LAST_USED_KEY = 'doorway.lastUsed';

/** `storage` as given, else `localStorage` when this browser lets the page use it. */
function storageOf(storage: KeyValueStorage | null | undefined): KeyValueStorage | null {
  if (storage !== undefined) return storage;
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The option marked "Last used", kept outside React's context: a change re-renders only the chooser that
 * reads it, never a card still hydrating (a context change would make React drop that card's server HTML).
 */
export interface LastUsedStore {
  get(): string | null;
  subscribe(listener: () => void): () => void;
}

function createLastUsedStore(initial: string | null) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: string | null) {
      if (next === value) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The option to mark "Last used": the one given, else (once mounted) the kept one; and the option of every
 * sign-in is kept, and marked at once (a widget that stays mounted shows it after sign-out). With
 * `showLastUsed: false`, none is marked and the kept one is forgotten.
 */
function useLastUsed(props: SignInWidgetProps, config: WidgetConfig, state: FlowState): LastUsedStore {
  const show = config.showLastUsed;
  const [store] = useState(() => createLastUsedStore(show ? (props.lastUsed ?? null) : null));
  const { storage } = props;
  const given = props.lastUsed !== undefined;
  useEffect(() => {
    try {
      const kept = storageOf(storage);
      if (!show) kept?.removeItem(LAST_USED_KEY);
      else if (!given) store.set(kept?.getItem(LAST_USED_KEY) ?? null);
    } catch {
      // Storage refused (private mode, quota): nothing is marked.
    }
  }, [store, storage, show, given]);
  const signedInWith = state.card === 'signedIn' && state.result ? methodOf(state.result.providerId) : null;
  useEffect(() => {
    if (!show || signedInWith === null) return;
    store.set(signedInWith);
    try {
      storageOf(storage)?.setItem(LAST_USED_KEY, signedInWith);
    } catch {
      // As above: the mark is a convenience, never in the way of a sign-in.
    }
  }, [store, storage, show, signedInWith]);
  return store;
}

// The spec allows one widget per page: the mounted one holds this token.
let liveWidget: object | null = null;

const noop = () => undefined;

/**
 * A flow stand-in for the first render (and the server): the state given, or the first card, without
 * running any effect.
 */
function previewFlow(
  provider: AuthProvider | LazyProvider,
  config: ReturnType<typeof normalizeConfig>,
  url: string,
  from: FlowState | undefined,
): Flow {
  let state: FlowState = from ?? initialState(url);
  if (!from && !isLazyProvider(provider)) {
    const start = { type: 'START', url, currentUser: null, redirectPending: false } as const;
    [state] = startTransition(state, start, { config, capabilities: provider.capabilities }) ?? [state];
  }
  return { getSnapshot: () => state, subscribe: () => noop, send: noop, dispose: noop };
}

/**
 * The sign-in widget: owns one flow on `provider` and renders its current card.
 *
 * StrictMode-safe: the flow starts one microtask after mount, so React's mount–unmount–mount check starts
 * exactly one flow (a start may consume a one-time action code); unmount disposes it and a later mount
 * starts a new one. Only one widget may be mounted per page; a second one renders an error instead.
 * Server rendering shows the first card without calling the provider, or the card of `initialState`.
 * Every card is a real HTML form, so what a person does before the widget has hydrated is posted to the
 * page; after, it goes to the flow (and an event sent before the flow has started waits for it).
 * @example
 * <SignInWidget config={{ signInOptions: ['email', 'google.com'] }} provider={createFakeProvider()} />
 */
export function SignInWidget(props: SignInWidgetProps) {
  const [setup] = useState(() => {
    const url = props.url ?? (typeof window === 'undefined' ? 'http://localhost/' : window.location.href);
    const config = normalizeConfig(props.config, new URL(url).origin);
    const { provider } = props;
    const env: WidgetEnv = {
      config,
      getProvider: () => (isLazyProvider(provider) ? (provider.getProvider() ?? null) : provider),
    };
    const options = { ...props, config, url };
    const early: UiEvent[] = [];
    const setup = {
      env,
      preview: previewFlow(provider, config, url, props.initialState),
      flow: null as Flow | null,
      start() {
        // The cards chunk (with the engine) loads while the first card shows; later events wait for it.
        const flow = runFlow(
          options,
          loadCards().then((c) => c.engine),
        );
        setup.flow = flow;
        for (const event of early.splice(0)) flow.send(event);
        return flow;
      },
      // One function for the widget's life: a card still hydrating must not be updated (React would drop
      // the server's HTML), and an event sent before the flow has started is kept for it.
      send(event: UiEvent) {
        if (setup.flow) setup.flow.send(event);
        else early.push(event);
      },
    };
    return setup;
  });
  const [flow, setFlow] = useState<Flow | null>(null);
  const [conflict, setConflict] = useState(false);

  useEffect(() => {
    if (liveWidget !== null) {
      setConflict(true);
      return;
    }
    const token = {};
    liveWidget = token;
    let cancelled = false;
    let started: Flow | null = null;
    Promise.resolve().then(() => {
      if (cancelled) return;
      started = setup.start();
      setFlow(started);
    });
    return () => {
      cancelled = true;
      started?.dispose();
      setup.flow = null;
      if (liveWidget === token) liveWidget = null;
      setFlow(null);
    };
  }, [setup]);

  const snapshot = useFlow(flow ?? setup.preview);
  const lastUsed = useLastUsed(props, setup.env.config, snapshot);
  const { error } = snapshot;
  const env = useMemo(() => ({ ...setup.env, lastUsed, error }), [setup.env, lastUsed, error]);
  const view = snapshot.card === 'providerChooser' && snapshot.chooseTenant ? 'tenantChooser' : snapshot.card;
  const root = useRef<HTMLDivElement>(null);
  // Focus and title after each render (the cards chunk's `settle`: no change happens before it is there).
  // After a failed load of the chunk, a render does not start another one: the widget's Retry does.
  useEffect(() => {
    if (!cardsFailed()) loadCards().then((c) => c.settle(root.current, snapshot, props), noop);
  });

  if (conflict) {
    return (
      <div className="doorway doorway-conflict" role="alert">
        {uiText.onlyOneWidget}
      </div>
    );
  }
  return (
    <WidgetContext.Provider value={env}>
      {/* Busy only while a spinner stands for a card still to come: a card shown is usable at once. */}
      <div
        className="doorway"
        data-card={view}
        data-theme={setup.env.config.theme === 'auto' ? undefined : setup.env.config.theme}
        aria-busy={!flow && view === 'spinner' ? true : undefined}
        ref={root}
      >
        <FlowRouter key={view} state={snapshot} send={setup.send} />
        {snapshot.busy && snapshot.card !== 'spinner' ? (
          <div className="doorway-busy">
            <Spinner label={uiText.spinnerLabel} />
          </div>
        ) : null}
      </div>
    </WidgetContext.Provider>
  );
}

/** Props of {@link FlowRouter}. */
export interface FlowRouterProps {
  state: FlowState;
  send: (event: UiEvent) => void;
}

/**
 * Renders the card component for `state.card`. The cards a widget can open on (provider chooser, email
 * entry, phone entry, spinner, unrecoverable error) are here; the others come from the cards chunk
 * ({@link loadCards}): until it has loaded, the spinner shows, or, while React hydrates a server's render,
 * the server's card stays as it is (a form that works without scripts). Memoised: the same `state` and
 * `send` do not render again.
 */
export const FlowRouter = memo(function FlowRouter({ state, send }: FlowRouterProps) {
  const Card = (firstCards[state.card as FirstCardName] ?? LaterCard) as ComponentType<FlowRouterProps>;
  return <Card state={state} send={send} />;
});

/** The component of each card a widget can open on (a missing or extra card fails to compile). */
const firstCards: { [C in FirstCardName]: ComponentType<CardProps<C>> } = {
  providerChooser: ProviderChooser,
  emailEntry: EmailEntry,
  phoneEntry: PhoneEntry,
  spinner: SpinnerCard,
  unrecoverableError: UnrecoverableError,
};

function LaterCard(props: CardProps<LaterCardName>) {
  return (
    <Suspense fallback={<SpinnerCard state={{ ...props.state, card: 'spinner' }} send={props.send} />}>
      <ChunkCard {...props} />
    </Suspense>
  );
}

function ChunkCard({ state, send }: CardProps<LaterCardName>) {
  const chunk = loadedCards();
  if (chunk) {
    const Card = chunk.laterCards[state.card] as ComponentType<CardProps<LaterCardName>>;
    return <Card state={state} send={send} />;
  }
  if (cardsFailed()) {
    return (
      <UnrecoverableError
        state={{ ...state, card: 'unrecoverableError', message: 'network-request-failed' }}
        send={send}
      />
    );
  }
  // Suspends until the chunk has loaded (or failed to).
  throw loadCards();
}
