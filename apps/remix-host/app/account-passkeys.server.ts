/**
 * `POST /account/passkeys`: the account page's passkeys run on the server, for a backend whose browser SDK
 * cannot take the host's session over. On Supabase the session is an access token alone (supabase-js needs
 * the refresh token too, which the host never keeps), so the browser's card sends each operation here and
 * the adapter's server (GoTrue REST) runs it with the session's token. Adding a passkey is two calls around
 * the browser's own WebAuthn dialog: `startAdd` answers GoTrue's challenge and creation options, the browser's
 * authenticator makes the credential, `finishAdd` has GoTrue verify it (and names it). Signing in with a
 * passkey is the widget's, in the browser.
 *
 * Same-origin JSON only (as every state-changing POST of the host), the session cookie required and
 * verified; the credential is read field by field, each bounded; answers are `no-store`; nothing here logs
 * (credentials and tokens never reach a log). The session's token does not change, except that removing a
 * passkey ends every session of the user, this one included (issue 24: whoever signed in with it, or holds
 * a session stolen with it, must sign in again).
 * @module
 */
import type { PasskeyInfo, WebAuthnCreationOptionsJSON, WebAuthnRegistrationJSON } from '@doorway/auth-core';
import type { SessionBackend } from '@doorway/auth-core/server';
import { json, type OpenSession, runAccountCall } from './account-calls.server.ts';

export { ACCOUNT_PASSKEYS_PATH } from './public-config.ts';

/** The passkeys of one session's user, on the server (`SupabaseServer.accountPasskeys`). */
export interface AccountPasskeys {
  list(): Promise<PasskeyInfo[]>;
  startAdd(): Promise<{ challengeId: string; options: WebAuthnCreationOptionsJSON }>;
  finishAdd(challengeId: string, credential: WebAuthnRegistrationJSON, name?: string): Promise<PasskeyInfo>;
  remove(id: string): Promise<void>;
}

/** Opens the passkeys of a cookie's session, or `null` when the cookie is not a session. */
export type OpenPasskeys = OpenSession<AccountPasskeys>;

/** One call: an operation of the account card's passkeys, and its arguments. */
export type AccountPasskeysCall =
  | { op: 'list' }
  | { op: 'startAdd' }
  | { op: 'finishAdd'; challengeId: string; credential: WebAuthnRegistrationJSON; name?: string }
  | { op: 'remove'; id: string };

/** The longest body: a credential with its attestation (a few KB), and room to spare. */
export const MAX_BODY_BYTES = 32 * 1024;
/** The longest passkey name the account card may give. */
export const MAX_NAME_LENGTH = 64;
const ID = /^[\w.:-]{1,200}$/;
const B64URL = /^[\w-]*={0,2}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A base64url string of at most `max` characters. */
const b64 = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max && B64URL.test(value);

/** The credential's response, its known fields only, or `null`. */
function readResponse(value: unknown): WebAuthnRegistrationJSON['response'] | null {
  if (!isRecord(value)) return null;
  const { clientDataJSON, attestationObject, authenticatorData, transports, publicKeyAlgorithm, publicKey } =
    value;
  if (!(b64(clientDataJSON, 4096) && b64(attestationObject, 16384))) return null;
  const response: WebAuthnRegistrationJSON['response'] = { clientDataJSON, attestationObject };
  if (authenticatorData !== undefined) {
    if (!b64(authenticatorData, 16384)) return null;
    response.authenticatorData = authenticatorData;
  }
  if (transports !== undefined) {
    const ok = Array.isArray(transports) && transports.length <= 8;
    if (!(ok && transports.every((t) => typeof t === 'string' && /^[a-z-]{1,20}$/.test(t)))) return null;
    response.transports = transports as string[];
  }
  if (publicKeyAlgorithm !== undefined) {
    if (!Number.isInteger(publicKeyAlgorithm)) return null;
    response.publicKeyAlgorithm = publicKeyAlgorithm as number;
  }
  if (publicKey !== undefined) {
    if (!b64(publicKey, 4096)) return null;
    response.publicKey = publicKey;
  }
  return response;
}

