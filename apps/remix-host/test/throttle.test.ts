/**
 * The host's throttle (issue 24): its counter store, its limits, and every route it guards — the form path
 * (`runFormPath`, JavaScript off or not yet loaded), `/session`, `/passkeys/*` — on the fake's providers and
 * in-memory stand-ins, one client address per simulated browser.
 * @see issue 24
 */

import {
  createFakeProvider,
  createFakeServerProvider,
  type FakeProvider,
  verifyFakeSessionToken,
} from '@doorway/adapter-fake';
import {
  createMemoryChallengeStore,
  createPasskeyServer,
  type PasskeyAdminAuth,
  type PasskeyChallengeStore,
} from '@doorway/adapter-firebase/server';
import { AuthError, messageFor } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTION_PAGE } from '../app/action.server.ts';
import { HostConfigError, parseHostConfig } from '../app/config.server.ts';
import type { FormPage, runFormPath } from '../app/form-path.server.ts';
import { type SessionBackend, startSession } from '../app/session.server.ts';
import {
  clientKey,
  createThrottle,
  DEFAULT_THROTTLE_LIMITS,
  type Limit,
  parseThrottleLimits,
  passkeyGuard,
  type Throttle,
  type ThrottleLimits,
  throttledRequest,
} from '../app/throttle.server.ts';
import { createMemoryCounterStore } from '../app/throttle-store.server.ts';
import { fakeSessions, formBrowser, ORIGIN, request, viewOf } from './fakes.ts';

const config = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email,google.com,anonymous' });
const TOO_MANY = messageFor('too-many-requests');
const MINUTE = 60_000;

/** A throttle on a memory store, with the default limits but those given, on a clock the test moves. */
function throttleOf(limits: Partial<ThrottleLimits> = {}) {
  let at = 1_000_000;
  const now = () => at;
  const throttle = createThrottle({
    store: createMemoryCounterStore({ now }),
    limits: { ...DEFAULT_THROTTLE_LIMITS, ...limits },
    now,
  });
  return { throttle, advance: (ms: number) => (at += ms) };
}

const limit = (max: number, windowMs = 15 * MINUTE): Limit => ({ max, windowMs });

/** Session operations over the fake's world: its session tokens become session cookies. */
function sessionsOf(world: FakeProvider): SessionBackend {
  const base = fakeSessions();
  return {
    ...base,
    async createSessionCookie(token) {
      if (verifyFakeSessionToken(world, token) === null) throw new AuthError('session-expired');
      return `cookie-for-${token}`;
    },
    async verifySessionCookie(cookie) {
      return cookie?.startsWith('cookie-for-') ? base.verifySessionCookie('cookie-ada') : null;
    },
  };
}

/**
 * A browser without JavaScript at one client address: keeps its cookies, and each of its requests goes
 * through the host's throttle as that address.
 */
function browser(world: FakeProvider, throttle: Throttle, client: string, page?: FormPage) {
  const b = formBrowser({
    config,
    provider: () => createFakeServerProvider(world),
    sessions: () => sessionsOf(world),
    throttle: throttle.forRequest(client),
    ...(page ? { page } : {}),
  });
  return {
    jar: b.jar,
    get: (path = '/login') => b.get(path),
    post: (fields: Record<string, string>, path = '/login') => b.post(path, fields),
  };
}

/** A world with Ada's account. */
function withAda() {
  const world = createFakeProvider();
  world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
  return world;
}

