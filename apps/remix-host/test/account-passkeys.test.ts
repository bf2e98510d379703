/**
 * `POST /account/passkeys` on the Supabase server, answered by the GoTrue TEST DOUBLE: the account page's
 * passkeys run on the server with the session's token; the software authenticator stands in for the
 * browser's dialog between `startAdd` and `finishAdd`.
 */
import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import type { PasskeyInfo, WebAuthnCreationOptionsJSON } from '@doorway/auth-core';
import type { SessionBackend } from '@doorway/auth-core/server';
import { createGoTrueDouble } from '@doorway/gotrue-double';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_PASSKEYS_PATH,
  accountPasskeys,
  MAX_BODY_BYTES,
  readCall,
} from '../app/account-passkeys.server.ts';
import { ORIGIN, request } from './fakes.ts';

const PAGE = 'http://localhost:4330';

function onDouble() {
  const double = createGoTrueDouble({
    projectUrl: 'http://passkeys-double.supabase.test',
    mailerAutoconfirm: true,
    // WebAuthn refuses IP addresses as RP id: the page is on localhost (the endpoint's requests on ORIGIN).
    passkey: { rpId: 'localhost', rpOrigins: [PAGE] },
  });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
  });
  const authenticator = createSoftAuthenticator({ origin: PAGE });
  return { double, server, authenticator };
}

type Server = ReturnType<typeof onDouble>['server'];

/** A new password account's session cookie (its access token). */
async function signedUp(server: Server): Promise<string> {
  const provider = server.formProvider();
  await provider.createUser(`passkeys-${Math.random().toString(36).slice(2)}@example.com`, 'Secret-123');
  return provider.sessionToken() ?? '';
}

const call = (
  server: Server,
  cookie: string | null,
  body: unknown,
  init: { origin?: string; type?: string; method?: string; raw?: string } = {},
) =>
  accountPasskeys(
    request(ACCOUNT_PASSKEYS_PATH, {
      method: init.method ?? 'POST',
      origin: init.origin ?? ORIGIN,
      headers: {
        'content-type': init.type ?? 'application/json',
        ...(cookie === null ? {} : { cookie: `doorway_session=${cookie}` }),
      },
      ...((init.method ?? 'POST') === 'POST' ? { body: init.raw ?? JSON.stringify(body) } : {}),
    }),
    [],
    (c) => server.accountPasskeys(c),
  );

async function valueIn<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { value: T }).value;
}

const CREDENTIAL = {
  id: 'abc',
  rawId: 'abc',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ9', attestationObject: 'o2Nm', transports: ['internal'] },
  clientExtensionResults: {},
};