/** The browser's new credential (`RegistrationResponseJSON`), its known fields only, or `null`. */
export function readCredential(value: unknown): WebAuthnRegistrationJSON | null {
  if (!isRecord(value)) return null;
  const { id, rawId, type, authenticatorAttachment, clientExtensionResults } = value;
  if (!(b64(id, 1024) && b64(rawId, 1024) && type === 'public-key')) return null;
  const response = readResponse(value.response);
  if (response === null) return null;
  if (clientExtensionResults !== undefined && !isRecord(clientExtensionResults)) return null;
  if (authenticatorAttachment !== undefined && authenticatorAttachment !== 'platform') {
    if (authenticatorAttachment !== 'cross-platform') return null;
  }
  return {
    id,
    rawId,
    type,
    response,
    ...(authenticatorAttachment === undefined ? {} : { authenticatorAttachment }),
    clientExtensionResults: clientExtensionResults ?? {},
  };
}

/** The optional name of `finishAdd`: absent, or a string of at most {@link MAX_NAME_LENGTH} characters. */
function readName(value: unknown): { ok: boolean; name?: string } {
  if (value === undefined || value === null) return { ok: true };
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH) return { ok: false };
  const name = value.trim();
  return name === '' ? { ok: true } : { ok: true, name };
}

/** The call a body asks for, or `null` when it is not one (unknown op, missing or oversized arguments). */
export function readCall(body: unknown): AccountPasskeysCall | null {
  if (!isRecord(body)) return null;
  switch (body.op) {
    case 'list':
    case 'startAdd':
      return { op: body.op };
    case 'finishAdd': {
      const { challengeId } = body;
      if (!(typeof challengeId === 'string' && ID.test(challengeId))) return null;
      const credential = readCredential(body.credential);
      const { ok, name } = readName(body.name);
      if (credential === null || !ok) return null;
      return { op: 'finishAdd', challengeId, credential, ...(name === undefined ? {} : { name }) };
    }
    case 'remove':
      return typeof body.id === 'string' && ID.test(body.id) ? { op: 'remove', id: body.id } : null;
    default:
      return null;
  }
}

/** Runs one call on the session's passkeys; its value is JSON-safe. */
async function run(passkeys: AccountPasskeys, call: AccountPasskeysCall): Promise<unknown> {
  switch (call.op) {
    case 'list':
      return passkeys.list();
    case 'startAdd':
      return passkeys.startAdd();
    case 'finishAdd':
      return passkeys.finishAdd(call.challengeId, call.credential, call.name);
    case 'remove':
      await passkeys.remove(call.id);
      return null;
  }
}

/**
 * 200 `{ value }` for a call done; 422 `{ code, error }` for a refusal in the catalogue (`passkey-invalid`,
 * `session-expired` for a challenge used or expired, `credential-already-in-use`…); 400 for a body that is
 * no call; 401 without a session that verifies; 403 cross-origin; 404 where the host does not run passkeys
 * on the server; 405 for anything but POST; 503 when the backend cannot be asked. After a removal the
 * user's sessions are revoked with `sessions` (the request's session operations), when given.
 */
export async function accountPasskeys(
  request: Request,
  allowedOrigins: readonly string[],
  open: OpenPasskeys | null,
  sessions: SessionBackend | null = null,
): Promise<Response> {
  let removed = false;
  const done = await runAccountCall(
    request,
    { allowedOrigins, maxBodyBytes: MAX_BODY_BYTES, read: readCall, notACall: 'Not a passkey operation' },
    open,
    async (passkeys: AccountPasskeys, call: AccountPasskeysCall) => {
      const value = await run(passkeys, call);
      removed = call.op === 'remove';
      return value;
    },
  );
  if (done instanceof Response) return done;
  if (removed && sessions !== null) {
    // The passkey is gone either way; a failed revocation only leaves the sessions to their own expiry.
    const user = await sessions.verifySessionCookie(done.cookie).catch(() => null);
    if (user !== null) await sessions.revokeSessions(user.uid).catch(() => undefined);
  }
  return json(200, { value: done.value });
}
