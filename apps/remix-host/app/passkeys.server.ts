/**
 * `/passkeys/*` on Firebase: the adapter's passkey server (`createPasskeyServer` of
 * `@doorway/adapter-firebase/server`) on the host's firebase-admin Auth. Firebase has no passkeys of its own:
 * the WebAuthn ceremonies are verified here and a passkey sign-in ends with a custom token, which carries
 * {@link PASSKEY_SIGN_IN_CLAIM} so the session made from it says it was a passkey (`signInProvider`
 * `passkey`, not firebase's `custom`).
 *
 * The relying party: `DOORWAY_PASSKEY_RP_ID` when set, else the hostname of the request's own origin.
 * WebAuthn refuses IP addresses as RP ID, so a request on one (and no setting) gets 404
 * `passkeys-unsupported`. Ceremonies may come from the host's trusted origins (`origin.server.ts`) whose
 * hostname is the RP ID or below it. Writes are same-origin only (403 otherwise), as every state-changing
 * request of the host; every answer is `no-store`; nothing here logs (credentials and tokens never reach a
 * log). One challenge store serves every relying party, so a ceremony may start on one request and end on
 * another.
 * @module
 */
import { isIP } from 'node:net';
import {
  createMemoryChallengeStore,
  createPasskeyServer,
  type PasskeyAdminAuth,
  type PasskeyChallengeStore,
  type PasskeyServer,
} from '@doorway/adapter-firebase/server';
import type { SessionBackend } from '@doorway/auth-core/server';
import { unverifiedClaims } from './jwt.server.ts';
import { isTrustedOrigin, trustedOrigins } from './origin.server.ts';
import { PASSKEYS_PATH } from './passkeys-path.ts';
import { forbidden } from './session.server.ts';

export { PASSKEYS_PATH };

/** The custom token claim that marks a passkey sign-in (a developer claim: it rides in the ID token). */
export const PASSKEY_SIGN_IN_CLAIM = 'doorway_sign_in';

/** The relying party of a request: its id and the origins its ceremonies may come from. */
export interface RelyingParty {
  rpId: string;
  origins: string[];
}

/** Whether a URL hostname is an IP address (`127.0.0.1`, `[::1]`), which WebAuthn refuses as RP ID. */
export function isIpHost(hostname: string): boolean {
  return isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/**
 * The relying party of a request: `rpId` (else the request's hostname) and the trusted origins on it or
 * below it; `null` when the id would be an IP address or no trusted origin fits it.
 */
export function relyingParty(
  request: Request,
  rpId: string | null,
  allowedOrigins: readonly string[],
): RelyingParty | null {
  const id = rpId ?? new URL(request.url).hostname;
  if (isIpHost(id)) return null;
  const origins = trustedOrigins(request, allowedOrigins).filter((origin) => {
    const host = new URL(origin).hostname;
    return host === id || host.endsWith(`.${id}`);
  });
  return origins.length === 0 ? null : { rpId: id, origins };
}

/** What {@link handlePasskeys} is configured with. */
export interface PasskeyHostOptions {
  /** firebase-admin's Auth (wrapped by {@link markPasskeySignIns}); `null` where there is no passkey server. */
  auth: PasskeyAdminAuth | null;
  /** `DOORWAY_PASSKEY_RP_ID`, or `null` for the request's hostname. */
  rpId: string | null;
  rpName: string;
  allowedOrigins: readonly string[];
  /** Shared by every relying party's server. */
  store: PasskeyChallengeStore;
}

function unsupported(): Response {
  return new Response(JSON.stringify({ error: { code: 'passkeys-unsupported' } }), {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// A server per relying party (the RP id follows the request's host unless set): a few at most.
const MAX_SERVERS = 16;

/** The handler of `/passkeys/*`, keeping one passkey server per relying party. */
export function passkeyHandler(options: PasskeyHostOptions): (request: Request) => Promise<Response> {
  const servers = new Map<string, PasskeyServer>();
  const serverFor = (auth: PasskeyAdminAuth, rp: RelyingParty): PasskeyServer => {
    const key = `${rp.rpId} ${rp.origins.join(' ')}`;
    let server = servers.get(key);
    if (server === undefined) {
      if (servers.size >= MAX_SERVERS) servers.clear();
      server = createPasskeyServer({
        auth,
        rpId: rp.rpId,
        rpName: options.rpName,
        origins: rp.origins,
        basePath: PASSKEYS_PATH,
        store: options.store,
      });
      servers.set(key, server);
    }
    return server;
  };
  return async (request) => {
    const { auth } = options;
    if (auth === null) return unsupported();
    if (WRITES.has(request.method) && !isTrustedOrigin(request, options.allowedOrigins)) return forbidden();
    const rp = relyingParty(request, options.rpId, options.allowedOrigins);
    if (rp === null) return unsupported();
    const response = await serverFor(auth, rp).handle(request);
    response.headers.set('cache-control', 'no-store');
    return response;
  };
}

/** A process-wide challenge store (this process's memory; see the adapter's README for several). */
export function passkeyChallengeStore(): PasskeyChallengeStore {
  return createMemoryChallengeStore();
}

/** firebase-admin's Auth whose custom tokens (minted by a passkey sign-in only) carry the passkey claim. */
export function markPasskeySignIns(auth: PasskeyAdminAuth): PasskeyAdminAuth {
  return {
    verifyIdToken: (token, checkRevoked) => auth.verifyIdToken(token, checkRevoked),
    getUser: (uid) => auth.getUser(uid),
    setCustomUserClaims: (uid, claims) => auth.setCustomUserClaims(uid, claims),
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
