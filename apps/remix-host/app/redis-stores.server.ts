/**
 * The host's shared state in Redis, for several host processes (`DOORWAY_REDIS_URL`): the throttle's
 * counters ({@link CounterStore}) and the Firebase passkey server's waiting challenges
 * ({@link PasskeyChallengeStore}), each atomic in one Redis command or script, so two processes racing
 * for the same counter or challenge see what one process would. Without `DOORWAY_REDIS_URL` both stay
 * in this process's memory ({@link hostCounterStore}, {@link hostChallengeStore}).
 *
 * When Redis cannot answer (down, unreachable, refusing the password), every command gives up within
 * about a second, never hangs, and:
 * - the throttle fails open: it counts nothing and refuses nobody (the identity provider's own limits
 *   still hold), rather than refusing every visitor;
 * - a passkey ceremony fails: the challenge store rejects `network-request-failed`, which the passkey
 *   server answers with 503 and the widget shows as the catalogue's network error;
 * - one line is logged when the outage begins and one when Redis answers again (never the URL, which may
 *   hold a password). The next command connects again (at most once a second); nothing needs a restart.
 * @module
 */
import { createHash } from 'node:crypto';
import {
  createMemoryChallengeStore,
  type PasskeyChallenge,
  type PasskeyChallengeStore,
} from '@doorway/adapter-firebase/server';
import { AuthError } from '@doorway/auth-core';
import { createClient } from 'redis';
import { hostConfig } from './config.server.ts';
import { type Counter, type CounterStore, createMemoryCounterStore } from './throttle-store.server.ts';

/** The prefix of every key the host writes, unless told otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'doorway:';

/** How long one command may take before the host stops waiting for Redis (connecting included). */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

/** What the stores need of a Redis client: the few commands they send. */
export interface RedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  getDel(key: string): Promise<unknown>;
  set(key: string, value: string, options: { expiration: { type: 'PX'; value: number } }): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** Redis could not answer a command in time (or at all); the message names no address or password. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** A connection to Redis shared by the stores of a process. */
export interface RedisConnection {
  /**
   * Runs `command` on the client, connecting first if need be. Rejects with
   * {@link RedisUnavailableError} within about {@link REDIS_COMMAND_TIMEOUT_MS} when Redis cannot answer.
   */
  run<T>(command: (client: RedisCommands) => Promise<T>): Promise<T>;
  /** Closes the connection (pending commands are rejected). */
  close(): Promise<void>;
}

/** Options of {@link createRedisConnection}. */
export interface RedisConnectionOptions {
  /** Where the outage lines go (default `console.warn`). */
  log?: (line: string) => void;
  /** How long a command (and a connection attempt) may take, in ms (default {@link REDIS_COMMAND_TIMEOUT_MS}). */
  timeoutMs?: number;
}

// A lost or refused connection is not retried in the background (no timer outlives a request, so a
// stopping process is never held up): the next command connects again, at most once a second.
const CONNECT_EVERY_MS = 1000;

/** The kind of a failure, for the log: an error code or class name, never a message (it may hold an address). */
function failureKind(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]{2,32}$/.test(code)) return code;
    // node-redis's errors (TimeoutError, ErrorReply…) are told apart by their class, not their `name`.
    const name = error.constructor?.name ?? (error as { name?: unknown }).name;
    if (typeof name === 'string' && /^\w{1,64}$/.test(name)) return name;
  }
  return 'error';
}

/**
 * A lazy connection to the Redis of `url` (`redis://` or `rediss://`, as `DOORWAY_REDIS_URL`): nothing
 * connects until the first command, and a lost connection is made again by the next command (one attempt
 * at a time, at most one a second). A command waits at most `timeoutMs` (queued while connecting, then
 * dropped); once one has failed, commands fail at once until a connection is up again, so an outage costs
 * its first request a second at most and the others nothing.
 */
export function createRedisConnection(url: string, options: RedisConnectionOptions = {}): RedisConnection {
  const log = options.log ?? ((line: string) => console.warn(line));
  const timeoutMs = options.timeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
  const client = createClient({
    url,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
    commandOptions: { timeout: timeoutMs },
  });
  // node-redis reports every failed connection as an 'error' event, which would end the process
  // unheard; the outage is logged once below instead.
  client.on('error', () => {});
  // The connection never keeps the process alive: a stopping server ends when its own sockets do.
  client.unref();
  let down = false;
  let closed = false;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  const connect = () => {
    if (client.isOpen || closed || Date.now() - attemptedAt < CONNECT_EVERY_MS) return;
    attemptedAt = Date.now();
    // A failed attempt rejects here (and rejects the commands queued behind it); the outage is logged below.
    client.connect().catch(() => {});
  };
  return {
    async run(command) {
      if (closed) throw new RedisUnavailableError('remix-host: the Redis connection is closed');
      connect();
      // Known down and not connected again yet: answer at once rather than make every request of an
      // outage wait out the timeout (a request may send several commands); `connect` above tries again.
      if (down && !client.isReady) throw new RedisUnavailableError('remix-host: Redis did not answer');
      try {
        const result = await command(client);
        if (down) {
          down = false;
          log(
            '[doorway host] Redis answers again: the throttle counts and passkey challenges are shared again',
          );
        }
        return result;
      } catch (error) {
        if (!down) {
          down = true;
          log(
            `[doorway host] Redis is unreachable (${failureKind(error)}): the throttle counts nothing and passkey ceremonies fail until it answers`,
          );
        }
        throw new RedisUnavailableError('remix-host: Redis did not answer');
      }
    },
    async close() {
      closed = true;
      if (client.isOpen) client.destroy();
    },
  };
}