describe('POST /account/passkeys (Supabase, GoTrue double)', () => {
  it('should add a passkey in two steps around the ceremony, named, then list and remove it', async () => {
    const { server, authenticator } = onDouble();
    const cookie = await signedUp(server);
    const listed = await call(server, cookie, { op: 'list' });
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.headers.get('set-cookie')).toBeNull();
    expect(await listed.json()).toEqual({ value: [] });

    const started = await valueIn<{ challengeId: string; options: WebAuthnCreationOptionsJSON }>(
      call(server, cookie, { op: 'startAdd' }),
    );
    expect(started.options.rp.id).toBe('localhost');
    const credential = await authenticator.create(started.options);
    const finish = { op: 'finishAdd', challengeId: started.challengeId, credential, name: 'Laptop' };
    const added = await valueIn<PasskeyInfo>(call(server, cookie, finish));
    expect(added).toMatchObject({ name: 'Laptop', lastUsedAt: null });

    // The challenge is used: the same credential again is session-expired (422), the session unchanged.
    const again = await call(server, cookie, finish);
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ code: 'session-expired' });
    expect(await valueIn(call(server, cookie, { op: 'list' }))).toEqual([added]);

    expect(await valueIn(call(server, cookie, { op: 'remove', id: added.id }))).toBeNull();
    expect(await valueIn(call(server, cookie, { op: 'list' }))).toEqual([]);
    const gone = await call(server, cookie, { op: 'remove', id: added.id });
    expect(gone.status).toBe(422);
    expect(await gone.json()).toMatchObject({ code: 'passkey-not-found' });
  });

  it('should end every session of the user once a passkey is removed (issue 24)', async () => {
    const { server, authenticator } = onDouble();
    const cookie = await signedUp(server);
    const started = await valueIn<{ challengeId: string; options: WebAuthnCreationOptionsJSON }>(
      call(server, cookie, { op: 'startAdd' }),
    );
    const credential = await authenticator.create(started.options);
    const finish = { op: 'finishAdd', challengeId: started.challengeId, credential };
    const added = await valueIn<PasskeyInfo>(call(server, cookie, finish));
    const remove = (sessions: SessionBackend) =>
      accountPasskeys(
        request(ACCOUNT_PASSKEYS_PATH, {
          method: 'POST',
          origin: ORIGIN,
          headers: { 'content-type': 'application/json', cookie: `doorway_session=${cookie}` },
          body: JSON.stringify({ op: 'remove', id: added.id }),
        }),
        [],
        (c) => server.accountPasskeys(c),
        sessions,
      );
    expect(await (await remove(server.sessions())).json()).toEqual({ value: null });
    // The session that removed it is over: GoTrue no longer knows it.
    expect(await server.sessions().verifySessionCookie(cookie)).toBeNull();
    expect((await call(server, cookie, { op: 'list' })).status).toBe(401);
  });

  it('should refuse a credential made for another origin (passkey-invalid)', async () => {
    const { server } = onDouble();
    const cookie = await signedUp(server);
    const started = await valueIn<{ challengeId: string; options: WebAuthnCreationOptionsJSON }>(
      call(server, cookie, { op: 'startAdd' }),
    );
    const credential = await createSoftAuthenticator({ origin: 'http://localhost:9999' }).create(
      started.options,
    );
    const refused = await call(server, cookie, {
      op: 'finishAdd',
      challengeId: started.challengeId,
      credential,
    });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({ code: 'passkey-invalid', error: expect.any(String) });
  });

  it('should refuse another origin, a form post, no session, GET, and bodies that are no call', async () => {
    const { server } = onDouble();
    const cookie = await signedUp(server);
    expect((await call(server, cookie, { op: 'list' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(server, cookie, { op: 'list' }, { type: 'text/plain' })).status).toBe(400);
    expect((await call(server, cookie, null, { raw: '{"op":' })).status).toBe(400);
    expect((await call(server, null, { op: 'list' })).status).toBe(401);
    expect((await call(server, 'not-a-token', { op: 'list' })).status).toBe(401);
    const get = await call(server, cookie, null, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = {
      op: 'finishAdd',
      challengeId: 'c',
      credential: CREDENTIAL,
      pad: 'x'.repeat(MAX_BODY_BYTES),
    };
    expect((await call(server, cookie, big)).status).toBe(400);
    for (const body of [
      { op: 'signIn' },
      { op: 'remove' },
      { op: 'remove', id: '../x' },
      { op: 'finishAdd' },
    ]) {
      expect((await call(server, cookie, body)).status).toBe(400);
    }
  });

  it('should answer 404 where the host runs no passkeys on the server', async () => {
    const response = await accountPasskeys(
      request(ACCOUNT_PASSKEYS_PATH, {
        method: 'POST',
        origin: ORIGIN,
        headers: { 'content-type': 'application/json' },
        body: '{"op":"list"}',
      }),
      [],
      null,
    );
    expect(response.status).toBe(404);
  });
});

describe('readCall', () => {
  it('should keep only the arguments of the op and the known fields of the credential', () => {
    expect(readCall({ op: 'list', extra: 1 })).toEqual({ op: 'list' });
    expect(readCall({ op: 'startAdd', name: 'x' })).toEqual({ op: 'startAdd' });
    const extra = { ...CREDENTIAL, evil: 1, response: { ...CREDENTIAL.response, evil: 2 } };
    expect(readCall({ op: 'finishAdd', challengeId: 'c-1', credential: extra, name: '  Laptop ' })).toEqual({
      op: 'finishAdd',
      challengeId: 'c-1',
      credential: CREDENTIAL,
      name: 'Laptop',
    });
    expect(readCall({ op: 'finishAdd', challengeId: 'c-1', credential: CREDENTIAL, name: '  ' })).toEqual({
      op: 'finishAdd',
      challengeId: 'c-1',
      credential: CREDENTIAL,
    });
    expect(readCall({ op: 'remove', id: 'p-1', x: 2 })).toEqual({ op: 'remove', id: 'p-1' });
  });

  it('should bound the name (64 characters), the ids and the credential', () => {
    const finish = (over: Record<string, unknown>) =>
      readCall({ op: 'finishAdd', challengeId: 'c', ...over });
    expect(finish({ credential: CREDENTIAL, name: 'x'.repeat(64) })).not.toBeNull();
    expect(finish({ credential: CREDENTIAL, name: 'x'.repeat(65) })).toBeNull();
    expect(finish({ credential: CREDENTIAL, name: 7 })).toBeNull();
    expect(finish({ credential: CREDENTIAL, challengeId: 'c'.repeat(201) })).toBeNull();
    expect(finish({ credential: { ...CREDENTIAL, type: 'password' } })).toBeNull();
    expect(finish({ credential: { ...CREDENTIAL, id: 'a'.repeat(1025) } })).toBeNull();
    expect(finish({ credential: { ...CREDENTIAL, id: 'not base64url!' } })).toBeNull();
    expect(finish({ credential: { ...CREDENTIAL, response: { clientDataJSON: 'eyJ9' } } })).toBeNull();
    const transports = { ...CREDENTIAL.response, transports: Array(9).fill('usb') };
    expect(finish({ credential: { ...CREDENTIAL, response: transports } })).toBeNull();
    expect(finish({ credential: { ...CREDENTIAL, authenticatorAttachment: 'phone' } })).toBeNull();
    expect(finish({ credential: 'abc' })).toBeNull();
    expect(readCall({ op: 'remove', id: 'x'.repeat(201) })).toBeNull();
    expect(readCall('list')).toBeNull();
    expect(readCall({ op: 'toString' })).toBeNull();
    expect(readCall(null)).toBeNull();
  });
});
