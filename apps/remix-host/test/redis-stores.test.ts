/**
 * The host's stores in Redis (issue 26), against the real Redis 7 on 127.0.0.1:6379 (the project's
 * machines and CI run one; elsewhere `apt-get install redis-server`): the same cases as the memory stores
 * (`store-cases.ts`), two processes (two connections) sharing counters and racing for one challenge,
 * expiry on Redis's clock, Redis unreachable or gone and back, and how `DOORWAY_REDIS_URL` chooses them.
 * Every key is under a prefix of its own run, removed at the end.
 * @see issue 26
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import {
  createMemoryChallengeStore,
  createPasskeyServer,
  type PasskeyAdminAuth,
  type PasskeyChallengeStore,
} from '@doorway/adapter-firebase/server';
import { AuthError } from '@doorway/auth-core';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseHostConfig } from '../app/config.server.ts';
import {
  createRedisChallengeStore,
  createRedisConnection,
  createRedisCounterStore,
  type RedisConnection,
} from '../app/redis-stores.server.ts';
import {
  createThrottle,
  DEFAULT_THROTTLE_LIMITS,
  type Throttle,
  throttledRequest,
} from '../app/throttle.server.ts';
import { type CounterStore, createMemoryCounterStore } from '../app/throttle-store.server.ts';
import { configError, request } from './fakes.ts';
import { challengeFor, challengeStoreCases, counterStoreCases } from './store-cases.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
// Nothing listens on port 1: a connection there is refused at once.
const CLOSED_URL = 'redis://127.0.0.1:1';
const PREFIX = `doorway-test:${randomUUID()}:`;
const MINUTE = 60_000;
const SECRET = 'sI-bvMrdKfXGKNH9gmmKjlb-SZsW2gwFe8hxhHDuWg8';

const raw = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
raw.on('error', () => {});
const opened: RedisConnection[] = [];

/** A connection of its own (a host process of its own), closed after the file. */
function connection(url = REDIS_URL, log: (line: string) => void = () => {}): RedisConnection {
  const made = createRedisConnection(url, { log });
  opened.push(made);
  return made;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Every key of this run. */
async function keysOfRun(): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: `${PREFIX}*`, COUNT: 500 })) keys.push(...batch);
  return keys;
}

beforeAll(async () => {
  try {
    await raw.connect();
  } catch {
    throw new Error(
      `These tests need Redis 7 on ${REDIS_URL} (the project's machines and CI run one; elsewhere apt-get install redis-server), and it did not answer`,
    );
  }
  const version = /redis_version:(\d+)/.exec(await raw.info('server'))?.[1];
  // PEXPIRE … NX, which the counters rely on, came with Redis 7.
  expect(Number(version), 'Redis 7 or later').toBeGreaterThanOrEqual(7);
});

afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  if (raw.isOpen) {
    const keys = await keysOfRun();
    if (keys.length > 0) await raw.del(keys);
    raw.destroy();
  }
});

/** A fresh prefix under the run's: each case's store starts empty. */
const casePrefix = () => `${PREFIX}${randomUUID()}:`;

/** The memory stores on a clock the cases move. */
function memoryHarness<S>(make: (now: () => number) => S) {
  let at = 1_000_000;
  return {
    make: () => make(() => at),
    now: () => at,
    pass: async (ms: number) => {
      at += ms;
    },
    shortMs: 1000,
    slackMs: 0,
  };
}

/** The Redis stores on the real clock (Redis expires keys on its own). */
function redisHarness<S>(make: (keyPrefix: string) => S) {
  return {
    make: () => make(casePrefix()),
    now: () => Date.now(),
    // A little more than asked: Redis's millisecond and ours do not tick together.
    pass: (ms: number) => sleep(ms + 20),
    shortMs: 50,
    // A counter's end is the time left, read one reply's trip later.
    slackMs: 250,
  };
}

