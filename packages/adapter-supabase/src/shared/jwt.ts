/**
 * Reading a GoTrue access token's claims without verifying it: GoTrue verifies tokens (the adapter has no
 * JWT secret); this only reads `exp`, `aal`, `amr`, `session_id`, … of a token GoTrue issued or accepted.
 * @module
 */

const TOKEN = /^[\w-]+\.[\w-]+\.[\w-]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The claims of a JWT, unverified, or `null` when it is not one. */
export function claimsOf(token: string): Record<string, unknown> | null {
  if (!TOKEN.test(token)) return null;
  const body = token.split('.')[1] ?? '';
  try {
    const b64 = body.replace(/-/g, '+').replace(/_/g, '/');
    const payload: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))),
    );
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}
