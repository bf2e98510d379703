/**
 * In-memory stand-ins for the Firebase server entry (session cookies), so the host's server modules are
 * tested without an emulator, and a browser without JavaScript on the form path.
 */
import type { SessionUser } from '@doorway/adapter-firebase/server';
import { AuthError, type AuthUser } from '@doorway/auth-core';
import { HostConfigError, parseHostConfig } from '../app/config.server.ts';
import { type FormPathDeps, type LoginView, runFormPath } from '../app/form-path.server.ts';
import type { SessionBackend } from '../app/session.server.ts';

export const ADA: AuthUser = {
  uid: 'uid-ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  phoneNumber: null,
  emailVerified: true,
  isAnonymous: false,
  providerIds: ['password', 'google.com'],
  tenantId: null,
};

/**
 * A fake session backend: token `good-token` makes cookie `cookie-ada`; `revoked` lists revoked uids. The
 * session's sign-in (`authTime`) is `options.authTime` (ms), else the moment it is verified (a sign-in
 * made just now).
 */
export function fakeSessions(options: { failing?: boolean; authTime?: number } = {}): SessionBackend & {
  revoked: string[];
  users: Map<string, AuthUser>;
} {
  const revoked: string[] = [];
  const users = new Map([[ADA.uid, ADA]]);
  const session = (user: AuthUser): SessionUser => {
    const { providerIds: _, ...rest } = user;
    const authTime = options.authTime ?? Date.now();
    return { ...rest, signInProvider: 'password', identities: ['email'], authTime, expiresAt: 0 };
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

/** The origin of {@link request}'s default base. */
export const ORIGIN = 'http://127.0.0.1:3000';

/**
 * A browser without JavaScript on the form path (`runFormPath` with `deps`): keeps the cookies the host sets
 * and sends them back, posts forms with its own Origin (`null`: none).
 */
export function formBrowser(deps: FormPathDeps) {
  const jar = new Map<string, string>();
  async function send(req: Request) {
    const out = await runFormPath(req, deps);
    for (const line of out.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (/Max-Age=0/.test(line)) jar.delete(pair.slice(0, at));
      else jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return out;
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    jar,
    get: (path: string) => send(request(path, { headers: { cookie: cookie() } })),
    post: (path: string, fields: Record<string, string>, origin: string | null = ORIGIN) =>
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

/** The rendered view of a form-path answer; fails the test for a redirect or a refusal. */
export function viewOf(out: Awaited<ReturnType<typeof runFormPath>>): LoginView {
  if (out instanceof Response) {
    throw new Error(`expected a page, got ${out.status} ${out.headers.get('location')}`);
  }
  return out.view;
}
