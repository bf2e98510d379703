/**
 * Server side of the Firebase adapter (`@doorway/adapter-firebase/server`): session cookies with
 * firebase-admin, and per-request providers over the Identity Toolkit REST API: the form provider a
 * server runs the sign-in flow on, and the action-code subset of {@link AuthProvider} for action routes.
 *
 * Emulator-aware: when `FIREBASE_AUTH_EMULATOR_HOST` is set (as `firebase emulators:exec` does),
 * firebase-admin talks to the emulator and needs no credentials, and the REST calls go there too.
 * @module
 */
import type { SecondFactorKind } from '@doorway/auth-core';
import type {
  ActionCodeProvider,
  AuthServer,
  ServerAuthProvider,
  SessionBackend,
} from '@doorway/auth-core/server';
import {
  type App,
  type Credential,
  getApps as getAdminApps,
  initializeApp as initializeAdminApp,
} from 'firebase-admin/app';
import { type Auth as AdminAuth, getAuth as getAdminAuth } from 'firebase-admin/auth';
import { createFirebaseFormProvider } from './server/form.ts';
import { adminSessions, createCustomToken } from './server/sessions.ts';

// The core declares the server contract once; these names stay importable from here.
export type { ActionCodeProvider, SessionUser } from '@doorway/auth-core/server';
export {
  createFirebaseFormProvider,
  type FirebaseFormProviderOptions,
} from './server/form.ts';

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
  /** As the browser provider's option: the second factors the project has enabled. Default `['phone', 'totp']`. */
  secondFactors?: readonly SecondFactorKind[];
  /** The issuer an authenticator app shows for a TOTP enrolment made by the form provider. Default: `projectId`. */
  totpIssuer?: string;
}

/**
 * What {@link createFirebaseServer} returns: the core's {@link AuthServer} (its `sessions()` is the server
 * itself) with the session operations at hand. Session cookies: `createSessionCookie` takes a fresh ID
 * token (posted by the client after sign-in), `expiresInMs` between 5 minutes and 14 days;
 * `verifySessionCookie` with `checkRevoked` costs a lookup.
 */
export interface FirebaseServer extends SessionBackend {
  /** The firebase-admin Auth instance, for anything else the host needs. */
  readonly adminAuth: AdminAuth;
  /** The session operations of one request: this server (they hold no per-request state). */
  sessions(): FirebaseServer;
  /**
   * A firebase-admin custom token for `uid` (valid one hour), for the browser SDK's
   * `signInWithCustomToken`: a page whose session cookie the server has verified gets the same user in
   * its SDK (e.g. to manage second factors after a sign-in made on the form path). Mint it only for the
   * uid of a verified session, and never log it. Needs a service-account credential outside the
   * emulator. Rejects as `AuthError` (`session` context) when Firebase refuses.
   */
  createCustomToken(uid: string): Promise<string>;
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

/** The firebase-admin app of these options, created once per name. */
function adminAppOf(options: FirebaseServerOptions): App {
  const adminName = `${options.appName ?? 'doorway-server'}-admin-${options.projectId}`;
  return (
    getAdminApps().find((app) => app.name === adminName) ??
    initializeAdminApp(
      options.credential === undefined
        ? { projectId: options.projectId }
        : { projectId: options.projectId, credential: options.credential },
      adminName,
    )
  );
}

/** A fresh form provider for one request, its REST calls going to the emulator when one is set. */
function formProviderOf(options: FirebaseServerOptions): ServerAuthProvider {
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
    ...(options.secondFactors !== undefined && { secondFactors: options.secondFactors }),
    totpIssuer: options.totpIssuer ?? options.projectId,
  });
}

/**
 * Creates the server helpers: firebase-admin for session cookies, and per-request REST providers.
 * @example
 * const server = createFirebaseServer({ projectId: process.env.FIREBASE_PROJECT_ID!, apiKey: process.env.FIREBASE_API_KEY });
 * const cookie = await server.createSessionCookie(idToken, { expiresInMs: 5 * 24 * 3600 * 1000 });
 * const user = await server.verifySessionCookie(readCookie(request), { checkRevoked: true });
 */
export function createFirebaseServer(options: FirebaseServerOptions): FirebaseServer {
  const adminAuth = getAdminAuth(adminAppOf(options));
  const formProvider = (): ServerAuthProvider => formProviderOf(options);
  const server: FirebaseServer = {
    adminAuth,
    ...adminSessions(adminAuth),
    sessions: () => server,
    createCustomToken: (uid) => createCustomToken(adminAuth, uid),
    formProvider,
    serverProvider: formProvider,
  };
  // The core's server contract: a drift between it and this server fails typecheck here.
  return server satisfies AuthServer;
}

export {
  createMemoryChallengeStore,
  type MemoryChallengeStoreOptions,
  type PasskeyChallenge,
  type PasskeyChallengeStore,
} from './server/passkeyChallenges.ts';
export { CUSTOM_CLAIMS_LIMIT, PASSKEY_NAME_MAX } from './server/passkeyClaims.ts';
export type { PasskeyAdminAuth } from './server/passkeyHttp.ts';
export {
  createPasskeyServer,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_RECENT_SIGN_IN_MS,
  type PasskeyServer,
  type PasskeyServerOptions,
} from './server/passkeys.ts';
export type * from './shared/passkeyWire.ts';
export { PASSKEY_ROUTES } from './shared/passkeyWire.ts';
