// The passkey server's writes and checks on an in-memory firebase-admin Auth, without the emulator
// (issue 24): a passkey removed while a sign-in with it runs stays removed and signs nobody in, a claim an
// admin sets meanwhile is kept, adding a passkey needs a recent sign-in, every ceremony needs the user
// verified, and removing a passkey ends the user's sessions.
import { createSoftAuthenticator, type SoftAuthenticator } from '@doorway/testing/soft-authenticator';
import type { DecodedIdToken, UserRecord } from 'firebase-admin/auth';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PasskeyAdminAuth } from '../src/server/passkeyHttp.ts';
import {
  createPasskeyServer,
  PASSKEY_RECENT_SIGN_IN_MS,
  type PasskeyServer,
} from '../src/server/passkeys.ts';

const ORIGIN = 'http://localhost';
const UID = 'uid-ada';

/** A user's record as firebase-admin answers it: a copy, as of the moment it was read. */
type Claims = Record<string, unknown>;

interface FakeAdmin extends PasskeyAdminAuth {
  claims: Map<string, Claims>;
  revoked: string[];
  /** Runs once, right after the next `getUser` has read the record (a write that lands in between). */
  afterNextRead(run: () => Promise<void>): void;
}

/** firebase-admin's Auth in memory: bearer tokens are `token:<uid>:<auth_time in seconds>`. */
function fakeAdmin(): FakeAdmin {
  const claims = new Map<string, Claims>([[UID, {}]]);
  const revoked: string[] = [];
  let hook: (() => Promise<void>) | null = null;
  const admin = {
    claims,
    revoked,
    afterNextRead(run: () => Promise<void>) {
      hook = run;
    },
    async verifyIdToken(token: string) {
      const [kind, uid = '', authTime = '0'] = token.split(':');
      if (kind !== 'token' || !claims.has(uid)) {
        throw Object.assign(new Error('bad token'), { code: 'auth/argument-error' });
      }
      return { uid, auth_time: Number(authTime) } as DecodedIdToken;
    },
    async getUser(uid: string) {
      const held = claims.get(uid);
      if (held === undefined) throw Object.assign(new Error('none'), { code: 'auth/user-not-found' });
      const record = {
        uid,
        email: 'ada@example.com',
        displayName: 'Ada',
        disabled: false,
        customClaims: structuredClone(held),
      } as unknown as UserRecord;
      const run = hook;
      hook = null;
      if (run !== null) await run();
      return record;
    },
    async setCustomUserClaims(uid: string, next: Claims | null) {
      claims.set(uid, structuredClone(next ?? {}));
    },
    async createCustomToken(uid: string) {
      return `custom:${uid}`;
    },
    async revokeRefreshTokens(uid: string) {
      revoked.push(uid);
    },
  };
  return admin as unknown as FakeAdmin;
}

let clock: number;
let admin: FakeAdmin;
let server: PasskeyServer;
let device: SoftAuthenticator;

beforeEach(() => {
  // An hour ago: the sign-ins of these tokens are long past on the real clock too (removal waits for the
  // second after the bearer's sign-in on the real clock, as Firebase counts revocations).
  clock = Date.now() - 3_600_000;
  admin = fakeAdmin();
  server = createPasskeyServer({
    auth: admin,
    rpId: 'localhost',
    rpName: 'Doorway',
    origins: [ORIGIN],
    now: () => clock,
  });
  device = createSoftAuthenticator({ origin: ORIGIN });
});

/** A bearer ID token of Ada's whose sign-in was `agoMs` before the server's clock. */
const tokenSignedIn = (agoMs = 0) => `token:${UID}:${Math.floor((clock - agoMs) / 1000)}`;

