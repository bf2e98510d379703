/**
 * The double's MFA routes as supabase-js's `auth.mfa` calls them (through `double.fetch`): enrolment,
 * challenges, verification to aal2 and removal, with GoTrue's error codes for each refusal.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleOptions } from '../src/index.ts';
import { call, claims, type Json, PASSWORD, signIn } from './calls.ts';

const STEP_MS = 30_000;

function newDouble(options: GoTrueDoubleOptions = {}): GoTrueDouble {
  return createGoTrueDouble({ projectUrl: 'http://mfa-double.supabase.test', ...options });
}

/** What an authenticator app shows for `secret`, `offsetMs` from the double's time. */
function code(double: GoTrueDouble, secret: string, offsetMs = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() + offsetMs });
}

/** A TOTP code unlike any of the accepted steps (20 or more steps back). */
function farCode(double: GoTrueDouble, secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => code(double, secret, steps * STEP_MS)));
  for (let steps = 20; ; steps += 1) {
    const far = code(double, secret, -steps * STEP_MS);
    if (!near.has(far)) return far;
  }
}

/** Enrols and verifies a TOTP factor with `token`: the factor id, its secret and the aal2 access token. */
async function enrolTotp(
  double: GoTrueDouble,
  token: string,
  name = 'Authenticator',
): Promise<{ id: string; secret: string; token: string }> {
  const enrolled = await call(double, 'POST', '/factors', token, {
    factor_type: 'totp',
    friendly_name: name,
  });
  const id = String(enrolled.body.id);
  const secret = String((enrolled.body.totp as Json).secret);
  const challenge = await call(double, 'POST', `/factors/${id}/challenge`, token, { factorId: id });
  const verified = await call(double, 'POST', `/factors/${id}/verify`, token, {
    challenge_id: challenge.body.id,
    code: code(double, secret),
  });
  expect(verified.status).toBe(200);
  return { id, secret, token: String(verified.body.access_token) };
}

