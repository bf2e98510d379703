/**
 * Rules of supabase/auth's handlers the double once got wrong (more lenient or stricter than GoTrue), each
 * asserted as GoTrue's source answers it. The README's "Differences from Supabase Auth found and fixed" lists
 * them with the upstream files.
 */
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleOptions } from '../src/index.ts';
import { call, type Json, PASSWORD, signIn } from './calls.ts';

function newDouble(options: GoTrueDoubleOptions = {}): GoTrueDouble {
  return createGoTrueDouble({ projectUrl: 'http://rules-double.supabase.test', ...options });
}

const VERIFIER = 'v'.repeat(50);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const PKCE = { code_challenge: CHALLENGE, code_challenge_method: 's256' };
const MINUTE = 60_000;

/** A request with extra headers (a `Referer`, a rate-limit header), as a browser or proxy would send it. */
async function raw(
  double: GoTrueDouble,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const response = await double.fetch(`${double.authUrl}${path}`, {
    method: 'POST',
    headers: {
      apikey: double.anonKey,
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json };
}

/** Enrols and verifies a TOTP factor for the session of `token`. */
async function enrolTotp(double: GoTrueDouble, token: string): Promise<void> {
  const enrolled = await call(double, 'POST', '/factors', token, { factor_type: 'totp' });
  const id = String(enrolled.body.id);
  const secret = String((enrolled.body.totp as Json).secret);
  const challenge = await call(double, 'POST', `/factors/${id}/challenge`, token, {});
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() });
  const verified = await call(double, 'POST', `/factors/${id}/verify`, token, {
    challenge_id: challenge.body.id,
    code,
  });
  expect(verified.status).toBe(200);
}

/** The code in the app URL a link (or IdP visit) lands on. */
const codeOf = (landed: string) => new URL(landed).searchParams.get('code') ?? '';

describe('GoTrue double: PUT /user as user.go', () => {
  it('refuses a password, email or phone change at aal1 once the user has a verified factor (401 insufficient_aal)', async () => {
    const double = newDouble();
    await enrolTotp(double, await signIn(double, 'aal@example.com'));
    const aal1 = await signIn(double, 'aal@example.com');
    for (const change of [
      { password: 'Another-456' },
      { email: 'new@example.com' },
      { phone: '15550001111' },
    ]) {
      const refused = await call(double, 'PUT', '/user', aal1, change);
      expect([refused.status, refused.body.code]).toEqual([401, 'insufficient_aal']);
      expect(refused.body.message).toBe(
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
    // Metadata needs no aal2.
    expect((await call(double, 'PUT', '/user', aal1, { data: { name: 'A' } })).status).toBe(200);
    // A recovery link's session is aal1 too.
    await call(double, 'POST', '/recover', null, { email: 'aal@example.com' });
    const landed = double.follow(String(double.outbox.lastEmail('aal@example.com', 'recovery')?.link));
    const recovery = new URLSearchParams(new URL(landed).hash.slice(1)).get('access_token');
    const viaLink = await call(double, 'PUT', '/user', recovery, { password: 'Another-456' });
    expect([viaLink.status, viaLink.body.code]).toEqual([401, 'insufficient_aal']);
  });

  it("a password change ends the user's other sessions and voids the links still out", async () => {
    const double = newDouble();
    const other = await signIn(double, 'change@example.com');
    await call(double, 'POST', '/recover', null, { email: 'change@example.com' });
    const link = String(double.outbox.lastEmail('change@example.com', 'recovery')?.link);
    const mine = await signIn(double, 'change@example.com');
    expect((await call(double, 'PUT', '/user', mine, { password: 'Another-456' })).status).toBe(200);
    expect((await call(double, 'GET', '/user', other)).body.code).toBe('session_not_found');
    expect((await call(double, 'GET', '/user', mine)).status).toBe(200);
    expect(new URL(double.follow(link)).hash).toContain('error_code=otp_expired');
  });
});

describe('GoTrue double: PKCE as pkce.go and flow_state.go', () => {
  it("a recovery (or sign-up) link's flow state expires 5 minutes after the request, however late the click", async () => {
    const double = newDouble();
    double.admin.createUser({ email: 'late@example.com', password: PASSWORD, email_confirm: true });
    await call(double, 'POST', '/recover', null, { email: 'late@example.com', ...PKCE });
    double.clock.advance(4 * MINUTE);
    const landed = double.follow(String(double.outbox.lastEmail('late@example.com', 'recovery')?.link));
    double.clock.advance(2 * MINUTE);
    const exchanged = await call(double, 'POST', '/token?grant_type=pkce', null, {
      auth_code: codeOf(landed),
      code_verifier: VERIFIER,
    });
    expect([exchanged.status, exchanged.body.code]).toEqual([422, 'flow_state_expired']);
  });

  it("a magic link's 5 minutes count from the click", async () => {
    const double = newDouble();
    double.admin.createUser({ email: 'magic@example.com', password: PASSWORD, email_confirm: true });
    await call(double, 'POST', '/otp', null, { email: 'magic@example.com', ...PKCE });
    double.clock.advance(4 * MINUTE);
    const landed = double.follow(String(double.outbox.lastEmail('magic@example.com', 'magiclink')?.link));
    double.clock.advance(2 * MINUTE);
    const exchanged = await call(double, 'POST', '/token?grant_type=pkce', null, {
      auth_code: codeOf(landed),
      code_verifier: VERIFIER,
    });
    expect(exchanged.status).toBe(200);
  });

  it("an OAuth flow state's 5 minutes count from /authorize, not from the callback", async () => {
    const double = newDouble();
    const authorize = await double.fetch(
      `${double.authUrl}/authorize?provider=google&code_challenge=${CHALLENGE}&code_challenge_method=s256`,
      { redirect: 'manual' },
    );
    double.clock.advance(4 * MINUTE);
    double.idp.queue({ sub: 'g-1', email: 'oauth@example.com' });
    const landed = double.follow(String(authorize.headers.get('location')));
    double.clock.advance(2 * MINUTE);
    const exchanged = await call(double, 'POST', '/token?grant_type=pkce', null, {
      auth_code: codeOf(landed),
      code_verifier: VERIFIER,
    });
    expect([exchanged.status, exchanged.body.code]).toEqual([422, 'flow_state_expired']);
  });

  it('refuses a code challenge outside 43–128 characters or with other characters (400 validation_failed)', async () => {
    const double = newDouble();
    for (const challenge of ['short', 'x'.repeat(129), `${'a'.repeat(43)}!`]) {
      const refused = await call(double, 'POST', '/otp', null, {
        email: 'pkce@example.com',
        code_challenge: challenge,
        code_challenge_method: 's256',
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'validation_failed']);
    }
  });
  it('refuses PKCE on a phone sign-up (400 validation_failed)', async () => {
    const refused = await call(newDouble(), 'POST', '/signup', null, {
      phone: '15550002222',
      password: PASSWORD,
      ...PKCE,
    });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      400,
      'validation_failed',
      'PKCE not supported for phone signups',
    ]);
  });
});

