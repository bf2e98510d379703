/**
 * Sessions, access tokens (HS256 JWTs as GoTrue mints them) and refresh tokens, and GoTrue's
 * requireAuthentication.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError, userBanned } from './errors.ts';
import { randomUUID } from './hash.ts';
import { JWT_SECRET, signJwt, verifyJwt } from './jwt.ts';
import type { SessionRecord, UserRecord } from './types.ts';
import { isBanned, userJson } from './users.ts';
import { str } from './util.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * GoTrue's CalculateAALAndAMR: aal2 once a second factor was verified on the session; the AMR claims (how
 * the session was authenticated, and when) most recent first.
 */
function assuranceOf(session: SessionRecord): {
  aal: 'aal1' | 'aal2';
  amr: { method: string; timestamp: number }[];
} {
  const first = { method: session.amr, timestamp: seconds(session.createdAt) };
  if (!session.mfa) return { aal: 'aal1', amr: [first] };
  const second = { method: session.mfa.method, timestamp: seconds(session.mfa.at) };
  return { aal: 'aal2', amr: second.timestamp >= first.timestamp ? [second, first] : [first, second] };
}

/**
 * A session for `user` signed in by `method` (a new one unless `existingSessionId` still exists): an access
 * token, a new refresh token (swapped for `refresh.parent`, or `refresh.reuse` handed back again) and the
 * user, as GoTrue answers `/token`.
 */
export function issueSession(
  ctx: DoubleContext,
  user: UserRecord,
  method: string,
  existingSessionId?: string,
  refresh: { parent?: string; reuse?: string } = {},
): Record<string, unknown> {
  const { sessions, refreshTokens } = ctx.store;
  const t = ctx.clock.now();
  user.lastSignInAt = t;
  let session = existingSessionId === undefined ? undefined : sessions.get(existingSessionId);
  if (!session) {
    session = { id: randomUUID(), userId: user.id, createdAt: t, amr: method };
    sessions.set(session.id, session);
  }
  const sessionId = session.id;
  const refreshToken = refresh.reuse ?? randomUUID().replace(/-/g, '').slice(0, 12);
  if (refresh.reuse === undefined) {
    refreshTokens.set(refreshToken, {
      sessionId,
      revoked: false,
      updatedAt: t,
      ...(refresh.parent === undefined ? {} : { parent: refresh.parent }),
    });
  }
  const iat = Math.floor(t / 1000);
  const exp = iat + ctx.config.jwtExpSeconds;
  const { aal, amr } = assuranceOf(session);
  const claims = {
    aud: 'authenticated',
    exp,
    iat,
    iss: ctx.authUrl,
    sub: user.id,
    email: user.email,
    phone: user.phone,
    app_metadata: user.appMetadata,
    user_metadata: user.userMetadata,
    role: 'authenticated',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.isAnonymous,
  };
  return {
    access_token: signJwt(claims, JWT_SECRET),
    token_type: 'bearer',
    expires_in: ctx.config.jwtExpSeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/**
 * A session's tokens as the URL fragment of an implicit-flow redirect (keys in GoTrue's order, which is
 * alphabetical), with `extra` fields.
 */
export function sessionFragment(tokens: Record<string, unknown>, extra: Record<string, string>): string {
  const fields: Record<string, string> = {
    access_token: str(tokens.access_token),
    expires_at: String(tokens.expires_at),
    expires_in: String(tokens.expires_in),
    refresh_token: str(tokens.refresh_token),
    token_type: 'bearer',
    ...extra,
  };
  const sorted = Object.keys(fields)
    .sort()
    .map((key): [string, string] => [key, fields[key] as string]);
  return new URLSearchParams(sorted).toString();
}

/** Ends a session and its refresh tokens. */
export function endSession(ctx: DoubleContext, sessionId: string): void {
  ctx.store.sessions.delete(sessionId);
  for (const [t, r] of ctx.store.refreshTokens)
    if (r.sessionId === sessionId) ctx.store.refreshTokens.delete(t);
}

const badJwt = (reason: string) =>
  new GoTrueDoubleError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);

/** GoTrue's requireAuthentication: the bearer JWT's user and session. */
export function authenticate(ctx: DoubleContext, request: Request): { user: UserRecord; sessionId: string } {
  const header = request.headers.get('authorization') ?? '';
  const token = header.toLowerCase().startsWith('bearer ') ? header.slice(7) : '';
  if (token === '')
    throw new GoTrueDoubleError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  const claims = verifyJwt(token, JWT_SECRET);
  if (!claims) throw badJwt('signature is invalid');
  if (typeof claims.exp === 'number' && claims.exp * 1000 < ctx.clock.now()) {
    throw badJwt('token has invalid claims: token is expired');
  }
  const sub = str(claims.sub);
  if (sub === '') throw new GoTrueDoubleError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  const user = ctx.store.users.get(sub);
  if (!user) throw new GoTrueDoubleError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = str(claims.session_id);
  if (!ctx.store.sessions.has(sessionId)) {
    throw new GoTrueDoubleError(
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    );
  }
  if (isBanned(ctx, user)) throw userBanned();
  return { user, sessionId };
}

/** The session row of an authenticated request (`authenticate` checked that it exists). */
export function sessionOf(ctx: DoubleContext, sessionId: string): SessionRecord {
  const session = ctx.store.sessions.get(sessionId);
  if (!session) throw new GoTrueDoubleError(403, 'session_not_found', 'Session not found');
  return session;
}