describe('GoTrue double: TOTP factors', () => {
  it('POST /factors answers the secret, its otpauth URI and an SVG; the factor waits unverified', async () => {
    const double = newDouble();
    const token = await signIn(double, 'totp@example.com');
    const { status, body } = await call(double, 'POST', '/factors', token, {
      factor_type: 'totp',
      friendly_name: 'Phone app',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 'totp', friendly_name: 'Phone app' });
    const totp = body.totp as { secret: string; uri: string; qr_code: string };
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totp.uri);
    expect([uri.protocol, uri.host]).toEqual(['otpauth:', 'totp']);
    expect(uri.searchParams.get('secret')).toBe(totp.secret);
    expect(decodeURIComponent(uri.pathname)).toBe('/localhost:3000:totp@example.com');
    expect(totp.qr_code).toMatch(/^<svg/);
    const user = await call(double, 'GET', '/user', token);
    expect(user.body.factors).toEqual([
      expect.objectContaining({ id: body.id, factor_type: 'totp', status: 'unverified' }),
    ]);
  });

  it('verify refuses a wrong code and one from a far time window (mfa_verification_failed), then the current code gives aal2', async () => {
    const double = newDouble();
    const token = await signIn(double, 'verify@example.com');
    expect(claims(token)).toMatchObject({ aal: 'aal1', amr: [{ method: 'password' }] });
    const enrolled = await call(double, 'POST', '/factors', token, { factor_type: 'totp' });
    const id = String(enrolled.body.id);
    const secret = String((enrolled.body.totp as Json).secret);
    const challenge = await call(double, 'POST', `/factors/${id}/challenge`, token, {});
    expect(challenge.body).toMatchObject({ type: 'totp' });
    expect(Number(challenge.body.expires_at) * 1000).toBeGreaterThan(double.clock.now() + 290_000);
    const verify = (c: string) =>
      call(double, 'POST', `/factors/${id}/verify`, token, { challenge_id: challenge.body.id, code: c });
    for (const wrong of [farCode(double, secret), '12345']) {
      const refused = await verify(wrong);
      expect([refused.status, refused.body.code]).toEqual([422, 'mfa_verification_failed']);
    }
    const done = await verify(code(double, secret));
    expect(done.status).toBe(200);
    expect(claims(done.body.access_token)).toMatchObject({
      aal: 'aal2',
      amr: [{ method: 'totp' }, { method: 'password' }],
    });
    expect((done.body.user as { factors: Json[] }).factors).toEqual([
      expect.objectContaining({ id, status: 'verified' }),
    ]);
    const again = await verify(code(double, secret));
    expect(again.body.code).toBe('mfa_ip_address_mismatch');
  });

  it('an expired challenge answers mfa_challenge_expired, then is gone (mfa_factor_not_found)', async () => {
    const double = newDouble();
    const token = await signIn(double, 'expired@example.com');
    const enrolled = await call(double, 'POST', '/factors', token, { factor_type: 'totp' });
    const id = String(enrolled.body.id);
    const secret = String((enrolled.body.totp as Json).secret);
    const challenge = await call(double, 'POST', `/factors/${id}/challenge`, token, {});
    double.clock.advance(301_000);
    const body = { challenge_id: challenge.body.id, code: code(double, secret) };
    const expired = await call(double, 'POST', `/factors/${id}/verify`, token, body);
    expect([expired.status, expired.body.code]).toEqual([422, 'mfa_challenge_expired']);
    const gone = await call(double, 'POST', `/factors/${id}/verify`, token, body);
    expect([gone.status, gone.body.code]).toEqual([422, 'mfa_factor_not_found']);
  });

  it('at aal1, an account with a verified factor can neither remove it nor enrol another (insufficient_aal); at aal2 it can', async () => {
    const double = newDouble();
    const first = await signIn(double, 'aal@example.com');
    const { id, secret } = await enrolTotp(double, first);
    const aal1 = await signIn(double, 'aal@example.com');
    expect(claims(aal1)).toMatchObject({ aal: 'aal1' });
    const removal = await call(double, 'DELETE', `/factors/${id}`, aal1);
    expect([removal.status, removal.body.code]).toEqual([422, 'insufficient_aal']);
    const another = await call(double, 'POST', '/factors', aal1, { factor_type: 'totp', friendly_name: 'B' });
    expect([another.status, another.body.code]).toEqual([403, 'insufficient_aal']);
    const challenge = await call(double, 'POST', `/factors/${id}/challenge`, aal1, {});
    const verified = await call(double, 'POST', `/factors/${id}/verify`, aal1, {
      challenge_id: challenge.body.id,
      code: code(double, secret),
    });
    const aal2 = String(verified.body.access_token);
    const removed = await call(double, 'DELETE', `/factors/${id}`, aal2);
    expect([removed.status, removed.body]).toEqual([200, { id }]);
    const user = await call(double, 'GET', '/user', aal2);
    expect(user.body.factors).toBeUndefined();
  });

  it("verifying a factor ends the user's aal1 sessions; the aal2 session refreshes at aal2", async () => {
    const double = newDouble();
    const other = await signIn(double, 'sessions@example.com');
    const mine = await signIn(double, 'sessions@example.com');
    const signedIn = await call(double, 'POST', '/token?grant_type=password', null, {
      email: 'sessions@example.com',
      password: PASSWORD,
    });
    const { token } = await enrolTotp(double, String(signedIn.body.access_token));
    for (const ended of [other, mine]) {
      expect((await call(double, 'GET', '/user', ended)).body.code).toBe('session_not_found');
    }
    // The session's refresh token from before the verification was swapped.
    const stale = await call(double, 'POST', '/token?grant_type=refresh_token', null, {
      refresh_token: signedIn.body.refresh_token,
    });
    expect(stale.body.code).toBe('refresh_token_already_used');
    expect(claims(token)).toMatchObject({ aal: 'aal2' });
  });

  it('refuses what GoTrue refuses: no token, anonymous users, factor ids of others, bad ids, empty codes, name conflicts', async () => {
    const double = newDouble({ anonymousUsers: true });
    const mine = await signIn(double, 'owner@example.com');
    const { id } = await enrolTotp(double, mine);
    const theirs = await signIn(double, 'other@example.com');
    const anonymous = await call(double, 'POST', '/signup', null, { data: {} });
    const cases: [Promise<{ status: number; body: Json }>, number, string][] = [
      [call(double, 'POST', '/factors', null, { factor_type: 'totp' }), 403, 'bad_jwt'],
      [
        call(double, 'POST', '/factors', String(anonymous.body.access_token), { factor_type: 'totp' }),
        403,
        'no_authorization',
      ],
      [call(double, 'POST', '/factors', theirs, { factor_type: 'sms' }), 400, 'validation_failed'],
      [call(double, 'POST', `/factors/${id}/challenge`, theirs, {}), 404, 'mfa_factor_not_found'],
      [call(double, 'POST', '/factors/not-a-uuid/challenge', theirs, {}), 404, 'validation_failed'],
      [
        call(double, 'POST', `/factors/${id}/verify`, mine, { challenge_id: id, code: '' }),
        400,
        'validation_failed',
      ],
      [
        call(double, 'POST', `/factors/${id}/verify`, mine, { challenge_id: 'x', code: '1' }),
        400,
        'bad_json',
      ],
    ];
    for (const [answer, status, errorCode] of cases) {
      const { status: got, body } = await answer;
      expect([got, body.code]).toEqual([status, errorCode]);
    }
    await call(double, 'POST', '/factors', theirs, { factor_type: 'totp', friendly_name: 'Same' });
    const conflict = await call(double, 'POST', '/factors', theirs, {
      factor_type: 'totp',
      friendly_name: 'Same',
    });
    expect([conflict.status, conflict.body.code]).toEqual([422, 'mfa_factor_name_conflict']);
  });
});

