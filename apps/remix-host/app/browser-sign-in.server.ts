/**
 * `POST /account/browser-sign-in`: the browser's SDK signed in as the session's user, so the account page
 * can manage second factors and passkeys after a sign-in made on the server (form) path, where the SDK has
 * nobody. Same-origin only (as every state-changing POST of the host), the session cookie required and
 * verified (revocation checked); the answer is a short-lived token for that uid only (Firebase: a
 * firebase-admin custom token), `no-store`, and never logged.
 *
 * Only for a fresh sign-in (issue 24): a token is handed out only while the session's sign-in is within
 * {@link FRESH_SIGN_IN_SECONDS}, and it carries that sign-in's time ({@link SIGN_IN_TIME_CLAIM}), so the
 * SDK's sign-in with it counts as no fresher than the person's own. An older session gets 401
 * `requires-recent-login`: the account page asks to sign in again. A stolen cookie thus buys no sign-in
 * that passes a recent-login check (changing the email, the password, a second factor, adding a passkey),
 * and no new session (`POST /session` refuses the old sign-in's token). Each token handed out writes one
 * audit line (uid, client address, time).
 * @module
 */
import { messageFor } from '@doorway/auth-core';
import { isTrustedOrigin } from './origin.server.ts';
import {
  type Audit,
  auditLine,
  auditOf,
  FRESH_SIGN_IN_SECONDS,
  forbidden,
  isFreshSignIn,
  readSessionCookie,
  type SessionBackend,
  SIGN_IN_TIME_CLAIM,
  signInTimeOf,
} from './session.server.ts';

export { FRESH_SIGN_IN_SECONDS };

/** The path of the endpoint. */
export const BROWSER_SIGN_IN_PATH = '/account/browser-sign-in';

/** Mints the browser's token for `uid`, with `claims` in it (Firebase: a custom token's developer claims). */
export type MintBrowserToken = (uid: string, claims: Record<string, number>) => Promise<string>;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * 200 `{ token, uid }` for a verified session signed in within {@link FRESH_SIGN_IN_SECONDS}; 405 for
 * anything but POST; 403 cross-origin; 401 without a session that verifies, and 401
 * `{ code: 'requires-recent-login' }` for an older sign-in; 404 where the provider has no browser sign-in
 * token; 503 when it cannot mint one.
 */
export async function browserSignIn(
  request: Request,
  backend: SessionBackend,
  allowedOrigins: readonly string[],
  mint: MintBrowserToken | null,
  audit: Audit = auditOf(),
): Promise<Response> {
  if (request.method !== 'POST') return json(405, { error: 'Method not allowed' }, { allow: 'POST' });
  if (!isTrustedOrigin(request, allowedOrigins)) return forbidden();
  const cookie = readSessionCookie(request);
  const session = await backend.verifySessionCookie(cookie, { checkRevoked: true });
  if (session === null || cookie === null) return json(401, { error: 'Not signed in' });
  if (mint === null) return json(404, { error: 'Not available for this provider' });
  const signedInAt = signInTimeOf(session, cookie);
  if (!isFreshSignIn(signedInAt, audit.now())) {
    return json(401, { code: 'requires-recent-login', error: messageFor('requires-recent-login') });
  }
  let token: string;
  try {
    token = await mint(session.uid, { [SIGN_IN_TIME_CLAIM]: Math.floor(signedInAt / 1000) });
  } catch {
    return json(503, { error: 'Try again later' });
  }
  audit.write(auditLine('browser-sign-in', session.uid, audit.clientAddress, audit.now()));
  return json(200, { token, uid: session.uid });
}
