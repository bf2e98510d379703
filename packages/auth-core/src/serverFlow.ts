/**
 * The server flow runner of the form path: a web `Request` and the sealed flow cookie in, the card to
 * render, a `Set-Cookie` and the outcome out. It reads the posted card's event and the sealed state
 * (`formPost.ts`), runs the same `transition` and `execute` as the browser's runner on a
 * {@link ServerAuthProvider} made for the request, and performs only the provider ops a server can
 * ({@link serverCanRun}).
 * @module
 */
import { methodOf, type WidgetConfig } from './config.ts';
import type { EmailLinkCheck } from './emailLinkStore.ts';
import { AuthError, toErrorInfo } from './errors.ts';
import type { FlowEvent } from './events.ts';
import { execute } from './execute.ts';
import {
  assertSealingSecret,
  createSealer,
  formEvent,
  SEALED_STATE_TTL_MS,
  type Sealer,
  type SealingSecret,
} from './formPost.ts';
import { systemClock } from './loader.ts';
import type { MessageKey } from './messages.ts';
import type { Effect, ProviderOp, ProviderOpKind } from './ops.ts';
import type { SignInResult } from './provider.ts';
import type { FlowRuntime } from './runtime.ts';
import type { ServerAuthProvider } from './serverContract.ts';
import { createServerStorage } from './serverStorage.ts';
import { initialState } from './start.ts';
import { CARDS, type FlowState } from './states.ts';
import { type FlowContext, go, type TransitionResult } from './steps/step.ts';
import { transition } from './transition.ts';

/** Options of {@link createServerFlow}. */
export interface ServerFlowOptions {
  /**
   * The secret the flow cookie is sealed with, the same on every server of the app: at least 32 random
   * bytes as base64, base64url or hex (`openssl rand -base64 48`). For rotation, a list: the first seals,
   * every one opens (keep an old secret there for an hour, the flow's lifetime, then drop it). A secret that
   * is not random enough (`sealingSecretProblem`) throws `ConfigError` here, at setup.
   */
  secret: SealingSecret;
  /**
   * The flow cookie's name where it is not `Secure`. Default `doorway_flow`. Where it is `Secure`, the
   * name gets the `__Host-` prefix (unless it has one), so that no other origin of the site can set it.
   */
  cookieName?: string;
  /**
   * Whether the cookie is `Secure` (and `__Host-` prefixed). Default: yes, except when the request's host
   * is `localhost`, `127.0.0.1` or `[::1]` (plain-http development), as the host's session cookie.
   */
  secure?: boolean;
  /** The clock, in epoch ms (the flow's lifetime, email-link session age). Default `Date.now`. */
  now?: () => number;
  /** Random ids for email-link sessions. Default `crypto.randomUUID`. */
  createId?: () => string;
  /**
   * Query parameters of the page URL to keep besides the engine's own (`mode`, `oobCode`, `apiKey`,
   * `continueUrl`, `tenantId`, `lang`, `signInSuccessUrl`, `link`, `deep_link_id` and every `doorway_…`):
   * those a provider reads from a link (e.g. Supabase's `token_hash` and `type`). Every other one is
   * dropped from the URL the flow runs on and seals, so a long query cannot make the cookie too big.
   */
  pageParams?: readonly string[];
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
  /**
   * The card to render (nothing in flight: `pending` is `null`; it never holds a password, and a
   * challenge's `serverSession` is `null` in it: only the sealed cookie keeps that).
   */
  state: FlowState;
  /**
   * The `Set-Cookie` header value: the sealed flow state (for what is left of the flow's hour), or one that
   * clears it when the flow is over, when the request carried two flow cookies, or when the state would
   * not fit in a cookie.
   */
  setCookie: string;
  /**
   * The sign-in this request completed (with `onSignedIn`: one whose session the host started), or
   * `null`. The flow cookie is cleared after a sign-in either way.
   */
  signedIn: ServerSignIn | null;
  /** A URL to redirect to (303), already checked by `safeRedirect`, or `null` to render `state`. */
  redirect: string | null;
  /**
   * 303 with a redirect; 400 for a POST that carried no event this path knows or two flow cookies; 200
   * otherwise.
   */
  status: number;
}

