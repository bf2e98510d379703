/**
 * The claims a JWT-shaped value carries, read without verifying it: for what the host only reads from a
 * token (a cookie's expiry, a key's role) or reads after the backend has verified it.
 * @module
 */

/** The payload of `token` (its second dot-separated part) as a JSON object, or `null` when it is none. */
export function unverifiedClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
