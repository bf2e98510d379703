/**
 * Session security of the host's server modules on the in-memory fakes: the cookie lives as long as the
 * session Firebase mints, a cookie planted before sign-in is never reused, and the refusals leave no
 * session behind. What needs the real Firebase cookie (expiry, revocation, logs) is in
 * e2e/host/session-security.spec.ts.
 */
import { messageFor } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import {
  type Audit,
  cookieMaxAge,
  endSession,
  FRESH_SIGN_IN_SECONDS,
  isFreshSignIn,
  LOGIN_FOR_ACCOUNT,
  readSessionCookie,
  requireAccount,
  SESSION_MAX_AGE_SECONDS,
  type SessionBackend,
  SIGN_IN_TIME_CLAIM,
  signInTimeOf,
  startSession,
} from '../app/session.server.ts';
import { fakeSessions, request } from './fakes.ts';

const ORIGIN = 'http://127.0.0.1:3000';

/** The fake backend, minting a new cookie value on every sign-in and recording what it was asked. */
function mintingSessions() {
  const base = fakeSessions();
  const minted: { idToken: string; expiresInMs: number; cookie: string }[] = [];
  const backend: SessionBackend = {
    ...base,
    async createSessionCookie(idToken, { expiresInMs }) {
      await base.createSessionCookie(idToken, { expiresInMs });
      const cookie = `cookie-ada-${minted.length + 1}`;
      minted.push({ idToken, expiresInMs, cookie });
      return cookie;
    },
    verifySessionCookie: (cookie, options) =>
      base.verifySessionCookie(minted.some((m) => m.cookie === cookie) ? 'cookie-ada' : cookie, options),
  };
  return { backend, minted };
}

const signIn = (cookie?: string, base?: string) =>
  request('/session', {
    method: 'POST',
    origin: base === undefined ? ORIGIN : new URL(base).origin,
    ...(base === undefined ? {} : { base }),
    body: '{"idToken":"good-token"}',
    headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
  });

function cookieOf(response: Response): { name: string; value: string; attributes: string[] } {
  const [pair = '', ...attributes] = (response.headers.get('set-cookie') ?? '')
    .split(';')
    .map((s) => s.trim());
  return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), attributes };
}

