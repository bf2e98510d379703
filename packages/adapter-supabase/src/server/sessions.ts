/**
 * The host's sessions on Supabase: the session is the user's access token. Creating one checks the token
 * with GoTrue, verifying asks GoTrue again (`GET /user`: it checks signature, expiry and that the session
 * still exists), revoking signs the user out everywhere with the same token.
 * @module
 */
import { AuthError, type AuthUser } from '@doorway/auth-core';
import type { SessionUser } from '@doorway/auth-core/server';
import type { User } from '@supabase/supabase-js';
import { claimsOf } from '../shared/jwt.ts';
import { awaitsSecondFactor } from '../shared/secondFactors.ts';
import { toAuthUser, toDoorwayProvider } from '../shared/user.ts';
import type { ServerContext } from './context.ts';
import { getUser, loggedOut, logout } from './rest.ts';
import type { SupabaseSessionScope } from './types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A verified session and the user record GoTrue returned for it. */
export interface VerifiedSession {
  session: SessionUser;
  user: AuthUser;
}

/** The token's claims if it is well-formed and unexpired now, else `null` (no request needed). */
export function liveClaims(
  ctx: ServerContext,
  token: string,
): { claims: Record<string, unknown>; exp: number } | null {
  const claims = claimsOf(token);
  if (claims === null || typeof claims.exp !== 'number' || typeof claims.sub !== 'string') return null;
  return claims.exp * 1000 > ctx.now() ? { claims, exp: claims.exp } : null;
}

/** GoTrue's second-factor AMR methods: GoTrue lists the latest authentication first, so these lead at aal2. */
const SECOND_FACTOR_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/**
 * How the session was started, from the token's first `amr` entry that is not a second factor: `password`,
 * `anonymous`, the Doorway id of an OAuth provider (`google.com`), else GoTrue's own method name (`otp` for
 * email links and SMS codes alike, `magiclink`, `email/signup`…).
 */
function signInProviderOf(claims: Record<string, unknown>, user: User): string {
  const entries: unknown[] = Array.isArray(claims.amr) ? claims.amr : [];
  const amr = entries.find((e) => !(isObject(e) && SECOND_FACTOR_METHODS.has(String(e.method))));
  const method = isObject(amr) && typeof amr.method === 'string' ? amr.method : 'unknown';
  if (method === 'oauth') {
    const provider: unknown = user.app_metadata?.provider;
    return typeof provider === 'string' ? toDoorwayProvider(provider) : method;
  }
  return method;
}

/** The session a token's claims and its user's record describe; it ends at the token's `exp`. */
function toSessionUser(claims: Record<string, unknown>, user: User, exp: number): SessionUser {
  const { providerIds: _, ...base } = toAuthUser(user, { emailLink: true });
  const amr = Array.isArray(claims.amr) ? claims.amr[0] : undefined;
  const signedInAt = isObject(amr) && typeof amr.timestamp === 'number' ? amr.timestamp : claims.iat;
  return {
    ...base,
    signInProvider: signInProviderOf(claims, user),
    identities: [...new Set((user.identities ?? []).map((i) => toDoorwayProvider(i.provider)))],
    authTime: typeof signedInAt === 'number' ? signedInAt * 1000 : 0,
    expiresAt: exp * 1000,
  };
}

/**
 * The session of a token, or GoTrue's refusal code (`bad_jwt` for a token refused without asking). A token
 * at aal1 of an account with a verified factor is a sign-in still waiting for its second factor: refused
 * (`insufficient_aal`), so the host never counts it as signed in.
 */
async function verifyToken(
  ctx: ServerContext,
  token: string,
): Promise<VerifiedSession | { refused: string | undefined }> {
  const live = liveClaims(ctx, token);
  if (live === null) return { refused: 'bad_jwt' };
  const result = await getUser(ctx.api, token);
  if (!result.ok) return { refused: result.code };
  const user = result.data as User;
  if (!isObject(user) || typeof user.id !== 'string' || user.id !== live.claims.sub) {
    return { refused: undefined };
  }
  if (awaitsSecondFactor(token, user)) return { refused: 'insufficient_aal' };
  return {
    session: toSessionUser(live.claims, user, live.exp),
    user: toAuthUser(user, { emailLink: true }),
  };
}

/** `SupabaseServer.createSessionCookie`: the token itself, once GoTrue accepts it. */
export async function createSessionCookie(ctx: ServerContext, accessToken: string): Promise<string> {
  const result = await verifyToken(ctx, accessToken);
  if ('refused' in result) {
    throw new AuthError(result.refused === 'user_banned' ? 'user-disabled' : 'session-expired');
  }
  return accessToken;
}

/** `SupabaseServer.verifySession`. */
export async function verifySession(
  ctx: ServerContext,
  cookie: string | null | undefined,
): Promise<VerifiedSession | null> {
  if (cookie == null || cookie === '') return null;
  const result = await verifyToken(ctx, cookie);
  return 'refused' in result ? null : result;
}

/** `SupabaseServer.revokeSession`: signs the cookie's user out everywhere. */
export async function revokeSession(ctx: ServerContext, cookie: string): Promise<void> {
  if (liveClaims(ctx, cookie) === null) return; // expired or malformed: nothing GoTrue would accept
  const result = await logout(ctx.api, cookie, 'global');
  if (!loggedOut(result)) throw new AuthError('generic');
}

/** `SupabaseServer.sessions`: one request's session operations, on the session it verified. */
export function sessionScope(ctx: ServerContext): SupabaseSessionScope {
  let seen: ({ cookie: string } & VerifiedSession) | null = null;
  const own = (uid: string) => {
    // GoTrue reads and revokes users by their own token only: the one this request verified.
    if (seen === null || seen.session.uid !== uid) throw new AuthError('operation-not-allowed');
    return seen;
  };
  return {
    createSessionCookie: (accessToken) => createSessionCookie(ctx, accessToken),
    async verifySessionCookie(cookie) {
      const result = await verifySession(ctx, cookie);
      seen = result === null || cookie == null ? null : { cookie, ...result };
      return result?.session ?? null;
    },
    getUser: async (uid) => own(uid).user,
    revokeSessions: async (uid) => revokeSession(ctx, own(uid).cookie),
  };
}