describe('the counter stores: one case list (issue 26)', () => {
  describe('in memory', () => counterStoreCases(memoryHarness((now) => createMemoryCounterStore({ now }))));
  describe('in Redis', () => {
    const redis = connection();
    counterStoreCases(redisHarness((keyPrefix) => createRedisCounterStore(redis, { keyPrefix })));
  });
});

describe('the passkey challenge stores: one case list (issue 26)', () => {
  describe('in memory', () =>
    challengeStoreCases(memoryHarness((now) => createMemoryChallengeStore({ now }))));
  describe('in Redis', () => {
    const redis = connection();
    challengeStoreCases(redisHarness((keyPrefix) => createRedisChallengeStore(redis, { keyPrefix })));
  });
});

describe('two host processes on one Redis (issue 26)', () => {
  it('share their counters: hits through either count together, many at once included', async () => {
    const keyPrefix = casePrefix();
    const [a, b] = [connection(), connection()].map((c) => createRedisCounterStore(c, { keyPrefix })) as [
      CounterStore,
      CounterStore,
    ];
    for (let i = 1; i <= 10; i++) expect((await (i % 2 === 0 ? a : b).hit('k', MINUTE)).count).toBe(i);
    const burst = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).hit('k', MINUTE)),
    );
    expect(burst.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 11),
    );
    expect((await b.get('k'))?.count).toBe(70);
    await a.reset('k');
    expect(await b.get('k')).toBeNull();
  });

  it('limit a burst spread over both the same as one process: the throttle holds across processes', async () => {
    const keyPrefix = casePrefix();
    const limits = { ...DEFAULT_THROTTLE_LIMITS, clientRequests: { max: 5, windowMs: MINUTE } };
    const [a, b] = [connection(), connection()].map((c) =>
      createThrottle({ store: createRedisCounterStore(c, { keyPrefix }), limits }),
    ) as [Throttle, Throttle];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        throttledRequest(
          (i % 2 === 0 ? a : b).forRequest('203.0.113.7'),
          { costly: true },
          async () => new Response('ok'),
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('race for one challenge: exactly one of them gets it, round after round', async () => {
    const keyPrefix = casePrefix();
    const [a, b] = [connection(), connection()].map((c) => createRedisChallengeStore(c, { keyPrefix })) as [
      PasskeyChallengeStore,
      PasskeyChallengeStore,
    ];
    for (let round = 0; round < 200; round++) {
      const waiting = challengeFor(
        round % 2 === 0 ? 'authentication' : 'registration',
        `uid-${round}`,
        Date.now() + MINUTE,
      );
      await (round % 2 === 0 ? a : b).put(`c-${round}`, waiting);
      const taken = await Promise.all([a.take(`c-${round}`), b.take(`c-${round}`)]);
      expect(
        taken.filter((t) => t !== null),
        `round ${round}`,
      ).toEqual([waiting]);
    }
    expect(await keysOfRun().then((keys) => keys.filter((k) => k.startsWith(keyPrefix)))).toEqual([]);
  });
});

describe('what the Redis stores keep (issue 26)', () => {
  it('a challenge lives in Redis until its expiry, and is gone after it', async () => {
    const keyPrefix = casePrefix();
    const store = createRedisChallengeStore(connection(), { keyPrefix });
    await store.put('soon', challengeFor('authentication', null, Date.now() + 200));
    const ttl = await raw.pTTL(`${keyPrefix}passkey-challenge:soon`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);
    await sleep(250);
    expect(await store.take('soon')).toBeNull();
  });

  it('keeps every key under its prefix, and no client address or email in a key', async () => {
    const keyPrefix = casePrefix();
    const redis = connection();
    const counters = createRedisCounterStore(redis, { keyPrefix });
    await counters.hit('account-client-failures:ada@example.com\n203.0.113.9', MINUTE);
    await createRedisChallengeStore(redis, { keyPrefix }).put(
      'id-1',
      challengeFor('registration', 'u', Date.now() + MINUTE),
    );
    const keys = (await keysOfRun()).filter((k) => k.startsWith(keyPrefix));
    expect(keys).toHaveLength(2);
    expect(keys.join('\n')).not.toMatch(/ada|example|203\.0\.113/);
    expect(keys).toContain(`${keyPrefix}passkey-challenge:id-1`);
    // Every counter has a window: none outlives it.
    for (const key of keys) expect(await raw.pTTL(key)).toBeGreaterThan(0);
  });

  it('takes something that is not a challenge as none, and removes it', async () => {
    const keyPrefix = casePrefix();
    const store = createRedisChallengeStore(connection(), { keyPrefix });
    await raw.set(`${keyPrefix}passkey-challenge:bad`, '{"kind":"admin","challenge":"x"}');
    expect(await store.take('bad')).toBeNull();
    expect(await raw.exists(`${keyPrefix}passkey-challenge:bad`)).toBe(0);
  });
});

/** A passkey server whose challenges are in `store` (no signed-in routes are used). */
function passkeyServerOn(store: PasskeyChallengeStore) {
  const auth = {} as PasskeyAdminAuth;
  const LOCAL = 'http://localhost:3000';
  const server = createPasskeyServer({ auth, rpId: 'localhost', rpName: 'Doorway', origins: [LOCAL], store });
  return () =>
    server.handle(
      request('/passkeys/authentication/options', { method: 'POST', base: LOCAL, origin: LOCAL }),
    );
}

describe('Redis unreachable (issue 26)', () => {
  it('the throttle fails open, challenges fail with the network error, within a few seconds; one log line', async () => {
    const lines: string[] = [];
    const down = connection(CLOSED_URL, (line) => lines.push(line));
    const counters = createRedisCounterStore(down, { keyPrefix: casePrefix() });
    const challenges = createRedisChallengeStore(down, { keyPrefix: casePrefix() });
    const started = Date.now();
    expect((await counters.hit('k', MINUTE)).count).toBe(0);
    expect(await counters.get('k')).toBeNull();
    await counters.reset('k');
    const put = await Promise.resolve(
      challenges.put('c', challengeFor('authentication', null, Date.now() + MINUTE)),
    ).catch((e: unknown) => e);
    const take = await Promise.resolve(challenges.take('c')).catch((e: unknown) => e);
    for (const error of [put, take]) {
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe('network-request-failed');
    }
    // A hang guard, far above the one second a command may wait.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Redis is unreachable/);
    expect(lines[0]).not.toContain('127.0.0.1');
  });

  it('a request behind the throttle still gets its answer', async () => {
    const throttle = createThrottle({
      store: createRedisCounterStore(connection(CLOSED_URL), { keyPrefix: casePrefix() }),
      limits: { ...DEFAULT_THROTTLE_LIMITS, clientRequests: { max: 1, windowMs: MINUTE } },
    });
    for (let i = 0; i < 3; i++) {
      const out = await throttledRequest(
        throttle.forRequest('203.0.113.8'),
        { costly: true },
        async () => new Response('ok'),
      );
      expect(out.status).toBe(200);
    }
  });

  it('the passkey server answers 503 with the network error, not a 500', async () => {
    const options = passkeyServerOn(
      createRedisChallengeStore(connection(CLOSED_URL), { keyPrefix: casePrefix() }),
    );
    const out = await options();
    expect(out.status).toBe(503);
    expect(await out.json()).toEqual({ error: { code: 'network-request-failed' } });
  });
});

/** A TCP relay to the real Redis on a port of its own, which the test can stop and start again. */
async function redisRelay() {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = tcpConnect(6379, '127.0.0.1');
        for (const end of [client, upstream]) {
          sockets.add(end);
          end.on('error', () => {});
          end.on('close', () => {
            sockets.delete(end);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server?.close(() => resolve());
      server = null;
    });
  await start();
  return { url: () => `redis://127.0.0.1:${port}`, start, stop };
}

describe('Redis gone and back (issue 26)', () => {
  it('falls back while it is gone and recovers by itself when it is back, with one line each way', async () => {
    const relay = await redisRelay();
    const lines: string[] = [];
    const redis = connection(relay.url(), (line) => lines.push(line));
    const keyPrefix = casePrefix();
    const counters = createRedisCounterStore(redis, { keyPrefix });
    const challenges = createRedisChallengeStore(redis, { keyPrefix });
    expect((await counters.hit('k', MINUTE)).count).toBe(1);

    await relay.stop();
    expect((await counters.hit('k', MINUTE)).count).toBe(0);
    const ceremony = passkeyServerOn(challenges);
    expect((await ceremony()).status).toBe(503);
    expect(lines).toEqual([expect.stringMatching(/Redis is unreachable/)]);

    await relay.start();
    // The next command connects again (at most once a second): poll until a hit counts again (the test
    // timeout bounds it).
    let count = 0;
    while (count === 0) {
      count = (await counters.hit('k', MINUTE)).count;
      if (count === 0) await sleep(100);
    }
    // The counter kept in Redis through the outage goes on (the hits while it was gone were not counted).
    expect(count).toBe(2);
    expect((await ceremony()).status).toBe(200);
    expect(lines).toEqual([
      expect.stringMatching(/Redis is unreachable/),
      expect.stringMatching(/Redis answers again/),
    ]);
    await relay.stop();
  });
});

describe('DOORWAY_REDIS_URL (issue 26)', () => {
  it('takes a redis:// or rediss:// URL; unset, the stores stay in memory', () => {
    expect(parseHostConfig({}).redisUrl).toBeNull();
    for (const url of ['redis://127.0.0.1:6379', 'rediss://user:pw@redis.example.com:6380/2']) {
      expect(parseHostConfig({ DOORWAY_REDIS_URL: url, DOORWAY_FLOW_SECRET: SECRET }).redisUrl).toBe(url);
    }
  });

  it('refuses anything else, naming the variable and never its value', () => {
    for (const url of ['http://:hunter2@127.0.0.1:6379', 'hunter2', 'redis://', 'unix:///tmp/hunter2.sock']) {
      const error = configError({ DOORWAY_REDIS_URL: url, DOORWAY_FLOW_SECRET: SECRET });
      expect(error.variable).toBe('DOORWAY_REDIS_URL');
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('refuses to start without DOORWAY_FLOW_SECRET: several processes must share it', () => {
    const error = configError({ DOORWAY_REDIS_URL: 'redis://:hunter2@127.0.0.1:6379' });
    expect(error.variable).toBe('DOORWAY_FLOW_SECRET');
    expect(error.message).toMatch(/DOORWAY_REDIS_URL/);
    expect(error.message).not.toContain('hunter2');
  });

  it('set, puts the host’s counters and challenges in that Redis', async () => {
    vi.stubEnv('DOORWAY_REDIS_URL', REDIS_URL);
    vi.stubEnv('DOORWAY_FLOW_SECRET', SECRET);
    vi.resetModules();
    try {
      const host = await import('../app/redis-stores.server.ts');
      const connection = host.hostRedis();
      expect(connection).not.toBeNull();
      if (connection !== null) opened.push(connection);
      const id = `test-${randomUUID()}`;
      await host.hostChallengeStore().put(id, challengeFor('authentication', null, Date.now() + MINUTE));
      const key = `doorway:passkey-challenge:${id}`;
      expect(await raw.exists(key)).toBe(1);
      expect(await host.hostChallengeStore().take(id)).not.toBeNull();
      expect(await raw.exists(key)).toBe(0);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('unset, keeps them in this process’s memory (no Redis connection at all)', async () => {
    vi.stubEnv('DOORWAY_REDIS_URL', '');
    vi.resetModules();
    try {
      const host = await import('../app/redis-stores.server.ts');
      expect(host.hostRedis()).toBeNull();
      const counters = host.hostCounterStore();
      expect((await counters.hit('k', MINUTE)).count).toBe(1);
      expect((await counters.hit('k', MINUTE)).count).toBe(2);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});
