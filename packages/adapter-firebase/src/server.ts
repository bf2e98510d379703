/**
 * Server side of the Firebase adapter (`@doorway/adapter-firebase/server`): session cookies with
 * firebase-admin, and per-request providers over the Identity Toolkit REST API: the form provider a
 * server runs the sign-in flow on, and the action-code subset of {@link AuthProvider} for action routes.
 *
 * Emulator-aware: when `FIREBASE_AUTH_EMULATOR_HOST` is set (as `firebase emulators:exec` does),
 * firebase-admin talks to the emulator and needs no credentials, and the REST calls go there too.
 * @module
 */
import type { AuthProvider, AuthUser } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import {
  type App,
  type Credential,
  getApps as getAdminApps,
  initializeApp as initializeAdminApp,
} from 'firebase-admin/app';
import { type Auth as AdminAuth, type DecodedIdToken, getAuth as getAdminAuth } from 'firebase-admin/auth';
import { toAuthError } from './errors.ts';
import { createFirebaseFormProvider } from './form.ts';

export {
  createFirebaseFormProvider,
  type FirebaseFormProviderOptions,
} from './form.ts';

/** The action-code methods a server-side action route needs (what `handleActionCode` and
 * `confirmPasswordResetAction` of auth-core call). */
export type ActionCodeProvider = Pick<
  AuthProvider,
  'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'confirmPasswordReset' | 'setTenant'
>;

/** Options of {@link createFirebaseServer}. */
export interface FirebaseServerOptions {
  /** The Firebase project id (`demo-…` for the emulator). */
  projectId: string;
  /**
   * The project's web API key, used by the REST calls of {@link FirebaseServer.formProvider} and
   * {@link FirebaseServer.serverProvider}. Not needed on the emulator (any value works there); required
   * for them against a real project.
   */
  apiKey?: string;
  /** firebase-admin credential. Default: application default credentials (none needed on the emulator). */
  credential?: Credential;
  /** Name of the firebase-admin app this creates is `<appName>-admin-<projectId>`. Default `doorway-server`. */
  appName?: string;
  /**
   * As the browser provider's option: whether the project has email enumeration protection on (the form
   * provider's `reliableSignInMethodLookup` is its inverse). Default `true`.
   */
  emailEnumerationProtection?: boolean;
  /** Federated provider ids, declared in the form provider's capabilities as the browser provider declares them. */
  federatedProviders?: readonly string[];
  /** Language of the emails Firebase sends. Default `'en'`; `null` leaves Firebase's default. */
  languageCode?: string | null;
  /** The `fetch` the REST calls go through. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** The signed-in user a session cookie stands for, as plain data. */
export interface SessionUser extends Omit<AuthUser, 'providerIds'> {
  /** How the session was started: `password`, `emailLink`… as Firebase names it (`google.com`, `phone`, `anonymous`, `custom`). */
  signInProvider: string;
  /** Identity kinds recorded in the token (`email`, `phone`, `google.com`, …). */
  identities: readonly string[];
  /** When the user signed in, ms since the epoch. */
  authTime: number;
  /** When the session cookie expires, ms since the epoch. */
  expiresAt: number;
}

/** What {@link createFirebaseServer} returns. */
export interface FirebaseServer {
  /** The firebase-admin Auth instance, for anything else the host needs. */
  readonly adminAuth: AdminAuth;
  /**
   * Exchanges a fresh ID token (posted by the client after sign-in) for a session cookie value.
   * `expiresInMs` must be between 5 minutes and 14 days. Rejects: `session-expired` (bad or old ID
   * token), `user-disabled`, `generic`.
   */
  createSessionCookie(idToken: string, options: { expiresInMs: number }): Promise<string>;
  /**
   * The user of a session cookie, or `null` when it is missing, malformed, expired or (with
   * `checkRevoked`, which costs a lookup) revoked, or the user is disabled. Rejects only when Firebase
   * cannot be asked (`network-request-failed`, `generic`).
   */
  verifySessionCookie(
    cookie: string | null | undefined,
    options?: { checkRevoked?: boolean },
  ): Promise<SessionUser | null>;
  /** Revokes every session and refresh token of a user (sign out everywhere). Rejects: `user-not-found`, `generic`. */
  revokeSessions(uid: string): Promise<void>;
  /** The user's record as {@link AuthUser}, or `null` when there is no such user. */
  getUser(uid: string): Promise<AuthUser | null>;
  /**
   * A fresh provider for one request of the form path (`@doorway/auth-core/server`'s runner): sign-in,
   * sign-up, email links, password reset, anonymous and action codes over the Identity Toolkit REST API,
   * with the browser provider's results and error codes. It holds the tenant set by `setTenant` and the
   * sign-in it made (`getCurrentUser()`, `sessionToken()` for {@link createSessionCookie}), so call it
   * once per request. Throws (not an `AuthError`) when `apiKey` is missing outside the emulator.
   * @example
   * const provider = server.formProvider();
   * await provider.signInWithEmailAndPassword(email, password);
   * const cookie = await server.createSessionCookie(provider.sessionToken()!, { expiresInMs });
   */
  formProvider(): ServerAuthProvider;
  /**
   * A fresh action-code provider for one request (the action-code methods of {@link formProvider}). Each
   * has its own tenant (set by `setTenant`), so concurrent requests for different tenants do not
   * interfere: call it once per request.
   * @example
   * export const loader = async ({ request }) =>
   *   json(await handleActionCode(new URL(request.url), server.serverProvider()));
   */
  serverProvider(): ActionCodeProvider;
}

function emulatorHost(): string | null {
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  return host !== undefined && host !== '' ? host : null;
}

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

function hasAuthCode(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('auth/')
  );
}

