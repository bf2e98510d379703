/**
 * What the account page's server endpoints share (`POST /account/second-factors`, `POST /account/passkeys`):
 * the gate every call passes (POST only, same origin, offered by this provider, a JSON body of bounded size
 * that reads as a call) and the answers (`no-store` JSON; a refusal as its catalogue code and message).
 * @module
 */
import { AuthError, type MessageKey, messageFor } from '@doorway/auth-core';
import { isTrustedOrigin } from './origin.server.ts';
import { forbidden, readSessionCookie } from './session.server.ts';

/** A `no-store` JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** A refusal in the catalogue: the caller's mistake (422), or the backend's trouble (503). */
export function refusal(code: MessageKey): Response {
  const status = code === 'network-request-failed' || code === 'generic' ? 503 : 422;
  return json(status, { code, error: messageFor(code) });
}

/** The refusal of an error a provider threw (`generic` for anything but an `AuthError`). */
const refusalOf = (error: unknown): Response => refusal(error instanceof AuthError ? error.code : 'generic');

/** 401: the cookie is not a session that verifies. */
const noSession = (): Response =>
  json(401, { code: 'session-expired', error: messageFor('session-expired') });

/** 503: the backend could not be asked. */
const unreachable = (): Response =>
  json(503, { code: 'network-request-failed', error: messageFor('network-request-failed') });

/** A JSON body of at most `maxBytes`, parsed; `null` for anything else. */
async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) return null;
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return null;
  const body = await request.text();
  if (body.length > maxBytes) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

/** How an endpoint reads its calls. */
export interface CallGate<C> {
  /** The trusted origins besides the request's own (`DOORWAY_ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
  /** The largest body taken. */
  maxBodyBytes: number;
  /** The call a parsed body asks for, or `null` (400). */
  read(body: unknown): C | null;
  /** What a 400 says. */
  notACall: string;
}

/** Opens what a session cookie's user may change (`null`: the cookie is not a session). */
export type OpenSession<S> = (cookie: string | null) => Promise<S | null>;

/** A call run: the session cookie it came with, what it ran on, and what it answered. */
export interface CallDone<S> {
  cookie: string | null;
  subject: S;
  value: unknown;
}

/**
 * Runs one call of a request on its session: what it answered, or the answer that refuses it — 405 for
 * anything but POST, 403 cross-origin, 404 where the host does not offer it (`open` is `null`), 400 for a
 * body that is no call, 503 when the backend cannot be asked, 401 without a session that verifies, and a
 * refusal in the catalogue (422, or 503 for the backend's trouble).
 */
export async function runAccountCall<C, S>(
  request: Request,
  gate: CallGate<C>,
  open: OpenSession<S> | null,
  run: (subject: S, call: C) => Promise<unknown>,
): Promise<CallDone<S> | Response> {
  if (request.method !== 'POST') return json(405, { error: 'Method not allowed' }, { allow: 'POST' });
  if (!isTrustedOrigin(request, gate.allowedOrigins)) return forbidden();
  if (open === null) return json(404, { error: 'Not available for this provider' });
  const call = gate.read(await readBody(request, gate.maxBodyBytes));
  if (call === null) return json(400, { error: gate.notACall });
  const cookie = readSessionCookie(request);
  let subject: S | null;
  try {
    subject = await open(cookie);
  } catch {
    return unreachable();
  }
  if (subject === null) return noSession();
  try {
    return { cookie, subject, value: await run(subject, call) };
  } catch (error) {
    return refusalOf(error);
  }
}
