/**
 * `POST /account/second-factors`: the account page's second factors run on the server, on the session's
 * own provider, for a backend whose browser SDK cannot take the host's session over. On Supabase the
 * session is an access token alone; supabase-js needs the refresh token as well, which the host never
 * keeps, so the browser's card sends each operation here and the server's provider (GoTrue REST) runs it
 * with the session's token. Authenticator apps only: texting a code needs the browser's captcha.
 *
 * Same-origin JSON only (as every state-changing POST of the host), the session cookie required and
 * verified; a new factor moves the session to a new (aal2) token, which is stored at once, so the old aal1
 * token, no longer a session, is never left in the cookie. Secrets and codes are never logged.
 * @module
 */
import { AuthError, messageFor } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { json, type OpenSession, runAccountCall } from './account-calls.server.ts';
import { mintSession, type SessionBackend } from './session.server.ts';

export { ACCOUNT_FACTORS_PATH } from './public-config.ts';

/** Opens the session of a cookie as a provider, or `null` when the cookie is not a session. */
export type OpenAccount = OpenSession<ServerAuthProvider>;

/** One call: an operation of `SecondFactorOperations` the account card uses, and its arguments. */
export type AccountFactorsCall =
  | { op: 'list' }
  | { op: 'startTotpEnrollment' }
  | { op: 'finishTotpEnrollment'; enrollmentId: string; code: string; displayName?: string }
  | { op: 'unenroll'; factorUid: string };

const MAX_BODY_BYTES = 4 * 1024;
const ID = /^[\w.:-]{1,200}$/;

const text = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;

/** The call a body asks for, or `null` when it is not one (unknown op, missing or oversized arguments). */
export function readCall(body: unknown): AccountFactorsCall | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  switch (b.op) {
    case 'list':
    case 'startTotpEnrollment':
      return { op: b.op };
    case 'finishTotpEnrollment': {
      const { enrollmentId, code, displayName } = b;
      if (!(text(enrollmentId, 200) && ID.test(enrollmentId) && text(code, 32))) return null;
      if (displayName !== undefined && !text(displayName, 100)) return null;
      return { op: b.op, enrollmentId, code, ...(displayName === undefined ? {} : { displayName }) };
    }
    case 'unenroll':
      return text(b.factorUid, 200) && ID.test(b.factorUid) ? { op: b.op, factorUid: b.factorUid } : null;
    default:
      return null;
  }
}

/** Runs one call on the session's provider; its value is JSON-safe. */
async function run(provider: ServerAuthProvider, call: AccountFactorsCall): Promise<unknown> {
  const ops = provider.secondFactors;
  if (ops === undefined) throw new AuthError('operation-not-allowed');
  switch (call.op) {
    case 'list':
      return ops.list();
    case 'startTotpEnrollment':
      return ops.startTotpEnrollment();
    case 'finishTotpEnrollment':
      return ops.finishTotpEnrollment(call.enrollmentId, call.code, call.displayName);
    case 'unenroll':
      await ops.unenroll(call.factorUid);
      return null;
  }
}

/**
 * 200 `{ value }` for a call done (with `Set-Cookie` when the session's token changed); 422 `{ code, error }`
 * for a refusal in the catalogue (wrong code, `requires-recent-login`…); 400 for a body that is no call;
 * 401 without a session that verifies; 403 cross-origin; 404 where the host does not run factors on the
 * server; 405 for anything but POST; 503 when the backend cannot be asked.
 */
export async function accountFactors(
  request: Request,
  backend: SessionBackend,
  allowedOrigins: readonly string[],
  open: OpenAccount | null,
): Promise<Response> {
  const done = await runAccountCall(
    request,
    {
      allowedOrigins,
      maxBodyBytes: MAX_BODY_BYTES,
      read: readCall,
      notACall: 'Not a second-factor operation',
    },
    open,
    run,
  );
  if (done instanceof Response) return done;
  const { cookie, subject: provider, value } = done;
  const token = provider.sessionToken();
  if (token === null || token === cookie) return json(200, { value });
  const minted = await mintSession(backend, token, new URL(request.url));
  if (!('setCookie' in minted))
    return json(minted.status, { code: minted.error, error: messageFor(minted.error) });
  return json(200, { value }, { 'set-cookie': minted.setCookie });
}