/** A server flow: one per app, shared by its requests. */
export interface ServerFlow {
  /**
   * Handles one request to the page the widget is on. A POST applies the posted card's event (see
   * `formEvent`) to the state sealed in the flow cookie; a POST without a valid cookie (missing,
   * tampered with, expired) shows the first card, as every other method does: `START` on `request.url`
   * (without the query parameters nothing reads: `capPageUrl`), which also handles an action URL there.
   * An email sign-in link is never completed by this `START`: it shows the confirmation card, whose POST
   * completes it. Two flow cookies of the name in one request: neither is used (a POST is refused).
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
  /**
   * Starts the host's session for the sign-in this request completed (`signedIn`), before the result is
   * made: resolves `null` when the session started, or the catalogue's message that says why not. Then
   * nothing is half signed in: the card is the recoverable error with that message, `signedIn` and
   * `redirect` are `null`, and the flow cookie is cleared. A callback that throws counts as `generic`.
   * Without it, the host starts its session from `signedIn` itself.
   * @example
   * onSignedIn: async ({ sessionToken }) => {
   *   const made = await sessions.create(sessionToken);
   *   return made.ok ? null : 'session-expired';
   * }
   */
  onSignedIn?(signIn: ServerSignIn): Promise<MessageKey | null>;
}

/**
 * The provider operations the server runner performs. Every other op needs the browser (captcha, popup,
 * redirect, a signed-in browser user): a card that asks for one says it needs JavaScript.
 */
export const SERVER_OPS: ReadonlySet<ProviderOpKind> = new Set<ProviderOpKind>([
  'lookupEmail',
  'setTenant',
  'passwordSignIn',
  'createUser',
  'sendPasswordReset',
  'sendEmailLink',
  'checkEmailLink',
  'completeEmailLink',
  'anonymous',
  'actionCode',
  'confirmPasswordReset',
  'signOut',
  'startSecondFactor',
  'finishSecondFactor',
  'cancelSecondFactor',
]);

/**
 * Whether the server runner can perform `op`: one of {@link SERVER_OPS}, and not a second factor's SMS
 * (texting the code needs the browser's captcha; an authenticator app's code does not).
 */
export function serverCanRun(op: ProviderOp): boolean {
  return SERVER_OPS.has(op.kind) && !(op.kind === 'startSecondFactor' && op.sms);
}

/** The flow cookie's default name where it is not `Secure`; `__Host-doorway_flow` where it is. */
export const DEFAULT_FLOW_COOKIE = 'doorway_flow';
/** The longest page URL the flow runs on and seals; what it keeps of a longer one fits. */
export const MAX_PAGE_URL_LENGTH = 1024;

/** A request never needs more provider calls than this; past it, the flow gives up with an error card. */
const MAX_CALLS = 10;
/** A card's form is small; a bigger body is not one of ours. */
const MAX_FORM_BYTES = 64 * 1024;
/** Browsers keep a cookie whose name and value are at most 4096 bytes together, and drop a bigger one. */
const MAX_COOKIE_BYTES = 4096;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** The query parameters of a page URL the engine reads (action links, sign-in links, the success URL). */
const ENGINE_PAGE_PARAMS = [
  'mode',
  'oobCode',
  'apiKey',
  'continueUrl',
  'tenantId',
  'lang',
  'signInSuccessUrl',
  'link',
  'deep_link_id',
];

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

/**
 * The "Last used" cookie of the form path: the sign-in option this browser last signed in with (`email`,
 * `phone`, `google.com`, …), so that a server-rendered chooser marks it with or without JavaScript (the
 * widget's `lastUsed` prop). It holds the option's id only, never who signed in; a host sets it with a
 * sign-in's session and leaves it at sign-out, since the chooser after sign-out is where it helps.
 */
