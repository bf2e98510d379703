/**
 * The host's throttle: how often one client address may fail a secret check (a password, an action or
 * second-factor code, a session token), have a message sent (a reset email, a sign-in link) or make a
 * costly request (a passkey challenge, a session minted, an account page write), and how many failures
 * one account may take from all clients. Past a limit the answer is 429 with `Retry-After` and the
 * catalogue's `too-many-requests` message.
 *
 * Only failures, messages and costly requests are counted, never a successful sign-in, so normal use
 * (many sign-ins from one office's address) is never refused. The account limit never locks its owner
 * out: once an account has taken too many failures, only the clients that failed against it are refused;
 * a client with no failure against it (the owner, with the right password) is still heard.
 *
 * Counters sit in a {@link CounterStore} (`throttle-store.server.ts`): this process's memory by default,
 * Redis with `DOORWAY_REDIS_URL` (`redis-stores.server.ts`).
 * @module
 */
import { isIP } from 'node:net';
import { AuthError, type ErrorCode, messageFor } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { HostConfigError } from './config.server.ts';
import { clientAddressOf } from './load-context.ts';
import { hostCounterStore } from './redis-stores.server.ts';
import type { CounterStore } from './throttle-store.server.ts';

/** One limit: at most `max` in a window of `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Every limit of the throttle. */
export interface ThrottleLimits {
  /** Failed secret checks per client address (`DOORWAY_THROTTLE_CLIENT_FAILURES`). */
  clientFailures: Limit;
  /**
   * Failed checks against one account from all clients (`DOORWAY_THROTTLE_ACCOUNT_FAILURES`); past it,
   * a client that failed against the account is refused until the window ends.
   */
  accountFailures: Limit;
  /** Messages sent per client address: reset emails, sign-in links (`DOORWAY_THROTTLE_CLIENT_MESSAGES`). */
  clientMessages: Limit;
  /**
   * Costly requests per client address: passkey challenges, sessions minted, account page writes
   * (`DOORWAY_THROTTLE_CLIENT_REQUESTS`).
   */
  clientRequests: Limit;
}

/** The window of every limit, in seconds (`DOORWAY_THROTTLE_WINDOW_SECONDS`): 15 minutes. */
export const THROTTLE_WINDOW_SECONDS = 15 * 60;

const windowMs = THROTTLE_WINDOW_SECONDS * 1000;

/**
 * The default limits per window: far above what a person does (a few wrong passwords, one or two emails,
 * a handful of sign-ins), far below what guessing needs. A passkey challenge lives 5 minutes, so one
 * address holds at most `clientRequests` of the 10 000 challenges the passkey store keeps.
 */
export const DEFAULT_THROTTLE_LIMITS: Readonly<ThrottleLimits> = Object.freeze({
  clientFailures: { max: 100, windowMs },
  accountFailures: { max: 10, windowMs },
  clientMessages: { max: 30, windowMs },
  clientRequests: { max: 600, windowMs },
});

const VARIABLES: Record<keyof ThrottleLimits, string> = {
  clientFailures: 'DOORWAY_THROTTLE_CLIENT_FAILURES',
  accountFailures: 'DOORWAY_THROTTLE_ACCOUNT_FAILURES',
  clientMessages: 'DOORWAY_THROTTLE_CLIENT_MESSAGES',
  clientRequests: 'DOORWAY_THROTTLE_CLIENT_REQUESTS',
};

function positive(env: Readonly<Record<string, string | undefined>>, name: string): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new HostConfigError(name, 'must be a whole number of at least 1');
  }
  return Number(raw);
}

/**
 * The throttle's limits from an environment: each `DOORWAY_THROTTLE_*` count, and the window
 * (`DOORWAY_THROTTLE_WINDOW_SECONDS`), else {@link DEFAULT_THROTTLE_LIMITS}. Throws
 * {@link HostConfigError} naming a variable that is not a whole number of at least 1.
 */
