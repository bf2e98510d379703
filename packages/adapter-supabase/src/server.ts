/**
 * Server side of the Supabase adapter (`@doorway/adapter-supabase/server`): the host's session from a
 * Supabase access token, sign-out everywhere, the action-code subset of {@link AuthProvider} for
 * server-side action routes, and the form path's provider ({@link SupabaseServer.formProvider}). Plain
 * GoTrue REST calls (`fetch`, see `./server/rest.ts`), with the project URL and anon key (and the
 * service-role key for account deletion only, when given), no supabase-js.
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
 * - **The account page's passkeys** ({@link SupabaseServer.accountPasskeys}): listed, added (GoTrue's
 *   options, then the browser's credential verified) and removed with the session's token.
 * - **The account page's own operations** ({@link SupabaseServer.accountProvider}'s `account`): display name,
 *   email (secure email change), password, linked methods, signing out the other sessions with the session's
 *   token; deleting the account with the admin API, only when the server is given the project's service-role
 *   key (`serviceRoleKey`, a server-side secret).
 * - **Signing in on the server** (the form path) is the browser's requests without supabase-js: the
 *   sign-in's access token is the host's session (see `./server/form.ts`). An aal1 token of an account with a
 *   verified second factor is not a session: it waits for its second factor.
 * @module
 */
import type { AuthServer } from '@doorway/auth-core/server';
import { createActionCodeProvider } from './server/actionCodes.ts';
import { createServerContext } from './server/context.ts';
import { createSupabaseFormProvider } from './server/form.ts';
import { accountPasskeys } from './server/passkeys.ts';
import { createSessionCookie, revokeSession, sessionScope, verifySession } from './server/sessions.ts';
import type { SupabaseServer, SupabaseServerOptions } from './server/types.ts';

export type { ActionCodeProvider, SessionUser } from '@doorway/auth-core/server';
export type { PasskeyRegistrationStart, SupabaseAccountPasskeys } from './server/passkeys.ts';
export type { FetchLike } from './server/rest.ts';
export type {
  SupabaseFormSettings,
  SupabaseServer,
  SupabaseServerOptions,
  SupabaseSessionScope,
} from './server/types.ts';
export { SUPABASE_ACTION_MODES } from './shared/links.ts';

/**
 * Creates the server helpers.
 * @example
 * const server = createSupabaseServer({ url: process.env.DOORWAY_SUPABASE_URL!, anonKey: process.env.DOORWAY_SUPABASE_ANON_KEY! });
 * const cookie = await server.createSessionCookie(accessToken);
 * const signedIn = await server.verifySession(readCookie(request)); // { session, user } | null
 */
export function createSupabaseServer(options: SupabaseServerOptions): SupabaseServer {
  const ctx = createServerContext(options);
  const sessions = () => sessionScope(ctx);
  const server: SupabaseServer = {
    authUrl: ctx.api.authUrl,
    createSessionCookie: (accessToken) => createSessionCookie(ctx, accessToken),
    verifySession: (cookie) => verifySession(ctx, cookie),
    revokeSession: (cookie) => revokeSession(ctx, cookie),
    sessions,
    forRequest: sessions,
    serverProvider: () => createActionCodeProvider(ctx),
    formProvider: (settings) => createSupabaseFormProvider(ctx.api, createActionCodeProvider(ctx), settings),
    async accountProvider(cookie, settings) {
      const verified = await verifySession(ctx, cookie);
      if (verified === null || cookie == null) return null;
      const signedIn = { user: verified.user, accessToken: cookie };
      return createSupabaseFormProvider(ctx.api, createActionCodeProvider(ctx), settings, signedIn, {
        ...(ctx.serviceRoleKey ? { serviceRoleKey: ctx.serviceRoleKey } : {}),
      });
    },
    async accountPasskeys(cookie) {
      const verified = await verifySession(ctx, cookie);
      return verified === null || cookie == null ? null : accountPasskeys(ctx.api, cookie);
    },
  };
  // The one server contract of every backend: a change to it that this server misses fails to compile.
  return server satisfies AuthServer;
}
