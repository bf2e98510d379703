/**
 * The sign-in form path on the host, in one place: a request of `/login` or `/action` (a GET, or a card's
 * form POSTed without JavaScript) becomes a rendered card, a redirect or a refusal. The route modules call
 * {@link formLoader} and {@link formAction}, which answer with the page's own redirect or run
 * {@link runFormPath}:
 *
 * 0. the page's own redirect: on the sign-in page ({@link LOGIN_PAGE}) a code-mode URL goes to `/action`;
 * 1. a POST from a page the host does not trust is refused (403), before the flow runs;
 * 2. the page's data: where sign-in leads (only ever a safe URL), `?signedOut=1`, the widget's config;
 * 3. the request's provider: the configured backend's form provider with emailed links on the public
 *    origin and the host's enumeration protection (`services.server.ts`), behind the request's throttle;
 * 4. the engine (`createServerFlow` of `@doorway/auth-core/server`) runs the card's event on the sealed flow
 *    cookie; a sign-in it completes becomes the host's session cookie (and the "Last used" cookie) in its
 *    `onSignedIn` callback, so the card it decides already says whether a session exists;
 * 5. the answer: 303 after a sign-in or to a redirect the engine asked for, else the card with its status
 *    (429 with `Retry-After` when the throttle refused a call).
 *
 * After a POST, Remix runs the page's loaders in the same request to render it: the loader shows what the
 * action got to (kept on the request's own load context, see {@link ACTION_VIEW}) instead of starting the
 * flow over.
 * @module
 */
import { type ActionMode, type FlowState, normalizeConfig, safeRedirectTarget } from '@doorway/auth-core';
import {
  createServerFlow,
  lastUsedCookieHeader,
  readLastUsed,
  type ServerAuthProvider,
  type ServerFlow,
} from '@doorway/auth-core/server';
import { loadCards } from '@doorway/ui-cards';
import { data } from '@remix-run/node';
import { type HostConfig, hostConfig } from './config.server.ts';
import { requestOrigins } from './origin.server.ts';
import { ACTION_PATH, widgetConfigInput } from './public-config.ts';
import { ACTION_PAGE_HEADERS } from './security-headers.ts';
import { formProvider, sessionBackend } from './services.server.ts';
import { forbidden, mintSession, needsSecureCookie, type SessionBackend } from './session.server.ts';
import {
  hostThrottle,
  type RequestThrottle,
  requestThrottle,
  retryAfterHeaders,
  throttledProvider,
} from './throttle.server.ts';

// A bad DOORWAY_THROTTLE_* stops the server at start-up (this module loads with the build), not a visitor.
hostThrottle();

/** What a page of the form path renders: the card the server got to, and the page's own data. */
export interface LoginView {
  /** The flow state the widget renders and hydrates from (never a password in it). */
  state: FlowState;
  /** Where sign-in leads (checked). */
  successUrl: string;
  /** The request's origin (the widget's base for the server render). */
  origin: string;
  /** The sign-in option this browser last used (its cookie), which the chooser marks; `null`: none known. */
  lastUsed: string | null;
}

/**
 * What a page of the form path adds to the sign-in page's wiring (the action route's is `ACTION_PAGE` in
 * `action.server.ts`, the sign-in page's {@link LOGIN_PAGE}): each hook sees
 * the request.
 */
export interface FormPage {
  /** An answer the page gives instead of running the flow (a redirect elsewhere), or `null`. */
  redirect?(request: Request): Response | null;
  /** The provider as this page runs the flow on it (default: the request's form provider as is). */
  provider?(provider: ServerAuthProvider, request: Request): ServerAuthProvider;
  /** What the page renders of the card the flow got to, and its status (default: as they are). */
  view?(view: LoginView, status: number, request: Request): { view: LoginView; status: number };
  /** Headers of each of the page's answers: the rendered card, a redirect, a refusal. */
  headers?: Readonly<Record<string, string>>;
}

/** What the form path needs from the host, per request (the routes pass the process's own). */
export interface FormPathDeps {
  config: HostConfig;
  /** The form path's provider for this request. */
  provider(request: Request): ServerAuthProvider;
  /** The session operations for this request. */
  sessions(): SessionBackend;
  /** The page the flow runs on, when it is not the sign-in page. */
  page?: FormPage;
  /**
   * The request's throttle (its client address): every secret checked and message sent asks it first,
   * and the card of a request it refused answers 429 with `Retry-After`. Absent: nothing is throttled.
   */
  throttle?: RequestThrottle;
}

/** A rendered card: the view, its status and headers (`Set-Cookie`, `Cache-Control`, `Retry-After`). */
export interface FormRender {
  view: LoginView;
  status: number;
  headers: Headers;
}

