/**
 * Server side of the Supabase adapter (`@doorway/adapter-supabase/server`): the host's session from a
 * Supabase access token, sign-out everywhere, the action-code subset of {@link AuthProvider} for
 * server-side action routes, and the form path's provider ({@link SupabaseServer.formProvider}). Plain
 * GoTrue REST calls (`fetch`, see `./rest.ts`), with the project URL and anon key only: no service-role key,
 * no supabase-js.
 *
 * What Supabase's published API allows, and therefore what this does:
 * - **Verifying** a token is `GET /auth/v1/user` with it as the bearer: GoTrue checks the signature, the
 *   expiry and that the token's session still exists (so a revoked session fails at once). Every
 *   verification is one request: without the JWT secret there is no local check.
 * - **The session is the access token.** GoTrue cannot mint a longer-lived credential, so the session ends
 *   when the token expires (`exp`: the project's JWT expiry, 3600 s by default). {@link SessionUser.expiresAt}
 *   says when; an expired token is refused without a request.
 * - **Revoking** is `POST /auth/v1/logout?scope=global` with the user's own token: GoTrue has no revocation
 *   by user id, even for the service role. So revocation needs a token of that user (see
 *   {@link SupabaseServer.forRequest}).
 * - **Action codes** are Doorway's `oobCode=<type>-<token hash>` links, verified with `POST /auth/v1/verify`
 *   (`token_hash` + `type`). Supabase has no `recoverEmail` / `revertSecondFactorAddition` links:
 *   {@link SUPABASE_ACTION_MODES} lists what it has, and hosts show the failure card for the others.
 * - **Signing in on the server** (the form path) is the browser's requests without supabase-js: the
 *   sign-in's access token is the host's session (see `./form.ts`).
 * @module
 */
import { type ActionCodeInfo, AuthError, type AuthProvider, type AuthUser } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import type { User } from '@supabase/supabase-js';
import { mapSupabaseErrorCode } from './errors.ts';
import { createSupabaseFormProvider, type SupabaseFormSettings } from './form.ts';
import { type EmailTokenType, parseActionCode } from './links.ts';
import { type FetchLike, type GoTrueApi, getUser, logout, updatePassword, verifyTokenHash } from './rest.ts';
import { toAuthUser, toDoorwayProvider } from './user.ts';

export type { SupabaseFormSettings } from './form.ts';
export { SUPABASE_ACTION_MODES } from './links.ts';
export type { FetchLike } from './rest.ts';

/** The action-code methods a server-side action route needs (what `handleActionCode` and
 * `confirmPasswordResetAction` of auth-core call). */
export type ActionCodeProvider = Pick<
  AuthProvider,
  'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'confirmPasswordReset' | 'setTenant'
>;

/** Options of {@link createSupabaseServer}. */
export interface SupabaseServerOptions {
  /** The project URL (`https://<ref>.supabase.co`). */
  url: string;
  /** The project's anon (publishable) key. */
  anonKey: string;
  /** Default: the global `fetch`. */
  fetch?: FetchLike;
  /** The server's time in ms (expiry checks). Default `Date.now`. */
  now?: () => number;
  /** How many verified, not yet used password-reset links are kept at most (oldest dropped). Default 1000. */
  maxPendingResets?: number;
}

/** The signed-in user a session (an access token) stands for, as plain data. */
export interface SessionUser extends Omit<AuthUser, 'providerIds'> {
  /**
   * How the session was started, from the token's first `amr` entry: `password`, `anonymous`, the Doorway
   * id of an OAuth provider (`google.com`), else GoTrue's own method name (`otp` for email links and SMS
   * codes alike, `magiclink`, `email/signup`…).
   */
  signInProvider: string;
  /** Identity kinds of the user (`email`, `phone`, `google.com`, …). */
  identities: readonly string[];
  /** When the user signed in, ms since the epoch. */
  authTime: number;
  /** When the session ends: the access token's `exp`, ms since the epoch. */
  expiresAt: number;
}