export function parseThrottleLimits(env: Readonly<Record<string, string | undefined>>): ThrottleLimits {
  const seconds = positive(env, 'DOORWAY_THROTTLE_WINDOW_SECONDS') ?? THROTTLE_WINDOW_SECONDS;
  const limits = {} as ThrottleLimits;
  for (const key of Object.keys(VARIABLES) as (keyof ThrottleLimits)[]) {
    const max = positive(env, VARIABLES[key]) ?? DEFAULT_THROTTLE_LIMITS[key].max;
    limits[key] = { max, windowMs: seconds * 1000 };
  }
  return limits;
}

/** A refusal: how long until the client may try again. */
export interface Refusal {
  retryAfterSeconds: number;
}

/**
 * The throttle as one request sees it (one client address). Each check resolves `null` (go on) or the
 * {@link Refusal}; {@link refusal} keeps the longest refusal of the request, for its 429.
 */
export interface RequestThrottle {
  /** Before a secret check against `account` (an email, or `null` for a code of no known account). */
  check(account: string | null): Promise<Refusal | null>;
  /** After a failed secret check: counts it for the client, and for `account` when there is one. */
  fail(account: string | null): Promise<void>;
  /** Before a message is sent: counts it, refused past the client's limit. */
  message(): Promise<Refusal | null>;
  /** Before a costly request: counts it, refused past the client's limit. */
  request(): Promise<Refusal | null>;
  /** The longest refusal this request got, or `null`. */
  refusal(): Refusal | null;
}

/** The throttle of a process: one {@link RequestThrottle} per request. */
export interface Throttle {
  forRequest(clientAddress: string): RequestThrottle;
}

/** What {@link createThrottle} needs. */
export interface ThrottleOptions {
  store: CounterStore;
  limits: ThrottleLimits;
  /** The clock `Retry-After` is counted on (default `Date.now`; the store's clock). */
  now?: () => number;
}

/**
 * The key of a client address: an IPv6 address by its /64 (one subscriber's network, which can use every
 * address in it), an IPv4-mapped one as IPv4, anything else as it is.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The key of an account: its email, trimmed and lower-cased (as providers compare them). */
export function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates a throttle on a store. */
export function createThrottle(options: ThrottleOptions): Throttle {
  const { store, limits } = options;
  const now = options.now ?? Date.now;
  const refusalUntil = (resetAt: number): Refusal => ({
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now()) / 1000)),
  });
  return {
    forRequest(clientAddress) {
      const client = clientKey(clientAddress);
      let longest: Refusal | null = null;
      const refuse = (refusal: Refusal): Refusal => {
        if (longest === null || refusal.retryAfterSeconds > longest.retryAfterSeconds) longest = refusal;
        return refusal;
      };
      const counted = async (key: string, limit: Limit) => {
        const counter = await store.hit(key, limit.windowMs);
        return counter.count > limit.max ? refuse(refusalUntil(counter.resetAt)) : null;
      };
      return {
        async check(account) {
          const failures = await store.get(`failures:${client}`);
          if (failures !== null && failures.count >= limits.clientFailures.max) {
            return refuse(refusalUntil(failures.resetAt));
          }
          if (account === null) return null;
          const id = accountKey(account);
          const ofAccount = await store.get(`account-failures:${id}`);
          if (ofAccount === null || ofAccount.count < limits.accountFailures.max) return null;
          // Only a client that failed against this account waits; the owner's first try is still heard.
          const mine = await store.get(`account-client-failures:${id}\n${client}`);
          return mine === null ? null : refuse(refusalUntil(Math.min(mine.resetAt, ofAccount.resetAt)));
        },
        async fail(account) {
          await store.hit(`failures:${client}`, limits.clientFailures.windowMs);
          if (account === null) return;
          const id = accountKey(account);
          await store.hit(`account-failures:${id}`, limits.accountFailures.windowMs);
          await store.hit(`account-client-failures:${id}\n${client}`, limits.accountFailures.windowMs);
        },
        message: () => counted(`messages:${client}`, limits.clientMessages),
        request: () => counted(`requests:${client}`, limits.clientRequests),
        refusal: () => longest,
      };
    },
  };
}

