/**
 * Page data of the login route, from the request: where sign-in leads (only ever a safe URL) and whether
 * the visitor has just signed out.
 * @module
 */
import type { HostConfig } from './config.server.ts';
import { safeTarget } from './origin.server.ts';

/** What the login page renders from. */
export interface LoginPage {
  /** The page's `signInSuccessUrl` when `safeRedirect` accepts it, else `DOORWAY_SUCCESS_URL`. */
  successUrl: string;
  /** `?signedOut=1`: sign the browser's SDK out too and show the sign-out card. */
  signedOut: boolean;
  /** The request's origin (the widget's base for the server render). */
  origin: string;
}

/** The login page for a request. The success URL never leaves the trusted origins. */
export function loginPage(
  request: Request,
  config: Pick<HostConfig, 'successUrl' | 'allowedOrigins'>,
): LoginPage {
  const url = new URL(request.url);
  const asked = url.searchParams.get('signInSuccessUrl');
  return {
    successUrl: safeTarget(asked, request, config.allowedOrigins, config.successUrl) ?? '/',
    signedOut: url.searchParams.get('signedOut') === '1',
    origin: url.origin,
  };
}