/** The session operations of one request, with the method names of `@doorway/adapter-firebase/server`. */
export interface SupabaseSessionScope {
  /** As {@link SupabaseServer.createSessionCookie}. */
  createSessionCookie(accessToken: string, options?: { expiresInMs?: number }): Promise<string>;
  /** As {@link SupabaseServer.verifySession}, returning the session; remembers the token and user. */
  verifySessionCookie(
    cookie: string | null | undefined,
    options?: { checkRevoked?: boolean },
  ): Promise<SessionUser | null>;
  /**
   * The user verified by this scope's `verifySessionCookie` (the record GoTrue returned, not the token's
   * claims). Rejects `operation-not-allowed` for any other uid: GoTrue reads users by their own token only.
   */
  getUser(uid: string): Promise<AuthUser | null>;
  /**
   * Revokes every session of the user verified by this scope (`POST /logout?scope=global` with their
   * token). Rejects `operation-not-allowed` for any other uid, and as {@link SupabaseServer.revokeSession}.
   */
  revokeSessions(uid: string): Promise<void>;
}

/** What {@link createSupabaseServer} returns. */
export interface SupabaseServer {
  /** Where the auth API lives (`<project>/auth/v1`). */
  readonly authUrl: string;
  /**
   * Checks an access token (posted by the browser after sign-in) and returns the session cookie value: the
   * token itself. `expiresInMs` cannot lengthen it: the session ends at the token's `exp`. Rejects
   * `session-expired` (malformed, expired or revoked token, deleted user), `user-disabled` (banned),
   * `network-request-failed` (GoTrue unreachable or failing), `generic`.
   */
  createSessionCookie(accessToken: string, options?: { expiresInMs?: number }): Promise<string>;
  /**
   * The session and current user record of a cookie, or `null` when it is missing, malformed, expired,
   * revoked (signed out) or its user deleted or banned. One `GET /user`; an expired token needs none.
   * Rejects only when GoTrue cannot be asked (`network-request-failed`, `generic`).
   */
  verifySession(cookie: string | null | undefined): Promise<{ session: SessionUser; user: AuthUser } | null>;
  /**
   * Signs the cookie's user out everywhere: `POST /logout?scope=global` with the token (every session and
   * refresh token of the user ends, including the browser's). Resolves when the session is already gone.
   * Rejects `network-request-failed`, `generic`.
   */
  revokeSession(cookie: string): Promise<void>;
  /** Session operations for one request, shaped like the Firebase server's (create one per request). */
  forRequest(): SupabaseSessionScope;
  /**
   * A fresh action-code provider for one request. A password-reset link is used (GoTrue cannot look at a
   * token without using it) when its form is shown; the recovery session it yields is kept in this server,
   * keyed by the link's code, until the new password is set or the session's token expires, so the form's
   * POST (another request, another provider) can finish. Keep one server per process.
   */
  serverProvider(): ActionCodeProvider;
  /**
   * The provider the host's form path runs the flow on, for ONE request (create one per request): password
   * sign-in and sign-up, anonymous sign-in, email-link send and completion, password reset and action codes
   * over GoTrue REST, with this server's `fetch`. `sessionToken()` is the access token of the sign-in it made:
   * the host's session value, as {@link SupabaseServer.createSessionCookie} takes it. Capabilities and
   * catalogue codes are the browser provider's; what needs a browser (phone, OAuth, captcha, linking, an
   * anonymous upgrade) rejects `operation-not-allowed`. Action codes go through
   * {@link SupabaseServer.serverProvider}'s logic (and its kept reset links).
   * @param settings what the browser provider is given, where the server needs it (OAuth ids for
   *   `capabilities.federated`, the action route for links the flow gives no URL for)
   */
  formProvider(settings?: SupabaseFormSettings): ServerAuthProvider;
}

const TOKEN = /^[\w-]+\.[\w-]+\.[\w-]*$/;
const OPERATIONS: Partial<Record<EmailTokenType, ActionCodeInfo['operation']>> = {
  recovery: 'resetPassword',
  signup: 'verifyEmail',
  invite: 'verifyEmail',
  email_change: 'verifyAndChangeEmail',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The claims of a JWT, unverified (GoTrue verifies; this only reads `exp`, `amr`, … of a token it accepted). */
function claimsOf(token: string): Record<string, unknown> | null {
  if (!TOKEN.test(token)) return null;
  const body = token.split('.')[1] ?? '';
  try {
    const b64 = body.replace(/-/g, '+').replace(/_/g, '/');
    const payload: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))),
    );
    return isObject(payload) ? payload : null;
  } catch {
    return null;
  }
}