describe('GoTrue double: phone factors', () => {
  it('are off unless enabled (mfa_phone_enroll_not_enabled), as GoTrue ships', async () => {
    const double = newDouble();
    const token = await signIn(double, 'nophone@example.com');
    const { status, body } = await call(double, 'POST', '/factors', token, {
      factor_type: 'phone',
      phone: '+15550001111',
    });
    expect([status, body.code]).toEqual([422, 'mfa_phone_enroll_not_enabled']);
  });

  it('enrolment sends nothing; each challenge texts a code (at most once per max frequency); the code verifies', async () => {
    const double = newDouble({ mfa: { phone: true, phoneMaxFrequencySeconds: 5 } });
    const token = await signIn(double, 'phone@example.com');
    const enrolled = await call(double, 'POST', '/factors', token, {
      factor_type: 'phone',
      phone: '+15550002222',
    });
    expect(enrolled.body).toMatchObject({ type: 'phone', phone: '+15550002222' });
    expect(double.outbox.sms).toHaveLength(0);
    const id = String(enrolled.body.id);
    const challenge = await call(double, 'POST', `/factors/${id}/challenge`, token, { channel: 'sms' });
    expect(challenge.body).toMatchObject({ type: 'phone' });
    const sms = double.outbox.lastSms('+15550002222');
    expect(sms).toMatchObject({ type: 'mfa', otp: expect.stringMatching(/^\d{6}$/) });
    const soon = await call(double, 'POST', `/factors/${id}/challenge`, token, {});
    expect([soon.status, soon.body.code]).toEqual([429, 'over_sms_send_rate_limit']);
    const verify = (c: string) =>
      call(double, 'POST', `/factors/${id}/verify`, token, { challenge_id: challenge.body.id, code: c });
    const wrong = await verify(sms?.otp === '000000' ? '111111' : '000000');
    expect([wrong.status, wrong.body.code]).toEqual([422, 'mfa_verification_failed']);
    const right = await verify(sms?.otp ?? '');
    expect(claims(right.body.access_token)).toMatchObject({
      aal: 'aal2',
      amr: [{ method: 'mfa/phone' }, {}],
    });
    const again = await call(double, 'POST', '/factors', String(right.body.access_token), {
      factor_type: 'phone',
      phone: '+15550002222',
    });
    expect([again.status, again.body.code]).toEqual([422, 'mfa_verified_factor_exists']);
  });

  it('a snapshot keeps the factors (and one from before MFA still loads)', async () => {
    const double = newDouble();
    const token = await signIn(double, 'saved@example.com');
    const { id } = await enrolTotp(double, token);
    const saved = JSON.parse(JSON.stringify(double.snapshot())) as ReturnType<GoTrueDouble['snapshot']>;
    const restored = newDouble({ state: saved });
    expect(restored.admin.getUserById(String(claims(token).sub)).factors).toEqual([
      expect.objectContaining({ id, status: 'verified' }),
    ]);
    const old = { ...saved, users: saved.users.map((u) => ({ ...(u as Json), factors: undefined })) };
    const fromOld = newDouble({ state: old });
    expect(fromOld.admin.getUserById(String(claims(token).sub)).factors).toBeUndefined();
  });
});