let shared: Throttle | null = null;

/**
 * The throttle of this process: the limits of `process.env` and its counters in this process's memory,
 * or in Redis when `DOORWAY_REDIS_URL` is set (several processes count together; see
 * `redis-stores.server.ts`). Made on first use; a bad `DOORWAY_THROTTLE_*` throws {@link HostConfigError}.
 */
export function hostThrottle(): Throttle {
  shared ??= createThrottle({
    store: hostCounterStore(),
    limits: parseThrottleLimits(process.env),
  });
  return shared;
}

/** The throttle of one request of this process, for the client address of its load context. */
export function requestThrottle(context: unknown): RequestThrottle {
  return hostThrottle().forRequest(clientAddressOf(context));
}

/** The headers of a refusal: `Retry-After` in seconds. */
export function retryAfterHeaders(refusal: Refusal): Record<string, string> {
  return { 'retry-after': String(refusal.retryAfterSeconds) };
}

/**
 * A page's headers (its route's `headers` export) with the `Retry-After` its action or loader answered:
 * Remix carries only `Set-Cookie` over from them by itself.
 */
export function pageHeaders(
  base: Readonly<Record<string, string>>,
  answered: { actionHeaders: Headers; loaderHeaders: Headers },
): Headers {
  const headers = new Headers(base);
  const retryAfter = answered.actionHeaders.get('retry-after') ?? answered.loaderHeaders.get('retry-after');
  if (retryAfter !== null) headers.set('retry-after', retryAfter);
  return headers;
}

/**
 * The 429 of a refused JSON request, with `Retry-After`: `{ code, error }` (the catalogue's
 * `too-many-requests` and its message), or for the passkey server's browser client (`passkey`) its own
 * refusal shape, `{ error: { code } }`.
 */
export function tooManyRequests(refusal: Refusal, shape: 'message' | 'passkey' = 'message'): Response {
  const code: ErrorCode = 'too-many-requests';
  const body = shape === 'passkey' ? { error: { code } } : { code, error: messageFor(code) };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...retryAfterHeaders(refusal),
    },
  });
}

/** The failures of a secret check: what a guess that is wrong gets (not a network failure or a limit). */
export const FAILURE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'wrong-password',
  'user-not-found',
  // Sign-up's "already used" says an account exists: probing it is guessing too.
  'email-already-in-use',
  'invalid-action-code',
  'expired-action-code',
  'invalid-verification-code',
  'code-expired',
  'email-mismatch',
  'session-expired',
  'passkey-invalid',
  'passkey-not-found',
]);

/** Whether a rejection is a failed secret check (an {@link AuthError} of {@link FAILURE_CODES}). */
export function isFailure(error: unknown): boolean {
  return error instanceof AuthError && FAILURE_CODES.has(error.code);
}

type Guard = 'check' | 'message';

/** `call` behind the throttle: refused first (`too-many-requests`), a failure counted after. */
async function guarded<T>(
  throttle: RequestThrottle,
  guard: Guard,
  account: string | null,
  call: () => Promise<T>,
): Promise<T> {
  const refusal = guard === 'check' ? await throttle.check(account) : await throttle.message();
  if (refusal !== null) throw new AuthError('too-many-requests');
  try {
    return await call();
  } catch (error) {
    if (isFailure(error)) await throttle.fail(account);
    throw error;
  }
}

/**
 * The form path's provider behind the throttle: each method that checks a secret (a password, an
 * emailed link, an action code, a second factor's code, sign-up's "already used") or sends a message
 * first asks `throttle` (refused: it rejects `too-many-requests`, which the card shows) and counts a
 * failed check after. Everything else is the provider's own.
 */
