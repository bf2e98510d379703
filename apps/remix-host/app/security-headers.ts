/** What every page's Content-Security-Policy forbids: plugins, `<base>` rewrites, being framed. */
const CSP_BASE = "object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The Content-Security-Policy of a rendered document: scripts only when they carry this response's
 * `nonce` (Remix's own) or are loaded by one that does (`'strict-dynamic'`: the route and SDK chunks, the
 * reCAPTCHA script the Firebase SDK adds). An injected `<script>` or inline handler does not run. `'self'`
 * is for browsers without `'strict-dynamic'` (those with it ignore it).
 */
export function documentCsp(nonce: string): string {
  return `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'; ${CSP_BASE}`;
}

/**
 * Response headers of every HTML page: no framing (clickjacking on a sign-in page), no sniffing, and no
 * scripts at all unless the page says otherwise: every rendered document replaces this CSP with
 * {@link documentCsp} (a page served without scripts, like the action route's cards, carries none).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': `script-src 'none'; ${CSP_BASE}`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * Extra headers of the action pages (`/action`: its cards, their form posts' answers and redirects): their
 * URL carries a one-time code, so no caching, and no Referer to other origins (`same-origin` rather than
 * `no-referrer`: the latter would also blank the `Origin` of the page's own form posts, which the server
 * checks).
 */
export const ACTION_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex',
};
