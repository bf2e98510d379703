/**
 * The fake's server provider: a `ServerAuthProvider` for one request over the same in-memory backend as a
 * fake provider, so the form path runs with no backend at all (tests, demos).
 * @module
 */
import {
  AuthError,
  type AuthProvider,
  type ProviderCapabilities,
  type SecondFactorOperations,
  type SignInResult,
} from '@doorway/auth-core';
import { BROWSER_ONLY, type ServerAuthProvider } from '@doorway/auth-core/server';
import { openFakeSession } from '../provider.ts';
import type { FakeProvider, FakeUserRecord } from '../types.ts';

/** The session tokens a backend handed out: token → uid. Kept beside the backend, as a real one would. */
interface TokenRegistry {
  issued: number;
  readonly uids: Map<string, string>;
}

const registries = new WeakMap<FakeProvider, TokenRegistry>();

function registryOf(world: FakeProvider): TokenRegistry {
  let registry = registries.get(world);
  if (registry === undefined) {
    registry = { issued: 0, uids: new Map() };
    registries.set(world, registry);
  }
  return registry;
}

const refuse = (): Promise<never> => Promise.reject(new AuthError('operation-not-allowed'));

// A new token for `uid`: `fake-session-1`, `fake-session-2`, … per backend.
function issueToken(registry: TokenRegistry, uid: string): string {
  registry.issued += 1;
  const token = `fake-session-${registry.issued}`;
  registry.uids.set(token, uid);
  return token;
}

// The session's capabilities without the browser's; the same ones give the same object (they change
// with enumeration protection).
function serverCapabilities(session: AuthProvider): () => ProviderCapabilities {
  let seen: ProviderCapabilities | null = null;
  let capabilities: ProviderCapabilities | null = null;
  return () => {
    if (seen !== session.capabilities || capabilities === null) {
      seen = session.capabilities;
      // Account management is the browser provider's (no server account page yet).
      const { account: _account, ...rest } = seen;
      capabilities = {
        ...rest,
        phone: false,
        popup: false,
        redirect: false,
        captcha: false,
        passkeys: false,
      };
    }
    return capabilities;
  };
}

/**
 * A provider for one server request over `world`'s backend (its users, codes, outbox and faults), with a
 * tenant and a signed-in user of its own: create one per request, as with a real server provider.
 *
 * What needs a browser (captcha, phone, federated popup or redirect, credentials, linking, passkeys) is
 * refused with `operation-not-allowed` or absent; `capabilities` says so (`phone`, `popup`, `redirect`,
 * `captcha`, `passkeys` false; no `account`). Second
 * factors work as in the browser (an SMS second factor needs no captcha here): the pending sign-in lives in
 * the backend, so a later request's provider finishes what this one's challenge started.
 * {@link ServerAuthProvider.sessionToken} is an opaque token, `fake-session-1`, `fake-session-2`, … per
 * backend (deterministic); {@link verifyFakeSessionToken} maps it back to its user.
 * @example
 * const world = createFakeProvider();
 * world.backend.createUser({ email: 'ada@example.com', password: 'secret1' });
 * const provider = createFakeServerProvider(world);
 * await provider.signInWithEmailAndPassword('ada@example.com', 'secret1');
 * verifyFakeSessionToken(world, provider.sessionToken()!)?.email; // 'ada@example.com'
 */
export function createFakeServerProvider(world: FakeProvider): ServerAuthProvider {
  const session: AuthProvider = openFakeSession(world);
  const registry = registryOf(world);
  const capabilities = serverCapabilities(session);
  let token: string | null = null;

  const signedIn = async (pending: Promise<SignInResult>): Promise<SignInResult> => {
    const result = await pending;
    token = issueToken(registry, result.user.uid);
    return result;
  };
  const ops = session.secondFactors;
  // Finishing a second factor is a sign-in: it hands out a token too.
  const factors: SecondFactorOperations | undefined = ops && {
    ...ops,
    finishSignIn: (challenge, verificationId, code) =>
      signedIn(ops.finishSignIn(challenge, verificationId, code)),
  };

  return {
    ...BROWSER_ONLY,
    get capabilities() {
      return capabilities();
    },
    ...(factors === undefined ? {} : { secondFactors: factors }),
    sessionToken: () => token,
    getCurrentUser: () => session.getCurrentUser(),
    setTenant: (tenantId) => session.setTenant(tenantId),
    fetchSignInMethodsForEmail: (email) => session.fetchSignInMethodsForEmail(email),
    signInWithEmailAndPassword: (email, password) =>
      signedIn(session.signInWithEmailAndPassword(email, password)),
    createUser: (email, password, displayName) => signedIn(session.createUser(email, password, displayName)),
    signInAnonymously: () => signedIn(session.signInAnonymously()),
    sendSignInLinkToEmail: (email, settings) => session.sendSignInLinkToEmail(email, settings),
    isSignInWithEmailLink: (link) => session.isSignInWithEmailLink(link),
    signInWithEmailLink: (email, link, options) =>
      options?.link === true ? refuse() : signedIn(session.signInWithEmailLink(email, link)),
    sendPasswordResetEmail: (email, settings) => session.sendPasswordResetEmail(email, settings),
    verifyPasswordResetCode: (code) => session.verifyPasswordResetCode(code),
    confirmPasswordReset: (code, newPassword) => session.confirmPasswordReset(code, newPassword),
    checkActionCode: (code) => session.checkActionCode(code),
    applyActionCode: (code) => session.applyActionCode(code),
    async signOut() {
      await session.signOut();
      token = null;
    },
  };
}

/**
 * The user a session token from {@link createFakeServerProvider} on `world` belongs to, or `null` for a
 * token it never issued, a deleted user, or a disabled one. What a host does with a real provider's token
 * (verify the ID token, or read the user of an access token).
 */
export function verifyFakeSessionToken(world: FakeProvider, token: string): FakeUserRecord | null {
  const uid = registries.get(world)?.uids.get(token);
  const user = uid === undefined ? null : world.backend.getUser(uid);
  return user === null || user.disabled ? null : user;
}
