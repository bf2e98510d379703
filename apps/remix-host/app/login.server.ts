/**
 * The sign-in page on the server: the form path of `@doorway/auth-core/server` wired to the host. A GET
 * renders the first card (or what an email link or `?signedOut=1` opens on); a POST of a card's form runs
 * the same engine with a server provider and renders the next card; a sign-in made there becomes the
 * host's session cookie, as `POST /session` does for the widget in the browser.
 * @module
 */
import { type FlowState, normalizeConfig } from '@doorway/auth-core';
import { createServerFlow, type ServerAuthProvider, type ServerFlow } from '@doorway/auth-core/server';
import type { HostConfig } from './config.server.ts';
import { isTrustedOrigin, safeTarget } from './origin.server.ts';
import { loginPage } from './pages.server.ts';
import { widgetConfigInput } from './public-config.ts';
import { forbidden, mintSession, type SessionBackend } from './session.server.ts';

/** What the sign-in page renders: the card the server got to, and the page's own data. */
export interface LoginView {
  /** The flow state the widget renders and hydrates from (never a password in it). */
  state: FlowState;
  /** Where sign-in leads (checked). */
  successUrl: string;
  /** The request's origin (the widget's base for the server render). */
  origin: string;
}

/** What the form path needs from the host, per request. */
export interface LoginDeps {
  config: HostConfig;
  /** The form path's provider for this request. */
  provider(request: Request): ServerAuthProvider;
  /** The session operations for this request. */
  sessions(): SessionBackend;
}

let shared: { secret: string; flow: ServerFlow } | null = null;

function serverFlow(secret: string): ServerFlow {
  if (shared?.secret !== secret) shared = { secret, flow: createServerFlow({ secret }) };
  return shared.flow;
}

const NO_STORE = 'no-store';

/**
 * Runs the sign-in page's form path for a request. Resolves the view to render with its `Set-Cookie`
 * and status, or a `Response` (303 after a sign-in or to a redirect the engine asked for; 403 for a
 * cross-origin POST, which changes nothing).
 */
export async function runLogin(
  request: Request,
  deps: LoginDeps,
): Promise<Response | { view: LoginView; status: number; headers: Headers }> {
  const { config } = deps;
  if (request.method === 'POST' && !isTrustedOrigin(request, config.allowedOrigins)) return forbidden();
  const page = loginPage(request, config);
  const widgetConfig = normalizeConfig(widgetConfigInput(config, page.successUrl), page.origin);
  const out = await serverFlow(config.flowSecret).handle(request, deps.provider(request), widgetConfig, {
    signOut: page.signedOut,
  });
  const headers = new Headers({ 'cache-control': NO_STORE });
  headers.append('set-cookie', out.setCookie);
  let state = out.state;
  if (out.signedIn !== null) {
    const minted = await mintSession(deps.sessions(), out.signedIn.sessionToken, new URL(request.url));
    if ('setCookie' in minted) {
      headers.append('set-cookie', minted.setCookie);
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
  return {
    view: { state, successUrl: page.successUrl, origin: page.origin },
    status: out.status,
    headers,
  };
}
