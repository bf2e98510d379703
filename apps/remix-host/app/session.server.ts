/**
 * Sessions: the browser posts a fresh Firebase ID token after sign-in, the server exchanges it for a
 * session cookie (firebase-admin) and sets it httpOnly; protected pages verify it (revocation included);
 * sign-out revokes it. Every function takes a web-standard `Request` and returns plain data or a
 * `Response`, so the Remix routes are one line and the rules are unit-tested without a server.
 * @module
 */

import { AuthError, type MessageKey, messageFor } from '@doorway/auth-core';
import { lastUsedCookieHeader, type SessionBackend, type SessionUser } from '@doorway/auth-core/server';
import { unverifiedClaims } from './jwt.server.ts';
import { UNKNOWN_CLIENT } from './load-context.ts';
import { isTrustedOrigin } from './origin.server.ts';

/** Name of the session cookie on localhost/127.0.0.1 (plain http, no `Secure`). */
export const SESSION_COOKIE = 'doorway_session';
/**
 * Its name on every other host, where it is `Secure`: browsers accept a `__Host-` cookie only with
 * `Secure`, `Path=/` and no `Domain`, so no sibling subdomain, plain-http page or deeper path can plant one.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Session lifetime: 5 days (firebase-admin allows 5 minutes to 14 days). */
export const SESSION_MAX_AGE_SECONDS = 5 * 24 * 3600;
/** Where a visitor without a session goes from the account page. */
export const LOGIN_FOR_ACCOUNT = '/login?signInSuccessUrl=%2Faccount';
/** Where sign-out leads: the login page, which signs the browser's SDK out too and shows the card. */
export const SIGNED_OUT = '/login?signedOut=1';

/**
 * How recent a sign-in must be (issue 24): `POST /session` starts a session only from the token of a sign-in
 * made within this many seconds, and `POST /account/browser-sign-in` hands the browser's SDK a token only
 * for a session whose sign-in is that recent. Five minutes, as Firebase asks of its own sensitive changes
 * (`requires-recent-login`). So a stolen cookie or an old token buys no fresh sign-in: it cannot be renewed
 * into a new 5-day session, nor turned into a sign-in that passes a recent-login check.
 */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;

/**
 * The claim a browser sign-in's token carries (`POST /account/browser-sign-in`): when the session it was
 * minted for signed in, in seconds. Firebase stamps a custom-token sign-in's `auth_time` with the moment
 * the token was used; this claim, which rides in every ID token and session cookie made from that
 * sign-in (and is signed with them), keeps the time of the sign-in the person made, so the token's
 * sign-in never counts as fresher than that one ({@link signInTimeOf}).
 */
export const SIGN_IN_TIME_CLAIM = 'doorway_auth_time';

/**
 * When the sign-in a verified session or token stands for was made (ms since the epoch): its `authTime`,
 * or the earlier {@link SIGN_IN_TIME_CLAIM} it carries. `value` must have been verified by the backend
 * (its claims are read, not checked, here).
 */
export function signInTimeOf(session: Pick<SessionUser, 'authTime'>, value: string): number {
  const carried = unverifiedClaims(value)?.[SIGN_IN_TIME_CLAIM];
  return typeof carried === 'number' && Number.isFinite(carried)
    ? Math.min(session.authTime, carried * 1000)
    : session.authTime;
}

/** Whether a sign-in made at `signInAt` (ms) is within {@link FRESH_SIGN_IN_SECONDS} of `now`. */
export function isFreshSignIn(signInAt: number, now: number = Date.now()): boolean {
  return now - signInAt <= FRESH_SIGN_IN_SECONDS * 1000;
}

/**
 * The audit line of a session or a browser sign-in token handed out: what, whose (uid), to which client
 * address, when. Never the token or the cookie.
 */
export function auditLine(
  event: 'session' | 'browser-sign-in',
  uid: string,
  address: string,
  now: number,
): string {
  const at = new Date(now).toISOString();
  return `[doorway audit] ${event} minted uid=${JSON.stringify(uid)} address=${JSON.stringify(address)} at=${at}`;
}

/** Where audit lines go, and the clock they are stamped with (tests pass their own). */
export interface Audit {
  /** The client's address (`clientAddressOf(context)` of the route). */
  clientAddress: string;
  now(): number;
  write(line: string): void;
}

/** An {@link Audit} for a request from `clientAddress`, on the real clock, to the server's log. */
export function auditOf(clientAddress: string = UNKNOWN_CLIENT): Audit {
  return { clientAddress, now: () => Date.now(), write: (line) => console.info(line) };
}

// ID tokens are about 1 kB (plus at most 1 kB of custom claims); anything much larger is not one.
const MAX_BODY_BYTES = 16 * 1024;

/** The session operations the host needs from any backend's server side (auth-core's contract). */
export type { SessionBackend };