describe('GoTrue double: rate limits as apilimiter.go and middleware.go', () => {
  it('limits /otp to a burst of 30 per client, refilled at RATE_LIMIT_OTP per 5 minutes (429 over_request_rate_limit)', async () => {
    const double = newDouble({
      clock: { tickMs: 0 },
      smtpMaxFrequencySeconds: 0,
      rateLimits: { emailSent: 1000 },
    });
    for (let i = 0; i < 30; i++) {
      expect((await call(double, 'POST', '/otp', null, { email: `otp${i}@example.com` })).status).toBe(200);
    }
    const limited = await call(double, 'POST', '/otp', null, { email: 'otp-last@example.com' });
    expect([limited.status, limited.body.code, limited.body.message]).toEqual([
      429,
      'over_request_rate_limit',
      'Request rate limit reached',
    ]);
    // 30 per 5 minutes: one more every 10 s.
    double.clock.advance(10_000);
    expect((await call(double, 'POST', '/otp', null, { email: 'otp-last@example.com' })).status).toBe(200);
    expect((await call(double, 'POST', '/otp', null, { email: 'otp-more@example.com' })).status).toBe(429);
  });

  it('limits /token (150 per 5 minutes), /verify, /recover and MFA verify (15 per minute) after a burst of 30', async () => {
    const double = newDouble({ clock: { tickMs: 0 } });
    double.admin.createUser({ email: 'burst@example.com', password: PASSWORD, email_confirm: true });
    const password = () =>
      call(double, 'POST', '/token?grant_type=password', null, {
        email: 'burst@example.com',
        password: PASSWORD,
      });
    for (let i = 0; i < 30; i++) expect((await password()).status).toBe(200);
    expect((await password()).body.code).toBe('over_request_rate_limit');
    double.clock.advance(2_000);
    expect((await password()).status).toBe(200);
    const verify = () => call(double, 'POST', '/verify', null, { type: 'magiclink', token_hash: 'nothing' });
    for (let i = 0; i < 30; i++) expect((await verify()).status).toBe(403);
    expect((await verify()).status).toBe(429);
    const recover = () => call(double, 'POST', '/recover', null, { email: 'nobody@example.com' });
    for (let i = 0; i < 30; i++) expect((await recover()).status).toBe(200);
    expect((await recover()).status).toBe(429);
    // MFA verify: the bucket refills at 15 a minute, one every 4 s.
    double.clock.advance(2_000);
    const token = String((await password()).body.access_token);
    const id = '00000000-0000-4000-8000-000000000000';
    const factorVerify = () =>
      call(double, 'POST', `/factors/${id}/verify`, token, { challenge_id: id, code: '000000' });
    for (let i = 0; i < 30; i++) expect((await factorVerify()).status).toBe(404);
    expect((await factorVerify()).status).toBe(429);
    double.clock.advance(4_000);
    expect((await factorVerify()).status).toBe(404);
  });

  it('counts by the first value of RATE_LIMIT_HEADER when configured (a request without it is not limited)', async () => {
    const double = newDouble({ clock: { tickMs: 0 }, rateLimits: { header: 'X-Forwarded-For' } });
    const recover = (ip?: string) =>
      raw(
        double,
        '/recover',
        { email: 'nobody@example.com' },
        ip === undefined ? {} : { 'x-forwarded-for': ip },
      );
    for (let i = 0; i < 30; i++) expect((await recover('203.0.113.1, 10.0.0.1')).status).toBe(200);
    expect((await recover('203.0.113.1')).status).toBe(429);
    expect((await recover('203.0.113.2, 203.0.113.1')).status).toBe(200);
    expect((await recover()).status).toBe(200);
  });

  it('the project sends at most RATE_LIMIT_EMAIL_SENT (30) emails an hour, all clients together', async () => {
    const double = newDouble({ rateLimits: { header: 'x-forwarded-for' } });
    for (let i = 0; i < 31; i++) {
      double.admin.createUser({ email: `mail${i}@example.com`, password: PASSWORD, email_confirm: true });
    }
    for (let i = 0; i < 30; i++) {
      const sent = await raw(
        double,
        '/recover',
        { email: `mail${i}@example.com` },
        { 'x-forwarded-for': `198.51.100.${i}` },
      );
      expect(sent.status).toBe(200);
    }
    const refused = await raw(
      double,
      '/recover',
      { email: 'mail30@example.com' },
      { 'x-forwarded-for': '198.51.100.99' },
    );
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      429,
      'over_email_send_rate_limit',
      'email rate limit exceeded',
    ]);
    double.clock.advance(60 * MINUTE);
    expect((await raw(double, '/recover', { email: 'mail30@example.com' })).status).toBe(200);
  });

  it('raised limits, as a project configures them, let a busy client through', async () => {
    const double = newDouble({ rateLimits: { verify: 1_000_000 } });
    const verify = () => call(double, 'POST', '/verify', null, { type: 'magiclink', token_hash: 'nothing' });
    for (let i = 0; i < 60; i++) expect((await verify()).status).toBe(403);
  });
});

