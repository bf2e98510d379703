/**
 * `POST /account/second-factors` on the Supabase server, answered by the GoTrue TEST DOUBLE: the account
 * page's authenticator apps run on the server with the session's token, and the session follows the token
 * a new factor gives.
 */
import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import type { SecondFactorInfo, TotpEnrollment } from '@doorway/auth-core';
import { createGoTrueDouble } from '@doorway/gotrue-double';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_FACTORS_PATH, accountFactors, readCall } from '../app/account-factors.server.ts';
import { ORIGIN, request } from './fakes.ts';

function onDouble() {
  const double = createGoTrueDouble({
    projectUrl: 'http://factors-double.supabase.test',
    mailerAutoconfirm: true,
  });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
  });
  const code = (secret: string, offsetMs = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() + offsetMs });
  return { double, server, code };
}

/** A new password account's session cookie (its access token). */
async function signedUp(server: ReturnType<typeof onDouble>['server']): Promise<string> {
  const provider = server.formProvider();
  await provider.createUser(`factors-${Math.random().toString(36).slice(2)}@example.com`, 'Secret-123');
  return provider.sessionToken() ?? '';
}

const cookieOf = (response: Response) =>
  /doorway_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];

describe('POST /account/second-factors (Supabase, GoTrue double)', () => {
  const call = (
    server: ReturnType<typeof onDouble>['server'],
    cookie: string | null,
    body: unknown,
    init: { origin?: string; type?: string; method?: string } = {},
  ) =>
    accountFactors(
      request(ACCOUNT_FACTORS_PATH, {
        method: init.method ?? 'POST',
        origin: init.origin ?? ORIGIN,
        headers: {
          'content-type': init.type ?? 'application/json',
          ...(cookie === null ? {} : { cookie: `doorway_session=${cookie}` }),
        },
        ...((init.method ?? 'POST') === 'POST' ? { body: JSON.stringify(body) } : {}),
      }),
      server.sessions(),
      [],
      (c) => server.accountProvider(c),
    );

  it('should add an authenticator app, move the cookie to the new aal2 token, then list and remove it', async () => {
    const { server, code } = onDouble();
    const cookie = await signedUp(server);
    const listed = await call(server, cookie, { op: 'list' });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.headers.get('set-cookie')).toBeNull();
    expect(await listed.json()).toEqual({ value: [] });

    const started = await call(server, cookie, { op: 'startTotpEnrollment' });
    const { value: enrolment } = (await started.json()) as { value: TotpEnrollment };
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
    const finish = (c: string) => ({
      op: 'finishTotpEnrollment',
      enrollmentId: enrolment.enrollmentId,
      code: c,
    });

    const wrong = await call(server, cookie, finish(code(enrolment.secret, -20 * 30_000)));
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({
      code: 'invalid-verification-code',
      error: 'Wrong code. Try again.',
    });
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const done = await call(server, cookie, finish(code(enrolment.secret)));
    expect(done.status).toBe(200);
    const { value: factor } = (await done.json()) as { value: SecondFactorInfo };
    expect(factor).toMatchObject({ kind: 'totp', uid: enrolment.enrollmentId });
    const next = cookieOf(done) ?? '';
    expect(next).not.toBe('');
    expect(next).not.toBe(cookie);
    expect(done.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    // The old aal1 token is no session any more; the new one is.
    expect((await call(server, cookie, { op: 'list' })).status).toBe(401);
    expect(await (await call(server, next, { op: 'list' })).json()).toEqual({ value: [factor] });

    const removed = await call(server, next, { op: 'unenroll', factorUid: factor.uid });
    expect(await removed.json()).toEqual({ value: null });
    expect(await (await call(server, next, { op: 'list' })).json()).toEqual({ value: [] });
  });

  it('should refuse another origin, a form post, no session, GET, and bodies that are no call', async () => {
    const { server } = onDouble();
    const cookie = await signedUp(server);
    expect((await call(server, cookie, { op: 'list' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(server, cookie, { op: 'list' }, { type: 'text/plain' })).status).toBe(400);
    expect((await call(server, null, { op: 'list' })).status).toBe(401);
    expect((await call(server, 'not-a-token', { op: 'list' })).status).toBe(401);
    expect((await call(server, cookie, null, { method: 'GET' })).status).toBe(405);
    for (const body of [
      { op: 'startPhoneEnrollment' },
      { op: 'unenroll' },
      { op: 'unenroll', factorUid: '../x' },
    ]) {
      expect((await call(server, cookie, body)).status).toBe(400);
    }
  });

  it('should answer 404 where the host runs no factors on the server', async () => {
    const response = await accountFactors(
      request(ACCOUNT_FACTORS_PATH, {
        method: 'POST',
        origin: ORIGIN,
        headers: { 'content-type': 'application/json' },
        body: '{"op":"list"}',
      }),
      onDouble().server.sessions(),
      [],
      null,
    );
    expect(response.status).toBe(404);
  });
});

describe('readCall', () => {
  it('should keep only the arguments of the op, and bound their sizes', () => {
    expect(readCall({ op: 'list', extra: 1 })).toEqual({ op: 'list' });
    expect(readCall({ op: 'finishTotpEnrollment', enrollmentId: 'f-1', code: '123456', x: 2 })).toEqual({
      op: 'finishTotpEnrollment',
      enrollmentId: 'f-1',
      code: '123456',
    });
    expect(readCall({ op: 'finishTotpEnrollment', enrollmentId: 'f-1', code: '1'.repeat(33) })).toBeNull();
    expect(
      readCall({ op: 'finishTotpEnrollment', enrollmentId: 'f', code: '1', displayName: 'x'.repeat(101) }),
    ).toBeNull();
    expect(readCall('list')).toBeNull();
    expect(readCall({ op: 'toString' })).toBeNull();
  });
});
