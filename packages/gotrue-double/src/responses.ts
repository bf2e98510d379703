/**
 * How the double answers: JSON, redirects, and errors in GoTrue's shapes (the versioned `{ code, message }`
 * when the client sends `X-Supabase-Api-Version`, the legacy `{ code, error_code, msg }` otherwise, an
 * OAuth `{ error, error_description }` for some /token failures, and error redirects for browser routes).
 * @module
 */
import { HttpResponse } from 'msw';
import type { DoubleConfig } from './config.ts';
import { GoTrueDoubleError, OAuthDoubleError } from './errors.ts';

/** The API version of the error shape the double answers versioned requests with. */
const API_VERSION = '2024-01-01';

/** A JSON answer. */
export const json = (body: unknown, status = 200) =>
  HttpResponse.json(body as Record<string, unknown>, { status });

/** A redirect to `location`. */
export const redirect = (location: string, status = 302) =>
  new HttpResponse(null, { status, headers: { Location: location } });

/** The answer to an error thrown while handling `request` (anything but the double's errors is a 500). */
export function errorResponse(config: DoubleConfig, error: unknown, request: Request): Response {
  if (error instanceof OAuthDoubleError) {
    return HttpResponse.json({ error: error.error, error_description: error.message }, { status: 400 });
  }
  const e =
    error instanceof GoTrueDoubleError
      ? error
      : new GoTrueDoubleError(
          500,
          'unexpected_failure',
          'Unexpected failure, please check server logs for more information',
        );
  const versioned =
    config.apiVersioning && (request.headers.get('x-supabase-api-version') ?? '') >= API_VERSION;
  const weak = e.weakPassword ? { weak_password: { reasons: ['length'] } } : {};
  if (versioned) {
    return HttpResponse.json(
      { code: e.code, message: e.message, ...weak },
      { status: e.status, headers: { 'X-Supabase-Api-Version': API_VERSION } },
    );
  }
  return HttpResponse.json(
    { code: e.status, error_code: e.code, msg: e.message, ...weak },
    { status: e.status },
  );
}

/** The OAuth error name GoTrue puts in an error redirect for `error`. */
function oauthErrorName(error: GoTrueDoubleError): string {
  if (['signup_disabled', 'user_banned', 'provider_email_needs_verification'].includes(error.code))
    return 'access_denied';
  const byStatus: Record<number, string> = {
    400: 'invalid_request',
    401: 'unauthorized_client',
    403: 'access_denied',
    500: 'server_error',
  };
  return byStatus[error.status] ?? 'server_error';
}

/**
 * `base` with the error in its fragment (`sb` marks it as GoTrue's) and, in PKCE flows, in its query too
 * (else the query is kept as it was).
 */
export function redirectWithError(
  base: string,
  error: GoTrueDoubleError | OAuthDoubleError,
  pkce: boolean,
): string {
  const url = new URL(base);
  const q = pkce ? url.searchParams : new URLSearchParams(url.search);
  const h = new URLSearchParams();
  for (const p of [q, h]) {
    if (error instanceof OAuthDoubleError) {
      p.set('error', error.error);
    } else {
      p.set('error', oauthErrorName(error));
      p.set('error_code', error.code);
    }
    p.set('error_description', error.message);
  }
  h.set('sb', '');
  url.search = q.toString();
  url.hash = h.toString();
  return url.href;
}