/** A browser at `client` on Ada's password card. */
async function atPasswordCard(world: FakeProvider, throttle: Throttle, client: string) {
  const b = browser(world, throttle, client);
  await b.get();
  await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
  expect(viewOf(await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' })).state.card).toBe(
    'passwordSignIn',
  );
  return b;
}

const statusOf = (out: Awaited<ReturnType<typeof runFormPath>>) =>
  out instanceof Response ? out.status : out.status;

describe('the counter store in memory (issue 24)', () => {
  it('counts hits in a window, starts again once it ends, and forgets on reset', async () => {
    let at = 0;
    const store = createMemoryCounterStore({ now: () => at });
    expect(await store.get('k')).toBeNull();
    expect(await store.hit('k', 1000)).toEqual({ count: 1, resetAt: 1000 });
    at = 999;
    expect(await store.hit('k', 1000)).toEqual({ count: 2, resetAt: 1000 });
    at = 1000;
    expect(await store.get('k')).toBeNull();
    expect(await store.hit('k', 1000)).toEqual({ count: 1, resetAt: 2000 });
    await store.reset('k');
    expect(await store.get('k')).toBeNull();
  });

  it('never holds more counters than its bound, however many keys a flood brings', async () => {
    let at = 0;
    const store = createMemoryCounterStore({ now: () => at, maxEntries: 100 });
    for (let i = 0; i < 5000; i++) await store.hit(`client-${i}`, 60_000);
    // The newest are kept (the oldest dropped first); nothing past the bound stays.
    expect(await store.get('client-4999')).not.toBeNull();
    let kept = 0;
    for (let i = 0; i < 5000; i++) if ((await store.get(`client-${i}`)) !== null) kept++;
    expect(kept).toBeLessThanOrEqual(100);
    // Ended counters are dropped when the store is swept, even with room to spare.
    at = 120_000;
    await store.hit('late', 60_000);
    expect(await store.get('client-4999')).toBeNull();
  });
});

describe('the throttle’s limits (issue 24)', () => {
  it('takes DOORWAY_THROTTLE_* counts and window, and refuses a value that is not a whole number', () => {
    expect(parseThrottleLimits({})).toEqual(DEFAULT_THROTTLE_LIMITS);
    const tuned = parseThrottleLimits({
      DOORWAY_THROTTLE_WINDOW_SECONDS: '60',
      DOORWAY_THROTTLE_ACCOUNT_FAILURES: '3',
    });
    expect(tuned.accountFailures).toEqual({ max: 3, windowMs: 60_000 });
    expect(tuned.clientFailures).toEqual({
      max: DEFAULT_THROTTLE_LIMITS.clientFailures.max,
      windowMs: 60_000,
    });
    for (const bad of ['0', '-1', '1.5', 'many']) {
      expect(() => parseThrottleLimits({ DOORWAY_THROTTLE_CLIENT_FAILURES: bad })).toThrow(HostConfigError);
    }
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('the form path behind the throttle (issue 24)', () => {
  it('100 wrong passwords from one client: 429s with Retry-After and the message; the right password still signs in from another client', async () => {
    const world = withAda();
    const { throttle } = throttleOf();
    const attacker = await atPasswordCard(world, throttle, '203.0.113.66');
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof runFormPath>> | null = null;
    for (let i = 0; i < 100; i++) {
      last = await attacker.post({ event: 'SUBMIT_PASSWORD', password: `guess-${i}` });
      statuses.push(statusOf(last));
    }
    const limit = DEFAULT_THROTTLE_LIMITS.accountFailures.max;
    expect(statuses.slice(0, limit).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(limit).every((s) => s === 429)).toBe(true);
    const refused = last as Exclude<typeof last, Response | null>;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.view.state).toMatchObject({ card: 'passwordSignIn', error: 'too-many-requests' });
    expect(messageFor('too-many-requests')).toBe(TOO_MANY);
    // The owner, from an address with no failures, is not locked out.
    const owner = await atPasswordCard(world, throttle, '198.51.100.7');
    const signedIn = await owner.post({ event: 'SUBMIT_PASSWORD', password: 'secret123' });
    expect(signedIn).toBeInstanceOf(Response);
    expect((signedIn as Response).status).toBe(303);
    expect(owner.jar.get('doorway_session')).toMatch(/^cookie-for-/);
  });

  it('failures from many clients against one account slow those clients, not a fresh client with the right password', async () => {
    const world = withAda();
    const { throttle, advance } = throttleOf({ accountFailures: limit(5) });
    const guessers = [];
    for (let i = 0; i < 5; i++) {
      const b = await atPasswordCard(world, throttle, `203.0.113.${i + 1}`);
      expect(statusOf(await b.post({ event: 'SUBMIT_PASSWORD', password: 'wrong-one' }))).toBe(200);
      guessers.push(b);
    }
    // The account is past its limit: every client that failed against it waits, even with the password.
    for (const b of guessers) {
      const out = await b.post({ event: 'SUBMIT_PASSWORD', password: 'secret123' });
      expect(statusOf(out)).toBe(429);
      expect(viewOf(out).state).toMatchObject({ error: 'too-many-requests' });
    }
    const fresh = await atPasswordCard(world, throttle, '198.51.100.20');
    expect(statusOf(await fresh.post({ event: 'SUBMIT_PASSWORD', password: 'secret123' }))).toBe(303);
    // The window ends: the slowed clients are heard again.
    advance(15 * MINUTE);
    const [first] = guessers;
    expect(
      statusOf(
        await (first as (typeof guessers)[number]).post({ event: 'SUBMIT_PASSWORD', password: 'secret123' }),
      ),
    ).toBe(303);
  });

  it('a correct sign-in counts nothing: a client signs in far more often than any limit', async () => {
    const world = withAda();
    const { throttle } = throttleOf({ clientFailures: limit(2), accountFailures: limit(2) });
    for (let i = 0; i < 20; i++) {
      const b = await atPasswordCard(world, throttle, '203.0.113.80');
      expect(statusOf(await b.post({ event: 'SUBMIT_PASSWORD', password: 'secret123' }))).toBe(303);
    }
  });

  it('bad action codes on /action: a client past its failures gets 429 with Retry-After', async () => {
    const world = withAda();
    const { throttle } = throttleOf({ clientFailures: limit(3) });
    const b = browser(world, throttle, '203.0.113.90', ACTION_PAGE);
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const out = await b.get(`/action?mode=verifyEmail&oobCode=guess-${i}`);
      statuses.push(statusOf(out));
      if (i === 5) {
        expect(viewOf(out).state).toMatchObject({ card: 'recoverableError', message: 'too-many-requests' });
        expect(Number((out as { headers: Headers }).headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    // Another client is not slowed by this one.
    const other = browser(world, throttle, '198.51.100.9', ACTION_PAGE);
    expect(statusOf(await other.get('/action?mode=verifyEmail&oobCode=guess-x'))).toBe(200);
  });

  it('reset emails: past the client’s messages, 429 and no email sent', async () => {
    const world = withAda();
    const { throttle } = throttleOf({ clientMessages: limit(2) });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const b = await atPasswordCard(world, throttle, '203.0.113.100');
      await b.post({ event: 'GO_TO_RECOVERY' });
      const out = await b.post({ event: 'SUBMIT_RECOVERY', email: 'ada@example.com' });
      statuses.push(statusOf(out));
      if (i === 3)
        expect(viewOf(out).state).toMatchObject({ card: 'passwordRecovery', error: 'too-many-requests' });
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(world.backend.outbox.emails).toHaveLength(2);
  });
});

describe('/session behind the throttle (issue 24)', () => {
  // Each session started writes an audit line; these tests are about the throttle.
  beforeEach(() => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const post = (idToken: string) =>
    request('/session', {
      method: 'POST',
      origin: ORIGIN,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });
  /** Sessions of `good-token` whose sign-in was just made. */
  const fresh = (): SessionBackend => {
    const base = fakeSessions();
    return {
      ...base,
      async verifySessionCookie(cookie, options) {
        const user = await base.verifySessionCookie(cookie, options);
        return user === null ? null : { ...user, authTime: Date.now() };
      },
    };
  };
  const session = (throttle: Throttle, client: string, idToken: string) =>
    throttledRequest(throttle.forRequest(client), { costly: true }, () =>
      startSession(post(idToken), fresh(), []),
    );

  it('a burst of bad tokens: 401s, then 429 with Retry-After and the catalogue’s message', async () => {
    const { throttle } = throttleOf({ clientFailures: limit(5) });
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await session(throttle, '203.0.113.5', `bad-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const refused = await session(throttle, '203.0.113.5', 'good-token');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ code: 'too-many-requests', error: TOO_MANY });
    // Another client's good token still makes a session.
    expect((await session(throttle, '198.51.100.5', 'good-token')).status).toBe(204);
  });

  it('sessions minted count against the client’s costly requests', async () => {
    const { throttle } = throttleOf({ clientRequests: limit(3) });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await session(throttle, '203.0.113.6', 'good-token')).status);
    expect(statuses).toEqual([204, 204, 204, 429, 429]);
  });
});

describe('/passkeys/* behind the throttle (issue 24)', () => {
  const LOCAL = 'http://localhost:3000';
  const admin = {
    verifyIdToken: vi.fn(async () =>
      Promise.reject(Object.assign(new Error('bad'), { code: 'auth/argument-error' })),
    ),
    getUser: vi.fn(),
    setCustomUserClaims: vi.fn(),
    createCustomToken: vi.fn(),
  } as unknown as PasskeyAdminAuth;
  const optionsRequest = () =>
    request('/passkeys/authentication/options', { method: 'POST', base: LOCAL, origin: LOCAL });

  it('a flood of sign-in options from one client: 429 past its limit, and a challenge issued before it is still there', async () => {
    const { throttle } = throttleOf();
    // The passkey server's own store: 10 000 challenges at most, the oldest dropped first.
    const store: PasskeyChallengeStore = createMemoryChallengeStore();
    const server = createPasskeyServer({
      auth: admin,
      rpId: 'localhost',
      rpName: 'Doorway',
      origins: [LOCAL],
      store,
    });
    const handle = (req: Request) => server.handle(req);
    const ask = async (client: string) => {
      const req = optionsRequest();
      return throttledRequest(throttle.forRequest(client), passkeyGuard(req), () => handle(req));
    };
    const first = await ask('198.51.100.1');
    const { challengeId } = (await first.json()) as { challengeId: string };
    const counts = new Map<number, number>();
    let refused: Response | null = null;
    for (let i = 0; i < 10_050; i++) {
      const out = await ask('203.0.113.200');
      counts.set(out.status, (counts.get(out.status) ?? 0) + 1);
      if (out.status === 429) refused = out;
    }
    expect(counts.get(200)).toBe(DEFAULT_THROTTLE_LIMITS.clientRequests.max);
    expect(counts.get(429)).toBe(10_050 - DEFAULT_THROTTLE_LIMITS.clientRequests.max);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // The browser's passkey client reads a refusal's code.
    expect(await refused?.json()).toEqual({ error: { code: 'too-many-requests' } });
    // The challenge issued before the flood is still waiting for its answer, and others still get theirs.
    expect(await store.take(challengeId)).not.toBeNull();
    expect((await ask('198.51.100.2')).status).toBe(200);
  });

  it('counts only challenges as costly: reading the list is not', () => {
    expect(passkeyGuard(optionsRequest()).costly).toBe(true);
    expect(
      passkeyGuard(request('/passkeys/registration/options', { method: 'POST', base: LOCAL })).costly,
    ).toBe(true);
    expect(passkeyGuard(request('/passkeys/credentials', { base: LOCAL })).costly).toBe(false);
    expect(
      passkeyGuard(request('/passkeys/authentication/verify', { method: 'POST', base: LOCAL })).costly,
    ).toBe(false);
  });
});
