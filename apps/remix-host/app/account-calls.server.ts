/**
 * What the account page's server endpoints share (`POST /account/second-factors`, `POST /account/passkeys`):
 * the gate every call passes (POST only, same origin, offered by this provider, a JSON body of bounded size
 * that reads as a call) and the answers (`no-store` JSON; a refusal as its catalogue code and message).
 * @module
 */
import { AuthError, type MessageKey, messageFor } from '@doorway/auth-core';
import { isTrustedOrigin } from './origin.server.ts';
import { forbidden } from './session.server.ts';

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
export const refusalOf = (error: unknown): Response =>
  refusal(error instanceof AuthError ? error.code : 'generic');

/** 401: the cookie is not a session that verifies. */
export const noSession = (): Response =>
  json(401, { code: 'session-expired', error: messageFor('session-expired') });

/** 503: the backend could not be asked. */
export const unreachable = (): Response =>
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
  /** Whether this host runs the operations on the server (404 otherwise). */
  offered: boolean;
  /** The trusted origins besides the request's own (`DOORWAY_ALLOWED_ORIGINS`). */
  allowedOrigins: readonly string[];
  /** The largest body taken. */
  maxBodyBytes: number;
  /** The call a parsed body asks for, or `null` (400). */
  read(body: unknown): C | null;
  /** What a 400 says. */
  notACall: string;
}

/**
 * The call a request makes, or the answer that refuses it: 405 for anything but POST, 403 cross-origin,
 * 404 where the host does not offer it, 400 for a body that is no call.
 */
export async function gateCall<C>(request: Request, gate: CallGate<C>): Promise<C | Response> {
  if (request.method !== 'POST') return json(405, { error: 'Method not allowed' }, { allow: 'POST' });
  if (!isTrustedOrigin(request, gate.allowedOrigins)) return forbidden();
  if (!gate.offered) return json(404, { error: 'Not available for this provider' });
  const call = gate.read(await readBody(request, gate.maxBodyBytes));
  return call ?? json(400, { error: gate.notACall });
}