/** A JWT-shaped cookie value whose payload is `claims` (unsigned: only the lifetime is read from it). */
const jwt = (claims: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('session cookie lifetime', () => {
  it('should keep a cookie no longer than the session it names (a Supabase access token ends in an hour)', async () => {
    const now = Math.floor(Date.now() / 1000) * 1000;
    expect(cookieMaxAge(jwt({ exp: Math.floor(now / 1000) + 3600 }), now)).toBe(3600);
    expect(cookieMaxAge(jwt({ exp: Math.floor(now / 1000) + 30 * 24 * 3600 }), now)).toBe(
      SESSION_MAX_AGE_SECONDS,
    );
    expect(cookieMaxAge(jwt({ exp: Math.floor(now / 1000) - 10 }), now)).toBe(0);
    for (const opaque of ['cookie-ada', 'a.%%%.c', jwt({ exp: 'soon' }), jwt({})]) {
      expect(cookieMaxAge(opaque, now), opaque).toBe(SESSION_MAX_AGE_SECONDS);
    }

    const hour = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    const sessions = fakeSessions();
    const backend: SessionBackend = {
      ...sessions,
      createSessionCookie: async () => hour,
      verifySessionCookie: (cookie, options) =>
        sessions.verifySessionCookie(cookie === hour ? 'cookie-ada' : cookie, options),
    };
    const response = await startSession(signIn(), backend, []);
    expect(response.status).toBe(204);
    const maxAge = Number(/Max-Age=(\d+)/.exec(response.headers.get('set-cookie') ?? '')?.[1]);
    // The hour less the second or two this test may take.
    expect(maxAge).toBeGreaterThan(3590);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });

  it('should ask Firebase for a session exactly as long as the cookie’s Max-Age', async () => {
    const { backend, minted } = mintingSessions();
    const response = await startSession(signIn(), backend, []);
    expect(response.status).toBe(204);
    expect(minted).toEqual([
      { idToken: 'good-token', expiresInMs: SESSION_MAX_AGE_SECONDS * 1000, cookie: 'cookie-ada-1' },
    ]);
    expect(cookieOf(response).attributes).toContain(`Max-Age=${SESSION_MAX_AGE_SECONDS}`);
    // firebase-admin accepts 5 minutes to 14 days.
    expect(SESSION_MAX_AGE_SECONDS).toBeGreaterThanOrEqual(5 * 60);
    expect(SESSION_MAX_AGE_SECONDS).toBeLessThanOrEqual(14 * 24 * 3600);
  });

  it('should set the cookie Secure when the host is not local, through the session endpoint itself', async () => {
    const { backend } = mintingSessions();
    const response = await startSession(signIn(undefined, 'https://app.example.com'), backend, []);
    expect(response.status).toBe(204);
    expect(cookieOf(response).name).toBe('__Host-doorway_session');
    expect(cookieOf(response).attributes).toEqual([
      `Max-Age=${SESSION_MAX_AGE_SECONDS}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
  });
});

describe('no session fixation', () => {
  it('should set a new cookie value on every sign-in, never the one the request carried', async () => {
    const { backend } = mintingSessions();
    const first = cookieOf(await startSession(signIn('doorway_session=planted-by-attacker'), backend, []));
    const second = cookieOf(await startSession(signIn(`doorway_session=${first.value}`), backend, []));
    expect(first.value).toBe('cookie-ada-1');
    expect(second.value).toBe('cookie-ada-2');
    expect(second.value).not.toBe(first.value);
  });

  it('should set no cookie when the sign-in is refused, leaving a planted one unconfirmed', async () => {
    const { backend, minted } = mintingSessions();
    const refused = await startSession(
      request('/session', {
        method: 'POST',
        origin: ORIGIN,
        body: '{"idToken":"old-token"}',
        headers: { 'content-type': 'application/json', cookie: 'doorway_session=planted-by-attacker' },
      }),
      backend,
      [],
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(minted).toEqual([]);
    // The planted value opens nothing either: the account page refuses and clears it.
    const page = await requireAccount(
      request('/account', { headers: { cookie: 'doorway_session=planted-by-attacker' } }),
      backend,
    ).catch((e: unknown) => e);
    expect(page).toBeInstanceOf(Response);
    expect((page as Response).headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
    expect((page as Response).headers.get('set-cookie')).toContain('doorway_session=; Max-Age=0');
  });
});

describe('no session fixation by cookie tossing', () => {
  // Another origin of the same site (or a sibling subdomain) can set a second doorway_session for a deeper
  // path, e.g. `Path=/account`; the browser then sends it first, before the one the host set at sign-in.
  it('should use no session cookie when the request carries more than one', () => {
    const read = (cookie: string) => readSessionCookie(request('/account', { headers: { cookie } }));
    expect(read('doorway_session=cookie-ada')).toBe('cookie-ada');
    expect(read('doorway_session=attacker; doorway_session=cookie-ada')).toBeNull();
    expect(read('doorway_session=cookie-ada; theme=dark; doorway_session=cookie-ada')).toBeNull();
    expect(read('doorway_session=; doorway_session=cookie-ada')).toBeNull();
  });

  it('should name the cookie __Host-doorway_session wherever it is Secure, and read no other name there', () => {
    // Browsers take a __Host- cookie only from a secure page of this very host, with Path=/ and no Domain.
    const read = (cookie: string) =>
      readSessionCookie(request('/account', { base: 'https://app.example.com', headers: { cookie } }));
    expect(read('__Host-doorway_session=cookie-ada')).toBe('cookie-ada');
    expect(read('doorway_session=planted-by-a-sibling')).toBeNull();
    expect(read('doorway_session=planted-by-a-sibling; __Host-doorway_session=cookie-ada')).toBe(
      'cookie-ada',
    );
    // On localhost/127.0.0.1 (plain http, where __Host- cannot be used) the plain name is the session.
    expect(
      readSessionCookie(request('/account', { headers: { cookie: '__Host-doorway_session=x' } })),
    ).toBeNull();
  });

  it('should show no account for two session cookies, even when one of them is valid, and clear them', async () => {
    const page = await requireAccount(
      request('/account', { headers: { cookie: 'doorway_session=cookie-ada; doorway_session=cookie-ada' } }),
      fakeSessions(),
    ).catch((e: unknown) => e);
    expect(page).toBeInstanceOf(Response);
    expect((page as Response).headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
    expect((page as Response).headers.get('set-cookie')).toContain('doorway_session=; Max-Age=0');
  });
});

describe('cross-origin refusals change nothing', () => {
  it('should neither mint a session nor set a cookie for a cross-origin sign-in, whatever the token', async () => {
    const { backend, minted } = mintingSessions();
    for (const origin of ['https://evil.example', 'http://127.0.0.1:3001', 'null']) {
      const response = await startSession(
        request('/session', {
          method: 'POST',
          origin,
          body: 'idToken=good-token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        backend,
        [],
      );
      expect(response.status, origin).toBe(403);
      expect(response.headers.get('set-cookie'), origin).toBeNull();
    }
    expect(minted).toEqual([]);
  });

  it('should not even read the session of a cross-origin sign-out', async () => {
    const sessions = fakeSessions();
    const asked: (string | null | undefined)[] = [];
    const backend: SessionBackend = {
      ...sessions,
      verifySessionCookie: async (cookie, options) => {
        asked.push(cookie);
        return sessions.verifySessionCookie(cookie, options);
      },
    };
    const response = await endSession(
      request('/logout', {
        method: 'POST',
        origin: 'http://127.0.0.1:3001',
        headers: { cookie: 'doorway_session=cookie-ada', 'sec-fetch-site': 'same-site' },
      }),
      backend,
      [],
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(asked).toEqual([]);
    expect(sessions.revoked).toEqual([]);
  });
});

/**
 * A backend that revokes as Firebase does: `validSince` in whole seconds of its clock, and a session counts
 * as revoked only when it began before that second (`authTime < validSince`).
 */
function secondsBackend(clock: { ms: number }, signInAt: number) {
  let validSince = 0;
  const revocations: number[] = [];
  const user = { uid: 'uid-ada', authTime: Math.floor(signInAt / 1000) * 1000 };
  const backend: SessionBackend = {
    ...fakeSessions(),
    async verifySessionCookie(cookie, options) {
      if (cookie !== 'cookie-ada') return null;
      if (options?.checkRevoked && user.authTime < validSince) return null;
      return { ...(await fakeSessions().verifySessionCookie('cookie-ada')), ...user } as never;
    },
    async revokeSessions() {
      validSince = Math.floor(clock.ms / 1000) * 1000;
      revocations.push(clock.ms);
    },
  };
  return { backend, revocations };
}

describe('sign-out in the same second as sign-in (issue 12)', () => {
  const logout = () =>
    request('/logout', {
      method: 'POST',
      origin: 'http://127.0.0.1:3000',
      headers: { cookie: 'doorway_session=cookie-ada' },
    });

  it('waits for the second after the sign-in, so the revocation covers this session', async () => {
    const clock = { ms: 1_700_000_000_250 };
    const { backend, revocations } = secondsBackend(clock, clock.ms);
    const slept: number[] = [];
    const time = {
      now: () => clock.ms,
      sleep: async (ms: number) => {
        slept.push(ms);
        clock.ms += ms;
      },
    };
    const response = await endSession(logout(), backend, [], time);
    expect(response.status).toBe(303);
    expect(slept).toEqual([750]);
    expect(revocations).toEqual([1_700_000_001_000]);
    expect(await backend.verifySessionCookie('cookie-ada', { checkRevoked: true })).toBeNull();
  });

  it('without the wait the same-second revocation would not hold (the case it guards)', async () => {
    const clock = { ms: 1_700_000_000_250 };
    const { backend } = secondsBackend(clock, clock.ms);
    await backend.revokeSessions('uid-ada');
    expect(await backend.verifySessionCookie('cookie-ada', { checkRevoked: true })).not.toBeNull();
  });

  it('an earlier sign-in: the revocation still waits for the next second, which covers another device signed in this second', async () => {
    const clock = { ms: 1_700_000_005_400 };
    const { backend, revocations } = secondsBackend(clock, 1_700_000_000_000);
    const slept: number[] = [];
    const time = {
      now: () => clock.ms,
      sleep: async (ms: number) => {
        slept.push(ms);
        clock.ms += ms;
      },
    };
    await endSession(logout(), backend, [], time);
    expect(slept).toEqual([600]);
    expect(revocations).toEqual([1_700_000_006_000]);
  });

  it('revokes once more a second later when the backend’s clock is behind and the session still verifies', async () => {
    const clock = { ms: 1_700_000_000_250 };
    const backendClock = { ms: clock.ms - 900 };
    const { backend, revocations } = secondsBackend(backendClock, clock.ms);
    const time = {
      now: () => clock.ms,
      sleep: async (ms: number) => {
        clock.ms += ms;
        backendClock.ms += ms;
      },
    };
    await endSession(logout(), backend, [], time);
    expect(revocations).toHaveLength(2);
    expect(await backend.verifySessionCookie('cookie-ada', { checkRevoked: true })).toBeNull();
  });

  it('an ID token revoked by a sign-out cannot start a new session', async () => {
    const sessions = fakeSessions();
    sessions.revoked.push('uid-ada');
    const response = await startSession(
      request('/session', {
        method: 'POST',
        origin: 'http://127.0.0.1:3000',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken: 'good-token' }),
      }),
      sessions,
      [],
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('fresh authentication stays fresh (issue 24)', () => {
  const MINUTES = 60_000;
  const old = Date.now() - (FRESH_SIGN_IN_SECONDS * 1000 + MINUTES);

  /** An audit that keeps its lines, for a client at `address`. */
  function recorded(address = '203.0.113.7') {
    const lines: string[] = [];
    const audit: Audit = { clientAddress: address, now: () => Date.now(), write: (line) => lines.push(line) };
    return { audit, lines };
  }

  /** A backend whose cookie is a JWT carrying `claims` (a Firebase session cookie's payload), signed in at `authTime`. */
  function carrying(claims: Record<string, unknown>, authTime: number): SessionBackend {
    const cookie = jwt(claims);
    const base = fakeSessions({ authTime });
    return {
      ...base,
      createSessionCookie: async (token, options) => {
        await base.createSessionCookie(token, options);
        return cookie;
      },
      verifySessionCookie: (value, options) =>
        base.verifySessionCookie(value === cookie ? 'cookie-ada' : value, options),
    };
  }

  it('an old ID token cannot start a session: 401, no cookie, no audit line', async () => {
    const { audit, lines } = recorded();
    const response = await startSession(signIn(), fakeSessions({ authTime: old }), [], audit);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: messageFor('requires-recent-login') });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(lines).toEqual([]);
  });

  it('a token of a browser sign-in made from an old session cannot start one either (no renewal chain)', async () => {
    // Firebase stamps the custom-token sign-in with its own moment; the claim keeps the person's sign-in.
    const chained = carrying({ [SIGN_IN_TIME_CLAIM]: Math.floor(old / 1000) }, Date.now());
    expect((await startSession(signIn(), chained, [], recorded().audit)).status).toBe(401);
    const fresh = carrying({ [SIGN_IN_TIME_CLAIM]: Math.floor(Date.now() / 1000) - 60 }, Date.now());
    expect((await startSession(signIn(), fresh, [], recorded().audit)).status).toBe(204);
  });

  it('a fresh sign-in starts a session and writes one audit line: uid, client address, time, no token or cookie', async () => {
    const { audit, lines } = recorded('198.51.100.23');
    const response = await startSession(signIn(), fakeSessions(), [], audit);
    expect(response.status).toBe(204);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[doorway audit\] session minted uid="uid-ada" address="198\.51\.100\.23" at=\d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );
    expect(lines[0]).not.toContain('good-token');
    expect(lines[0]).not.toContain('cookie-ada');
  });

  it('the sign-in time is the earlier of the session’s and the one its token carries', () => {
    expect(signInTimeOf({ authTime: 5_000_000 }, jwt({ [SIGN_IN_TIME_CLAIM]: 1000 }))).toBe(1_000_000);
    expect(signInTimeOf({ authTime: 5_000_000 }, jwt({ [SIGN_IN_TIME_CLAIM]: 9000 }))).toBe(5_000_000);
    expect(signInTimeOf({ authTime: 5_000_000 }, jwt({ [SIGN_IN_TIME_CLAIM]: 'soon' }))).toBe(5_000_000);
    expect(signInTimeOf({ authTime: 5_000_000 }, 'cookie-ada')).toBe(5_000_000);
    const now = Date.now();
    expect(isFreshSignIn(now - FRESH_SIGN_IN_SECONDS * 1000, now)).toBe(true);
    expect(isFreshSignIn(now - FRESH_SIGN_IN_SECONDS * 1000 - 1, now)).toBe(false);
  });
});
