/**
 * Safe redirects: every continue URL and success URL passes through {@link safeRedirect}.
 * @module
 */

// Control characters, spaces, backslashes and line separators never appear in a URL we redirect to.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;

/**
 * Whether `url` may be redirected to: a same-origin path, or an absolute http(s) URL on one of
 * `allowedOrigins` (the first one is the page's own origin, the base for relative paths). Rejects
 * `javascript:`, `data:`, protocol-relative `//host`, backslash tricks, credentials in the URL and control
 * characters.
 */
export function isSafeRedirectUrl(url: string, allowedOrigins: readonly string[]): boolean {
  const base = allowedOrigins[0];
  if (typeof url !== 'string' || url === '' || url.length > 4096 || base === undefined) return false;
  if (FORBIDDEN.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const isAbsolute = /^[a-z][a-z0-9+.-]*:/i.test(url);
  // Absolute URLs must spell out "scheme://"; "https:host" means different things to different parsers.
  if (isAbsolute && !/^https?:\/\/[^/]/i.test(url)) return false;
  // A relative URL must be a plain path (or query/fragment); "//host" would leave the origin.
  if (!isAbsolute && (url.startsWith('//') || !/^[/?#]/.test(url))) return false;
  return allowedOrigins.some((o) => {
    try {
      return new URL(o).origin === parsed.origin;
    } catch {
      return false;
    }
  });
}

/**
 * Returns `url` as an absolute URL when it is safe (see {@link isSafeRedirectUrl}), otherwise `fallback`
 * checked the same way, otherwise `null`.
 * @example safeRedirect('//evil.example', ['https://app.example'], '/') // "https://app.example/"
 */
export function safeRedirect(
  url: string | null | undefined,
  allowedOrigins: readonly string[],
  fallback: string | null = null,
): string | null {
  const base = allowedOrigins[0];
  if (base === undefined) return null;
  if (typeof url === 'string' && isSafeRedirectUrl(url, allowedOrigins)) return new URL(url, base).href;
  if (fallback !== null && isSafeRedirectUrl(fallback, allowedOrigins)) return new URL(fallback, base).href;
  return null;
}
