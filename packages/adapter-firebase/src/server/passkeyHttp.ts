/**
 * The HTTP side of the passkey server: refusals as catalogue codes, JSON answers, the bearer ID token
 * verified with firebase-admin, and request bodies read with a size cap. Nothing here logs: refusals
 * carry a code only, never a token, an assertion or a key.
 * @module
 */
import { AuthError, type ErrorCode } from '@doorway/auth-core';
import type { Auth as AdminAuth, UserRecord } from 'firebase-admin/auth';
import { firebaseCode } from '../shared/errors.ts';
import type { PasskeyErrorBody } from '../shared/passkeyWire.ts';

/** What the passkey server needs of firebase-admin: an `Auth`, or a tenant's `TenantAwareAuth`. */
export type PasskeyAdminAuth = Pick<
  AdminAuth,
  'verifyIdToken' | 'getUser' | 'setCustomUserClaims' | 'createCustomToken' | 'revokeRefreshTokens'
>;

/** A request the passkey server refuses, with a catalogue code. */
export class PasskeyRefusal extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode) {
    super(code);
    this.name = 'PasskeyRefusal';
    this.code = code;
  }
}

/** Refuses with `code`. */
export function refuse(code: ErrorCode): never {
  throw new PasskeyRefusal(code);
}

const STATUS: Partial<Record<ErrorCode, number>> = {
  'requires-recent-login': 401,
  'user-disabled': 403,
  'passkey-not-found': 404,
  'credential-already-in-use': 409,
  'operation-not-allowed': 409,
  'passkey-limit': 409,
  'passkey-invalid': 400,
  'session-expired': 400,
  'too-many-requests': 429,
  // A shared challenge store that cannot answer (e.g. Redis down): the service, not the request, failed.
  'network-request-failed': 503,
};

const NO_STORE = { 'cache-control': 'no-store' };

/** A JSON answer, never cached. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...NO_STORE, 'content-type': 'application/json; charset=utf-8' },
  });
}

/** An answer with no body (204), never cached. */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: NO_STORE });
}

/** The answer of a refusal (anything else unexpected answers `generic`, 500, with no detail). */
export function refusalResponse(error: unknown): Response {
  const refusal =
    error instanceof PasskeyRefusal
      ? error
      : error instanceof AuthError
        ? new PasskeyRefusal(error.code)
        : new PasskeyRefusal('generic');
  const body: PasskeyErrorBody = { error: { code: refusal.code } };
  return json(body, STATUS[refusal.code] ?? (refusal.code === 'generic' ? 500 : 400));
}

/** The signed-in user of a bearer ID token: the uid, the token itself and when that sign-in was made. */
export interface Bearer {
  uid: string;
  /** The ID token (only ever passed back to firebase-admin, never logged or answered). */
  token: string;
  /** The sign-in's `auth_time`, in seconds since the epoch. */
  authTime: number;
}

/**
 * The signed-in user of the request's `Authorization: Bearer <ID token>`, verified (and checked for
 * revocation when `checkRevoked`). `requires-recent-login` when it is missing, expired, revoked or not a
 * token; `user-disabled` for a disabled user.
 */
export async function bearerOf(
  auth: PasskeyAdminAuth,
  request: Request,
  checkRevoked: boolean,
): Promise<Bearer> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  const token = match?.[1];
  if (token === undefined) refuse('requires-recent-login');
  try {
    const decoded = await auth.verifyIdToken(token, checkRevoked);
    return { uid: decoded.uid, token, authTime: decoded.auth_time };
  } catch (error) {
    const code = firebaseCode(error);
    if (code === 'auth/user-disabled') refuse('user-disabled');
    if (code !== null) refuse('requires-recent-login');
    throw error;
  }
}

/** A user's record, or `null` when there is no such user. */
export async function userRecord(auth: PasskeyAdminAuth, uid: string): Promise<UserRecord | null> {
  try {
    return await auth.getUser(uid);
  } catch (error) {
    const code = firebaseCode(error);
    if (code === 'auth/user-not-found' || code === 'auth/invalid-uid') return null;
    throw error;
  }
}

/** The most a request body may hold: WebAuthn answers are a few kilobytes. */
const MAX_BODY = 64 * 1024;

/** The request's JSON object body; `{}` when empty. `passkey-invalid` for anything else. */
export async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > MAX_BODY) refuse('passkey-invalid');
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    refuse('passkey-invalid');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) refuse('passkey-invalid');
  return body as Record<string, unknown>;
}
