/**
 * `POST /account/browser-sign-in`: the browser's SDK signed in as the session's user, so the account page
 * can manage second factors after a sign-in made on the server (form) path, where the SDK has nobody.
 * Same-origin only (as every state-changing POST of the host), the session cookie required and verified
 * (revocation checked); the answer is a short-lived token for that uid only (Firebase: a firebase-admin
 * custom token), `no-store`, and never logged. It gives the page nothing its own cookie does not already
 * prove.
 * @module
 */
import { isTrustedOrigin } from './origin.server.ts';
import { forbidden, readSessionCookie, type SessionBackend } from './session.server.ts';

/** The path of the endpoint. */
export const BROWSER_SIGN_IN_PATH = '/account/browser-sign-in';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * 200 `{ token, uid }` for a verified session; 405 for anything but POST; 403 cross-origin; 401 without a
 * session that verifies; 404 where the provider has no browser sign-in token; 503 when it cannot mint one.
 */
export async function browserSignIn(
  request: Request,
  backend: SessionBackend,
  allowedOrigins: readonly string[],
  mint: ((uid: string) => Promise<string>) | null,
): Promise<Response> {
  if (request.method !== 'POST') return json(405, { error: 'Method not allowed' }, { allow: 'POST' });
  if (!isTrustedOrigin(request, allowedOrigins)) return forbidden();
  const session = await backend.verifySessionCookie(readSessionCookie(request), { checkRevoked: true });
  if (session === null) return json(401, { error: 'Not signed in' });
  if (mint === null) return json(404, { error: 'Not available for this provider' });
  try {
    return json(200, { token: await mint(session.uid), uid: session.uid });
  } catch {
    return json(503, { error: 'Try again later' });
  }
}
