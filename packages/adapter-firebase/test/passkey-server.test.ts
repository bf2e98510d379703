// The passkey server of `@doorway/adapter-firebase/server` against the Auth emulator (custom claims and
// custom tokens), its ceremonies answered by the software authenticator of @doorway/testing.
import { createSoftAuthenticator, type SoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CUSTOM_CLAIMS_LIMIT,
  createFirebaseServer,
  createPasskeyServer,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_RECENT_SIGN_IN_MS,
  type PasskeyServer,
} from '../src/server.ts';
import {
  API_KEY,
  EMULATOR_URL,
  expectAuthError,
  freshProvider,
  PROJECT_ID,
  resetEmulator,
  setDisabled,
  uniqueEmail,
} from './emulator.ts';

const ORIGIN = 'http://localhost';
const admin = createFirebaseServer({ projectId: PROJECT_ID }).adminAuth;
const OWN_API = `${EMULATOR_URL}/identitytoolkit.googleapis.com/v1`;

let clock = Date.now();
let passkeys: PasskeyServer;
let authenticator: SoftAuthenticator;

beforeEach(async () => {
  await resetEmulator();
  clock = Date.now();
  passkeys = server({ rpId: 'localhost', origins: [ORIGIN] });
  authenticator = createSoftAuthenticator({ origin: ORIGIN });
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method);
  }
});

afterEach(() => {
  // The server logs nothing (no tokens, assertions or keys end up in logs).
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    expect(console[method]).not.toHaveBeenCalled();
  }
  vi.restoreAllMocks();
});

function server(rp: { rpId: string; origins: string[] }): PasskeyServer {
  return createPasskeyServer({ auth: admin, rpName: 'Doorway', now: () => clock, ...rp });
}

async function restPost<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${OWN_API}/${path}?key=${API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A new password account, signed in over REST: its uid and ID token. */
async function signedInUser(): Promise<{ uid: string; idToken: string }> {
  const created = await restPost<{ localId: string; idToken: string }>('accounts:signUp', {
    email: uniqueEmail('passkey'),
    password: 'secret123',
    returnSecureToken: true,
  });
  return { uid: created.localId, idToken: created.idToken };
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read by each test as it expects.
  body: any;
}

/** Calls the server's `handle` as a browser's fetch would. */
async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; on?: PasskeyServer } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await (options.on ?? passkeys).handle(new Request(`${ORIGIN}/passkeys${path}`, init));
  expect(response.headers.get('cache-control')).toBe('no-store');
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** Registers a passkey on `device` for the user of `token` (or answers the refused options). */
async function register(
  token: string,
  device: SoftAuthenticator = authenticator,
  name = 'Laptop',
  on: PasskeyServer = passkeys,
): Promise<Answer> {
  const start = await call('POST', '/registration/options', { token, on });
  if (start.status !== 200) return start;
  const response = await device.create(start.body.options);
  return call('POST', '/registration/verify', {
    token,
    on,
    body: { challengeId: start.body.challengeId, response, name },
  });
}

/** Asks for sign-in options, has `device` answer them (after `tamper` ran), and posts the answer. */
async function signIn(
  device: SoftAuthenticator = authenticator,
  tamper: (options: { rpId?: string }) => void = () => {},
): Promise<Answer & { challengeId: string; response: unknown }> {
  const start = await call('POST', '/authentication/options');
  expect(start.status).toBe(200);
  tamper(start.body.options);
  const response = await device.get(start.body.options, { conditional: false });
  const { challengeId } = start.body;
  return {
    ...(await call('POST', '/authentication/verify', { body: { challengeId, response } })),
    challengeId,
    response,
  };
}

async function claimsOf(uid: string): Promise<Record<string, unknown>> {
  return (await admin.getUser(uid)).customClaims ?? {};
}

