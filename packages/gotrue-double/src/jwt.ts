/**
 * HS256 JWTs for the double's access tokens and its fake IdP's ID tokens. The secrets are fixed and public:
 * nothing the double signs is worth anything outside a test.
 * @module
 */
import { fromBase64Url, hmacSha256, toBase64Url } from './hash.ts';
import { isObject } from './util.ts';

/** The secret of the double's access tokens and anon key. */
export const JWT_SECRET = 'gotrue-double-jwt-secret-not-a-real-secret-0123456789';
/** The secret of the fake IdP's ID tokens. */
export const IDP_SECRET = 'gotrue-double-idp-secret';
/** The OAuth client the double is at its fake IdP. */
export const IDP_CLIENT_ID = 'gotrue-double-client';

/** A JWT of `payload` signed with HS256. */
export function signJwt(payload: Record<string, unknown>, secret: string): string {
  const head = toBase64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = toBase64Url(JSON.stringify(payload));
  const sig = toBase64Url(hmacSha256(secret, `${head}.${body}`));
  return `${head}.${body}.${sig}`;
}

/** The claims of an HS256 JWT signed with `secret`, or `null` (malformed or another signature). */
export function verifyJwt(token: string, secret: string): Record<string, unknown> | null {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return null;
  const expected = toBase64Url(hmacSha256(secret, `${head}.${body}`));
  if (expected !== sig) return null;
  try {
    const payload: unknown = JSON.parse(fromBase64Url(body));
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}