async function call(path: string, init: { token?: string; body?: unknown; method?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const response = await server.handle(
    new Request(`${ORIGIN}/passkeys${path}`, {
      method: init.method ?? 'POST',
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read by each test as it expects.
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as any };
}

async function register(token: string, on: SoftAuthenticator = device) {
  const start = await call('/registration/options', { token });
  if (start.status !== 200) return start;
  const response = await on.create(start.body.options);
  return call('/registration/verify', {
    token,
    body: { challengeId: start.body.challengeId, response, name: 'Laptop' },
  });
}

/** A passkey sign-in's options and the authenticator's answer, not yet posted. */
async function assertion(on: SoftAuthenticator = device) {
  const start = await call('/authentication/options');
  const response = await on.get(start.body.options, { conditional: false });
  return { challengeId: start.body.challengeId, response };
}

const stored = () => (admin.claims.get(UID)?.pk ?? []) as unknown[][];

describe('passkey writes that cannot undo each other (issue 24)', () => {
  it('a removal landing between a sign-in’s read and write stays: the passkey is not written back, nobody is signed in', async () => {
    const id = (await register(tokenSignedIn())).body.passkey.id as string;
    const answer = await assertion();
    // The sign-in reads the record (the passkey is there), then the removal completes before its write.
    admin.afterNextRead(async () => {
      expect((await call(`/credentials/${id}`, { method: 'DELETE', token: tokenSignedIn() })).status).toBe(
        204,
      );
    });
    const signIn = await call('/authentication/verify', { body: answer });
    expect(signIn).toEqual({ status: 404, body: { error: { code: 'passkey-not-found' } } });
    expect(stored()).toEqual([]);
    expect(admin.claims.get(UID)).toEqual({});
  });

  it('a claim an admin sets during a sign-in is kept, and only the passkey’s use changes', async () => {
    await register(tokenSignedIn());
    const before = stored()[0];
    clock += 60_000;
    const answer = await assertion();
    admin.afterNextRead(async () => {
      await admin.setCustomUserClaims(UID, { ...admin.claims.get(UID), role: 'admin' });
    });
    expect((await call('/authentication/verify', { body: answer })).body).toEqual({
      customToken: `custom:${UID}`,
    });
    expect(admin.claims.get(UID)?.role).toBe('admin');
    const after = stored()[0];
    expect(after?.[2]).toBe(1);
    expect(after?.[5]).toBe(Math.floor(clock / 1000));
    expect([after?.[0], after?.[1], after?.[4], after?.[6]]).toEqual([
      before?.[0],
      before?.[1],
      before?.[4],
      before?.[6],
    ]);
  });

  it('a registration keeps a passkey another registration added meanwhile', async () => {
    const other = createSoftAuthenticator({ origin: ORIGIN });
    const start = await call('/registration/options', { token: tokenSignedIn() });
    const response = await device.create(start.body.options);
    expect((await register(tokenSignedIn(), other)).status).toBe(200);
    const verify = await call('/registration/verify', {
      token: tokenSignedIn(),
      body: { challengeId: start.body.challengeId, response },
    });
    expect(verify.status).toBe(200);
    expect(stored()).toHaveLength(2);
  });
});

describe('adding a passkey needs a recent sign-in (issue 24)', () => {
  it('refuses options and verification for a sign-in older than the window with requires-recent-login', async () => {
    const stale = tokenSignedIn(PASSKEY_RECENT_SIGN_IN_MS + 1000);
    expect(await call('/registration/options', { token: stale })).toEqual({
      status: 401,
      body: { error: { code: 'requires-recent-login' } },
    });
    // Options asked just in time, the answer after the window: refused too, nothing stored.
    const token = tokenSignedIn(PASSKEY_RECENT_SIGN_IN_MS - 1000);
    const start = await call('/registration/options', { token });
    expect(start.status).toBe(200);
    const response = await device.create(start.body.options);
    clock += 2000;
    const verify = await call('/registration/verify', {
      token,
      body: { challengeId: start.body.challengeId, response },
    });
    expect(verify.body).toEqual({ error: { code: 'requires-recent-login' } });
    expect(stored()).toEqual([]);
    // Listing and removing need no recent sign-in.
    expect((await call('/credentials', { method: 'GET', token: stale })).body).toEqual({ passkeys: [] });
  });
});

describe('every ceremony verifies its user (issue 24)', () => {
  it('asks for user verification and refuses a registration or an assertion without it', async () => {
    const start = await call('/registration/options', { token: tokenSignedIn() });
    expect(start.body.options.authenticatorSelection.userVerification).toBe('required');
    const presenceOnly = createSoftAuthenticator({ origin: ORIGIN, userVerified: false });
    expect((await register(tokenSignedIn(), presenceOnly)).body).toEqual({
      error: { code: 'passkey-invalid' },
    });
    expect(stored()).toEqual([]);

    // A passkey made verifying its user, then asked on a device that only checks presence.
    const settings = { origin: ORIGIN, userVerified: true };
    const held = createSoftAuthenticator(settings);
    expect((await register(tokenSignedIn(), held)).status).toBe(200);
    settings.userVerified = false;
    const options = await call('/authentication/options');
    expect(options.body.options.userVerification).toBe('required');
    const answer = await held.get(options.body.options, { conditional: false });
    const verify = await call('/authentication/verify', {
      body: { challengeId: options.body.challengeId, response: answer },
    });
    expect(verify.body).toEqual({ error: { code: 'passkey-invalid' } });
    // The same passkey, its user verified: signed in.
    settings.userVerified = true;
    const again = await assertion(held);
    expect((await call('/authentication/verify', { body: again })).status).toBe(200);
  });
});

describe('removing a passkey ends the user’s sessions (issue 24)', () => {
  it('revokes the user’s refresh tokens and session cookies after the removal, not before it or on a refusal', async () => {
    const id = (await register(tokenSignedIn())).body.passkey.id as string;
    expect(admin.revoked).toEqual([]);
    const earlier = tokenSignedIn(60_000);
    expect((await call('/credentials/bm90LWEtcGFzc2tleQ', { method: 'DELETE', token: earlier })).status).toBe(
      404,
    );
    expect(admin.revoked).toEqual([]);
    expect((await call(`/credentials/${id}`, { method: 'DELETE', token: earlier })).status).toBe(204);
    expect(admin.revoked).toEqual([UID]);
    expect(stored()).toEqual([]);
  });
});
