/**
 * Server side of the Firebase adapter (`@doorway/adapter-firebase/server`): session cookies with
 * firebase-admin, and the action-code subset of {@link AuthProvider} for server-side action routes.
 *
 * Emulator-aware: when `FIREBASE_AUTH_EMULATOR_HOST` is set (as `firebase emulators:exec` does),
 * firebase-admin talks to the emulator and needs no credentials, and the action-code calls go there too.
 * @module
 */
import type { AuthProvider, AuthUser } from '@doorway/auth-core';
import { type FirebaseApp, getApps, initializeApp } from 'firebase/app';
import {
  type Auth,
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  connectAuthEmulator,
  getAuth,
  verifyPasswordResetCode,
} from 'firebase/auth';
import {
  type App,
  type Credential,
  getApps as getAdminApps,
  initializeApp as initializeAdminApp,
} from 'firebase-admin/app';
import { type Auth as AdminAuth, type DecodedIdToken, getAuth as getAdminAuth } from 'firebase-admin/auth';
import { toAuthError } from './errors.ts';
import { toActionCodeInfo } from './index.ts';

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
   * The project's web API key, used by the action-code calls. Not needed on the emulator (any value
   * works there); required for {@link FirebaseServer.serverProvider} against a real project.
   */
  apiKey?: string;
  /** firebase-admin credential. Default: application default credentials (none needed on the emulator). */
  credential?: Credential;
  /** Name prefix of the Firebase apps this creates (admin and client). Default `doorway-server`. */
  appName?: string;
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
   * A fresh action-code provider for one request. Each has its own tenant (set by `setTenant`), so
   * concurrent requests for different tenants do not interfere: call it once per request.
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
 * Creates the server helpers.
 *
 * Action codes use the modular client SDK in Node (its Node build supports every action-code call), with
 * one Auth instance per tenant so a request's tenant never leaks into another's. This reuses the client
 * error table as is; the alternative, raw Identity Toolkit REST calls (`accounts:resetPassword`,
 * `accounts:update` with an `oobCode`), would need a second table of server error names.
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
  const clients = new Map<string, Auth>();

  function clientAuth(tenantId: string | null): Auth {
    const key = tenantId ?? '';
    const cached = clients.get(key);
    if (cached !== undefined) return cached;
    const host = emulatorHost();
    const apiKey = options.apiKey ?? (host !== null ? 'emulator-api-key' : undefined);
    if (apiKey === undefined) {
      throw new Error(
        'createFirebaseServer: `apiKey` is required for action codes outside the Auth emulator.',
      );
    }
    const name = `${prefix}-client-${options.projectId}-${tenantId ?? 'default'}`;
    const app: FirebaseApp =
      getApps().find((a) => a.name === name) ?? initializeApp({ apiKey, projectId: options.projectId }, name);
    const auth = getAuth(app);
    if (host !== null && auth.emulatorConfig === null) {
      connectAuthEmulator(auth, `http://${host}`, { disableWarnings: true });
    }
    auth.tenantId = tenantId;
    clients.set(key, auth);
    return auth;
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

    serverProvider() {
      let tenant: string | null = null;
      const call = async <T>(op: (auth: Auth) => Promise<T>): Promise<T> => {
        // A missing apiKey is a configuration mistake: it throws as is, not as an AuthError.
        const auth = clientAuth(tenant);
        try {
          return await op(auth);
        } catch (e) {
          throw toAuthError(e, 'actionCode');
        }
      };
      return {
        async setTenant(tenantId) {
          tenant = tenantId;
        },
        checkActionCode: (code) => call(async (auth) => toActionCodeInfo(await checkActionCode(auth, code))),
        applyActionCode: (code) => call((auth) => applyActionCode(auth, code)),
        verifyPasswordResetCode: (code) => call((auth) => verifyPasswordResetCode(auth, code)),
        confirmPasswordReset: (code, newPassword) =>
          call((auth) => confirmPasswordReset(auth, code, newPassword)),
      };
    },
  };
}
