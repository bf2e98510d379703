import type { PasskeyAdminAuth } from '@doorway/adapter-firebase/server';
import type { SessionUser } from '@doorway/auth-core/server';
import { describe, expect, it, vi } from 'vitest';
import { parseHostConfig } from '../app/config.server.ts';
import {
  isIpHost,
  markPasskeySignIns,
  PASSKEY_SIGN_IN_CLAIM,
  passkeyChallengeStore,
  passkeyHandler,
  passkeyRelyingParty,
  type RelyingParty,
  withPasskeySignIns,
} from '../app/passkeys.server.ts';
import { type SessionBackend, SIGN_IN_TIME_CLAIM } from '../app/session.server.ts';
import { configError, request } from './fakes.ts';

const LOCAL = 'http://localhost:3000';

/** firebase-admin's Auth as far as the passkey server's sign-in options need it: not at all. */
function fakeAdmin(): PasskeyAdminAuth & { tokens: unknown[] } {
  const tokens: unknown[] = [];
  return {
    tokens,
    verifyIdToken: vi.fn(async (token: string) => {
      // `token:<auth_time>[:<carried sign-in time>]`, else refused as firebase-admin would.
      const [kind, authTime, carried] = token.split(':');
      if (kind !== 'token') throw Object.assign(new Error('bad'), { code: 'auth/argument-error' });
      return {
        uid: 'uid-ada',
        auth_time: Number(authTime),
        ...(carried === undefined ? {} : { [SIGN_IN_TIME_CLAIM]: Number(carried) }),
      };
    }),
    getUser: vi.fn(),
    setCustomUserClaims: vi.fn(),
    revokeRefreshTokens: vi.fn(),
    createCustomToken: vi.fn(async (uid: string, claims?: object) => {
      tokens.push({ uid, claims });
      return 'custom-token';
    }),
  } as unknown as PasskeyAdminAuth & { tokens: unknown[] };
}

const DEVELOPMENT = { passkeyRpId: null, publicOrigin: null, allowedOrigins: [], port: 3000 };

function handler(
  auth: PasskeyAdminAuth | null,
  relyingParty: RelyingParty | null = passkeyRelyingParty(DEVELOPMENT),
) {
  return passkeyHandler({
    auth,
    relyingParty,
    rpName: 'Doorway',
    allowedOrigins: [],
    store: passkeyChallengeStore(),
  });
}

const options = (base: string, origin: string | null = base) =>
  request('/passkeys/authentication/options', { method: 'POST', base, origin });

