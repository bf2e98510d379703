/**
 * The server flow's `onSignedIn`: the host's session is started by the engine's own request, before the
 * result is made, so the card a visitor gets already says whether a session exists.
 */
import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../src/config.ts';
import { AuthError } from '../src/errors.ts';
import type { MessageKey } from '../src/messages.ts';
import type { AuthUser, ProviderCapabilities, SignInResult } from '../src/provider.ts';
import type { ServerAuthProvider } from '../src/serverContract.ts';
import { createServerFlow, type ServerHandleOptions, type ServerSignIn } from '../src/serverFlow.ts';

// A test value shaped as `openssl rand -base64 48` output.
const SECRET = '9q8MYcxYs4g4Ok1UV-J5T9zL5dlilEFsS7lpt1PQr-c';
const ORIGIN = 'https://app.example';
const LOGIN = `${ORIGIN}/login?signInSuccessUrl=%2Fhome`;

const CAPABILITIES: ProviderCapabilities = {
  password: true,
  emailLink: false,
  phone: false,
  anonymous: true,
  federated: [],
  popup: false,
  redirect: false,
  tenants: false,
  reliableSignInMethodLookup: true,
  actionCodes: [],
  captcha: false,
};

const GUEST: AuthUser = {
  uid: 'guest-1',
  email: null,
  displayName: null,
  phoneNumber: null,
  emailVerified: false,
  isAnonymous: true,
  providerIds: [],
  tenantId: null,
};

/**
 * A backend that knows guests only: a guest sign-in gives the token `guest-token`; every other call is
 * refused as the backend's `generic` failure.
 */
function guestsOnly(): ServerAuthProvider {
  let token: string | null = null;
  let user: AuthUser | null = null;
  const known: Partial<ServerAuthProvider> = {
    capabilities: CAPABILITIES,
    sessionToken: () => token,
    getCurrentUser: () => user,
    setTenant: async () => {},
    async signInAnonymously(): Promise<SignInResult> {
      token = 'guest-token';
      user = GUEST;
      return { user: GUEST, isNewUser: true, providerId: 'anonymous' };
    },
    async signOut() {
      token = null;
      user = null;
    },
  };
  return new Proxy(known as ServerAuthProvider, {
    get: (target, name: string) =>
      name in target
        ? target[name as keyof ServerAuthProvider]
        : () => Promise.reject(new AuthError('generic')),
  });
}

const flow = createServerFlow({ secret: SECRET });
const config = normalizeConfig({ signInOptions: ['anonymous'] }, ORIGIN);

/** The guest option's form posted on the first card, with the cookie that card set. */
async function signInAsGuest(options: ServerHandleOptions) {
  const first = await flow.handle(new Request(LOGIN), guestsOnly(), config);
  const cookie = first.setCookie.split(';')[0] ?? '';
  const post = new Request(LOGIN, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ event: 'CHOOSE_PROVIDER', providerId: 'anonymous' }).toString(),
  });
  return flow.handle(post, guestsOnly(), config, options);
}

describe('createServerFlow: onSignedIn', () => {
  it('hands the sign-in to the host once, and a started session leaves the sign-in and its redirect', async () => {
    const seen: ServerSignIn[] = [];
    const out = await signInAsGuest({
      onSignedIn: async (signIn) => {
        seen.push(signIn);
        return null;
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ sessionToken: 'guest-token', result: { providerId: 'anonymous' } });
    expect(out.signedIn?.sessionToken).toBe('guest-token');
    expect(out.redirect).toBe(`${ORIGIN}/home`);
    expect(out.status).toBe(303);
    expect(out.setCookie).toMatch(/Max-Age=0/);
  });

  it('a session the host refuses: the error card with its message, no sign-in, no redirect', async () => {
    const refusal: MessageKey = 'network-request-failed';
    const out = await signInAsGuest({ onSignedIn: async () => refusal });
    expect(out.state).toMatchObject({ card: 'recoverableError', message: refusal, retry: null });
    expect(out.signedIn).toBeNull();
    expect(out.redirect).toBeNull();
    expect(out.status).toBe(200);
    // Nothing goes on from a sign-in whose session was refused: the next request starts over.
    expect(out.setCookie).toMatch(/Max-Age=0/);
  });

  it('a callback that throws counts as the generic failure', async () => {
    const out = await signInAsGuest({
      onSignedIn: () => Promise.reject(new Error('session store down')),
    });
    expect(out.state).toMatchObject({ card: 'recoverableError', message: 'generic' });
    expect(out.signedIn).toBeNull();
  });

  it('without the callback, the sign-in is handed out for the host to start its session', async () => {
    const out = await signInAsGuest({});
    expect(out.signedIn?.sessionToken).toBe('guest-token');
    expect(out.state.card).toBe('signedIn');
  });
});