export function throttledProvider(
  provider: ServerAuthProvider,
  throttle: RequestThrottle,
): ServerAuthProvider {
  const check = <T>(account: string | null, call: () => Promise<T>) =>
    guarded(throttle, 'check', account, call);
  const message = <T>(call: () => Promise<T>) => guarded(throttle, 'message', null, call);
  const { secondFactors } = provider;
  return {
    ...provider,
    signInWithEmailAndPassword: (email, password) =>
      check(email, () => provider.signInWithEmailAndPassword(email, password)),
    createUser: (email, password, displayName) =>
      check(email, () => provider.createUser(email, password, displayName)),
    signInWithEmailLink: (email, link, options) =>
      check(email, () => provider.signInWithEmailLink(email, link, options)),
    verifyPasswordResetCode: (code) => check(null, () => provider.verifyPasswordResetCode(code)),
    confirmPasswordReset: (code, password) =>
      check(null, () => provider.confirmPasswordReset(code, password)),
    checkActionCode: (code) => check(null, () => provider.checkActionCode(code)),
    applyActionCode: (code) => check(null, () => provider.applyActionCode(code)),
    sendPasswordResetEmail: (email, settings) =>
      message(() => provider.sendPasswordResetEmail(email, settings)),
    sendSignInLinkToEmail: (email, settings) =>
      message(() => provider.sendSignInLinkToEmail(email, settings)),
    ...(secondFactors === undefined
      ? {}
      : {
          secondFactors: {
            ...secondFactors,
            finishSignIn: (challenge, verificationId, code) =>
              check(null, () => secondFactors.finishSignIn(challenge, verificationId, code)),
          },
        }),
  };
}

/** The catalogue code a JSON refusal carries (`{ code }` or `{ error: { code } }`), or `null`. */
async function refusalCode(response: Response): Promise<string | null> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('json')) return null;
  try {
    const body = (await response.clone().json()) as { code?: unknown; error?: { code?: unknown } } | null;
    const code = body?.code ?? body?.error?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/** Whether an answer tells of a failed secret check: a 401 (a token or cookie that is no session), or a failure's code. */
async function isFailedAnswer(response: Response): Promise<boolean> {
  if (response.status === 401) return true;
  const code = await refusalCode(response);
  return code !== null && FAILURE_CODES.has(code as ErrorCode);
}

/** How {@link throttledRequest} throttles a request. */
export interface RequestGuard {
  /** Whether it is costly (counted against `clientRequests`): a challenge, a session, an account write. */
  costly: boolean;
  /** The shape of the 429 (see {@link tooManyRequests}). */
  shape?: 'message' | 'passkey';
}

/**
 * How `/passkeys/*` is throttled: a request that creates a challenge (`registration/options`,
 * `authentication/options`) is costly, so one client holds at most its limit of the challenges the
 * passkey store keeps (a flood from one address cannot push everyone else's out); the 429 is in the
 * passkey client's shape.
 */
export function passkeyGuard(request: Request): RequestGuard {
  return { costly: new URL(request.url).pathname.endsWith('/options'), shape: 'passkey' };
}

/**
 * A JSON endpoint behind the throttle (`/session`, `/passkeys/*`, `/account/*`): refused with 429 while
 * the client's failures are past their limit, or, when `costly`, its costly requests; a failed secret
 * check in its answer (401, or a failure's code) counted after.
 */
export async function throttledRequest(
  throttle: RequestThrottle,
  guard: RequestGuard,
  run: () => Promise<Response>,
): Promise<Response> {
  const refusal = (await throttle.check(null)) ?? (guard.costly ? await throttle.request() : null);
  if (refusal !== null) return tooManyRequests(refusal, guard.shape);
  const response = await run();
  if (await isFailedAnswer(response)) await throttle.fail(null);
  return response;
}