describe('the relying party, from the configuration only (issue 24)', () => {
  it('should be localhost and the listening origin in development, the public origin’s host once configured', () => {
    expect(passkeyRelyingParty(DEVELOPMENT)).toEqual({ rpId: 'localhost', origins: [LOCAL] });
    expect(
      passkeyRelyingParty({
        ...DEVELOPMENT,
        publicOrigin: 'https://app.example.com',
        allowedOrigins: ['https://app.example.com'],
      }),
    ).toEqual({ rpId: 'app.example.com', origins: ['https://app.example.com'] });
    expect(
      passkeyRelyingParty({
        passkeyRpId: 'example.com',
        publicOrigin: 'https://example.com',
        allowedOrigins: ['https://app.example.com', 'https://evil.test'],
        port: 3000,
      }),
    ).toEqual({ rpId: 'example.com', origins: ['https://example.com', 'https://app.example.com'] });
  });

  it('should be none on an IP address, or when no configured origin is on the RP ID', () => {
    expect(isIpHost('127.0.0.1')).toBe(true);
    expect(isIpHost('[::1]')).toBe(true);
    expect(isIpHost('localhost')).toBe(false);
    expect(passkeyRelyingParty({ ...DEVELOPMENT, publicOrigin: 'http://127.0.0.1:3000' })).toBeNull();
    expect(passkeyRelyingParty({ ...DEVELOPMENT, passkeyRpId: 'example.com' })).toBeNull();
  });

  it('should ignore the request’s Host: the same relying party whatever a client writes there', async () => {
    for (const base of [LOCAL, 'http://evil.example:3000', 'http://127.0.0.1:3000']) {
      const response = await handler(fakeAdmin())(options(base, null));
      // No Origin and no Sec-Fetch-Site: refused before anything (writes are same-origin only).
      expect(response.status).toBe(403);
    }
    for (const base of ['http://evil.example:3000', 'http://localhost.evil.example:3000']) {
      const response = await handler(fakeAdmin())(
        request('/passkeys/authentication/options', {
          method: 'POST',
          base,
          headers: { 'sec-fetch-site': 'same-origin' },
        }),
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as { options: { rpId: string } };
      expect(body.options.rpId, base).toBe('localhost');
    }
  });
});

describe('/passkeys/*', () => {
  it('should answer the sign-in options for the request’s relying party, no-store', async () => {
    const response = await handler(fakeAdmin())(options(LOCAL));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { challengeId: string; options: { rpId: string } };
    expect(body.options.rpId).toBe('localhost');
    expect(typeof body.challengeId).toBe('string');
  });

  it('should refuse writes from another origin (403) and answer 404 without a relying party or a server', async () => {
    expect((await handler(fakeAdmin())(options(LOCAL, 'https://evil.example'))).status).toBe(403);
    expect((await handler(fakeAdmin())(options(LOCAL, null))).status).toBe(403);
    const ip = await handler(fakeAdmin(), null)(options(LOCAL));
    expect(ip.status).toBe(404);
    expect(await ip.json()).toEqual({ error: { code: 'passkeys-unsupported' } });
    const none = await handler(null)(options(LOCAL));
    expect(none.status).toBe(404);
    expect(none.headers.get('cache-control')).toBe('no-store');
  });

  it('should refuse the signed-in routes without a valid bearer, saying nothing of the token', async () => {
    const list = request('/passkeys/credentials', {
      base: LOCAL,
      headers: { authorization: 'Bearer not-a-token' },
    });
    const response = await handler(fakeAdmin())(list);
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('not-a-token');
  });
});

describe('passkey sign-ins in the session', () => {
  it('should mark the custom tokens of the passkey server', async () => {
    const admin = fakeAdmin();
    await markPasskeySignIns(admin).createCustomToken('uid-ada');
    expect(admin.tokens).toEqual([{ uid: 'uid-ada', claims: { [PASSKEY_SIGN_IN_CLAIM]: 'passkey' } }]);
  });

  it('should count a browser sign-in’s ID token from the sign-in it carries, so it adds no passkey once that is old (issue 24)', async () => {
    const admin = markPasskeySignIns(fakeAdmin());
    expect((await admin.verifyIdToken('token:2000:1000')).auth_time).toBe(1000);
    expect((await admin.verifyIdToken('token:2000')).auth_time).toBe(2000);
    // A claim later than the token's own sign-in makes nothing fresher.
    expect((await admin.verifyIdToken('token:2000:3000')).auth_time).toBe(2000);
    // Through the handler: a token signed in now that carries a sign-in of an hour ago is refused.
    const now = Math.floor(Date.now() / 1000);
    const register = (token: string) =>
      handler(fakeAdmin())(
        request('/passkeys/registration/options', {
          method: 'POST',
          base: LOCAL,
          origin: LOCAL,
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const stale = await register(`token:${now}:${now - 3600}`);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ error: { code: 'requires-recent-login' } });
  });

  it('should pass revocations through (a removed passkey ends the user’s sessions)', async () => {
    const base = fakeAdmin();
    await markPasskeySignIns(base).revokeRefreshTokens('uid-ada');
    expect(base.revokeRefreshTokens).toHaveBeenCalledWith('uid-ada');
  });

  it('should say passkey for a custom-token session with the claim only', async () => {
    const user = { uid: 'uid-ada', signInProvider: 'custom' } as SessionUser;
    const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
    const backend = {
      verifySessionCookie: async (cookie: string | null | undefined) =>
        cookie?.startsWith('password') ? { ...user, signInProvider: 'password' } : cookie ? user : null,
    } as unknown as SessionBackend;
    const sessions = withPasskeySignIns(backend);
    const marked = jwt({ [PASSKEY_SIGN_IN_CLAIM]: 'passkey' });
    expect((await sessions.verifySessionCookie(marked))?.signInProvider).toBe('passkey');
    expect((await sessions.verifySessionCookie(jwt({})))?.signInProvider).toBe('custom');
    expect((await sessions.verifySessionCookie(`password${marked}`))?.signInProvider).toBe('password');
    expect(await sessions.verifySessionCookie(null)).toBeNull();
  });
});

describe('passkey settings', () => {
  it('should default to no RP ID setting and Doorway, and take a domain name', () => {
    expect(parseHostConfig({})).toMatchObject({ passkeyRpId: null, passkeyRpName: 'Doorway' });
    expect(
      parseHostConfig({ DOORWAY_PASSKEY_RP_ID: 'Example.com', DOORWAY_PASSKEY_RP_NAME: 'Example' }),
    ).toMatchObject({ passkeyRpId: 'example.com', passkeyRpName: 'Example' });
  });

  it('should refuse an IP address, a URL or a host:port as RP ID, and both settings on Supabase', () => {
    for (const id of ['127.0.0.1', 'https://example.com', 'example.com:3000', '[::1]', 'exa mple.com']) {
      expect(configError({ DOORWAY_PASSKEY_RP_ID: id }).variable).toBe('DOORWAY_PASSKEY_RP_ID');
    }
    expect(configError({ DOORWAY_PASSKEY_RP_NAME: 'x'.repeat(65) }).variable).toBe('DOORWAY_PASSKEY_RP_NAME');
    const supabase = {
      DOORWAY_PROVIDER: 'supabase',
      DOORWAY_SUPABASE_URL: 'https://ref.supabase.co',
      DOORWAY_SUPABASE_ANON_KEY: 'sb_publishable_key',
    };
    expect(configError({ ...supabase, DOORWAY_PASSKEY_RP_ID: 'example.com' }).variable).toBe(
      'DOORWAY_PASSKEY_RP_ID',
    );
  });
});
