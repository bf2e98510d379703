/**
 * `/passkeys/*` on Firebase: the adapter's passkey server (`createPasskeyServer` of
 * `@doorway/adapter-firebase/server`) on the host's firebase-admin Auth. Firebase has no passkeys of its own:
 * the WebAuthn ceremonies are verified here and a passkey sign-in ends with a custom token, which carries
 * {@link PASSKEY_SIGN_IN_CLAIM} so the session made from it says it was a passkey (`signInProvider`
 * `passkey`, not firebase's `custom`).
 *
 * The relying party comes from the configuration only, never from a request's `Host` (issue 24), see
 * {@link passkeyRelyingParty}: its id is `DOORWAY_PASSKEY_RP_ID`, else the public origin's hostname
 * (`DOORWAY_PUBLIC_ORIGIN`), else `localhost` in development; ceremonies may come from the public origin
 * (in development the listening origins `http://localhost:<PORT>` and `http://127.0.0.1:<PORT>`) and
 * `DOORWAY_ALLOWED_ORIGINS`, those whose hostname is the RP ID or below it. WebAuthn refuses IP addresses as
 * RP ID: an IP address as the only choice gets 404 `passkeys-unsupported`. Writes are same-origin only (403
 * otherwise), as every state-changing request of the host; every answer is `no-store`; nothing here logs
 * (credentials and tokens never reach a log).
 *
 * Adding a passkey asks for a sign-in within the last few minutes (the passkey server checks the ID
 * token's sign-in, {@link markPasskeySignIns} makes a browser sign-in's token count from the person's own
 * sign-in), and removing one ends every session of the user.
 * @module
 */
import { isIP } from 'node:net';
import {
  createPasskeyServer,
  type PasskeyAdminAuth,
  type PasskeyChallengeStore,
  type PasskeyServer,
} from '@doorway/adapter-firebase/server';
import type { SessionBackend } from '@doorway/auth-core/server';
import type { HostConfig } from './config.server.ts';
import { unverifiedClaims } from './jwt.server.ts';
import { isTrustedOrigin } from './origin.server.ts';
import { PASSKEYS_PATH } from './passkeys-path.ts';
import { hostChallengeStore } from './redis-stores.server.ts';
import { forbidden, SIGN_IN_TIME_CLAIM } from './session.server.ts';

export { PASSKEYS_PATH };

/** The custom token claim that marks a passkey sign-in (a developer claim: it rides in the ID token). */
export const PASSKEY_SIGN_IN_CLAIM = 'doorway_sign_in';

/** The host's relying party: its id and the origins its ceremonies may come from. */
export interface RelyingParty {
  rpId: string;
  origins: string[];
}

