import { describe, expect, it } from 'vitest';
import {
  clearSessionCookieHeader,
  endSession,
  LOGIN_FOR_ACCOUNT,
  readSessionCookie,
  requireAccount,
  SESSION_MAX_AGE_SECONDS,
  SIGNED_OUT,
  sessionCookieHeader,
  startSession,
} from '../app/session.server.ts';
import { fakeSessions, request } from './fakes.ts';

const ORIGIN = 'http://127.0.0.1:3000';

function attributes(setCookie: string | null): string[] {
  return (setCookie ?? '').split(';').map((s) => s.trim());
}

describe('session cookie', () => {
  it('should be HttpOnly, SameSite=Lax, Path=/, 5 days, without Secure on localhost and 127.0.0.1', () => {
    for (const host of ['http://127.0.0.1:3000/', 'http://localhost:3000/']) {
      expect(attributes(sessionCookieHeader('v', new URL(host)))).toEqual([
        'doorway_session=v',
        `Max-Age=${SESSION_MAX_AGE_SECONDS}`,
        'Path=/',
        'HttpOnly',
        'SameSite=Lax',
      ]);
    }
  });

  it('should be Secure everywhere else', () => {
    expect(attributes(sessionCookieHeader('v', new URL('https://app.example.com/')))).toContain('Secure');
    expect(attributes(sessionCookieHeader('v', new URL('http://10.0.0.2:3000/')))).toContain('Secure');
  });

  it('should be cleared with an empty value and Max-Age=0 under the same attributes', () => {
    expect(attributes(clearSessionCookieHeader(new URL('https://app.example.com/')))).toEqual([
      '__Host-doorway_session=',
      'Max-Age=0',
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
  });

  it('should be read from the Cookie header among others', () => {
    const read = (cookie?: string) =>
      readSessionCookie(request('/', cookie === undefined ? {} : { headers: { cookie } }));
    expect(read()).toBeNull();
    expect(read('a=1; doorway_session=abc.def; b=2')).toBe('abc.def');
    expect(read('doorway_session=')).toBeNull();
    expect(read('xdoorway_session=nope')).toBeNull();
  });
});

describe('startSession (POST /session)', () => {
  const post = (body: string, origin: string | null = ORIGIN, type = 'application/json') =>
    request('/session', { method: 'POST', origin, body, headers: { 'content-type': type } });

  it('should set the session cookie for a good ID token from the page’s own origin', async () => {
    const response = await startSession(post('{"idToken":"good-token"}'), fakeSessions(), []);
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBe(
      `doorway_session=cookie-ada; Max-Age=${SESSION_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('should accept the token as a form field too', async () => {
    const response = await startSession(
      post('idToken=good-token', ORIGIN, 'application/x-www-form-urlencoded'),
      fakeSessions(),
      [],
    );
    expect(response.status).toBe(204);
  });

  it('should refuse a cross-origin request with 403 and set nothing', async () => {
    for (const origin of ['https://evil.example', 'null', null]) {
      const response = await startSession(post('{"idToken":"good-token"}', origin), fakeSessions(), []);
      expect(response.status, String(origin)).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('should answer 400 without a token, 401 for a bad one, 503 when Firebase fails, 405 for GET', async () => {
    expect((await startSession(post('{}'), fakeSessions(), [])).status).toBe(400);
    expect((await startSession(post('not json'), fakeSessions(), [])).status).toBe(400);
    expect((await startSession(post(`{"idToken":"${'x'.repeat(20_000)}"}`), fakeSessions(), [])).status).toBe(
      400,
    );
    const bad = await startSession(post('{"idToken":"old-token"}'), fakeSessions(), []);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'Your sign-in session has expired. Please try again.' });
    expect(
      (await startSession(post('{"idToken":"good-token"}'), fakeSessions({ failing: true }), [])).status,
    ).toBe(503);
    expect((await startSession(request('/session'), fakeSessions(), [])).status).toBe(405);
  });
});

describe('endSession (POST /logout)', () => {
  const logout = (origin: string | null, cookie = 'doorway_session=cookie-ada') =>
    request('/logout', { method: 'POST', origin, headers: { cookie } });

  it('should revoke the sessions, clear the cookie and go to the sign-out card', async () => {
    const sessions = fakeSessions();
    const response = await endSession(logout(ORIGIN), sessions, []);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(SIGNED_OUT);
    expect(response.headers.get('set-cookie')).toContain('doorway_session=; Max-Age=0');
    expect(sessions.revoked).toEqual(['uid-ada']);
  });

  it('should still clear the cookie without a valid session', async () => {
    const sessions = fakeSessions();
    const response = await endSession(logout(ORIGIN, 'doorway_session=forged'), sessions, []);
    expect(response.status).toBe(303);
    expect(sessions.revoked).toEqual([]);
  });

  it('should refuse a cross-origin sign-out with 403 and revoke nothing', async () => {
    const sessions = fakeSessions();
    const response = await endSession(logout('https://evil.example'), sessions, []);
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(sessions.revoked).toEqual([]);
  });
});

describe('requireAccount (the /account loader)', () => {
  const page = (cookie?: string) => request('/account', cookie ? { headers: { cookie } } : {});

  async function thrown(promise: Promise<unknown>): Promise<Response> {
    try {
      await promise;
    } catch (e) {
      if (e instanceof Response) return e;
      throw e;
    }
    throw new Error('expected a thrown Response');
  }

  it('should show the account of a valid session, with the record’s linked methods', async () => {
    expect(await requireAccount(page('doorway_session=cookie-ada'), fakeSessions())).toEqual({
      uid: 'uid-ada',
      email: 'ada@example.com',
      displayName: 'Ada',
      phoneNumber: null,
      emailVerified: true,
      isAnonymous: false,
      signInProvider: 'password',
      providers: ['password', 'google.com'],
    });
  });

  it('should send a visitor without a cookie to the login page, back to /account after', async () => {
    const response = await thrown(requireAccount(page(), fakeSessions()));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
    expect(LOGIN_FOR_ACCOUNT).toBe('/login?signInSuccessUrl=%2Faccount');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('should clear an invalid, revoked or orphaned cookie on the way', async () => {
    const forged = await thrown(requireAccount(page('doorway_session=forged'), fakeSessions()));
    expect(forged.headers.get('set-cookie')).toContain('Max-Age=0');

    const revoked = fakeSessions();
    revoked.revoked.push('uid-ada');
    const afterRevoke = await thrown(requireAccount(page('doorway_session=cookie-ada'), revoked));
    expect(afterRevoke.headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);

    const deleted = fakeSessions();
    deleted.users.clear();
    const orphan = await thrown(requireAccount(page('doorway_session=cookie-ada'), deleted));
    expect(orphan.headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
  });
});