describe('passkey server - registration', () => {
  it('registers a passkey in the custom claims, merged with the other claims, and lists it', async () => {
    const { uid, idToken } = await signedInUser();
    await admin.setCustomUserClaims(uid, { role: 'editor' });
    const added = await register(idToken);
    expect(added.status).toBe(200);
    expect(added.body.passkey).toEqual({
      id: authenticator.credentials()[0]?.id,
      name: 'Laptop',
      createdAt: Math.floor(clock / 1000) * 1000,
      lastUsedAt: null,
      backedUp: true,
    });
    const claims = await claimsOf(uid);
    expect(claims.role).toBe('editor');
    expect(claims.pk).toEqual([
      [added.body.passkey.id, expect.any(String), 0, 3, Math.floor(clock / 1000), 0, 'Laptop'],
    ]);
    expect(authenticator.credentials()[0]?.userHandle).toBe(Buffer.from(uid).toString('base64url'));
    const listed = await call('GET', '/credentials', { token: idToken });
    expect(listed).toEqual({ status: 200, body: { passkeys: [added.body.passkey] } });
  });

  it('asks for a discoverable credential, excluding the user’s passkeys', async () => {
    const { idToken } = await signedInUser();
    await register(idToken);
    const start = await call('POST', '/registration/options', { token: idToken });
    expect(start.body.options).toMatchObject({
      rp: { id: 'localhost', name: 'Doorway' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [{ id: authenticator.credentials()[0]?.id, type: 'public-key' }],
    });
    // The same authenticator again: the browser refuses (InvalidStateError).
    await expect(authenticator.create(start.body.options)).rejects.toMatchObject({
      name: 'InvalidStateError',
    });
  });

  it('needs a signed-in user: no, a malformed or a revoked ID token is requires-recent-login', async () => {
    expect(await call('POST', '/registration/options')).toEqual({
      status: 401,
      body: { error: { code: 'requires-recent-login' } },
    });
    expect((await call('POST', '/registration/options', { token: 'not-a-token' })).status).toBe(401);
    expect((await call('GET', '/credentials')).status).toBe(401);
    const { uid, idToken } = await signedInUser();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await admin.revokeRefreshTokens(uid);
    expect((await call('GET', '/credentials', { token: idToken })).body.error.code).toBe(
      'requires-recent-login',
    );
  });

  it('refuses a registration answered for another user’s challenge', async () => {
    const ada = await signedInUser();
    const bob = await signedInUser();
    const start = await call('POST', '/registration/options', { token: ada.idToken });
    const response = await authenticator.create(start.body.options);
    const verify = await call('POST', '/registration/verify', {
      token: bob.idToken,
      body: { challengeId: start.body.challengeId, response },
    });
    expect(verify).toEqual({ status: 401, body: { error: { code: 'requires-recent-login' } } });
    expect(await claimsOf(bob.uid)).toEqual({});
  });

  it('refuses a registration made on another origin, and an expired or reused challenge', async () => {
    const { uid, idToken } = await signedInUser();
    authenticator.originNext('https://phishing.example');
    expect((await register(idToken)).body).toEqual({ error: { code: 'passkey-invalid' } });
    const start = await call('POST', '/registration/options', { token: idToken });
    const response = await createSoftAuthenticator({ origin: ORIGIN }).create(start.body.options);
    clock += PASSKEY_CHALLENGE_TTL_MS;
    const body = { challengeId: start.body.challengeId, response };
    expect((await call('POST', '/registration/verify', { token: idToken, body })).body).toEqual({
      error: { code: 'session-expired' },
    });
    expect((await call('POST', '/registration/verify', { token: idToken, body })).body.error.code).toBe(
      'session-expired',
    );
    expect(await claimsOf(uid)).toEqual({});
  });

  it(`refuses a passkey that would not fit in the ${CUSTOM_CLAIMS_LIMIT}-byte claims, with passkey-limit`, async () => {
    const { uid, idToken } = await signedInUser();
    await admin.setCustomUserClaims(uid, { role: 'editor' });
    let added = 0;
    let refused: Answer | undefined;
    while (refused === undefined) {
      const answer = await register(
        idToken,
        createSoftAuthenticator({ origin: ORIGIN }),
        `Device ${added + 1}`,
      );
      if (answer.status === 200) added += 1;
      else refused = answer;
    }
    expect(refused).toEqual({
      status: 409,
      body: { error: { code: 'passkey-limit' } },
    });
    // ES256 keys with 16-byte ids and short names, beside one other claim.
    expect(added).toBe(5);
    const claims = await claimsOf(uid);
    expect(claims.role).toBe('editor');
    // Room is kept for what sign-ins write (10-digit counters and dates of last use).
    const grown = {
      ...claims,
      pk: (claims.pk as unknown[][]).map((entry) =>
        entry.map((v, i) => (i === 2 ? 2 ** 32 - 1 : i === 5 ? 9_999_999_999 : v)),
      ),
    };
    expect(JSON.stringify(grown).length).toBeLessThanOrEqual(CUSTOM_CLAIMS_LIMIT);
  });

  it('refuses, when its answer comes, a passkey that no longer fits (two registrations at once)', async () => {
    const { uid, idToken } = await signedInUser();
    await admin.setCustomUserClaims(uid, { role: 'editor' });
    for (let i = 0; i < 4; i += 1) {
      expect((await register(idToken, createSoftAuthenticator({ origin: ORIGIN }))).status).toBe(200);
    }
    const starts = [
      await call('POST', '/registration/options', { token: idToken }),
      await call('POST', '/registration/options', { token: idToken }),
    ];
    const answers: Answer[] = [];
    for (const start of starts) {
      const response = await createSoftAuthenticator({ origin: ORIGIN }).create(start.body.options);
      const body = { challengeId: start.body.challengeId, response, name: 'Laptop' };
      answers.push(await call('POST', '/registration/verify', { token: idToken, body }));
    }
    expect(answers.map((a) => a.status)).toEqual([200, 409]);
    expect(answers[1]?.body.error).toEqual({ code: 'passkey-limit' });
    expect((await claimsOf(uid)).pk).toHaveLength(5);
  });

  it('the browser provider rejects adding a passkey past the limit with passkey-limit', async () => {
    const email = uniqueEmail('passkey-limit');
    await restPost('accounts:signUp', { email, password: 'secret123', returnSecureToken: true });
    const { provider, dispose } = freshProvider({
      passkeys: {
        endpoint: '/passkeys',
        fetch: (input, init) => passkeys.handle(new Request(new URL(String(input), ORIGIN), init)),
        // A new authenticator for each passkey (one holding a passkey of the user is excluded).
        webAuthnClient: {
          create: (options, signal) => createSoftAuthenticator({ origin: ORIGIN }).create(options, signal),
          get: (options, how) => authenticator.get(options, how),
        },
      },
    });
    try {
      await provider.signInWithEmailAndPassword(email, 'secret123');
      const operations = provider.passkeys;
      if (operations === undefined) throw new Error('no passkeys');
      for (let i = 1; i <= 5; i += 1) await operations.add(`Device ${i}`);
      await expectAuthError(operations.add('Device 6'), 'passkey-limit');
      expect(await operations.list()).toHaveLength(5);
    } finally {
      await dispose();
    }
  });
});

describe('passkey server - sign-in', () => {
  it('asks for any discoverable credential and signs in the passkey’s user with a custom token', async () => {
    const { uid, idToken } = await signedInUser();
    await register(idToken);
    const start = await call('POST', '/authentication/options');
    expect(start.body.options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(start.body.options.allowCredentials ?? []).toEqual([]);
    const signedIn = await signIn();
    expect(signedIn.status).toBe(200);
    const session = await restPost<{ idToken: string }>('accounts:signInWithCustomToken', {
      token: signedIn.body.customToken,
      returnSecureToken: true,
    });
    expect((await admin.verifyIdToken(session.idToken)).uid).toBe(uid);
  });

  it('updates the counter, backup flag and last use after each sign-in', async () => {
    const { uid, idToken } = await signedInUser();
    await register(idToken);
    clock += 60_000;
    expect((await signIn()).status).toBe(200);
    expect((await signIn()).status).toBe(200);
    const [entry] = (await claimsOf(uid)).pk as unknown[][];
    expect(entry?.[2]).toBe(authenticator.credentials()[0]?.signCount);
    expect(entry?.[2]).toBe(2);
    expect(entry?.[5]).toBe(Math.floor(clock / 1000));
    const listed = await call('GET', '/credentials', { token: idToken });
    expect(listed.body.passkeys[0].lastUsedAt).toBe(Math.floor(clock / 1000) * 1000);
  });

  it('refuses a replay: the same challenge again, or the last assertion for a new challenge', async () => {
    const { idToken } = await signedInUser();
    await register(idToken);
    const first = await signIn();
    expect(first.status).toBe(200);
    const again = await call('POST', '/authentication/verify', {
      body: { challengeId: first.challengeId, response: first.response },
    });
    expect(again).toEqual({ status: 400, body: { error: { code: 'session-expired' } } });
    authenticator.replayNext();
    expect((await signIn()).body).toEqual({ error: { code: 'passkey-invalid' } });
  });

  it('refuses an assertion made on another origin', async () => {
    const { idToken } = await signedInUser();
    await register(idToken);
    authenticator.originNext('https://phishing.example');
    expect((await signIn()).body).toEqual({ error: { code: 'passkey-invalid' } });
  });

  it('refuses an assertion made for another RP ID', async () => {
    const site = 'https://app.example.com';
    const parent = server({ rpId: 'example.com', origins: [site] });
    const app = server({ rpId: 'app.example.com', origins: [site] });
    const device = createSoftAuthenticator({ origin: site });
    const { idToken } = await signedInUser();
    expect((await register(idToken, device, 'Laptop', parent)).status).toBe(200);
    const start = await call('POST', '/authentication/options', { on: app });
    const response = await device.get({ ...start.body.options, rpId: 'example.com' }, { conditional: false });
    const verify = await call('POST', '/authentication/verify', {
      on: app,
      body: { challengeId: start.body.challengeId, response },
    });
    expect(verify.body).toEqual({ error: { code: 'passkey-invalid' } });
  });

  it('refuses an answer after the challenge expired with session-expired', async () => {
    const { idToken } = await signedInUser();
    await register(idToken);
    const answer = await signIn(authenticator, () => {
      clock += PASSKEY_CHALLENGE_TTL_MS + 1;
    });
    expect(answer.body).toEqual({ error: { code: 'session-expired' } });
  });

  it('refuses a removed passkey with passkey-not-found, and a disabled user with user-disabled', async () => {
    const { uid, idToken } = await signedInUser();
    const id = (await register(idToken)).body.passkey.id;
    await setDisabled(uid, true);
    expect((await signIn()).body).toEqual({ error: { code: 'user-disabled' } });
    await setDisabled(uid, false);
    expect(await call('DELETE', `/credentials/${id}`, { token: idToken })).toEqual({
      status: 204,
      body: null,
    });
    expect(await claimsOf(uid)).toEqual({});
    // Issue 24: the removal ended the user's sessions, the one that removed it included.
    expect((await call('GET', '/credentials', { token: idToken })).body).toEqual({
      error: { code: 'requires-recent-login' },
    });
    expect(await signIn()).toMatchObject({ status: 404, body: { error: { code: 'passkey-not-found' } } });
  });
});

describe('passkey server - recent sign-in (issue 24)', () => {
  it('refuses to add a passkey with an ID token whose sign-in is older than the window', async () => {
    const { uid, idToken } = await signedInUser();
    const stale = server({ rpId: 'localhost', origins: [ORIGIN] });
    clock += PASSKEY_RECENT_SIGN_IN_MS + 60_000;
    expect(await register(idToken, authenticator, 'Laptop', stale)).toEqual({
      status: 401,
      body: { error: { code: 'requires-recent-login' } },
    });
    expect(await claimsOf(uid)).toEqual({});
  });
});

describe('passkey server - routes', () => {
  it('removing a passkey the user does not have is passkey-not-found', async () => {
    const { idToken } = await signedInUser();
    await register(idToken);
    expect(await call('DELETE', '/credentials/bm90LWEtcGFzc2tleQ', { token: idToken })).toEqual({
      status: 404,
      body: { error: { code: 'passkey-not-found' } },
    });
    expect((await call('GET', '/credentials', { token: idToken })).body.passkeys).toHaveLength(1);
  });

  it('answers 404 below other paths, 405 for other methods, and refuses a malformed answer', async () => {
    expect((await call('GET', '/nothing')).status).toBe(404);
    expect((await call('GET', '/authentication/options')).status).toBe(405);
    expect((await call('POST', '/credentials')).status).toBe(405);
    const outside = await passkeys.handle(new Request(`${ORIGIN}/elsewhere/credentials`));
    expect(outside.status).toBe(404);
    const start = await call('POST', '/authentication/options');
    const garbage = await call('POST', '/authentication/verify', {
      body: { challengeId: start.body.challengeId, response: 'nope' },
    });
    expect(garbage.body).toEqual({ error: { code: 'passkey-invalid' } });
  });
});