/** Who is signed in, as the account page shows it. */
export interface AccountView {
  uid: string;
  email: string | null;
  displayName: string | null;
  phoneNumber: string | null;
  emailVerified: boolean;
  isAnonymous: boolean;
  /** How this session was started (`password`, `phone`, `google.com`, `anonymous`, …). */
  signInProvider: string;
  /** Sign-in methods linked to the account now. */
  providers: readonly string[];
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether cookies for this URL get `Secure`: everywhere except plain-http local development. */
export function needsSecureCookie(url: URL): boolean {
  return !LOCAL_HOSTS.has(url.hostname);
}

/** The session cookie's name for this URL: {@link SECURE_SESSION_COOKIE} wherever it is `Secure`. */
export function sessionCookieName(url: URL): string {
  return needsSecureCookie(url) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/**
 * How long the browser should keep a session cookie just minted by the backend: until the `exp` its value
 * carries when it is a JWT (a Firebase session cookie, a Supabase access token: the latter ends in an hour),
 * at most {@link SESSION_MAX_AGE_SECONDS}. The value is read, not trusted: the backend verifies it on every
 * request; this only keeps the browser from holding a cookie longer than the session it names.
 */
export function cookieMaxAge(value: string, nowMs: number = Date.now()): number {
  const exp = unverifiedClaims(value)?.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return SESSION_MAX_AGE_SECONDS;
  return Math.max(0, Math.min(SESSION_MAX_AGE_SECONDS, Math.ceil(exp - nowMs / 1000)));
}

/** The `Set-Cookie` value that stores a session cookie. */
export function sessionCookieHeader(
  value: string,
  url: URL,
  maxAgeSeconds = SESSION_MAX_AGE_SECONDS,
): string {
  const secure = needsSecureCookie(url) ? '; Secure' : '';
  return `${sessionCookieName(url)}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearSessionCookieHeader(url: URL): string {
  return sessionCookieHeader('', url, 0);
}

/** Every session cookie value the request carries, in the browser's order. */
function sessionCookieValues(request: Request): string[] {
  const name = sessionCookieName(new URL(request.url));
  const values: string[] = [];
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/**
 * The session cookie's value in a request, or `null` when there is none or more than one. The host only
 * ever sets one (`Path=/`, host-only); a second one was planted, e.g. by another origin of the same site
 * for a deeper path, which the browser sends first. Using either would let a planted session survive the
 * visitor's own sign-in (session fixation by cookie tossing), so neither is used.
 */
export function readSessionCookie(request: Request): string | null {
  const [value, ...others] = sessionCookieValues(request);
  return value !== undefined && value !== '' && others.length === 0 ? value : null;
}

const NO_STORE = { 'cache-control': 'no-store' };

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/** The 403 every refused cross-origin POST gets. */
export function forbidden(): Response {
  return new Response('Forbidden: cross-origin request', {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...NO_STORE },
  });
}

/** What `POST /session` carries: the sign-in's token and the option it was made with (may be absent). */
interface SessionRequest {
  idToken: string;
  method: unknown;
}

async function readSessionRequest(request: Request): Promise<SessionRequest | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > MAX_BODY_BYTES) return null;
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return null;
  let body: { idToken?: unknown; method?: unknown };
  if ((request.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      body = (JSON.parse(text) as typeof body | null) ?? {};
    } catch {
      return null;
    }
  } else {
    const form = new URLSearchParams(text);
    body = { idToken: form.get('idToken'), method: form.get('method') };
  }
  const { idToken, method } = body;
  return typeof idToken === 'string' && /^[\w.-]+$/.test(idToken) ? { idToken, method } : null;
}

/**
 * `POST /session`: exchanges the posted ID token (`{"idToken": "…"}` or a form field) for a session
 * cookie. 204 with `Set-Cookie` on success; 403 for a cross-origin request; 400 without a token; 401 for
 * a bad, expired, revoked or disabled user's token, or one whose sign-in is older than
 * {@link FRESH_SIGN_IN_SECONDS} (`requires-recent-login`); 503 when Firebase cannot be asked. The sign-in's
 * option (`method`: `email`, `google.com`, …), when it is one, is kept in the "Last used" cookie too; a
 * missing or malformed one sets nothing and fails nothing. Each session started writes one audit line.
 */
export async function startSession(
  request: Request,
  backend: SessionBackend,
  allowedOrigins: readonly string[],
  audit: Audit = auditOf(),
): Promise<Response> {
  if (request.method !== 'POST') return jsonResponse(405, { error: 'Method not allowed' }, { allow: 'POST' });
  if (!isTrustedOrigin(request, allowedOrigins)) return forbidden();
  const body = await readSessionRequest(request);
  if (body === null) return jsonResponse(400, { error: 'An ID token is required' });
  const url = new URL(request.url);
  const minted = await mintSession(backend, body.idToken, url, { freshAt: audit.now() });
  if (!('setCookie' in minted)) return jsonResponse(minted.status, { error: messageFor(minted.error) });
  audit.write(auditLine('session', minted.uid, audit.clientAddress, audit.now()));
  const headers = new Headers({ ...NO_STORE, 'set-cookie': minted.setCookie });
  const lastUsed = lastUsedCookieHeader(body.method, needsSecureCookie(url));
  if (lastUsed !== null) headers.append('set-cookie', lastUsed);
  return new Response(null, { status: 204, headers });
}

/**
 * Exchanges a sign-in's token (Firebase ID token, Supabase access token) for the session cookie: its
 * `Set-Cookie` value and the session's uid, or the status and catalogue code of the refusal (401 for a
 * bad, expired, revoked or disabled user's token, 503 when the provider cannot be asked). Shared by
 * `POST /session` (the widget in the browser) and the sign-in form path (the server's own sign-in, fresh
 * by construction). With `freshAt` (now, ms), a token whose sign-in is older than
 * {@link FRESH_SIGN_IN_SECONDS} is refused too (401 `requires-recent-login`, no cookie).
 */
export async function mintSession(
  backend: SessionBackend,
  token: string,
  url: URL,
  options: { freshAt?: number } = {},
): Promise<{ setCookie: string; uid: string } | { status: 401 | 503; error: MessageKey }> {
  try {
    const cookie = await backend.createSessionCookie(token, { expiresInMs: SESSION_MAX_AGE_SECONDS * 1000 });
    // An ID token issued before a sign-out is revoked with it; the session cookie made from it says so.
    const session = await backend.verifySessionCookie(cookie, { checkRevoked: true });
    if (session === null) return { status: 401, error: 'session-expired' };
    // The cookie carries the token's sign-in (Firebase copies `auth_time` and the claims; on Supabase the
    // cookie is the token): an old sign-in's token starts nothing.
    const { freshAt } = options;
    if (freshAt !== undefined && !isFreshSignIn(signInTimeOf(session, cookie), freshAt)) {
      return { status: 401, error: 'requires-recent-login' };
    }
    return { setCookie: sessionCookieHeader(cookie, url, cookieMaxAge(cookie)), uid: session.uid };
  } catch (e) {
    const code = e instanceof AuthError ? e.code : 'generic';
    const status = code === 'session-expired' || code === 'user-disabled' ? 401 : 503;
    return { status, error: code };
  }
}

/** How {@link endSession} waits (tests pass a fake). */
export interface Waiting {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realTime: Waiting = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Revokes every session of the cookie's user, whatever the timing. Firebase records a revocation in whole
 * seconds and keeps every session signed in during that second (it checks `auth_time < validSince`), so a
 * revocation made in the second of a sign-in, on this device or another, would not end that session. The
 * revocation waits for the second after both the sign-out request and this session's sign-in (at most a
 * second), is checked, and is repeated once a second later if the session still verifies (a backend clock
 * behind ours).
 */
async function revokeSession(
  backend: SessionBackend,
  cookie: string | null,
  user: { uid: string; authTime: number },
  time: Waiting,
): Promise<void> {
  const nextSecond = (Math.floor(Math.max(time.now(), user.authTime) / 1000) + 1) * 1000;
  for (let attempt = 0; attempt < 2; attempt++) {
    const wait = nextSecond + attempt * 1000 - time.now();
    if (wait > 0) await time.sleep(wait);
    await backend.revokeSessions(user.uid);
    if ((await backend.verifySessionCookie(cookie, { checkRevoked: true })) === null) return;
  }
}

/**
 * `POST /logout`: revokes the user's sessions (every device, this one included even when it began in the
 * same second), clears the cookie and sends the browser to the sign-out card. A cross-origin request gets
 * 403 and changes nothing.
 */
export async function endSession(
  request: Request,
  backend: SessionBackend,
  allowedOrigins: readonly string[],
  time: Waiting = realTime,
): Promise<Response> {
  if (!isTrustedOrigin(request, allowedOrigins)) return forbidden();
  const url = new URL(request.url);
  const cookie = readSessionCookie(request);
  const user = await backend.verifySessionCookie(cookie).catch(() => null);
  if (user !== null) {
    // The cookie is cleared either way; a failed revocation only leaves other devices signed in.
    await revokeSession(backend, cookie, user, time).catch(() => undefined);
  }
  return new Response(null, {
    status: 303,
    headers: { ...NO_STORE, location: SIGNED_OUT, 'set-cookie': clearSessionCookieHeader(url) },
  });
}

/**
 * The signed-in account of a request, or a thrown redirect to the login page (clearing a cookie that no
 * longer verifies: missing, malformed, expired, revoked, or its user deleted or disabled).
 */
export async function requireAccount(request: Request, backend: SessionBackend): Promise<AccountView> {
  const cookie = readSessionCookie(request);
  const session = await backend.verifySessionCookie(cookie, { checkRevoked: true });
  // The record, not the cookie's claims: linking and verification since sign-in show at once.
  const user = session === null ? null : await backend.getUser(session.uid);
  if (session === null || user === null) {
    const headers: Record<string, string> = { location: LOGIN_FOR_ACCOUNT, ...NO_STORE };
    if (sessionCookieValues(request).length > 0) {
      headers['set-cookie'] = clearSessionCookieHeader(new URL(request.url));
    }
    throw new Response(null, { status: 302, headers });
  }
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    phoneNumber: user.phoneNumber,
    emailVerified: user.emailVerified,
    isAnonymous: session.isAnonymous,
    signInProvider: session.signInProvider,
    providers: user.providerIds,
  };
}