/** Page data of the sign-in form path, from the request. */
export interface LoginPage {
  /** The page's `signInSuccessUrl` when `safeRedirect` accepts it, else `DOORWAY_SUCCESS_URL`. */
  successUrl: string;
  /** `?signedOut=1`: sign the browser's SDK out too and show the sign-out card. */
  signedOut: boolean;
  /** The request's origin (the widget's base for the server render). */
  origin: string;
}

/**
 * The page data of a request. The success URL never leaves the trusted origins (`trusted`: the request's
 * own origin first, then the configured ones).
 */
export function loginPage(
  request: Request,
  config: Pick<HostConfig, 'successUrl' | 'allowedOrigins'>,
  trusted: readonly string[] = requestOrigins(request, config.allowedOrigins).trusted,
): LoginPage {
  const url = new URL(request.url);
  const asked = url.searchParams.get('signInSuccessUrl');
  return {
    successUrl: safeRedirectTarget(asked, trusted, config.successUrl) ?? '/',
    signedOut: url.searchParams.get('signedOut') === '1',
    origin: url.origin,
  };
}

/*
 * A code-mode URL on the sign-in page (`/login?mode=resetPassword&oobCode=…`: a hand-edited or mangled
 * action link) goes to the action route, which handles the code without writing it into the page and with
 * the action pages' headers. Rendered on `/login`, the code would sit in the page data and its scripts, and
 * leave through a `Referer`. Sign-in links (`mode=signIn`) and `mode=select` stay on `/login` (issue 24).
 */

/** The modes whose one-time code the action route handles (sign-in links and `select` are the widget's). */
const CODE_MODES: ReadonlySet<string> = new Set<ActionMode>([
  'resetPassword',
  'recoverEmail',
  'verifyEmail',
  'verifyAndChangeEmail',
  'revertSecondFactorAddition',
]);

/** The mode of a URL when it is one whose code the action route handles, else `null`. Never throws. */
export function codeModeOf(url: string | URL): ActionMode | null {
  let mode: string | null;
  try {
    mode = new URL(url).searchParams.get('mode');
  } catch {
    return null;
  }
  return mode !== null && CODE_MODES.has(mode) ? (mode as ActionMode) : null;
}

/**
 * `303 /action?<the same query>` with the action pages' headers (`no-store`, `Referrer-Policy:
 * same-origin`, `noindex`) when `request` is a code-mode URL, else `null`.
 */
export function codeModeRedirect(request: Request): Response | null {
  const url = new URL(request.url);
  if (codeModeOf(url) === null) return null;
  return new Response(null, {
    status: 303,
    headers: { ...ACTION_PAGE_HEADERS, location: `${ACTION_PATH}${url.search}` },
  });
}

/**
 * The sign-in page as a page of the form path: a code-mode URL goes to the action route before the flow
 * runs, for a GET and a POST alike (its code is never handled on `/login`).
 */
export const LOGIN_PAGE: FormPage = { redirect: codeModeRedirect };

let shared: { secrets: readonly string[]; flow: ServerFlow } | null = null;

/**
 * The engine for these secrets (the first seals, all open), made once. It keeps, besides the engine's own
 * query parameters, the two a Supabase sign-in link of the default email templates carries.
 */
function serverFlow(secrets: readonly [string, ...string[]]): ServerFlow {
  const same = shared?.secrets.length === secrets.length && secrets.every((s, i) => shared?.secrets[i] === s);
  if (!same || shared === null) {
    shared = { secrets, flow: createServerFlow({ secret: secrets, pageParams: ['token_hash', 'type'] }) };
  }
  return shared.flow;
}

function withHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
  return response;
}

/**
 * Runs the form path for a request on `deps.page` (default: the sign-in page). Resolves the card to
 * render with its `Set-Cookie` and status, or a `Response`: 303 after a sign-in or to a redirect the engine
 * asked for, 403 for a POST from a page the host does not trust (which changes nothing).
 */
