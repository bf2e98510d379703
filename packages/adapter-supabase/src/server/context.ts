/**
 * What every server-side operation works on: where GoTrue is, the server's time, the recovery sessions
 * of verified password-reset links, kept across requests until used or expired, and the service-role key.
 * @module
 */
import type { GoTrueApi } from './rest.ts';
import type { SupabaseServerOptions } from './types.ts';

/** A verified recovery link: the account's email and the recovery session GoTrue opened for it. */
export interface PendingReset {
  email: string;
  token: string;
  /** When the recovery session's token expires, ms since the epoch. */
  expiresAt: number;
  /**
   * The new password, while it waits for the second factor of the recovery session (an account with a
   * verified factor: GoTrue changes its password only at aal2). Memory only, never in a cookie.
   */
  password?: string;
}

/** The server's context. */
export interface ServerContext {
  readonly api: GoTrueApi;
  /** The server's time in ms. */
  readonly now: () => number;
  /** Verified recovery links: the code → the recovery session it gave, oldest first. */
  readonly resets: Map<string, PendingReset>;
  /** How many verified recovery links are kept at most. */
  readonly maxPendingResets: number;
  /** The project's service-role key, if the server was given one (the admin API's account deletion). */
  readonly serviceRoleKey: string | undefined;
}

/** The context of a new server. */
export function createServerContext(options: SupabaseServerOptions): ServerContext {
  const base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
  return {
    api: {
      authUrl: new URL('auth/v1', base).href,
      anonKey: options.anonKey,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    },
    now: options.now ?? Date.now,
    resets: new Map(),
    maxPendingResets: options.maxPendingResets ?? 1000,
    serviceRoleKey: options.serviceRoleKey || undefined,
  };
}
