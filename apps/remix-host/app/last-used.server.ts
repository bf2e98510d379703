/**
 * The "Last used" mark on the server: a cookie that keeps the sign-in option this browser last signed in
 * with (`email`, `phone`, `google.com`, …), so that `/login` renders the chooser with that option marked,
 * with or without JavaScript. It holds the option's id only, never who signed in; sign-out leaves it, since
 * the chooser after sign-out is where it helps. A value that is not an option id is ignored.
 * @module
 */
import { methodOf } from '@doorway/auth-core';

/** The cookie's name. */
export const LAST_USED_COOKIE = 'doorway_last_used';
/** How long it is kept: 400 days, the longest a browser keeps a cookie. */
export const LAST_USED_MAX_AGE_SECONDS = 400 * 24 * 3600;
/** The longest option id kept (a configured OIDC or SAML provider's id included). */
export const MAX_OPTION_ID_LENGTH = 128;

// The provider ids a widget config accepts (auth-core's config).
const OPTION_ID = /^[a-z0-9][a-z0-9.:_-]*$/i;

/** Whether a value is a sign-in option's id the cookie may hold. */
export function isOptionId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_OPTION_ID_LENGTH && OPTION_ID.test(value);
}

/**
 * The `Set-Cookie` value that keeps the option of a sign-in: `method` is the option id or the sign-in's
 * provider id (`password` and `emailLink` are the `email` option). `null` for anything else: nothing is set.
 * `secure`: where the session cookie is `Secure` (`needsSecureCookie`), this one is too.
 */
export function lastUsedCookieHeader(method: unknown, secure: boolean): string | null {
  const id = typeof method === 'string' ? methodOf(method) : null;
  if (!isOptionId(id)) return null;
  const attributes = `Max-Age=${LAST_USED_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return `${LAST_USED_COOKIE}=${id}; ${attributes}`;
}

/** The option id the request's cookie keeps, or `null` when it has none that is an option id. */
export function readLastUsed(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== LAST_USED_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (isOptionId(value)) return value;
  }
  return null;
}