function signInProviderOf(claims: Record<string, unknown>, user: User): string {
  const amr = Array.isArray(claims.amr) ? claims.amr[0] : undefined;
  const method = isObject(amr) && typeof amr.method === 'string' ? amr.method : 'unknown';
  if (method === 'oauth') {
    const provider: unknown = user.app_metadata?.provider;
    return typeof provider === 'string' ? toDoorwayProvider(provider) : method;
  }
  return method;
}

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
 * Creates the server helpers.
 * @example
 * const server = createSupabaseServer({ url: process.env.DOORWAY_SUPABASE_URL!, anonKey: process.env.DOORWAY_SUPABASE_ANON_KEY! });
 * const cookie = await server.createSessionCookie(accessToken);
 * const signedIn = await server.verifySession(readCookie(request)); // { session, user } | null
 */
export function createSupabaseServer(options: SupabaseServerOptions): SupabaseServer {
  const base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
  const authUrl = new URL('auth/v1', base).href;
  const api: GoTrueApi = {
    authUrl,
    anonKey: options.anonKey,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
  const now = options.now ?? Date.now;
  const maxPending = options.maxPendingResets ?? 1000;

  /** The token's claims if it is well-formed and unexpired here, else `null` (no request needed). */
  function liveClaims(token: string): { claims: Record<string, unknown>; exp: number } | null {
    const claims = claimsOf(token);
    if (claims === null || typeof claims.exp !== 'number' || typeof claims.sub !== 'string') return null;
    return claims.exp * 1000 > now() ? { claims, exp: claims.exp } : null;
  }

  type Verified = { session: SessionUser; user: AuthUser } | { refused: string | undefined };

  async function verify(token: string): Promise<Verified> {
    const live = liveClaims(token);
    if (live === null) return { refused: 'bad_jwt' };
    const result = await getUser(api, token);
    if (!result.ok) return { refused: result.code };
    const user = result.data as User;
    if (!isObject(user) || typeof user.id !== 'string' || user.id !== live.claims.sub) {
      return { refused: undefined };
    }
    return {
      session: toSessionUser(live.claims, user, live.exp),
      user: toAuthUser(user, { emailLink: true }),
    };
  }

  async function createSessionCookie(accessToken: string): Promise<string> {
    const result = await verify(accessToken);
    if ('refused' in result) {
      throw new AuthError(result.refused === 'user_banned' ? 'user-disabled' : 'session-expired');
    }
    return accessToken;
  }

  async function verifySession(cookie: string | null | undefined) {
    if (cookie == null || cookie === '') return null;
    const result = await verify(cookie);
    return 'refused' in result ? null : result;
  }

  async function revokeSession(cookie: string): Promise<void> {
    if (liveClaims(cookie) === null) return; // expired or malformed: nothing GoTrue would accept
    const result = await logout(api, cookie, 'global');
    // 401/403/404: the session (or user) is already gone, which is what was asked.
    if (!result.ok && result.status !== 401 && result.status !== 403 && result.status !== 404) {
      throw new AuthError('generic');
    }
  }

  /** Verified recovery links: the code → the recovery session it gave, until used or expired. */
  const pendingResets = new Map<string, { email: string; token: string; expiresAt: number }>();

  function pendingReset(code: string) {
    const entry = pendingResets.get(code);
    if (entry !== undefined && entry.expiresAt <= now()) {
      pendingResets.delete(code);
      return undefined;
    }
    return entry;
  }

  /** `POST /verify` with a Doorway action code; the session it yields, or an `AuthError`. */
  async function verifyCode(type: EmailTokenType, tokenHash: string) {
    const result = await verifyTokenHash(api, type, tokenHash);
    if (!result.ok) throw new AuthError(mapSupabaseErrorCode(result.code, 'link'));
    const data = isObject(result.data) ? result.data : {};
    const user = isObject(data.user) ? (data.user as unknown as User) : null;
    const token = typeof data.access_token === 'string' ? data.access_token : null;
    return { user, token };
  }

  function parse(code: string, allowed: readonly EmailTokenType[]) {
    const parsed = parseActionCode(code);
    if (parsed === null) throw new AuthError('invalid-action-code');
    // Sign-in links are not action codes: checking one would sign its owner in.
    if (OPERATIONS[parsed.type] === undefined) throw new AuthError('operation-not-allowed');
    if (!allowed.includes(parsed.type)) throw new AuthError('invalid-action-code');
    return parsed;
  }

  async function recoveryEmail(code: string): Promise<string> {
    const kept = pendingReset(code);
    if (kept !== undefined) return kept.email;
    const parsed = parse(code, ['recovery']);
    const { user, token } = await verifyCode(parsed.type, parsed.tokenHash);
    const exp = token === null ? null : liveClaims(token)?.exp;
    if (!user?.email || token === null || exp == null) throw new AuthError('invalid-action-code');
    if (pendingResets.size >= maxPending) {
      const oldest = pendingResets.keys().next().value;
      if (oldest !== undefined) pendingResets.delete(oldest);
    }
    pendingResets.set(code, { email: user.email, token, expiresAt: exp * 1000 });
    return user.email;
  }

  function serverProvider(): ActionCodeProvider {
    // Codes this request verified (checkActionCode then applyActionCode use one token once).
    const checked = new Map<string, ActionCodeInfo>();

    async function checkEmailCode(code: string): Promise<ActionCodeInfo> {
      const done = checked.get(code);
      if (done !== undefined) return done;
      const parsed = parse(code, ['signup', 'invite', 'email_change']);
      const { user, token } = await verifyCode(parsed.type, parsed.tokenHash);
      // GoTrue signs the link's owner in; nobody holds that session here, so it ends at once.
      if (token !== null) await logout(api, token, 'local').catch(() => undefined);
      const info: ActionCodeInfo = {
        operation: OPERATIONS[parsed.type] as ActionCodeInfo['operation'],
        // With "Secure email change" the first of two links answers without a user.
        email: user?.email || null,
        previousEmail: null,
      };
      checked.set(code, info);
      return info;
    }

    return {
      async setTenant(tenantId) {
        if (tenantId !== null) throw new AuthError('operation-not-allowed');
      },
      async checkActionCode(code) {
        const type = parseActionCode(code)?.type;
        if (type === 'recovery') {
          return { operation: 'resetPassword', email: await recoveryEmail(code), previousEmail: null };
        }
        return checkEmailCode(code);
      },
      async applyActionCode(code) {
        await checkEmailCode(code);
        // Applied: the token is spent, so another apply asks GoTrue (which refuses it), as in the browser.
        checked.delete(code);
      },
      verifyPasswordResetCode: recoveryEmail,
      async confirmPasswordReset(code, newPassword) {
        await recoveryEmail(code);
        const entry = pendingReset(code);
        if (entry === undefined) throw new AuthError('invalid-action-code');
        const result = await updatePassword(api, entry.token, newPassword);
        if (!result.ok) {
          const error = mapSupabaseErrorCode(result.code, 'link');
          // A weak password keeps the link usable for another try.
          if (error !== 'weak-password') pendingResets.delete(code);
          throw new AuthError(error === 'weak-password' ? error : 'invalid-action-code');
        }
        pendingResets.delete(code);
        // As Firebase does on a reset: every session of the account ends (the recovery one too).
        await logout(api, entry.token, 'global').catch(() => undefined);
      },
    };
  }

  return {
    authUrl,
    createSessionCookie,
    verifySession,
    revokeSession,
    serverProvider,
    formProvider: (settings) => createSupabaseFormProvider(api, serverProvider(), settings),
    forRequest() {
      let seen: { cookie: string; session: SessionUser; user: AuthUser } | null = null;
      const own = (uid: string) => {
        if (seen === null || seen.session.uid !== uid) throw new AuthError('operation-not-allowed');
        return seen;
      };
      return {
        createSessionCookie,
        async verifySessionCookie(cookie) {
          const result = await verifySession(cookie);
          seen = result === null || cookie == null ? null : { cookie, ...result };
          return result?.session ?? null;
        },
        async getUser(uid) {
          return own(uid).user;
        },
        async revokeSessions(uid) {
          await revokeSession(own(uid).cookie);
        },
      };
    },
  };
}