describe('GoTrue double: redirect targets as utilities/request.go', () => {
  /** Where the recovery mail of a request with `redirectTo` (and `referer`) sends the user. */
  async function target(double: GoTrueDouble, redirectTo: string | null, referer?: string): Promise<string> {
    double.outbox.clear();
    const query = redirectTo === null ? '' : `?redirect_to=${encodeURIComponent(redirectTo)}`;
    await raw(double, `/recover${query}`, { email: 'where@example.com' }, referer ? { referer } : {});
    double.clock.advance(MINUTE);
    return String(double.outbox.lastEmail('where@example.com')?.data.RedirectTo);
  }

  it('accepts the Site URL only with its scheme, host and port (any port on localhost), loopback addresses and the allow list', async () => {
    const site = 'https://app.example.com';
    const double = newDouble({
      siteUrl: site,
      uriAllowList: ['https://*.preview.example.com/**', 'myapp://callback'],
    });
    double.admin.createUser({ email: 'where@example.com', password: PASSWORD, email_confirm: true });
    expect(await target(double, 'https://app.example.com/reset')).toBe('https://app.example.com/reset');
    expect(await target(double, 'http://app.example.com/reset')).toBe(site);
    expect(await target(double, 'https://app.example.com:8443/reset')).toBe(site);
    expect(await target(double, 'http://127.0.0.1:9999/cb')).toBe('http://127.0.0.1:9999/cb');
    expect(await target(double, 'http://2130706433/cb')).toBe(site);
    expect(await target(double, 'http://10.0.0.1/cb')).toBe(site);
    expect(await target(double, 'https://pr-1.preview.example.com/a/b#frag')).toBe(
      'https://pr-1.preview.example.com/a/b#frag',
    );
    expect(await target(double, 'https://a.b.preview.example.com/')).toBe(site);
    expect(await target(double, 'myapp://callback')).toBe('myapp://callback');
    // No (or no valid) redirect_to: the Referer header, if valid.
    expect(await target(double, null, 'https://app.example.com/account')).toBe(
      'https://app.example.com/account',
    );
    expect(await target(double, 'https://evil.example.net/', 'https://app.example.com/from')).toBe(
      'https://app.example.com/from',
    );
    expect(await target(double, null, 'https://evil.example.net/')).toBe(site);
    const local = newDouble({ siteUrl: 'http://localhost:3000' });
    local.admin.createUser({ email: 'where@example.com', password: PASSWORD, email_confirm: true });
    expect(await target(local, 'http://localhost:5173/cb')).toBe('http://localhost:5173/cb');
  });
});

