/**
 * The server flow runner of the form path: a web `Request` and the sealed flow cookie in, the card to
 * render, a `Set-Cookie` and the outcome out. It runs the same `transition` and `execute` as the browser's
 * runner, on a {@link ServerAuthProvider} made for the request.
 * @module
 */
import type { WidgetConfig } from './config.ts';
import { AuthError, toErrorInfo } from './errors.ts';
import type { FlowEvent } from './events.ts';
import { execute } from './execute.ts';
import { formEvent } from './formEvent.ts';
import { systemClock } from './loader.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type { SignInResult } from './provider.ts';
import type { FlowRuntime } from './runtime.ts';
import {
  assertSecret,
  deriveSealingKey,
  openWith,
  SEALED_STATE_TTL_MS,
  type SealingKey,
  sealWith,
} from './sealedState.ts';
import { type ServerAuthProvider, serverCanRun } from './serverProvider.ts';
import { createServerStorage } from './serverStorage.ts';
import { type FlowContext, go, initialState, type TransitionResult } from './start.ts';
import { CARDS, type FlowState } from './states.ts';
import { transition } from './transition.ts';

/** Options of {@link createServerFlow}. */
export interface ServerFlowOptions {
  /**
   * The secret the flow cookie is sealed with: a random string of at least 32 characters, the same on
   * every server of the app. A shorter one throws `ConfigError` here, at setup.
   */
  secret: string;
  /** The flow cookie's name. Default `doorway_flow`. */
  cookieName?: string;
  /** Whether the cookie is `Secure`. Default: yes, except when the request's host is localhost. */
  secure?: boolean;
  /** The clock, in epoch ms (cookie expiry, email-link session age). Default `Date.now`. */
  now?: () => number;
  /** Random ids for email-link sessions. Default `crypto.randomUUID`. */
  createId?: () => string;
}

/** The sign-in a request completed, for the host's session. */
export interface ServerSignIn {
  /** The provider's token of this sign-in (`ServerAuthProvider.sessionToken()`). Never log it. */
  sessionToken: string;
  /** Where to go now (already checked by `safeRedirect`), or `null` to stay on the signed-in card. */
  redirectUrl: string | null;
  result: SignInResult;
}

/** What a request to the form path comes to; plain data the host turns into its response. */
export interface ServerFlowResult {
  /** The card to render (nothing in flight: `pending` is `null`; it never holds a password). */
  state: FlowState;
  /** The `Set-Cookie` header value: the sealed flow state, or one that clears it when the flow is over. */
  setCookie: string;
  /** The sign-in this request completed, or `null`. The flow cookie is cleared then. */
  signedIn: ServerSignIn | null;
  /** A URL to redirect to (303), already checked by `safeRedirect`, or `null` to render `state`. */
  redirect: string | null;
  /** 303 with a redirect; 400 for a POST that carried no event this path knows; 200 otherwise. */
  status: number;
}

/** A server flow: one per app, shared by its requests. */
export interface ServerFlow {
  /**
   * Handles one request to the page the widget is on. A POST applies the posted card's event (see
   * `formEvent`) to the state sealed in the flow cookie; a POST without a valid cookie (missing,
   * tampered with, expired) shows the first card, as every other method does: `START` on `request.url`,
   * which also handles an email sign-in link or an action URL there.
   *
   * `config` is the request's (`normalizeConfig(input, origin)`); its callbacks are not called on a
   * server. `provider` is made for this request. Provider calls that need a browser (phone, federated,
   * redirect results, linking) are refused as `javascript-required` without reaching the provider, so the
   * card says that this way of signing in needs scripts.
   * Never throws for what a visitor sends.
   */
  handle(
    request: Request,
    provider: ServerAuthProvider,
    config: WidgetConfig,
    options?: ServerHandleOptions,
  ): Promise<ServerFlowResult>;
}

/** Per-request options of {@link ServerFlow.handle}. */
export interface ServerHandleOptions {
  /**
   * A flow started by this request (not a POST of a sealed one) begins with a sign-out and shows the
   * sign-out card, as the widget's `signOut` does: the page a host sends the browser to after ending the
   * session.
   */
  signOut?: boolean;
}

/** The flow cookie's default name. */
export const DEFAULT_FLOW_COOKIE = 'doorway_flow';

