/**
 * Safe redirects: every continue URL and success URL passes through {@link safeRedirect}.
 * @module
 */

// Control characters, spaces, backslashes and line separators never appear in a URL we redirect to.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const FORBIDDEN = /[\u0000-\u0020\u007f-\u009f\u2028\u2029\\]/;

/** Percent-decodes `text` until it stops changing (at most 4 rounds), or `null` when it is malformed. */
function decodeFully(text: string): string | null {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/**
 * Whether a resolved URL's path stays a path when written on its own: a path that starts with `//` or `/\`
 * (after percent-decoding) would be read as another host by a browser, a proxy or a later parser.
 */
function isPlainPath(pathname: string): boolean {
  const decoded = decodeFully(pathname);
  return decoded !== null && !/^\/[/\\]/.test(decoded) && !FORBIDDEN.test(decoded.replace(/ /g, ''));
}

/**
 * Whether `url` may be redirected to: a same-origin path, or an absolute http(s) URL on one of
 * `allowedOrigins` (the first one is the page's own origin, the base for relative paths). Rejects
 * `javascript:`, `data:`, protocol-relative `//host`, backslash tricks, credentials in the URL and control
 * characters. The rule is applied to the *resolved* URL too (dot segments removed, percent-escapes
 * decoded): `/..//evil.example` resolves to the path `//evil.example`, which is refused, so the path of a
 * safe URL can always be written alone (`href`, `Location`) without leaving the origin.
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
  if (!isPlainPath(parsed.pathname)) return false;
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

/**
 * What to write in an `href`, a `Location` header or page data for `url`: {@link safeRedirect}'s result
 * as a path (`/account?x=1`) when it is on the first origin, so it stays valid behind a proxy that
 * rewrites the host, or as an absolute URL on another allowed origin; otherwise `fallback` the same way,
 * otherwise `null`. The path it returns never starts with `//` or `/\`.
 * @example safeRedirectTarget('/..//evil.example', ['https://app.example'], '/') // "/"
 */
export function safeRedirectTarget(
  url: string | null | undefined,
  allowedOrigins: readonly string[],
  fallback: string | null = null,
): string | null {
  const safe = safeRedirect(url, allowedOrigins, fallback);
  if (safe === null) return null;
  const target = new URL(safe);
  const own = new URL(allowedOrigins[0] as string).origin;
  return target.origin === own ? target.href.slice(target.origin.length) : target.href;
}