describe('GoTrue double: /token, /logout and /verify answers', () => {
  it('answers an unknown grant type 400 invalid_credentials (GoTrue error shape)', async () => {
    const refused = await call(newDouble(), 'POST', '/token?grant_type=magic', null, {});
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      400,
      'invalid_credentials',
      'unsupported_grant_type',
    ]);
  });

  it('refuses an unknown logout scope (400 validation_failed) and logs nobody out', async () => {
    const double = newDouble();
    const token = await signIn(double, 'scope@example.com');
    const refused = await call(double, 'POST', '/logout?scope=everywhere', token);
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      400,
      'validation_failed',
      'Unsupported logout scope "everywhere"',
    ]);
    expect((await call(double, 'GET', '/user', token)).status).toBe(200);
  });

  it('answers a code with a malformed address 422 validation_failed', async () => {
    const refused = await call(newDouble(), 'POST', '/verify', null, {
      type: 'email',
      token: '123456',
      email: 'not-an-address',
    });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      422,
      'validation_failed',
      'Invalid email format',
    ]);
  });

  it("refuses a banned user's refresh token (400 user_banned)", async () => {
    const double = newDouble();
    const user = double.admin.createUser({
      email: 'banned@example.com',
      password: PASSWORD,
      email_confirm: true,
    });
    const signedIn = await call(double, 'POST', '/token?grant_type=password', null, {
      email: 'banned@example.com',
      password: PASSWORD,
    });
    double.admin.updateUserById(String(user.id), { ban_duration: '24h' });
    const refused = await call(double, 'POST', '/token?grant_type=refresh_token', null, {
      refresh_token: signedIn.body.refresh_token,
    });
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      400,
      'user_banned',
      'Invalid Refresh Token: User Banned',
    ]);
    // The ban leaves the session in place; using it is refused.
    const token = String(signedIn.body.access_token);
    expect([(await call(double, 'GET', '/user', token)).body.code]).toEqual(['user_banned']);
  });

  it('accepts a used refresh token again within the reuse interval, then revokes the session', async () => {
    const double = newDouble();
    const signedIn = await call(double, 'POST', '/token?grant_type=password', null, {
      email: (
        double.admin.createUser({
          email: 'reuse@example.com',
          password: PASSWORD,
          email_confirm: true,
        }) as Json
      ).email,
      password: PASSWORD,
    });
    const first = String(signedIn.body.refresh_token);
    const refresh = (token: string) =>
      call(double, 'POST', '/token?grant_type=refresh_token', null, { refresh_token: token });
    const second = String((await refresh(first)).body.refresh_token);
    // The parent of the active token: the active one comes back.
    expect((await refresh(first)).body.refresh_token).toBe(second);
    const third = String((await refresh(second)).body.refresh_token);
    // Two generations back, still within 10 s: a fresh swap.
    const again = await refresh(first);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).not.toBe(third);
    double.clock.advance(11_000);
    const late = await refresh(first);
    expect([late.status, late.body.code]).toEqual([400, 'refresh_token_already_used']);
    expect((await refresh(String(again.body.refresh_token))).body.code).toBe('refresh_token_already_used');
  });
});