/**
 * Creates the server helpers: firebase-admin for session cookies, and per-request REST providers.
 * @example
 * const server = createFirebaseServer({ projectId: process.env.FIREBASE_PROJECT_ID!, apiKey: process.env.FIREBASE_API_KEY });
 * const cookie = await server.createSessionCookie(idToken, { expiresInMs: 5 * 24 * 3600 * 1000 });
 * const user = await server.verifySessionCookie(readCookie(request), { checkRevoked: true });
 */
export function createFirebaseServer(options: FirebaseServerOptions): FirebaseServer {
  const prefix = options.appName ?? 'doorway-server';
  const adminName = `${prefix}-admin-${options.projectId}`;
  const adminApp: App =
    getAdminApps().find((app) => app.name === adminName) ??
    initializeAdminApp(
      options.credential === undefined
        ? { projectId: options.projectId }
        : { projectId: options.projectId, credential: options.credential },
      adminName,
    );
  const adminAuth = getAdminAuth(adminApp);

  function formProvider(): ServerAuthProvider {
    const host = emulatorHost();
    const apiKey = options.apiKey ?? (host !== null ? 'emulator-api-key' : undefined);
    if (apiKey === undefined) {
      throw new Error('createFirebaseServer: `apiKey` is required for REST calls outside the Auth emulator.');
    }
    return createFirebaseFormProvider({
      apiKey,
      emulatorHost: host,
      ...(options.fetch !== undefined && { fetch: options.fetch }),
      ...(options.emailEnumerationProtection !== undefined && {
        emailEnumerationProtection: options.emailEnumerationProtection,
      }),
      ...(options.federatedProviders !== undefined && { federatedProviders: options.federatedProviders }),
      ...(options.languageCode !== undefined && { languageCode: options.languageCode }),
    });
  }

  return {
    adminAuth,

    async createSessionCookie(idToken, { expiresInMs }) {
      try {
        return await adminAuth.createSessionCookie(idToken, { expiresIn: expiresInMs });
      } catch (e) {
        throw toAuthError(e, 'session');
      }
    },

    async verifySessionCookie(cookie, { checkRevoked = false } = {}) {
      if (cookie == null || cookie === '') return null;
      try {
        return toSessionUser(await adminAuth.verifySessionCookie(cookie, checkRevoked));
      } catch (e) {
        if (hasAuthCode(e)) return null;
        throw toAuthError(e, 'session');
      }
    },

    async revokeSessions(uid) {
      try {
        await adminAuth.revokeRefreshTokens(uid);
      } catch (e) {
        throw toAuthError(e, 'session');
      }
    },

    async getUser(uid) {
      try {
        const record = await adminAuth.getUser(uid);
        return {
          uid: record.uid,
          email: record.email ?? null,
          displayName: record.displayName ?? null,
          phoneNumber: record.phoneNumber ?? null,
          emailVerified: record.emailVerified,
          isAnonymous: record.providerData.length === 0 && !record.email && !record.phoneNumber,
          providerIds: [...new Set(record.providerData.map((p) => p.providerId))],
          tenantId: record.tenantId ?? null,
        };
      } catch (e) {
        if (hasAuthCode(e) && (e as { code: string }).code === 'auth/user-not-found') return null;
        throw toAuthError(e, 'session');
      }
    },

    formProvider,

    serverProvider: formProvider,
  };
}