export async function runFormPath(request: Request, deps: FormPathDeps): Promise<Response | FormRender> {
  const { config } = deps;
  const extra = deps.page?.headers ?? {};
  const origins = requestOrigins(request, config.allowedOrigins);
  if (request.method === 'POST' && !origins.fromTrustedPage) return withHeaders(forbidden(), extra);
  const page = loginPage(request, config, origins.trusted);
  const widgetConfig = normalizeConfig(widgetConfigInput(config, page.successUrl), page.origin);
  const base = deps.provider(request);
  const paged = deps.page?.provider ? deps.page.provider(base, request) : base;
  const provider = deps.throttle ? throttledProvider(paged, deps.throttle) : paged;
  const url = new URL(request.url);
  const sessionCookies: string[] = [];
  const out = await serverFlow(config.flowSecret).handle(request, provider, widgetConfig, {
    signOut: page.signedOut,
    // The session cookie of a sign-in made here, as `POST /session` makes it for the widget in the
    // browser (fresh by construction); its option becomes the "Last used" cookie.
    async onSignedIn(signIn) {
      const minted = await mintSession(deps.sessions(), signIn.sessionToken, url);
      if (!('setCookie' in minted)) return minted.error;
      sessionCookies.push(minted.setCookie);
      const lastUsed = lastUsedCookieHeader(signIn.result.providerId, needsSecureCookie(url));
      if (lastUsed !== null) sessionCookies.push(lastUsed);
      return null;
    },
  });
  const headers = new Headers({ 'cache-control': 'no-store', ...extra });
  for (const line of [out.setCookie, ...sessionCookies]) headers.append('set-cookie', line);
  if (out.signedIn !== null || out.redirect !== null) {
    const to =
      out.signedIn !== null
        ? safeRedirectTarget(out.signedIn.redirectUrl, origins.trusted, page.successUrl)
        : safeRedirectTarget(out.redirect, origins.trusted, '/');
    headers.set('location', to ?? '/');
    return new Response(null, { status: 303, headers });
  }
  const view: LoginView = {
    state: out.state,
    successUrl: page.successUrl,
    origin: page.origin,
    lastUsed: readLastUsed(request),
  };
  const shown = deps.page?.view ? deps.page.view(view, out.status, request) : { view, status: out.status };
  // The card shows the catalogue's too-many-requests message; the status and Retry-After say it to machines.
  const refusal = deps.throttle?.refusal() ?? null;
  if (refusal === null) return { ...shown, headers };
  for (const [name, value] of Object.entries(retryAfterHeaders(refusal))) headers.set(name, value);
  return { ...shown, status: 429, headers };
}

/**
 * Where the action leaves its view for the loaders of the same request. Remix hands an action and the
 * loaders that render after it one and the same load context object (its `requestContext`), and nothing
 * else they share: the host's server makes a fresh one per request (`server.mjs`), as Remix does by
 * default. So the view lives on that object, under a key no other code knows, and dies with the request:
 * no module-level map holds any visitor's data (one keyed by the context would, and would hand one
 * visitor's card to another the day a deployment shared a context object). The loader also takes it only
 * for the action's own request (same URL and cookies: Remix copies the action's headers to its loaders),
 * and takes it once.
 */
const ACTION_VIEW = Symbol('doorway.actionView');

interface ActionView {
  url: string;
  cookie: string | null;
  view: LoginView;
}

type WithActionView = { [ACTION_VIEW]?: ActionView };

const isObject = (context: unknown): context is WithActionView =>
  typeof context === 'object' && context !== null;

function takeView(context: unknown, request: Request): LoginView | undefined {
  if (!isObject(context)) return undefined;
  const kept = context[ACTION_VIEW];
  delete context[ACTION_VIEW];
  if (kept === undefined || kept.url !== request.url) return undefined;
  return kept.cookie === request.headers.get('cookie') ? kept.view : undefined;
}

/** The form path with the process's configuration, services and the request's throttle. */
async function answer(request: Request, context: unknown, page: FormPage | undefined) {
  const early = page?.redirect?.(request) ?? null;
  if (early !== null) return early;
  // The server renders any card, so the later cards (a chunk of their own in the browser) are loaded here.
  await loadCards();
  const out = await runFormPath(request, {
    config: hostConfig(),
    provider: formProvider,
    sessions: sessionBackend,
    throttle: requestThrottle(context),
    ...(page ? { page } : {}),
  });
  // A refusal (403) is thrown: Remix renders the error card with its status, not a page from its body.
  if (out instanceof Response && (out.status < 300 || out.status >= 400)) throw out;
  return out;
}

/** A page's loader: the card its action just got to, else the card the server renders first. */
export async function formLoader(request: Request, context: unknown, page?: FormPage) {
  const earlier = takeView(context, request);
  if (earlier !== undefined) return data(earlier);
  const out = await answer(request, context, page);
  if (out instanceof Response) throw out;
  return data(out.view, { status: out.status, headers: out.headers });
}

/** A page's action: one card's form; the next card (kept for the loaders of this request), or a redirect. */
export async function formAction(request: Request, context: unknown, page?: FormPage) {
  const out = await answer(request, context, page);
  if (out instanceof Response) return out;
  if (isObject(context)) {
    context[ACTION_VIEW] = { url: request.url, cookie: request.headers.get('cookie'), view: out.view };
  }
  return data(out.view, { status: out.status, headers: out.headers });
}