export const LAST_USED_COOKIE = 'doorway_last_used';
/** How long the "Last used" cookie is kept: 400 days, the longest a browser keeps a cookie. */
export const LAST_USED_MAX_AGE_SECONDS = 400 * 24 * 3600;
/** The longest option id the "Last used" cookie keeps (a configured OIDC or SAML provider's id included). */
export const MAX_OPTION_ID_LENGTH = 128;

// The provider ids a widget config accepts.
const OPTION_ID = /^[a-z0-9][a-z0-9.:_-]*$/i;

const isOptionId = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= MAX_OPTION_ID_LENGTH && OPTION_ID.test(value);

/**
 * The `Set-Cookie` value that keeps the option of a sign-in: `method` is the option id or the sign-in's
 * provider id (`password` and `emailLink` are the `email` option). `null` for anything else: nothing is set.
 * `secure`: where the session cookie is `Secure`, this one is too.
 */
export function lastUsedCookieHeader(method: unknown, secure: boolean): string | null {
  const id = typeof method === 'string' ? methodOf(method) : null;
  if (!isOptionId(id)) return null;
  const attributes = `Max-Age=${LAST_USED_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return `${LAST_USED_COOKIE}=${id}; ${attributes}`;
}

/** The option id the request's "Last used" cookie keeps, or `null` when it has none that is an option id. */
export function readLastUsed(request: Request): string | null {
  return cookieValues(request, LAST_USED_COOKIE).find(isOptionId) ?? null;
}

/** Every value of the cookie `name` in the request, in the browser's order. */
function cookieValues(request: Request, name: string): string[] {
  const values: string[] = [];
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) values.push(part.slice(at + 1).trim());
  }
  return values;
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
    return LOCAL_HOSTS.has(hostname);
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
 * The page URL the flow runs on and seals: without a fragment and without the query parameters nothing
 * reads (the engine's, `doorway_…` and `keep`), at most {@link MAX_PAGE_URL_LENGTH} long (a kept parameter
 * that would make it longer is left out). So a link with a long query still leaves a cookie that fits
 * (issue 24). A URL kept whole is returned as it is.
 * @example capPageUrl('https://app.example/login?utm_source=x&signInSuccessUrl=%2Fa', new Set()) // 'https://app.example/login?signInSuccessUrl=%2Fa'
 */
export function capPageUrl(href: string, keep: ReadonlySet<string>): string {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return href.slice(0, MAX_PAGE_URL_LENGTH);
  }
  const all = [...url.searchParams];
  const params = all.filter(
    ([name]) => ENGINE_PAGE_PARAMS.includes(name) || name.startsWith('doorway_') || keep.has(name),
  );
  url.hash = '';
  if (params.length === all.length && url.href.length <= MAX_PAGE_URL_LENGTH) return url.href;
  url.search = '';
  const base = url.href.length <= MAX_PAGE_URL_LENGTH / 2 ? url.href : `${url.origin}/`;
  const pairs: string[] = [];
  let length = base.length;
  for (const param of params) {
    const pair = new URLSearchParams([param]).toString();
    if (length + 1 + pair.length > MAX_PAGE_URL_LENGTH) continue;
    pairs.push(pair);
    length += 1 + pair.length;
  }
  return pairs.length > 0 ? `${base}?${pairs.join('&')}` : base;
}

/**
 * Creates the server flow runner of the form path. Throws `ConfigError` at once for a secret that is not
 * random enough (`sealingSecretProblem`).
 * @example
 * // once, at startup (a list rotates: the first seals, all open)
 * const serverFlow = createServerFlow({ secret: process.env.DOORWAY_FLOW_SECRET! });
 * // in the /login loader and action
 * const out = await serverFlow.handle(request, createServerProvider(), normalizeConfig(input, origin), {
 *   onSignedIn: async (signIn) => ((await startSession(signIn.sessionToken)) ? null : 'generic'),
 * });
 * if (out.redirect) return redirect(out.redirect, { headers: { 'Set-Cookie': out.setCookie } });
 * return json({ state: out.state }, { status: out.status, headers: { 'Set-Cookie': out.setCookie } });
 */
export function createServerFlow(options: ServerFlowOptions): ServerFlow {
  assertSealingSecret(options.secret);
  const cookieName = options.cookieName ?? DEFAULT_FLOW_COOKIE;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookieName)) {
    throw new TypeError(`Doorway server flow: "${cookieName}" is not a cookie name`);
  }
  const sealers = new Map<string, Sealer>();
  const settings: Settings = {
    cookieName,
    secure: options.secure,
    now: options.now ?? (() => Date.now()),
    createId: options.createId ?? (() => globalThis.crypto.randomUUID()),
    keep: new Set(options.pageParams ?? []),
    // One per cookie name: a value sealed for `doorway_flow` does not open as `__Host-doorway_flow`.
    sealerOf(name) {
      const sealer = sealers.get(name) ?? createSealer(options.secret, name);
      sealers.set(name, sealer);
      return sealer;
    },
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
  readonly keep: ReadonlySet<string>;
  sealerOf(name: string): Sealer;
}

/** The flow cookie of one request: its name, whether it is `Secure`, the sealer bound to its name. */
interface FlowCookie {
  readonly name: string;
  readonly secure: boolean;
  readonly sealer: Sealer;
}

/**
 * A `Secure` cookie gets the `__Host-` prefix: the browser then takes it only from a secure page of this
 * very host, for `Path=/`, so no sibling subdomain, other port, plain-http page or deeper path can plant one.
 */
function cookieFor(settings: Settings, request: Request): FlowCookie {
  const prefixed = /^__(Host|Secure)-/.test(settings.cookieName);
  const secure = prefixed || (settings.secure ?? !isLocalHost(request.url));
  const name = secure && !prefixed ? `__Host-${settings.cookieName}` : settings.cookieName;
  return { name, secure, sealer: settings.sealerOf(name) };
}

function flowCookie(cookie: FlowCookie, value: string, maxAge: number): string {
  return `${cookie.name}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${cookie.secure ? '; Secure' : ''}`;
}

/**
 * The `Set-Cookie` of a flow that goes on: sealed with the time it began, for what is left of its lifetime.
 * If it would be too big for a browser to keep, the sealed copy goes without the success URL it read from
 * the page (the page's own URL still carries it); if even that is too big, the cookie is cleared rather
 * than silently dropped by the browser, and the next request starts over.
 */
async function sealedCookie(
  cookie: FlowCookie,
  sealed: Sealed,
  startedAt: number,
  now: number,
): Promise<string> {
  const maxAge = Math.max(1, Math.ceil((startedAt + SEALED_STATE_TTL_MS - now) / 1000));
  const smaller: Sealed = { ...sealed, state: { ...sealed.state, redirectUrl: null } };
  for (const candidate of [sealed, smaller]) {
    const value = await cookie.sealer.seal(candidate, startedAt);
    if (cookie.name.length + 1 + value.length <= MAX_COOKIE_BYTES) return flowCookie(cookie, value, maxAge);
  }
  return flowCookie(cookie, '', 0);
}

async function handle(
  settings: Settings,
  request: Request,
  provider: ServerAuthProvider,
  config: WidgetConfig,
  handleOptions: ServerHandleOptions,
): Promise<ServerFlowResult> {
  const time = settings.now();
  const cookie = cookieFor(settings, request);
  const values = cookieValues(request, cookie.name);
  // The flow sets one cookie (`Path=/`); a second was planted (e.g. by another port of the site for a
  // deeper path, which the browser sends first). Using either could run a stranger's flow: neither is used,
  // a POST is refused, and the cookie is cleared (issue 24).
  const planted = values.length > 1;
  const opened = planted ? null : await cookie.sealer.open(values[0] ?? null, time);
  const sealed = opened && isSealed(opened.value) ? opened.value : null;
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
  const pageUrl = capPageUrl(request.url, settings.keep);
  const { driven, status, continued } = await run(request, pageUrl, sealed, provider, rt, handleOptions);
  const taken = takeSignIn(driven, provider);
  const signedIn =
    taken && handleOptions.onSignedIn ? await started(driven, taken, handleOptions.onSignedIn) : taken;
  const state = withoutPasswords(driven.state);
  const over = planted || taken !== null || driven.redirect !== null;
  // The flow's lifetime counts from its start: what goes on from a sealed value keeps its start, so no
  // copy of a cookie outlives it by being sent again (issue 24).
  const carried = sealed !== null && (continued || Object.keys(sealed.storage).length > 0);
  const startedAt = opened && carried ? opened.startedAt : time;
  const setCookie = over
    ? flowCookie(cookie, '', 0)
    : await sealedCookie(cookie, { state, storage: kv.snapshot() }, startedAt, time);
  const redirect = driven.redirect;
  const refused = planted && request.method === 'POST';
  const answer = refused ? 400 : redirect !== null ? 303 : status;
  return { state: forPage(state), setCookie, signedIn, redirect, status: answer };
}

/**
 * The state as the page gets it: a second-factor challenge's `serverSession` (a form provider's token of the
 * pending sign-in) is `null`, the sealed cookie alone keeping it for the next POST (issue 24).
 */
function forPage(state: FlowState): FlowState {
  return JSON.parse(
    JSON.stringify(state, (key, value: unknown) =>
      key === 'serverSession' && value !== undefined ? null : value,
    ),
  ) as FlowState;
}

/** The card a form posted to goes on with its event (`continued`); anything else starts the flow. */
async function run(
  request: Request,
  pageUrl: string,
  sealed: Sealed | null,
  provider: ServerAuthProvider,
  rt: FlowRuntime,
  handleOptions: ServerHandleOptions,
): Promise<{ driven: Driven; status: number; continued: boolean }> {
  const form = request.method === 'POST' && sealed ? await readForm(request) : null;
  const event = form ? formEvent(form) : null;
  if (sealed && request.method === 'POST' && event === null) {
    return { driven: { state: sealed.state, signIn: null, redirect: null }, status: 400, continued: true };
  }
  if (sealed && event) {
    return { driven: await drive(sealed.state, event, provider, rt), status: 200, continued: true };
  }
  const start: FlowEvent = {
    type: 'START',
    url: pageUrl,
    currentUser: null,
    redirectPending: false,
    signOut: handleOptions.signOut === true,
  };
  return { driven: await drive(initialState(pageUrl), start, provider, rt), status: 200, continued: false };
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

/**
 * The sign-in when the host's session for it started (`onSignedIn`); else `null`, and the card says why
 * (no redirect: nothing is half signed in).
 */
async function started(
  driven: Driven,
  signIn: ServerSignIn,
  onSignedIn: NonNullable<ServerHandleOptions['onSignedIn']>,
): Promise<ServerSignIn | null> {
  let refusal: MessageKey | null;
  try {
    refusal = await onSignedIn(signIn);
  } catch {
    refusal = 'generic';
  }
  if (refusal === null) return signIn;
  [driven.state] = go(driven.state, { card: 'recoverableError', message: refusal, retry: null });
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
    return {
      type: 'PROVIDER_RESOLVED',
      id,
      result: op.kind === 'checkEmailLink' ? confirmFirst(result) : result,
    };
  } catch (error) {
    return { type: 'PROVIDER_REJECTED', id, error: toErrorInfo(error) };
  }
}

/**
 * A sign-in link opened on the server never signs in by itself, even in the browser that asked for it
 * (its session sealed in the flow cookie): that cookie may have been planted by another origin of the site
 * (login CSRF), and a GET is nobody's consent. The link shows the confirmation card instead, empty (never
 * prefilled from the cookie); its form's POST, same-origin as the host checks, completes it (issue 24).
 */
function confirmFirst(result: unknown): unknown {
  const check = result as Partial<EmailLinkCheck> | null;
  return typeof check === 'object' && check !== null && check.outcome === 'sameDevice'
    ? ({ outcome: 'otherDevice' } satisfies EmailLinkCheck)
    : result;
}
