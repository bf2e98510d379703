/**
 * Which origins the host trusts, and the origin check of its state-changing POSTs (login CSRF and
 * sign-out CSRF protection on top of SameSite=Lax cookies).
 * @module
 */

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
  return requestOrigins(request, allowedOrigins).fromTrustedPage;
}

/**
 * What a page that takes POSTs needs of a request's origins, worked out once: the origins it trusts
 * ({@link trustedOrigins}, for redirect targets: `safeRedirectTarget(url, trusted, fallback)`) and whether the request comes from one of them
 * ({@link isTrustedOrigin}).
 */
export function requestOrigins(
  request: Request,
  allowedOrigins: readonly string[],
): { trusted: string[]; fromTrustedPage: boolean } {
  const trusted = trustedOrigins(request, allowedOrigins);
  const origin = request.headers.get('origin');
  const fromTrustedPage =
    origin === null ? request.headers.get('sec-fetch-site') === 'same-origin' : trusted.includes(origin);
  return { trusted, fromTrustedPage };
}
