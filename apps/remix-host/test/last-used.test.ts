/**
 * The "Last used" cookie: what it holds (an option id, never who signed in), when the host sets it (a
 * sign-in on the form path, `POST /session` with the sign-in's option), that sign-out leaves it, and that
 * `/login` renders it for the chooser to mark.
 */
import {
  createFakeProvider,
  createFakeServerProvider,
  type FakeProvider,
  verifyFakeSessionToken,
} from '@doorway/adapter-fake';
import { AuthError } from '@doorway/auth-core';
import {
  LAST_USED_COOKIE,
  LAST_USED_MAX_AGE_SECONDS,
  lastUsedCookieHeader,
  MAX_OPTION_ID_LENGTH,
  readLastUsed,
} from '@doorway/auth-core/server';
import { describe, expect, it } from 'vitest';
import { parseHostConfig } from '../app/config.server.ts';
import { endSession, type SessionBackend, startSession } from '../app/session.server.ts';
import { fakeSessions, formBrowser, ORIGIN, request, viewOf } from './fakes.ts';

const attributes = (setCookie: string | null) => (setCookie ?? '').split(';').map((s) => s.trim());

/** The `Set-Cookie` lines of a response that name the "Last used" cookie. */
const lastUsedLines = (headers: Headers) =>
  headers.getSetCookie().filter((line) => line.startsWith(`${LAST_USED_COOKIE}=`));

const NOT_OPTION_IDS: unknown[] = [
  '',
  ' email',
  '-email',
  '.github.com',
  'ada@example.com',
  'a b',
  'email;Domain=evil.example',
  '<script>',
  'é',
  'x'.repeat(MAX_OPTION_ID_LENGTH + 1),
  42,
  null,
  undefined,
  { id: 'email' },
];

