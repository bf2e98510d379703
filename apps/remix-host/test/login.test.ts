/**
 * The sign-in page's form path on the host (`runFormPath`), on the fake's server provider: what a browser
 * without JavaScript gets for each request, the session it ends with, and what it cannot forge.
 * @see issue 13
 */
import {
  createFakeProvider,
  createFakeServerProvider,
  type FakeProvider,
  verifyFakeSessionToken,
} from '@doorway/adapter-fake';
import { AuthError } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { parseHostConfig } from '../app/config.server.ts';
import { type LoginView, runFormPath } from '../app/form-path.server.ts';
import type { SessionBackend } from '../app/session.server.ts';
import { fakeSessions, request } from './fakes.ts';

const ORIGIN = 'http://127.0.0.1:3000';
const config = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email,google.com,anonymous' });

/** Session operations over the fake's world: its session tokens become session cookies. */
function sessionsOf(world: FakeProvider, options: { failing?: boolean } = {}): SessionBackend {
  const base = fakeSessions();
  return {
    ...base,
    async createSessionCookie(token) {
      if (options.failing) throw new AuthError('network-request-failed');
      if (verifyFakeSessionToken(world, token) === null) throw new AuthError('session-expired');
      return `cookie-for-${token}`;
    },
    async verifySessionCookie(cookie) {
      return cookie?.startsWith('cookie-for-') ? base.verifySessionCookie('cookie-ada') : null;
    },
  };
}

/** A browser without JavaScript: keeps the cookies the host sets, posts forms with its own Origin. */
function browser(options: { failingSessions?: boolean } = {}) {
  const world = createFakeProvider();
  const jar = new Map<string, string>();
  const deps = {
    config,
    provider: () => createFakeServerProvider(world),
    sessions: () => sessionsOf(world, { failing: options.failingSessions === true }),
  };
  async function send(req: Request) {
    const out = await runFormPath(req, deps);
    const headers = out instanceof Response ? out.headers : out.headers;
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (/Max-Age=0/.test(line)) jar.delete(pair.slice(0, at));
      else jar.set(pair.slice(0, at), value);
    }
    return out;
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    world,
    jar,
    get: (path = '/login') => send(request(path, { headers: { cookie: cookie() } })),
    post: (fields: Record<string, string>, path = '/login', origin: string | null = ORIGIN) =>
      send(
        request(path, {
          method: 'POST',
          origin,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
      ),
  };
}

function viewOf(out: Awaited<ReturnType<typeof runFormPath>>): LoginView {
  if (out instanceof Response)
    throw new Error(`expected a page, got ${out.status} ${out.headers.get('location')}`);
  return out.view;
}

describe('the sign-in page without JavaScript', () => {
  it('renders the chooser, then walks sign-up to a session cookie and a 303 to the success URL', async () => {
    const b = browser();
    expect(viewOf(await b.get()).state.card).toBe('providerChooser');
    expect(viewOf(await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' })).state.card).toBe(
      'emailEntry',
    );
    const signUp = viewOf(await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' }));
    expect(signUp.state).toMatchObject({ card: 'passwordSignUp', email: 'ada@example.com' });
    const done = await b.post({
      event: 'SUBMIT_SIGN_UP',
      email: 'ada@example.com',
      name: 'Ada',
      password: 'secret123',
    });
    expect(done).toBeInstanceOf(Response);
    const response = done as Response;
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account');
    expect(b.jar.get('doorway_session')).toMatch(/^cookie-for-fake-session-\d+$/);
    expect(b.jar.has('doorway_flow')).toBe(false);
    expect(response.headers.getSetCookie().join('\n')).not.toContain('secret123');
  });

  it('keeps the email and never the password on a wrong password', async () => {
    const b = browser();
    b.world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    await b.get();
    await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
    await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' });
    const wrong = viewOf(await b.post({ event: 'SUBMIT_PASSWORD', password: 'nope-nope' }));
    expect(wrong.state).toMatchObject({
      card: 'passwordSignIn',
      email: 'ada@example.com',
      error: 'wrong-password',
    });
    expect(JSON.stringify(wrong)).not.toContain('nope-nope');
  });

  it('honours a safe signInSuccessUrl and replaces an unsafe one', async () => {
    for (const [asked, expected] of [
      ['/docs', '/docs'],
      ['/..//evil.example', '/account'],
    ] as const) {
      const b = browser();
      const path = `/login?signInSuccessUrl=${encodeURIComponent(asked)}`;
      await b.get(path);
      const out = await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'anonymous' }, path);
      expect((out as Response).headers.get('location'), asked).toBe(expected);
    }
  });

  it('a guest sign-in, when the session cannot be made: an error card, no session cookie', async () => {
    const b = browser({ failingSessions: true });
    await b.get();
    const out = viewOf(await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'anonymous' }));
    expect(out.state).toMatchObject({ card: 'recoverableError', message: 'network-request-failed' });
    expect(b.jar.has('doorway_session')).toBe(false);
  });

  it('refuses a cross-origin POST with 403 and changes nothing', async () => {
    const b = browser();
    await b.get();
    const before = b.jar.get('doorway_flow');
    const out = await b.post(
      { event: 'CHOOSE_PROVIDER', providerId: 'anonymous' },
      '/login',
      'https://evil.example',
    );
    expect((out as Response).status).toBe(403);
    expect(b.jar.get('doorway_flow')).toBe(before);
    expect(b.jar.has('doorway_session')).toBe(false);
  });

  it('a POST that claims a step never reached gets the first card and no session', async () => {
    const b = browser();
    b.world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    const out = viewOf(await b.post({ event: 'SUBMIT_PASSWORD', password: 'secret123' }));
    expect(out.state.card).toBe('providerChooser');
    expect(b.jar.has('doorway_session')).toBe(false);
  });

  it('?signedOut=1 renders the sign-out card', async () => {
    expect(viewOf(await browser().get('/login?signedOut=1')).state.card).toBe('signOut');
  });
});
