/**
 * Passkeys for Firebase, whose SDKs have none: a relying party any host mounts as web-standard
 * `Request → Response` handlers (JSON). The WebAuthn ceremony is verified here by `@simplewebauthn/server`;
 * the passkey's user then signs in with a firebase-admin custom token. Credentials live in the user's
 * custom claims (`passkeyClaims.ts`), challenges in a {@link PasskeyChallengeStore} (this process's memory
 * by default). The routes and their JSON are in `../shared/passkeyWire.ts`.
 * @module
 */
import type { ErrorCode } from '@doorway/auth-core';
import { PASSKEY_ROUTES } from '../shared/passkeyWire.ts';
import {
  authenticationOptions,
  authenticationVerify,
  listPasskeys,
  type PasskeyServerContext,
  registrationOptions,
  registrationVerify,
  removePasskey,
} from './passkeyCeremonies.ts';
import { createMemoryChallengeStore, type PasskeyChallengeStore } from './passkeyChallenges.ts';
import {
  bearerOf,
  json,
  jsonBody,
  noContent,
  type PasskeyAdminAuth,
  refusalResponse,
  refuse,
} from './passkeyHttp.ts';

/** How long a ceremony's challenge waits for its answer by default: 5 minutes. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/**
 * How recent a sign-in must be to add a passkey by default: 5 minutes, as Firebase asks of its own
 * sensitive changes (`requires-recent-login`).
 */
export const PASSKEY_RECENT_SIGN_IN_MS = 5 * 60 * 1000;

/** Options of {@link createPasskeyServer}. */
export interface PasskeyServerOptions {
  /**
   * firebase-admin's Auth (e.g. `createFirebaseServer(…).adminAuth`), or a tenant's `TenantAwareAuth`:
   * it verifies ID tokens, reads and writes custom claims and mints custom tokens.
   */
  auth: PasskeyAdminAuth;
  /** The relying party id: the site's registrable domain or host (`example.com`, `localhost`). */
  rpId: string;
  /** The name authenticators show for the relying party. */
  rpName: string;
  /** The origins ceremonies may come from (`https://example.com`, `http://localhost:3000`). */
  origins: readonly string[];
  /** Where the handlers are mounted: {@link PasskeyServer.handle} routes below it. Default `/passkeys`. */
  basePath?: string;
  /** How long a challenge waits for its answer. Default 5 minutes. */
  challengeTtlMs?: number;
  /**
   * Where challenges wait. Default: this process's memory ({@link createMemoryChallengeStore}); with
   * several server processes use a shared store.
   */
  store?: PasskeyChallengeStore;
  /** The clock of challenges and of the passkeys' dates (ms since the epoch). Default `Date.now`. */
  now?: () => number;
  /** The custom claim the passkeys are kept under. Default `pk`: the passkey server owns it. */
  claim?: string;
  /** Whether a bearer ID token is checked for revocation (one more lookup). Default `true`. */
  checkRevoked?: boolean;
  /**
   * How recent the sign-in (`auth_time`) of the ID token adding a passkey must be, in ms; an older one is
   * refused with `requires-recent-login` (sign in again). Default 5 minutes.
   */
  recentSignInMs?: number;
  /**
   * Whether removing a passkey revokes every session of its user (`revokeRefreshTokens`): whoever signed in
   * with it, or holds a session stolen with it, signs in again, the remover too. Default `true`.
   */
  endSessionsOnRemoval?: boolean;
}

/**
 * The passkey server: one handler per route (`../shared/passkeyWire.ts`), and {@link handle}, which routes any
 * request below `basePath` to them. Each resolves a JSON `Response` (a refusal is
 * `{ error: { code } }` with a 4xx status), never rejects, and logs nothing.
 */
export interface PasskeyServer {
  /** Routes a request below `basePath`; 404 for other paths, 405 for other methods. */
  handle(request: Request): Promise<Response>;
  /**
   * `POST /registration/options` (bearer, a recent sign-in): creation options for the signed-in user, with a
   * `challengeId`.
   */
  registrationOptions(request: Request): Promise<Response>;
  /** `POST /registration/verify` (bearer): `{ challengeId, response, name? }` → `{ passkey }`. */
  registrationVerify(request: Request): Promise<Response>;
  /** `POST /authentication/options`: request options for any passkey of the RP, with a `challengeId`. */
  authenticationOptions(request: Request): Promise<Response>;
  /** `POST /authentication/verify`: `{ challengeId, response }` → `{ customToken }` for the passkey's user. */
  authenticationVerify(request: Request): Promise<Response>;
  /** `GET /credentials` (bearer): `{ passkeys }`, oldest first. */
  list(request: Request): Promise<Response>;
  /** `DELETE /credentials/<id>` (bearer): 204, every session of the user ended. */
  remove(request: Request): Promise<Response>;
}

