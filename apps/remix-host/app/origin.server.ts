/**
 * Which origins the host trusts, and the origin check of its state-changing POSTs (login CSRF and
 * sign-out CSRF protection on top of SameSite=Lax cookies).
 * @module
 */
import { safeRedirectTarget } from '@doorway/auth-core';

/**
 * The origins of a request the host trusts: the request's own origin first (the base for relative
 * URLs), then the configured `DOORWAY_ALLOWED_ORIGINS`.
 */
export function trustedOrigins(request: Request, allowedOrigins: readonly string[]): string[] {
  const own = new URL(request.url).origin;
  return [own, ...allowedOrigins.filter((o) => o !== own)];
}

/**
 * Whether a state-changing request comes from a trusted page. Browsers send `Origin` on every POST
 * (fetch and forms, JavaScript on or off); a request without one passes only when the browser marks it
 * `Sec-Fetch-Site: same-origin`. `Origin: null` (sandboxed frames, privacy redirects) never passes.
 */
export function isTrustedOrigin(request: Request, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return request.headers.get('sec-fetch-site') === 'same-origin';
  return trustedOrigins(request, allowedOrigins).includes(origin);
}

/**
 * A redirect target for this request, as it may be written in `href`, `Location` or page data:
 * {@link safeRedirectTarget} over the request's trusted origins (a same-origin result as a path that never
 * starts with `//` or `/\\`), else `fallback` checked the same way, else `null`.
 */
export function safeTarget(
  url: string | null | undefined,
  request: Request,
  allowedOrigins: readonly string[],
  fallback: string | null = null,
): string | null {
  return safeRedirectTarget(url, trustedOrigins(request, allowedOrigins), fallback);
}
