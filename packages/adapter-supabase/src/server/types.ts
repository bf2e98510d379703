/**
 * The public types of the server side: its options, the session operations of one request, the server, and
 * what the form provider honours of the browser provider's settings.
 * @module
 */
import type { AuthUser } from '@doorway/auth-core';
import type {
  ActionCodeProvider,
  AuthServer,
  FormProviderRequest,
  ServerAuthProvider,
  SessionBackend,
  SessionUser,
} from '@doorway/auth-core/server';
import type { SupabaseAccountPasskeys } from './passkeys.ts';
import type { FetchLike } from './rest.ts';

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
  /**
   * The project's service-role (secret) key, for what only the admin API can do: deleting the account of
   * the session ({@link SupabaseServer.accountProvider}'s `account.deleteAccount`). A server-side secret:
   * never send it to a browser. Default none: `capabilities.account` leaves `deleteAccount` out.
   */
  serviceRoleKey?: string;
}

/**
 * The session operations of one request ({@link SessionBackend}), with the method names of
 * `@doorway/adapter-firebase/server`.
 */
export interface SupabaseSessionScope extends SessionBackend {
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

/** What {@link createSupabaseServer} returns: an {@link AuthServer}, plus the session checks by cookie. */
export interface SupabaseServer extends AuthServer {
  /** Where the auth API lives (`<project>/auth/v1`). */
  readonly authUrl: string;
  /**
   * Checks an access token (posted by the browser after sign-in) and returns the session cookie value: the
   * token itself. `expiresInMs` cannot lengthen it: the session ends at the token's `exp`. Rejects
   * `session-expired` (malformed, expired or revoked token, deleted user, or an aal1 token of an account with
   * a verified second factor: a sign-in still waiting for it), `user-disabled` (banned),
   * `network-request-failed` (GoTrue unreachable or failing), `generic`.
   */
  createSessionCookie(accessToken: string, options?: { expiresInMs?: number }): Promise<string>;
  /**
   * The session and current user record of a cookie, or `null` when it is missing, malformed, expired,
   * revoked (signed out), its user deleted or banned, or at aal1 while its account has a verified second
   * factor. One `GET /user`; an expired token needs none.
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
  sessions(): SupabaseSessionScope;
  /** The same as {@link SupabaseServer.sessions} (its earlier name). */
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
   * anonymous upgrade) rejects `operation-not-allowed`. Second factors: authenticator apps only (a phone
   * factor's SMS rejects `javascript-required`); a sign-in waiting for one rejects `second-factor-required`
   * and `secondFactors.finishSignIn` makes `sessionToken()` the aal2 token. Action codes go through
   * {@link SupabaseServer.serverProvider}'s logic (and its kept reset links).
   * @param settings what the browser provider is given, where the server needs it (OAuth ids for
   *   `capabilities.federated`, the action route for links the flow gives no URL for)
   */
  formProvider(settings?: SupabaseFormSettings): ServerAuthProvider;
  /**
   * The form provider of ONE request, signed in as the session of `cookie` (verified first, as
   * {@link SupabaseServer.verifySession}): `null` when it is not one. For the account page's operations on
   * the server, e.g. `secondFactors.list`, `startTotpEnrollment`, `finishTotpEnrollment` and `unenroll`.
   * Verifying a new factor moves the session to aal2 with a new access token: `sessionToken()` then differs
   * from `cookie`, and the host must store it (the old aal1 token no longer counts as a session).
   *
   * It has `account` (the account page's own operations over GoTrue REST, see `./server/account.ts`), and
   * `capabilities.account` lists them: all, `deleteAccount` only when the server has
   * {@link SupabaseServerOptions.serviceRoleKey}. None of them changes the session's token:
   * `signOutOtherSessions` and `changePassword` end the user's OTHER sessions and keep this one, so
   * `sessionToken()` stays `cookie`; after `deleteAccount` it is `null` (every session ended) and the host
   * clears its cookie. `settings.secureEmailChange` says what `changeEmail` answers in `confirmBy`.
   */
  accountProvider(
    cookie: string | null | undefined,
    settings?: SupabaseFormSettings,
  ): Promise<ServerAuthProvider | null>;
  /**
   * The passkeys of the session of `cookie` (verified first, as {@link SupabaseServer.verifySession}), over
   * GoTrue REST with its access token: `null` when it is not a session. For the account page's passkeys on
   * the server: `list`, `startAdd` (GoTrue's creation options for the browser's authenticator), `finishAdd`
   * (the browser's credential, and an optional name) and `remove`. The session's token does not change.
   * Rejects only when GoTrue cannot be asked (`network-request-failed`, `generic`).
   */
  accountPasskeys(cookie: string | null | undefined): Promise<SupabaseAccountPasskeys | null>;
}

/** What the form provider honours of the browser provider's settings (`SupabaseProviderSettings`). */
export interface SupabaseFormSettings extends FormProviderRequest {
  /**
   * Doorway ids of the OAuth providers enabled in the project, as the browser provider is given them
   * (`capabilities.federated`: the chooser lists them; signing in with one needs the browser). Default none.
   */
  federatedProviders?: readonly string[];
  /**
   * Where emailed links land when the flow gives no continue URL (sign-up confirmation, password reset
   * without settings): the host's action route, e.g. `new URL('/action', request.url).href`. Default none:
   * GoTrue's Site URL.
   */
  actionUrl?: string;
  /** Whether email-link sign-in may create accounts. Default `true`. */
  emailLinkSignUp?: boolean;
  /**
   * Whether the project confirms an email change at both addresses (GoTrue's
   * `GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED`, on as GoTrue ships), as the browser provider is given it:
   * what `account.changeEmail` answers in `confirmBy`. With "Confirm email" off GoTrue takes one
   * confirmation even then: pass `false`. Default `true`.
   */
  secureEmailChange?: boolean;
}