/** Runs a handler; refusals and anything unexpected become error answers (nothing is logged). */
async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return refusalResponse(error);
  }
}

/** The last path segment of a `DELETE /credentials/<id>` request. */
function credentialIdOf(request: Request): string {
  const segment = new URL(request.url).pathname.split('/').at(-1) ?? '';
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    refuse('passkey-not-found');
  }
  return id === '' || `/${id}` === PASSKEY_ROUTES.credentials ? refuse('passkey-not-found') : id;
}

function contextOf(options: PasskeyServerOptions): PasskeyServerContext {
  const now = options.now ?? Date.now;
  return {
    auth: options.auth,
    rpId: options.rpId,
    rpName: options.rpName,
    origins: [...options.origins],
    challengeTtlMs: options.challengeTtlMs ?? PASSKEY_CHALLENGE_TTL_MS,
    store: options.store ?? createMemoryChallengeStore({ now }),
    now,
    claim: options.claim ?? 'pk',
    recentSignInMs: options.recentSignInMs ?? PASSKEY_RECENT_SIGN_IN_MS,
    endSessionsOnRemoval: options.endSessionsOnRemoval ?? true,
  };
}

function notFound(): Response {
  return json({ error: { code: 'generic' satisfies ErrorCode } }, 404);
}

function methodNotAllowed(allow: string): Response {
  const response = json({ error: { code: 'generic' satisfies ErrorCode } }, 405);
  response.headers.set('allow', allow);
  return response;
}

/**
 * Creates the passkey server. Mount {@link PasskeyServer.handle} at `basePath` (the browser provider's
 * `passkeys.endpoint`), e.g. in Remix a splat route `passkeys.$.tsx` whose `loader` and `action` are
 * `({ request }) => passkeys.handle(request)`.
 * @example
 * const server = createFirebaseServer({ projectId });
 * const passkeys = createPasskeyServer({
 *   auth: server.adminAuth,
 *   rpId: 'example.com',
 *   rpName: 'Example',
 *   origins: ['https://example.com'],
 * });
 */
export function createPasskeyServer(options: PasskeyServerOptions): PasskeyServer {
  const ctx = contextOf(options);
  const checkRevoked = options.checkRevoked ?? true;
  const basePath = (options.basePath ?? '/passkeys').replace(/\/+$/, '');
  const bearer = (request: Request) => bearerOf(ctx.auth, request, checkRevoked);
  const handlers: Omit<PasskeyServer, 'handle'> = {
    registrationOptions: (request) =>
      answer(async () => json(await registrationOptions(ctx, await bearer(request)))),
    registrationVerify: (request) =>
      answer(async () => {
        const signedIn = await bearer(request);
        return json({ passkey: await registrationVerify(ctx, signedIn, await jsonBody(request)) });
      }),
    authenticationOptions: () => answer(async () => json(await authenticationOptions(ctx))),
    authenticationVerify: (request) =>
      answer(async () => json({ customToken: await authenticationVerify(ctx, await jsonBody(request)) })),
    list: (request) =>
      answer(async () => json({ passkeys: await listPasskeys(ctx, (await bearer(request)).uid) })),
    remove: (request) =>
      answer(async () => {
        const signedIn = await bearer(request);
        await removePasskey(ctx, signedIn, credentialIdOf(request));
        return noContent();
      }),
  };
  return { ...handlers, handle: (request) => route(handlers, basePath, request) };
}

/** The handler of a request below `basePath`. */
async function route(
  handlers: Omit<PasskeyServer, 'handle'>,
  basePath: string,
  request: Request,
): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return notFound();
  const path = pathname.slice(basePath.length).replace(/\/+$/, '');
  const posts: Record<string, (request: Request) => Promise<Response>> = {
    [PASSKEY_ROUTES.registrationOptions]: handlers.registrationOptions,
    [PASSKEY_ROUTES.registrationVerify]: handlers.registrationVerify,
    [PASSKEY_ROUTES.authenticationOptions]: handlers.authenticationOptions,
    [PASSKEY_ROUTES.authenticationVerify]: handlers.authenticationVerify,
  };
  const post = posts[path];
  if (post !== undefined) return request.method === 'POST' ? post(request) : methodNotAllowed('POST');
  if (path === PASSKEY_ROUTES.credentials) {
    return request.method === 'GET' ? handlers.list(request) : methodNotAllowed('GET');
  }
  const id = path.startsWith(`${PASSKEY_ROUTES.credentials}/`)
    ? path.slice(PASSKEY_ROUTES.credentials.length + 1)
    : '';
  if (id !== '' && !id.includes('/')) {
    return request.method === 'DELETE' ? handlers.remove(request) : methodNotAllowed('DELETE');
  }
  return notFound();
}