/** Whether a URL hostname is an IP address (`127.0.0.1`, `[::1]`), which WebAuthn refuses as RP ID. */
export function isIpHost(hostname: string): boolean {
  return isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/**
 * The host's relying party, from its configuration only (issue 24: a request's `Host` is whatever the
 * client wrote). The id: `passkeyRpId`, else the public origin's hostname, else `localhost`. The origins:
 * the public origin (without one, the listening origins `http://localhost:<port>` and
 * `http://127.0.0.1:<port>`) and the allowed origins, those whose hostname is the id or below it. `null`
 * when the id would be an IP address or no origin fits it.
 */
export function passkeyRelyingParty(
  config: Pick<HostConfig, 'passkeyRpId' | 'publicOrigin' | 'allowedOrigins' | 'port'>,
): RelyingParty | null {
  const listening =
    config.publicOrigin === null
      ? [`http://localhost:${config.port}`, `http://127.0.0.1:${config.port}`]
      : [config.publicOrigin];
  const id = config.passkeyRpId ?? new URL(listening[0] ?? 'http://localhost').hostname;
  if (isIpHost(id)) return null;
  const origins = [...new Set([...listening, ...config.allowedOrigins])].filter((origin) => {
    const host = new URL(origin).hostname;
    return host === id || host.endsWith(`.${id}`);
  });
  return origins.length === 0 ? null : { rpId: id, origins };
}

/** What {@link handlePasskeys} is configured with. */
export interface PasskeyHostOptions {
  /** firebase-admin's Auth (wrapped by {@link markPasskeySignIns}); `null` where there is no passkey server. */
  auth: PasskeyAdminAuth | null;
  /** The configured relying party ({@link passkeyRelyingParty}); `null`: no passkeys. */
  relyingParty: RelyingParty | null;
  rpName: string;
  /** The host's trusted origins, for the origin check of writes. */
  allowedOrigins: readonly string[];
  store: PasskeyChallengeStore;
}

function unsupported(): Response {
  return new Response(JSON.stringify({ error: { code: 'passkeys-unsupported' } }), {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The handler of `/passkeys/*`: the passkey server of the configured relying party. */
export function passkeyHandler(options: PasskeyHostOptions): (request: Request) => Promise<Response> {
  const { auth, relyingParty: rp } = options;
  const server: PasskeyServer | null =
    auth === null || rp === null
      ? null
      : createPasskeyServer({
          auth,
          rpId: rp.rpId,
          rpName: options.rpName,
          origins: rp.origins,
          basePath: PASSKEYS_PATH,
          store: options.store,
        });
  return async (request) => {
    if (server === null) return unsupported();
    if (WRITES.has(request.method) && !isTrustedOrigin(request, options.allowedOrigins)) return forbidden();
    const response = await server.handle(request);
    response.headers.set('cache-control', 'no-store');
    return response;
  };
}

/**
 * A process-wide challenge store: this process's memory, or Redis when `DOORWAY_REDIS_URL` is set (a
 * ceremony's answer may reach another process; see `redis-stores.server.ts`).
 */
export function passkeyChallengeStore(): PasskeyChallengeStore {
  return hostChallengeStore();
}

/**
 * firebase-admin's Auth as the passkey server uses it: its custom tokens (minted by a passkey sign-in only)
 * carry the passkey claim, and a verified ID token's `auth_time` is the person's own sign-in: the earlier
 * {@link SIGN_IN_TIME_CLAIM} when the token comes from a browser sign-in (`POST /account/browser-sign-in`),
 * whose custom-token sign-in Firebase stamps with its own moment (issue 24).
 */
export function markPasskeySignIns(auth: PasskeyAdminAuth): PasskeyAdminAuth {
  return {
    async verifyIdToken(token, checkRevoked) {
      const decoded = await auth.verifyIdToken(token, checkRevoked);
      const carried: unknown = decoded[SIGN_IN_TIME_CLAIM];
      return typeof carried === 'number' && Number.isFinite(carried) && carried < decoded.auth_time
        ? { ...decoded, auth_time: carried }
        : decoded;
    },
    getUser: (uid) => auth.getUser(uid),
    setCustomUserClaims: (uid, claims) => auth.setCustomUserClaims(uid, claims),
    revokeRefreshTokens: (uid) => auth.revokeRefreshTokens(uid),
    createCustomToken: (uid, claims) =>
      auth.createCustomToken(uid, { ...claims, [PASSKEY_SIGN_IN_CLAIM]: 'passkey' }),
  };
}

/**
 * Sessions whose user says `signInProvider: 'passkey'` when the session was made from a passkey sign-in
 * (firebase says `custom`, as for any custom token): the claim is read only from a cookie firebase-admin
 * has just verified.
 */
export function withPasskeySignIns(backend: SessionBackend): SessionBackend {
  return {
    createSessionCookie: (token, options) => backend.createSessionCookie(token, options),
    revokeSessions: (uid) => backend.revokeSessions(uid),
    getUser: (uid) => backend.getUser(uid),
    async verifySessionCookie(cookie, options) {
      const user = await backend.verifySessionCookie(cookie, options);
      if (user === null || cookie == null || user.signInProvider !== 'custom') return user;
      return unverifiedClaims(cookie)?.[PASSKEY_SIGN_IN_CLAIM] === 'passkey'
        ? { ...user, signInProvider: 'passkey' }
        : user;
    },
  };
}
