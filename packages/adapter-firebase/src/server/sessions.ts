/**
 * The server's session operations on firebase-admin: session cookies from ID tokens, the user of a
 * cookie, revoking every session of a user, and reading a user's record. Each is a named function over
 * the admin Auth instance; {@link adminSessions} gathers them as the core's {@link SessionBackend}.
 * @module
 */
import type { AuthUser } from '@doorway/auth-core';
import type { SessionBackend, SessionUser } from '@doorway/auth-core/server';
import type { Auth as AdminAuth, DecodedIdToken } from 'firebase-admin/auth';
import { plainUser, withAuthErrors } from '../shared/common.ts';
import { firebaseCode, toAuthError } from '../shared/errors.ts';

function toSessionUser(token: DecodedIdToken): SessionUser {
  return {
    uid: token.uid,
    email: token.email ?? null,
    displayName: typeof token.name === 'string' ? token.name : null,
    phoneNumber: token.phone_number ?? null,
    emailVerified: token.email_verified ?? false,
    isAnonymous: token.firebase.sign_in_provider === 'anonymous',
    tenantId: token.firebase.tenant ?? null,
    signInProvider: token.firebase.sign_in_provider,
    identities: Object.keys(token.firebase.identities ?? {}),
    authTime: token.auth_time * 1000,
    expiresAt: token.exp * 1000,
  };
}

/** A session cookie value for a fresh ID token; `expiresInMs` between 5 minutes and 14 days. */
export function createSessionCookie(
  adminAuth: AdminAuth,
  idToken: string,
  expiresInMs: number,
): Promise<string> {
  return withAuthErrors('session', () => adminAuth.createSessionCookie(idToken, { expiresIn: expiresInMs }));
}

/** The user of a cookie; `null` whenever Firebase answered that it stands for no valid session. */
export async function verifySessionCookie(
  adminAuth: AdminAuth,
  cookie: string | null | undefined,
  checkRevoked: boolean,
): Promise<SessionUser | null> {
  if (cookie == null || cookie === '') return null;
  try {
    return toSessionUser(await adminAuth.verifySessionCookie(cookie, checkRevoked));
  } catch (e) {
    if (firebaseCode(e) !== null) return null;
    throw toAuthError(e, 'session');
  }
}

/** Revokes every session and refresh token of a user (sign out everywhere). */
export function revokeSessions(adminAuth: AdminAuth, uid: string): Promise<void> {
  return withAuthErrors('session', () => adminAuth.revokeRefreshTokens(uid));
}

/**
 * A user's record, or `null` when there is no such user. Firebase keeps no anonymous flag: a record with
 * no provider, email or phone number is an anonymous user's.
 */
export async function getUser(adminAuth: AdminAuth, uid: string): Promise<AuthUser | null> {
  try {
    const record = await adminAuth.getUser(uid);
    const anonymous = record.providerData.length === 0 && !record.email && !record.phoneNumber;
    return plainUser(record, anonymous);
  } catch (e) {
    if (firebaseCode(e) === 'auth/user-not-found') return null;
    throw toAuthError(e, 'session');
  }
}

/** A custom token for `uid`, for the browser SDK's `signInWithCustomToken` (see `FirebaseServer`). */
export function createCustomToken(adminAuth: AdminAuth, uid: string): Promise<string> {
  return withAuthErrors('session', () => adminAuth.createCustomToken(uid));
}

/** The session operations over one admin Auth instance. */
export function adminSessions(adminAuth: AdminAuth): SessionBackend {
  return {
    createSessionCookie: (idToken, { expiresInMs }) => createSessionCookie(adminAuth, idToken, expiresInMs),
    verifySessionCookie: (cookie, { checkRevoked = false } = {}) =>
      verifySessionCookie(adminAuth, cookie, checkRevoked),
    revokeSessions: (uid) => revokeSessions(adminAuth, uid),
    getUser: (uid) => getUser(adminAuth, uid),
  };
}
