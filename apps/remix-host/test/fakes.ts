/**
 * In-memory stand-ins for the Firebase server entry: action codes and session cookies, so the host's
 * server modules are tested without an emulator.
 */
import type { ActionCodeProvider, SessionUser } from '@doorway/adapter-firebase/server';
import { type ActionCodeInfo, AuthError, type AuthUser } from '@doorway/auth-core';
import type { ActionDeps } from '../app/action.server.ts';
import { HostConfigError, parseHostConfig } from '../app/config.server.ts';
import type { SessionBackend } from '../app/session.server.ts';

/**
 * An action code the fake knows. `network` makes every call with it fail as a network error, `rateLimited`
 * as a rate limit.
 */
export interface FakeCode {
  operation: ActionCodeInfo['operation'];
  email: string;
  factor?: string;
  network?: boolean;
  rateLimited?: boolean;
}

/** A fake action-code provider over `codes` (a code is removed once applied or used). */
export function fakeActionProvider(codes: Map<string, FakeCode>, calls: string[] = []): ActionCodeProvider {
  const get = (code: string): FakeCode => {
    const found = codes.get(code);
    if (found?.network) throw new AuthError('network-request-failed');
    if (found?.rateLimited) throw new AuthError('too-many-requests');
    if (found === undefined) throw new AuthError('invalid-action-code');
    return found;
  };
  return {
    async setTenant(tenantId) {
      calls.push(`setTenant:${tenantId}`);
    },
    async checkActionCode(code) {
      calls.push(`check:${code}`);
      const c = get(code);
      return {
        operation: c.operation,
        email: c.email,
        previousEmail: null,
        ...(c.factor ? { factor: c.factor } : {}),
      };
    },
    async applyActionCode(code) {
      calls.push(`apply:${code}`);
      get(code);
      codes.delete(code);
    },
    async verifyPasswordResetCode(code) {
      calls.push(`verify:${code}`);
      const c = get(code);
      if (c.operation !== 'resetPassword') throw new AuthError('invalid-action-code');
      return c.email;
    },
    async confirmPasswordReset(code, password) {
      calls.push(`confirm:${code}`);
      get(code);
      if (password === 'abcdef') throw new AuthError('weak-password');
      codes.delete(code);
    },
  };
}

/** Action-route dependencies on the fake, recording reset emails sent. */
export function fakeActionDeps(
  codes: Map<string, FakeCode>,
  options: { allowedOrigins?: string[]; sendFails?: boolean } = {},
): ActionDeps & { sent: { email: string; url: string }[]; calls: string[] } {
  const sent: { email: string; url: string }[] = [];
  const calls: string[] = [];
  return {
    sent,
    calls,
    provider: () => fakeActionProvider(codes, calls),
    async sendPasswordResetEmail(email, url) {
      if (options.sendFails) throw new AuthError('network-request-failed');
      sent.push({ email, url });
    },
    allowedOrigins: options.allowedOrigins ?? [],
  };
}

const ADA: AuthUser = {
  uid: 'uid-ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  phoneNumber: null,
  emailVerified: true,
  isAnonymous: false,
  providerIds: ['password', 'google.com'],
  tenantId: null,
};

/** A fake session backend: token `good-token` makes cookie `cookie-ada`; `revoked` lists revoked uids. */
export function fakeSessions(options: { failing?: boolean } = {}): SessionBackend & {
  revoked: string[];
  users: Map<string, AuthUser>;
} {
  const revoked: string[] = [];
  const users = new Map([[ADA.uid, ADA]]);
  const session = (user: AuthUser): SessionUser => {
    const { providerIds: _, ...rest } = user;
    return { ...rest, signInProvider: 'password', identities: ['email'], authTime: 0, expiresAt: 0 };
  };
  return {
    revoked,
    users,
    async createSessionCookie(idToken) {
      if (options.failing) throw new AuthError('generic');
      if (idToken !== 'good-token') throw new AuthError('session-expired');
      return 'cookie-ada';
    },
    async verifySessionCookie(cookie, verify) {
      if (cookie !== 'cookie-ada') return null;
      if (verify?.checkRevoked && revoked.includes(ADA.uid)) return null;
      return session(ADA);
    },
    async revokeSessions(uid) {
      revoked.push(uid);
    },
    async getUser(uid) {
      return users.get(uid) ?? null;
    },
  };
}

/** A request to the host at 127.0.0.1:3000 (or `base`). */
export function request(
  path: string,
  init: RequestInit & { origin?: string | null; base?: string } = {},
): Request {
  const { origin, base = 'http://127.0.0.1:3000', headers, ...rest } = init;
  const h = new Headers(headers);
  if (origin !== undefined && origin !== null) h.set('origin', origin);
  return new Request(new URL(path, base), { ...rest, headers: h });
}

/** The HostConfigError that `parseHostConfig(env)` throws; fails the test when it throws none. */
export function configError(env: Record<string, string>): HostConfigError {
  try {
    parseHostConfig(env);
  } catch (e) {
    if (e instanceof HostConfigError) return e;
    throw e;
  }
  throw new Error('expected a HostConfigError');
}
