/**
 * The sign-in page on the server: the form path of `@doorway/auth-core/server` wired to the host. A GET
 * renders the first card (or what an email link or `?signedOut=1` opens on); a POST of a card's form runs
 * the same engine with a server provider and renders the next card; a sign-in made there becomes the
 * host's session cookie, as `POST /session` does for the widget in the browser, and its option the "Last
 * used" cookie, which every card rendered here passes on to the chooser.
 * @module
 */
import { type FlowState, normalizeConfig } from '@doorway/auth-core';
import { createServerFlow, type ServerAuthProvider, type ServerFlow } from '@doorway/auth-core/server';
import type { HostConfig } from './config.server.ts';
import { lastUsedCookieHeader, readLastUsed } from './last-used.server.ts';
import { isTrustedOrigin, safeTarget } from './origin.server.ts';
import { loginPage } from './pages.server.ts';
import { widgetConfigInput } from './public-config.ts';
import { forbidden, mintSession, needsSecureCookie, type SessionBackend } from './session.server.ts';
import { type RequestThrottle, retryAfterHeaders, throttledProvider } from './throttle.server.ts';

/** What the sign-in page renders: the card the server got to, and the page's own data. */
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
 * What a page of the form path adds to it, besides the login page's wiring (the action route's, in
 * `action.server.ts`): each hook sees the request.
 */
export interface FormPage {
  /** The provider as this page runs the flow on it (default: the request's form provider as is). */
  provider?(provider: ServerAuthProvider, request: Request): ServerAuthProvider;
  /** What the page renders of the card the flow got to, and its status (default: as they are). */
  view?(view: LoginView, status: number, request: Request): { view: LoginView; status: number };
  /** Headers of each of the page's answers: the rendered card, a redirect, a refusal. */
  headers?: Readonly<Record<string, string>>;
}

/** What the form path needs from the host, per request. */
export interface LoginDeps {
  config: HostConfig;
  /** The form path's provider for this request. */
  provider(request: Request): ServerAuthProvider;
  /** The session operations for this request. */
  sessions(): SessionBackend;
  /** The page the flow runs on, when it is not the login page. */
  page?: FormPage;
  /**
   * The request's throttle (its client address): every secret checked and message sent asks it first,
   * and the card of a request it refused answers 429 with `Retry-After`. Absent: nothing is throttled.
   */
  throttle?: RequestThrottle;
}

let shared: { secrets: readonly string[]; flow: ServerFlow } | null = null;

/**
 * The form path's runner for these secrets (the first seals, all open), made once. It keeps, besides the
 * engine's own query parameters, the two a Supabase sign-in link of the default email templates carries.
 */
function serverFlow(secrets: readonly [string, ...string[]]): ServerFlow {
  const same = shared?.secrets.length === secrets.length && secrets.every((s, i) => shared?.secrets[i] === s);
  if (!same || shared === null) {
    shared = { secrets, flow: createServerFlow({ secret: secrets, pageParams: ['token_hash', 'type'] }) };
  }
  return shared.flow;
}

const NO_STORE = 'no-store';

function withHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
  return response;
}

/**
 * Runs the sign-in page's form path for a request (or another page's, `deps.page`). Resolves the view to
 * render with its `Set-Cookie` and status, or a `Response` (303 after a sign-in or to a redirect the
 * engine asked for; 403 for a cross-origin POST, which changes nothing).
 */
export async function runLogin(
  request: Request,
  deps: LoginDeps,
): Promise<Response | { view: LoginView; status: number; headers: Headers }> {
  const { config } = deps;
  const extra = deps.page?.headers ?? {};
  if (request.method === 'POST' && !isTrustedOrigin(request, config.allowedOrigins)) {
    return withHeaders(forbidden(), extra);
  }
  const page = loginPage(request, config);
  const widgetConfig = normalizeConfig(widgetConfigInput(config, page.successUrl), page.origin);
  const base = deps.provider(request);
  const paged = deps.page?.provider ? deps.page.provider(base, request) : base;
  const provider = deps.throttle ? throttledProvider(paged, deps.throttle) : paged;
  const out = await serverFlow(config.flowSecret).handle(request, provider, widgetConfig, {
    signOut: page.signedOut,
  });
  const headers = new Headers({ 'cache-control': NO_STORE, ...extra });
  headers.append('set-cookie', out.setCookie);
  let state = out.state;
  if (out.signedIn !== null) {
    const url = new URL(request.url);
    const minted = await mintSession(deps.sessions(), out.signedIn.sessionToken, url);
    if ('setCookie' in minted) {
      headers.append('set-cookie', minted.setCookie);
      const lastUsed = lastUsedCookieHeader(out.signedIn.result.providerId, needsSecureCookie(url));
      if (lastUsed !== null) headers.append('set-cookie', lastUsed);
      const to = safeTarget(out.signedIn.redirectUrl, request, config.allowedOrigins, page.successUrl);
      headers.set('location', to ?? '/');
      return new Response(null, { status: 303, headers });
    }
    // Signed in with the provider, but no session here: say so on the card; nothing is half-signed-in.
    state = { ...state, card: 'recoverableError', message: minted.error, retry: null } as FlowState;
  } else if (out.redirect !== null) {
    headers.set('location', safeTarget(out.redirect, request, config.allowedOrigins, '/') ?? '/');
    return new Response(null, { status: 303, headers });
  }
  const view: LoginView = {
    state,
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
