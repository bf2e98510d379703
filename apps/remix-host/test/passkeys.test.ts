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
  relyingParty,
  withPasskeySignIns,
} from '../app/passkeys.server.ts';
import type { SessionBackend } from '../app/session.server.ts';
import { configError, request } from './fakes.ts';

const LOCAL = 'http://localhost:3000';

/** firebase-admin's Auth as far as the passkey server's sign-in options need it: not at all. */
function fakeAdmin(): PasskeyAdminAuth & { tokens: unknown[] } {
  const tokens: unknown[] = [];
  return {
    tokens,
    verifyIdToken: vi.fn(async () =>
      Promise.reject(Object.assign(new Error('bad'), { code: 'auth/argument-error' })),
    ),
    getUser: vi.fn(),
    setCustomUserClaims: vi.fn(),
    createCustomToken: vi.fn(async (uid: string, claims?: object) => {
      tokens.push({ uid, claims });
      return 'custom-token';
    }),
  } as unknown as PasskeyAdminAuth & { tokens: unknown[] };
}

function handler(auth: PasskeyAdminAuth | null, rpId: string | null = null, allowedOrigins: string[] = []) {
  return passkeyHandler({ auth, rpId, rpName: 'Doorway', allowedOrigins, store: passkeyChallengeStore() });
}

const options = (base: string, origin: string | null = base) =>
  request('/passkeys/authentication/options', { method: 'POST', base, origin });

describe('the relying party of a request', () => {
  it('should be the request’s hostname, or the setting, with the trusted origins on it', () => {
    expect(relyingParty(request('/passkeys', { base: LOCAL }), null, [])).toEqual({
      rpId: 'localhost',
      origins: [LOCAL],
    });
    const proxied = request('/passkeys', { base: 'http://127.0.0.1:3000' });
    expect(
      relyingParty(proxied, 'example.com', [
        'https://example.com',
        'https://app.example.com',
        'https://evil.test',
      ]),
    ).toEqual({ rpId: 'example.com', origins: ['https://example.com', 'https://app.example.com'] });
  });

  it('should be none on an IP address, or when no trusted origin is on the RP ID', () => {
    expect(isIpHost('127.0.0.1')).toBe(true);
    expect(isIpHost('[::1]')).toBe(true);
    expect(isIpHost('localhost')).toBe(false);
    expect(relyingParty(request('/passkeys'), null, [])).toBeNull();
    expect(relyingParty(request('/passkeys', { base: LOCAL }), 'example.com', [])).toBeNull();
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

  it('should refuse writes from another origin (403) and answer 404 on an IP address or without a server', async () => {
    expect((await handler(fakeAdmin())(options(LOCAL, 'https://evil.example'))).status).toBe(403);
    expect((await handler(fakeAdmin())(options(LOCAL, null))).status).toBe(403);
    const ip = await handler(fakeAdmin())(options('http://127.0.0.1:3000'));
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
  it('should default to the request’s hostname and Doorway, and take a domain name', () => {
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