/** A request never needs more provider calls than this; past it, the flow gives up with an error card. */
const MAX_CALLS = 10;
/** A card's form is small; a bigger body is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

interface Sealed {
  state: FlowState;
  storage: Record<string, string>;
}

interface Driven {
  state: FlowState;
  signIn: { result: SignInResult; redirectUrl: string | null } | null;
  redirect: string | null;
}

const CARD_NAMES: ReadonlySet<string> = new Set(CARDS);

function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null) return false;
  const { state, storage } = value as Partial<Record<keyof Sealed, unknown>>;
  if (typeof state !== 'object' || state === null || typeof storage !== 'object' || storage === null)
    return false;
  const s = state as Record<string, unknown>;
  return (
    typeof s.card === 'string' &&
    CARD_NAMES.has(s.card) &&
    typeof s.seq === 'number' &&
    s.pending === null &&
    typeof s.pageUrl === 'string'
  );
}

function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

async function readForm(request: Request): Promise<FormData | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (!(length <= MAX_FORM_BYTES)) return null;
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

function isLocalHost(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost');
  } catch {
    return false;
  }
}

/** Blanks every `password` in a state: what is sealed or handed out never holds one. */
function withoutPasswords(state: FlowState): FlowState {
  return JSON.parse(
    JSON.stringify(state, (key, value: unknown) =>
      key === 'password' && typeof value === 'string' ? '' : value,
    ),
  ) as FlowState;
}

/**
 * Creates the server flow runner of the form path. Throws `ConfigError` at once for a secret shorter than
 * 32 characters.
 * @example
 * // once, at startup
 * const serverFlow = createServerFlow({ secret: process.env.DOORWAY_FLOW_SECRET! });
 * // in the /login loader and action
 * const out = await serverFlow.handle(request, createServerProvider(), normalizeConfig(input, origin));
 * if (out.signedIn) await startSession(out.signedIn.sessionToken);
 * if (out.redirect) return redirect(out.redirect, { headers: { 'Set-Cookie': out.setCookie } });
 * return json({ state: out.state }, { status: out.status, headers: { 'Set-Cookie': out.setCookie } });
 */
export function createServerFlow(options: ServerFlowOptions): ServerFlow {
  assertSecret(options.secret);
  const cookieName = options.cookieName ?? DEFAULT_FLOW_COOKIE;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookieName)) {
    throw new TypeError(`Doorway server flow: "${cookieName}" is not a cookie name`);
  }
  const key = deriveSealingKey(options.secret);
  // Awaited per request; this only keeps a failure from being reported as unhandled before then.
  key.catch(() => undefined);
  const settings: Settings = {
    cookieName,
    secure: options.secure,
    now: options.now ?? (() => Date.now()),
    createId: options.createId ?? (() => globalThis.crypto.randomUUID()),
    key,
  };
  return {
    handle: (request, provider, config, handleOptions = {}) =>
      handle(settings, request, provider, config, handleOptions),
  };
}

/** What every request of one server flow shares. */
interface Settings {
  readonly cookieName: string;
  readonly secure: boolean | undefined;
  readonly now: () => number;
  readonly createId: () => string;
  readonly key: Promise<SealingKey>;
}