describe('the "Last used" cookie', () => {
  it('keeps the option id: HttpOnly, SameSite=Lax, Path=/, 400 days; Secure where the session cookie is', () => {
    expect(attributes(lastUsedCookieHeader('github.com', false))).toEqual([
      `${LAST_USED_COOKIE}=github.com`,
      `Max-Age=${LAST_USED_MAX_AGE_SECONDS}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
    ]);
    expect(LAST_USED_MAX_AGE_SECONDS).toBe(400 * 24 * 3600);
    expect(attributes(lastUsedCookieHeader('github.com', true))).toContain('Secure');
  });

  it('names the option of a sign-in: password and email links are the email option', () => {
    const kept = (method: string) => attributes(lastUsedCookieHeader(method, false))[0];
    expect(kept('password')).toBe(`${LAST_USED_COOKIE}=email`);
    expect(kept('emailLink')).toBe(`${LAST_USED_COOKIE}=email`);
    expect(kept('email')).toBe(`${LAST_USED_COOKIE}=email`);
    expect(kept('phone')).toBe(`${LAST_USED_COOKIE}=phone`);
    expect(kept('anonymous')).toBe(`${LAST_USED_COOKIE}=anonymous`);
    expect(kept('oidc.corp-sso')).toBe(`${LAST_USED_COOKIE}=oidc.corp-sso`);
    expect(kept('x'.repeat(MAX_OPTION_ID_LENGTH))).toBe(
      `${LAST_USED_COOKIE}=${'x'.repeat(MAX_OPTION_ID_LENGTH)}`,
    );
  });

  it('sets nothing for what is not an option id', () => {
    for (const method of NOT_OPTION_IDS)
      expect(lastUsedCookieHeader(method, false), String(method)).toBeNull();
  });

  it('is read from the Cookie header among others; anything but an option id is ignored', () => {
    const read = (cookie?: string) =>
      readLastUsed(request('/login', cookie === undefined ? {} : { headers: { cookie } }));
    expect(read()).toBeNull();
    expect(read('a=1; doorway_last_used=google.com; doorway_session=abc')).toBe('google.com');
    expect(read('doorway_last_used=email')).toBe('email');
    expect(read('xdoorway_last_used=email')).toBeNull();
    expect(read('doorway_last_used=')).toBeNull();
    expect(read('doorway_last_used=ada%40example.com')).toBeNull();
    expect(read('doorway_last_used=%3Cscript%3E')).toBeNull();
    expect(read(`doorway_last_used=${'x'.repeat(MAX_OPTION_ID_LENGTH + 1)}`)).toBeNull();
    // A planted value that is not an option id does not hide the host's own.
    expect(read('doorway_last_used=a"b; doorway_last_used=phone')).toBe('phone');
  });
});

describe('POST /session keeps the option of the sign-in', () => {
  const post = (body: string, type = 'application/json') =>
    request('/session', { method: 'POST', origin: ORIGIN, body, headers: { 'content-type': type } });

  it('beside the session cookie, as the option id', async () => {
    const response = await startSession(
      post('{"idToken":"good-token","method":"google.com"}'),
      fakeSessions(),
      [],
    );
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie()).toHaveLength(2);
    expect(lastUsedLines(response.headers)).toEqual([lastUsedCookieHeader('google.com', false)]);
    const password = await startSession(
      post('{"idToken":"good-token","method":"password"}'),
      fakeSessions(),
      [],
    );
    expect(attributes(lastUsedLines(password.headers)[0] ?? null)[0]).toBe(`${LAST_USED_COOKIE}=email`);
  });

  it('from a form field too', async () => {
    const response = await startSession(
      post('idToken=good-token&method=phone', 'application/x-www-form-urlencoded'),
      fakeSessions(),
      [],
    );
    expect(response.status).toBe(204);
    expect(lastUsedLines(response.headers)).toEqual([lastUsedCookieHeader('phone', false)]);
  });

  it('Secure where the session cookie is', async () => {
    const response = await startSession(
      request('/session', {
        method: 'POST',
        base: 'https://app.example.com',
        origin: 'https://app.example.com',
        body: '{"idToken":"good-token","method":"email"}',
        headers: { 'content-type': 'application/json' },
      }),
      fakeSessions(),
      [],
    );
    expect(response.status).toBe(204);
    expect(lastUsedLines(response.headers)).toEqual([lastUsedCookieHeader('email', true)]);
  });

  it('a missing or invalid method: the session all the same, no "Last used" cookie', async () => {
    for (const method of NOT_OPTION_IDS) {
      const body = JSON.stringify({ idToken: 'good-token', method });
      const response = await startSession(post(body), fakeSessions(), []);
      expect(response.status, body).toBe(204);
      expect(response.headers.getSetCookie(), body).toHaveLength(1);
      expect(lastUsedLines(response.headers), body).toEqual([]);
    }
  });

  it('a refused token keeps nothing', async () => {
    const response = await startSession(post('{"idToken":"old-token","method":"email"}'), fakeSessions(), []);
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('sign-out leaves it', async () => {
    const response = await endSession(
      request('/logout', {
        method: 'POST',
        origin: ORIGIN,
        headers: { cookie: 'doorway_session=cookie-ada; doorway_last_used=email' },
      }),
      fakeSessions(),
      [],
      { now: () => 0, sleep: async () => undefined },
    );
    expect(response.status).toBe(303);
    expect(lastUsedLines(response.headers)).toEqual([]);
  });
});

/** Session operations over the fake's world: its session tokens become session cookies. */
function sessionsOf(world: FakeProvider, failing: boolean): SessionBackend {
  const base = fakeSessions();
  return {
    ...base,
    async createSessionCookie(token) {
      if (failing) throw new AuthError('network-request-failed');
      if (verifyFakeSessionToken(world, token) === null) throw new Error('not a session token');
      return `cookie-for-${token}`;
    },
    async verifySessionCookie(cookie) {
      return cookie?.startsWith('cookie-for-') ? base.verifySessionCookie('cookie-ada') : null;
    },
  };
}

describe('the sign-in page without JavaScript', () => {
  const config = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email,google.com,anonymous' });
  function browser(failingSessions = false) {
    const world = createFakeProvider();
    world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    return formBrowser({
      config,
      provider: () => createFakeServerProvider(world),
      sessions: () => sessionsOf(world, failingSessions),
    });
  }

  it('keeps the option of its sign-in and renders it for the chooser, after sign-out too', async () => {
    const b = browser();
    expect(viewOf(await b.get('/login')).lastUsed).toBeNull();
    await b.post('/login', { event: 'CHOOSE_PROVIDER', providerId: 'email' });
    await b.post('/login', { event: 'SUBMIT_EMAIL', email: 'ada@example.com' });
    const signedIn = await b.post('/login', { event: 'SUBMIT_PASSWORD', password: 'secret123' });
    expect((signedIn as Response).status).toBe(303);
    expect(b.jar.get(LAST_USED_COOKIE)).toBe('email');
    expect(lastUsedLines((signedIn as Response).headers).join('\n')).not.toContain('ada@example.com');

    b.jar.delete('doorway_session');
    expect(viewOf(await b.get('/login?signedOut=1')).lastUsed).toBe('email');
    expect(viewOf(await b.get('/login')).lastUsed).toBe('email');
    // A card's post renders it too.
    expect(viewOf(await b.post('/login', { event: 'CHOOSE_PROVIDER', providerId: 'email' })).lastUsed).toBe(
      'email',
    );
  });

  it('a guest sign-in is the guest option', async () => {
    const b = browser();
    await b.get('/login');
    await b.post('/login', { event: 'CHOOSE_PROVIDER', providerId: 'anonymous' });
    expect(b.jar.get(LAST_USED_COOKIE)).toBe('anonymous');
  });

  it('a sign-in the host could not make a session of keeps nothing', async () => {
    const b = browser(true);
    await b.get('/login');
    expect(
      viewOf(await b.post('/login', { event: 'CHOOSE_PROVIDER', providerId: 'anonymous' })).state.card,
    ).toBe('recoverableError');
    expect(b.jar.has(LAST_USED_COOKIE)).toBe(false);
  });

  it('a cookie that is not an option id is not rendered', async () => {
    const b = browser();
    b.jar.set(LAST_USED_COOKIE, '%3Cimg%20src%3Dx%3E');
    expect(viewOf(await b.get('/login')).lastUsed).toBeNull();
  });
});