/** Options of the Redis stores. */
export interface RedisStoreOptions {
  /** The prefix of every key (default {@link DEFAULT_REDIS_KEY_PREFIX}): one Redis can serve several hosts. */
  keyPrefix?: string;
  /** The clock of `resetAt` and of a challenge's lifetime (default `Date.now`). */
  now?: () => number;
}

// One hit, atomically: the counter goes up, its window starts only if it has none (a hit in the window
// never moves its end), and its remaining time comes back with the count.
const HIT_SCRIPT = `local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1], 'NX')
return {count, redis.call('PTTL', KEYS[1])}`;

// A counter and its remaining time, read at one instant (a key without a window is none).
const GET_SCRIPT = `local count = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if not count or ttl < 0 then return false end
return {tonumber(count), ttl}`;

/** A `[count, remaining ms]` reply, or `null`. */
function counterReply(reply: unknown): [number, number] | null {
  if (!Array.isArray(reply) || reply.length !== 2) return null;
  const [count, ttl] = reply.map(Number);
  return count !== undefined && ttl !== undefined && Number.isFinite(count) && Number.isFinite(ttl)
    ? [count, ttl]
    : null;
}

/**
 * A {@link CounterStore} in Redis, shared by every process on `connection`. Keys are the SHA-256 of the
 * throttle's (which hold client addresses and emails), so Redis never lists who was counted. When Redis
 * cannot answer, it fails open: a hit counts 0, a counter reads as none.
 */
export function createRedisCounterStore(
  connection: RedisConnection,
  options: RedisStoreOptions = {},
): CounterStore {
  const prefix = `${options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX}throttle:`;
  const now = options.now ?? Date.now;
  const keyOf = (key: string) => prefix + createHash('sha256').update(key).digest('base64url');
  return {
    async hit(key, windowMs) {
      try {
        const reply = await connection.run((redis) =>
          redis.eval(HIT_SCRIPT, {
            keys: [keyOf(key)],
            arguments: [String(Math.max(1, Math.ceil(windowMs)))],
          }),
        );
        const [count, ttl] = counterReply(reply) ?? [0, windowMs];
        return { count, resetAt: now() + Math.max(0, ttl) };
      } catch {
        return { count: 0, resetAt: now() + windowMs } satisfies Counter;
      }
    },
    async get(key) {
      try {
        const reply = counterReply(
          await connection.run((redis) => redis.eval(GET_SCRIPT, { keys: [keyOf(key)], arguments: [] })),
        );
        return reply === null ? null : { count: reply[0], resetAt: now() + reply[1] };
      } catch {
        return null;
      }
    },
    async reset(key) {
      try {
        await connection.run((redis) => redis.del(keyOf(key)));
      } catch {
        // Failing open: a counter that could not be forgotten ends with its window.
      }
    },
  };
}

/** A stored challenge read back, or `null` when it is not one (a foreign or damaged value is none). */
function challengeOf(raw: unknown): PasskeyChallenge | null {
  if (typeof raw !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { kind, challenge, uid, expiresAt } = value as Record<string, unknown>;
  if (kind !== 'registration' && kind !== 'authentication') return null;
  if (typeof challenge !== 'string' || (uid !== null && typeof uid !== 'string')) return null;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  return { kind, challenge, uid, expiresAt };
}

/**
 * A {@link PasskeyChallengeStore} in Redis, shared by every process on `connection`: a challenge is kept
 * (`SET … PX`) until its `expiresAt` and taken with `GETDEL`, so of two processes taking it at once only
 * one gets it, and it is gone for good. Its kind and user come back as they were put (the passkey server
 * refuses one of another kind or user). When Redis cannot answer, `put` and `take` reject
 * `network-request-failed` (503 from the passkey server): a ceremony cannot go on without its challenge.
 */
export function createRedisChallengeStore(
  connection: RedisConnection,
  options: RedisStoreOptions = {},
): PasskeyChallengeStore {
  const prefix = `${options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX}passkey-challenge:`;
  const now = options.now ?? Date.now;
  const unavailable = () => new AuthError('network-request-failed');
  return {
    async put(id, challenge) {
      // Redis drops it at its expiry; one already expired lives a millisecond (taking it then gives none).
      const ttl = Math.max(1, Math.ceil(challenge.expiresAt - now()));
      const { kind, challenge: value, uid, expiresAt } = challenge;
      const json = JSON.stringify({ kind, challenge: value, uid, expiresAt });
      await connection
        .run((redis) => redis.set(prefix + id, json, { expiration: { type: 'PX', value: ttl } }))
        .catch(() => {
          throw unavailable();
        });
    },
    async take(id) {
      const raw = await connection
        .run((redis) => redis.getDel(prefix + id))
        .catch(() => {
          throw unavailable();
        });
      return challengeOf(raw);
    },
  };
}

let shared: RedisConnection | null | undefined;

/** This process's Redis connection when `DOORWAY_REDIS_URL` is set, else `null` (made on first use). */
export function hostRedis(): RedisConnection | null {
  if (shared === undefined) {
    const url = hostConfig().redisUrl;
    shared = url === null ? null : createRedisConnection(url);
  }
  return shared;
}

/** The throttle's counters of this process: in Redis when `DOORWAY_REDIS_URL` is set, else in memory. */
export function hostCounterStore(): CounterStore {
  const redis = hostRedis();
  return redis === null ? createMemoryCounterStore() : createRedisCounterStore(redis);
}

/** The passkey challenges of this process: in Redis when `DOORWAY_REDIS_URL` is set, else in memory. */
export function hostChallengeStore(): PasskeyChallengeStore {
  const redis = hostRedis();
  return redis === null ? createMemoryChallengeStore() : createRedisChallengeStore(redis);
}
