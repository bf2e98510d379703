/**
 * The context every handler of the double shares: its URLs and API keys, settings, clock, state, the
 * requests seen and the fault switches.
 * @module
 */
import { createClock, type DoubleClock } from './clock.ts';
import { configFrom, type DoubleConfig } from './config.ts';
import { JWT_SECRET, signJwt } from './jwt.ts';
import { createStore, type DoubleStore } from './store.ts';
import type { DoubleError, GoTrueDoubleOptions } from './types.ts';

/** The limiters' state: token buckets per limiter and client, the hourly send counts. */
export interface LimiterState {
  buckets: Map<string, { tokens: number; at: number }>;
  sent: Record<'email' | 'sms', { windowStart: number; count: number }>;
}

/** Fresh limiters, their hourly windows starting at `now`. */
export function createLimiterState(now: number): LimiterState {
  return {
    buckets: new Map(),
    sent: { email: { windowStart: now, count: 0 }, sms: { windowStart: now, count: 0 } },
  };
}

/** What the handlers share. */
export interface DoubleContext {
  readonly projectUrl: string;
  /** `<projectUrl>/auth/v1`. */
  readonly authUrl: string;
  /** The fake IdP's origin (`idp.` in front of the project's host). */
  readonly idpUrl: string;
  readonly anonKey: string;
  /** The project's service-role key: a JWT with role `service_role`, for the admin routes. */
  readonly serviceRoleKey: string;
  readonly config: DoubleConfig;
  readonly clock: DoubleClock;
  readonly store: DoubleStore;
  readonly requests: { method: string; path: string; at: number }[];
  /** Errors to answer the next request to a route with (`failNext`). */
  readonly failures: { route: string; error: DoubleError }[];
  readonly faults: { network: boolean; serverError: boolean };
  /** The rate limiters' buckets and hourly send counts. */
  readonly limits: LimiterState;
}

/** Numbers the default project URLs, so that two doubles in one test never share one. */
let doubles = 0;

/** A fresh context for `options`. */
export function createContext(options: GoTrueDoubleOptions): DoubleContext {
  doubles += 1;
  const clock = createClock(options);
  const projectUrl = options.projectUrl ?? `http://double-${doubles}.supabase.test`;
  return {
    projectUrl,
    authUrl: `${projectUrl}/auth/v1`,
    idpUrl: projectUrl.replace('://', '://idp.'),
    anonKey: signJwt({ iss: 'supabase-double', role: 'anon', ref: projectUrl }, JWT_SECRET),
    serviceRoleKey: signJwt({ iss: 'supabase-double', role: 'service_role', ref: projectUrl }, JWT_SECRET),
    config: configFrom(options),
    clock,
    store: createStore(options.state),
    requests: [],
    failures: [],
    faults: { network: false, serverError: false },
    limits: createLimiterState(clock.now()),
  };
}
