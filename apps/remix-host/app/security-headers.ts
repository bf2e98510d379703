/** Response headers of every HTML page: no framing (clickjacking on a sign-in page), no sniffing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * Extra headers of the action pages: their URL carries a one-time code, so no caching, and no Referer
 * to other origins (`same-origin` rather than `no-referrer`: the latter would also blank the `Origin` of
 * the page's own form posts, which the server checks).
 */
export const ACTION_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-robots-tag': 'noindex',
};