function flowCookie(settings: Settings, request: Request, value: string, maxAge: number): string {
  const secure = settings.secure ?? !isLocalHost(request.url);
  return `${settings.cookieName}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

async function handle(
  settings: Settings,
  request: Request,
  provider: ServerAuthProvider,
  config: WidgetConfig,
  handleOptions: ServerHandleOptions,
): Promise<ServerFlowResult> {
  const sealingKey = await settings.key;
  const time = settings.now();
  const opened = await openWith(readCookie(request, settings.cookieName), sealingKey, time);
  const sealed = isSealed(opened) ? opened : null;
  const kv = createServerStorage(sealed?.storage);
  const rt: FlowRuntime = {
    provider,
    source: provider,
    config,
    clock: { ...systemClock, now: settings.now },
    storage: kv.storage,
    createId: settings.createId,
    signOut: false,
    lastVerifier: null,
    linkSignIn: null,
  };
  const { driven, status } = await run(request, sealed, provider, rt, handleOptions);
  const signedIn = takeSignIn(driven, provider);
  const state = withoutPasswords(driven.state);
  const over = signedIn !== null || driven.redirect !== null;
  const setCookie = over
    ? flowCookie(settings, request, '', 0)
    : flowCookie(
        settings,
        request,
        await sealWith({ state, storage: kv.snapshot() } satisfies Sealed, sealingKey, time),
        SEALED_STATE_TTL_MS / 1000,
      );
  const redirect = driven.redirect;
  return { state, setCookie, signedIn, redirect, status: redirect !== null ? 303 : status };
}

/** The card a form posted to goes on with its event; anything else starts the flow. */
async function run(
  request: Request,
  sealed: Sealed | null,
  provider: ServerAuthProvider,
  rt: FlowRuntime,
  handleOptions: ServerHandleOptions,
): Promise<{ driven: Driven; status: number }> {
  const form = request.method === 'POST' && sealed ? await readForm(request) : null;
  const event = form ? formEvent(form) : null;
  if (sealed && request.method === 'POST' && event === null) {
    return { driven: { state: sealed.state, signIn: null, redirect: null }, status: 400 };
  }
  if (sealed && event) return { driven: await drive(sealed.state, event, provider, rt), status: 200 };
  const start: FlowEvent = {
    type: 'START',
    url: request.url,
    currentUser: null,
    redirectPending: false,
    signOut: handleOptions.signOut === true,
  };
  return { driven: await drive(initialState(request.url), start, provider, rt), status: 200 };
}

/** The sign-in the flow made, with the token the host starts its session from. */
function takeSignIn(driven: Driven, provider: ServerAuthProvider): ServerSignIn | null {
  if (!driven.signIn) return null;
  const sessionToken = provider.sessionToken();
  if (sessionToken !== null) return { sessionToken, ...driven.signIn };
  // A sign-in without a token gives the host nothing to start a session with.
  [driven.state] = go(driven.state, { card: 'recoverableError', message: 'generic', retry: null });
  driven.redirect = null;
  return null;
}

/** One request's run of the flow: its state, the provider's tenant, what came out. */
interface Drive extends Driven {
  readonly provider: ServerAuthProvider;
  readonly rt: FlowRuntime;
  /**
   * The provider is new, on the default tenant; the flow's tenant is set again before a call needs it.
   * `undefined`: not known (a call that sets it failed or set it from a URL).
   */
  providerTenant: string | null | undefined;
  calls: number;
  readonly events: FlowEvent[];
}

/** Applies `event` and every event its effects lead to (provider results, the success timer). */
async function drive(
  start: FlowState,
  event: FlowEvent,
  provider: ServerAuthProvider,
  rt: FlowRuntime,
): Promise<Driven> {
  const ctx: FlowContext = { config: rt.config, capabilities: provider.capabilities };
  const d: Drive = {
    state: start,
    signIn: null,
    redirect: null,
    provider,
    rt,
    providerTenant: null,
    calls: 0,
    events: [event],
  };
  while (d.events.length > 0) {
    const [next, effects]: TransitionResult = transition(d.state, d.events.shift() as FlowEvent, ctx);
    d.state = next;
    for (const effect of effects) {
      if (!(await apply(d, effect))) {
        // A loop of calls is a bug somewhere: the visitor gets an error card, not a hung request.
        const [failed] = go(d.state, { card: 'unrecoverableError', message: 'generic' });
        return { state: failed, signIn: null, redirect: null };
      }
    }
  }
  // Nothing may stay in flight: no later request could finish it (and a pending op may hold a password).
  if (d.state.pending) [d.state] = go(d.state, { card: 'unrecoverableError', message: 'generic' });
  return { state: d.state, signIn: d.state.card === 'signedIn' ? d.signIn : null, redirect: d.redirect };
}

/** Performs one effect the server can; `false` when the flow made too many calls. */
async function apply(d: Drive, effect: Effect): Promise<boolean> {
  if (effect.type === 'call' && d.state.pending?.id === effect.id) {
    d.calls += 1;
    if (d.calls > MAX_CALLS) return false;
    d.events.push(await perform(d, effect.id, effect.op));
  } else if (effect.type === 'signInSuccess') {
    d.signIn = { result: effect.result, redirectUrl: effect.redirectUrl };
    // What the browser's runner feeds back: the app lets the redirect happen, the 1 s has passed.
    d.events.push({ type: 'CALLBACK_RESULT', redirect: true }, { type: 'TIMER', name: 'success' });
  } else if (effect.type === 'redirect') {
    d.redirect = effect.url;
  }
  // Timers (busy spinner, resend countdown), uiShown and signInFailure are the browser's.
  return true;
}

/** One provider call, on the flow's tenant, as the event that reports it. */
async function perform(d: Drive, id: number, op: ProviderOp): Promise<FlowEvent> {
  try {
    if (!serverCanRun(op)) throw new AuthError('javascript-required');
    const target =
      op.kind === 'setTenant' || (op.kind === 'lookupEmail' && op.tenantId !== undefined)
        ? op.tenantId
        : undefined;
    if (target === undefined && op.kind !== 'actionCode' && d.state.tenantId !== d.providerTenant) {
      d.providerTenant = undefined;
      await d.provider.setTenant(d.state.tenantId);
      d.providerTenant = d.state.tenantId;
    }
    if (target !== undefined || op.kind === 'actionCode') d.providerTenant = undefined;
    const result = await execute(op, d.rt);
    if (target !== undefined) d.providerTenant = target;
    return { type: 'PROVIDER_RESOLVED', id, result };
  } catch (error) {
    return { type: 'PROVIDER_REJECTED', id, error: toErrorInfo(error) };
  }
}
