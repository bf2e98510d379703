/**
 * Second factors on the Supabase adapter (browser provider and the server's form provider), against the
 * GoTrue double: the `second-factor-required` challenge after each kind of first factor, nobody signed in
 * while it waits, codes refused and accepted, cancelling, enrolment and removal, and the host's session
 * refusing a sign-in still at aal1. What these prove holds for the double; see the README.
 */
import type { SecondFactorChallenge, SecondFactorInfo } from '@doorway/auth-core';
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import type { SupabaseProvider } from '../src/index.ts';
import { createSupabaseServer } from '../src/server.ts';
import { ACTION_URL, createSupabaseHarness, type SupabaseHarness, server } from './harness.ts';
import { CONTRACT_PROJECT } from './inspect.ts';

afterAll(() => server.close());

const PASSWORD = 'Secret-123';
const STEP_MS = 30_000;
let n = 0;
const email = (label: string) => `${label}-${++n}@example.com`;
const phone = () => `+1650777${String(1000 + ++n).slice(-4)}`;

/** The claims of an access token. */
function claims(token: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** What an authenticator app shows for `secret`, `offsetMs` from the double's time. */
function totpCode(double: GoTrueDouble, secret: string, offsetMs = 0): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() + offsetMs });
}

/** A new password account signed in, with a verified TOTP factor: its email, uid, factor and secret. */
async function accountWithTotp(h: SupabaseHarness) {
  const address = email('mfa');
  const { user } = await h.provider.createUser(address, PASSWORD);
  const ops = factorsOf(h.provider);
  const { enrollmentId, secret } = await ops.startTotpEnrollment();
  const factor = await ops.finishTotpEnrollment(enrollmentId, totpCode(h.double, secret));
  return { email: address, uid: user.uid, factor, secret };
}

function factorsOf(provider: Pick<SupabaseProvider, 'secondFactors'>) {
  const ops = provider.secondFactors;
  if (!ops) throw new Error('secondFactors missing');
  return ops;
}

/** Signs out and in with the password: the challenge of the rejection, after a trip through JSON. */
async function passwordChallenge(
  provider: SupabaseProvider,
  address: string,
): Promise<SecondFactorChallenge> {
  await provider.signOut();
  const error = await expectAuthError(
    provider.signInWithEmailAndPassword(address, PASSWORD),
    'second-factor-required',
  );
  if (!error.challenge) throw new Error('no challenge');
  return JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
}

describe('browser provider: the challenge after a first factor', () => {
  it('signInWithEmailAndPassword - should reject second-factor-required with JSON-safe factors, leaving nobody signed in even as the aal1 session refreshes', async () => {
    const h = createSupabaseHarness();
    const { email: address, factor } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    expect(challenge.factors).toEqual([
      {
        uid: factor.uid,
        kind: 'totp',
        displayName: 'Authenticator app',
        phoneNumber: null,
        enrolledAt: expect.any(Number),
      },
    ]);
    expect(challenge.session).toMatchObject({ kind: 'supabase-aal1', providerId: 'password' });
    expect(h.provider.getCurrentUser()).toBeNull();
    // The aal1 session is in the client (supabase-js needs it), refreshing it signs nobody in either.
    const { data } = await h.provider.client.auth.refreshSession();
    expect(claims(data.session?.access_token)).toMatchObject({ aal: 'aal1' });
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('secondFactors.finishSignIn - should refuse a wrong code, then sign in at aal2 as the first factor did', async () => {
    const h = createSupabaseHarness();
    const { email: address, uid, factor, secret } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    const right = totpCode(h.double, secret);
    const wrong = right === '000000' ? '111111' : '000000';
    await expectAuthError(ops.finishSignIn(challenge, verificationId, wrong), 'invalid-verification-code');
    expect(h.provider.getCurrentUser()).toBeNull();
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret));
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { uid } });
    expect(h.provider.getCurrentUser()?.uid).toBe(uid);
    const { data } = await h.provider.client.auth.getSession();
    expect(claims(data.session?.access_token)).toMatchObject({ aal: 'aal2' });
  });

  it('secondFactors.finishSignIn - should take a code of the step before or after, and refuse one two steps away', async () => {
    // A clock that stands still between requests, so the steps are exact.
    const start = Math.ceil(Date.now() / STEP_MS) * STEP_MS + 10_000;
    const h = createSupabaseHarness({ double: { clock: { start, tickMs: 0 } } });
    const { email: address, factor, secret } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    for (const steps of [-2, 2, -20]) {
      await expectAuthError(
        ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret, steps * STEP_MS)),
        'invalid-verification-code',
      );
    }
    const previous = totpCode(h.double, secret, -STEP_MS);
    await expect(ops.finishSignIn(challenge, verificationId, previous)).resolves.toMatchObject({
      providerId: 'password',
    });
  });

  it('secondFactors.finishSignIn - should reject code-expired once the challenge has outlived its 300 s', async () => {
    const h = createSupabaseHarness();
    const { email: address, factor, secret } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    h.double.clock.advance(301_000);
    await expectAuthError(
      ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret)),
      'code-expired',
    );
    // A new challenge of the same pending sign-in still works.
    const again = await ops.startSignIn(challenge, factor.uid);
    await expect(
      ops.finishSignIn(challenge, again.verificationId, totpCode(h.double, secret)),
    ).resolves.toMatchObject({
      providerId: 'password',
    });
  });

  it('secondFactors.finishSignIn - should finish from the challenge alone after the client took another session', async () => {
    const h = createSupabaseHarness();
    const { email: address, uid, factor, secret } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    const other = email('other');
    await h.provider.createUser(other, PASSWORD);
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    expect(h.provider.getCurrentUser()).toBeNull();
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret));
    expect(result.user.uid).toBe(uid);
  });

  it('secondFactors.cancelSignIn - should end the aal1 session at GoTrue, not only in the client', async () => {
    const h = createSupabaseHarness();
    const { email: address } = await accountWithTotp(h);
    const challenge = await passwordChallenge(h.provider, address);
    const token = (challenge.session as { accessToken: string }).accessToken;
    await factorsOf(h.provider).cancelSignIn(challenge);
    expect(h.provider.getCurrentUser()).toBeNull();
    expect((await h.provider.client.auth.getSession()).data.session).toBeNull();
    const response = await h.double.fetch(`${h.double.authUrl}/user`, {
      headers: {
        apikey: h.double.anonKey,
        authorization: `Bearer ${token}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([
      403,
      'session_not_found',
    ]);
    // Never rejects, whatever it is given.
    await expect(
      factorsOf(h.provider).cancelSignIn({ factors: [], session: 'nonsense' }),
    ).resolves.toBeUndefined();
  });

  it('signInWithEmailLink - should reject second-factor-required, and finish as an emailLink sign-in', async () => {
    const h = createSupabaseHarness();
    const { email: address, factor, secret } = await accountWithTotp(h);
    await h.provider.signOut();
    await h.provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const link = h.double.outbox.lastEmail(address, 'magiclink')?.link ?? '';
    const error = await expectAuthError(
      h.provider.signInWithEmailLink(address, link),
      'second-factor-required',
    );
    const challenge = error.challenge as SecondFactorChallenge;
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    await expect(
      ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret)),
    ).resolves.toMatchObject({
      providerId: 'emailLink',
    });
  });

  it('signInWithFederated - should reject second-factor-required after an OAuth popup, and finish as google.com', async () => {
    const h = createSupabaseHarness();
    const { email: address, uid, factor, secret } = await accountWithTotp(h);
    await h.provider.signOut();
    h.double.idp.queue({ sub: `mfa-${n}`, email: address, emailVerified: true });
    const error = await expectAuthError(
      h.provider.signInWithFederated('google.com', { mode: 'popup' }),
      'second-factor-required',
    );
    const challenge = error.challenge as SecondFactorChallenge;
    expect(h.provider.getCurrentUser()).toBeNull();
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret));
    expect(result).toMatchObject({ providerId: 'google.com', isNewUser: false, user: { uid } });
  });
});

describe('browser provider: phone factors', () => {
  it('startPhoneEnrollment - should refuse a malformed number and an unsolved captcha before asking GoTrue', async () => {
    let solved = false;
    const h = createSupabaseHarness({
      double: { captchaToken: 'ok' },
      settings: {
        captcha: { render: async () => {}, getToken: () => (solved ? 'ok' : null), reset: () => {} },
      },
    });
    solved = true;
    await h.provider.createUser(email('captcha'), PASSWORD);
    solved = false;
    const ops = factorsOf(h.provider);
    const before = h.double.requests.length;
    const verifier = h.provider.createCaptchaVerifier(null);
    await expectAuthError(ops.startPhoneEnrollment('555-0100', verifier), 'invalid-phone-number');
    await expectAuthError(ops.startPhoneEnrollment(phone(), verifier), 'captcha-check-failed');
    expect(h.double.requests.length).toBe(before);
  });

  it('the SMS factor - should be masked in the challenge, in full in the list, and refuse a wrong code', async () => {
    const h = createSupabaseHarness();
    const { user } = await h.provider.createUser(email('sms'), PASSWORD);
    const ops = factorsOf(h.provider);
    const number = phone();
    const { verificationId } = await ops.startPhoneEnrollment(number, h.provider.createCaptchaVerifier(null));
    const code = h.double.outbox.lastSms(number)?.otp ?? '';
    await expectAuthError(
      ops.finishPhoneEnrollment(verificationId, code === '000000' ? '111111' : '000000'),
      'invalid-verification-code',
    );
    const factor = await ops.finishPhoneEnrollment(verificationId, code);
    expect(factor).toMatchObject({
      kind: 'phone',
      phoneNumber: number,
      displayName: `Phone ending ${number.slice(-4)}`,
    });
    expect(await ops.list()).toEqual([factor]);
    const challenge = await passwordChallenge(h.provider, user.email ?? '');
    expect(challenge.factors.map((f: SecondFactorInfo) => f.phoneNumber)).toEqual([
      `+${'*'.repeat(number.length - 5)}${number.slice(-4)}`,
    ]);
  });
});

describe('browser provider: enrolment and removal', () => {
  it('secondFactors.unenroll - should remove the factor at aal2; password sign-in then needs none', async () => {
    const h = createSupabaseHarness();
    const { email: address, uid, factor } = await accountWithTotp(h);
    const ops = factorsOf(h.provider);
    await ops.unenroll(factor.uid);
    expect(await ops.list()).toEqual([]);
    await h.provider.signOut();
    const result = await h.provider.signInWithEmailAndPassword(address, PASSWORD);
    expect(result.user.uid).toBe(uid);
  });

  it('enrolment and removal - should reject requires-recent-login while a sign-in waits at aal1', async () => {
    const h = createSupabaseHarness();
    const { email: address, factor } = await accountWithTotp(h);
    await passwordChallenge(h.provider, address);
    const ops = factorsOf(h.provider);
    await expectAuthError(ops.unenroll(factor.uid), 'requires-recent-login');
    await expectAuthError(ops.startTotpEnrollment(), 'requires-recent-login');
    await expectAuthError(ops.list(), 'requires-recent-login');
  });

  it('startTotpEnrollment - should replace an unfinished enrolment and name a second app apart', async () => {
    const h = createSupabaseHarness();
    const { secret } = await accountWithTotp(h);
    const ops = factorsOf(h.provider);
    const first = await ops.startTotpEnrollment();
    const second = await ops.startTotpEnrollment();
    expect(second.secret).not.toBe(first.secret);
    await expectAuthError(
      ops.finishTotpEnrollment(first.enrollmentId, totpCode(h.double, first.secret)),
      'code-expired',
    );
    const added = await ops.finishTotpEnrollment(second.enrollmentId, totpCode(h.double, second.secret));
    expect(added.displayName).toBe('Authenticator app 2');
    expect((await ops.list()).map((f) => f.displayName)).toEqual([
      'Authenticator app',
      'Authenticator app 2',
    ]);
    expect(secret).not.toBe(second.secret);
  });
});

describe('server: form provider and host session', () => {
  function serverOn(double: GoTrueDouble) {
    return createSupabaseServer({ url: double.projectUrl, anonKey: double.anonKey, fetch: double.fetch });
  }

  /** An account with a verified TOTP factor, made over the form provider. */
  async function formAccount(double: GoTrueDouble) {
    const provider = serverOn(double).formProvider();
    const address = email('form');
    const { user } = await provider.createUser(address, PASSWORD);
    const ops = provider.secondFactors;
    if (!ops) throw new Error('secondFactors missing');
    const { enrollmentId, secret } = await ops.startTotpEnrollment();
    const factor = await ops.finishTotpEnrollment(enrollmentId, totpCode(double, secret));
    return { email: address, uid: user.uid, factor, secret, aal2: provider.sessionToken() };
  }

  it('signInWithEmailAndPassword - should reject second-factor-required with no session token, and a later request finishes it with the TOTP code', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const { email: address, uid, factor, secret } = await formAccount(double);
    const first = serverOn(double).formProvider();
    const error = await expectAuthError(
      first.signInWithEmailAndPassword(address, PASSWORD),
      'second-factor-required',
    );
    expect(first.sessionToken()).toBeNull();
    expect(first.getCurrentUser()).toBeNull();
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    // The next request (another provider) picks the challenge up from the sealed flow state.
    const second = serverOn(double).formProvider();
    const ops = second.secondFactors;
    if (!ops) throw new Error('secondFactors missing');
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    await expectAuthError(
      ops.finishSignIn(challenge, verificationId, totpCode(double, secret, -20 * STEP_MS)),
      'invalid-verification-code',
    );
    expect(second.sessionToken()).toBeNull();
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(double, secret));
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { uid } });
    expect(claims(second.sessionToken() ?? '')).toMatchObject({ aal: 'aal2' });
    const session = await serverOn(double).verifySession(second.sessionToken());
    expect(session?.session).toMatchObject({ uid, signInProvider: 'password' });
  });

  it('a challenge met on the server - should stay the server’s: no refresh token in it, nothing the browser provider takes over (issue 24)', async () => {
    const h = createSupabaseHarness();
    const { email: address, factor, secret } = await accountWithTotp(h);
    await h.provider.signOut();
    const form = serverOn(h.double).formProvider();
    const error = await expectAuthError(
      form.signInWithEmailAndPassword(address, PASSWORD),
      'second-factor-required',
    );
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    expect(JSON.stringify(challenge)).not.toMatch(/refresh/i);
    expect(challenge.session).toEqual({ kind: 'supabase-aal1', providerId: 'password' });
    expect(claims((challenge.serverSession as { accessToken: string }).accessToken)).toMatchObject({
      aal: 'aal1',
    });
    // Even the sealed copy (with the access token) is no session supabase-js can be given: no refresh token.
    const ops = factorsOf(h.provider);
    await expectAuthError(ops.startSignIn(challenge, factor.uid), 'code-expired');
    expect(h.provider.getCurrentUser()).toBeNull();
    // The server finishes it.
    const later = factorsOf(serverOn(h.double).formProvider());
    const { verificationId } = await later.startSignIn(challenge, factor.uid);
    await expect(
      later.finishSignIn(challenge, verificationId, totpCode(h.double, secret)),
    ).resolves.toMatchObject({ providerId: 'password', isNewUser: false });
    h.provider.dispose();
  });

  it('the host session - should refuse an aal1 token of an account with a verified factor', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const { email: address, aal2 } = await formAccount(double);
    const response = await double.fetch(`${double.authUrl}/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: double.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: address, password: PASSWORD }),
    });
    const aal1 = String(((await response.json()) as { access_token: string }).access_token);
    const host = serverOn(double);
    await expect(host.verifySession(aal1)).resolves.toBeNull();
    await expectAuthError(host.createSessionCookie(aal1), 'session-expired');
    // Verifying the factor at enrolment ended the user's aal1 sessions; the aal2 one is the host's.
    await expect(host.createSessionCookie(aal2 ?? '')).resolves.toBe(aal2);
  });

  it("accountProvider - should run the session's own factors on the server, its token moving to aal2 at enrolment", async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const host = serverOn(double);
    expect(await host.accountProvider(null)).toBeNull();
    expect(await host.accountProvider('not-a-token')).toBeNull();
    const address = email('account');
    const signUp = host.formProvider();
    const { user } = await signUp.createUser(address, PASSWORD);
    const cookie = signUp.sessionToken() ?? '';
    const account = await host.accountProvider(cookie);
    const ops = account?.secondFactors;
    if (!account || !ops) throw new Error('account provider missing');
    expect(account.getCurrentUser()?.uid).toBe(user.uid);
    expect(await ops.list()).toEqual([]);
    const { enrollmentId, secret } = await ops.startTotpEnrollment();
    await expectAuthError(
      ops.finishTotpEnrollment(enrollmentId, totpCode(double, secret, -20 * STEP_MS)),
      'invalid-verification-code',
    );
    expect(account.sessionToken()).toBe(cookie);
    const factor = await ops.finishTotpEnrollment(enrollmentId, totpCode(double, secret));
    const aal2 = account.sessionToken() ?? '';
    expect(aal2).not.toBe(cookie);
    expect(claims(aal2)).toMatchObject({ aal: 'aal2' });
    // The aal1 cookie is no session any more; the new token is, and a later request lists and removes.
    expect(await host.verifySession(cookie)).toBeNull();
    const later = await host.accountProvider(aal2);
    expect(await later?.secondFactors?.list()).toEqual([factor]);
    await later?.secondFactors?.unenroll(factor.uid);
    expect(await later?.secondFactors?.list()).toEqual([]);
  });

  it('phone factors - should need the browser (javascript-required) on the server', async () => {
    const double = createGoTrueDouble(CONTRACT_PROJECT);
    const provider = serverOn(double).formProvider();
    expect(provider.capabilities.secondFactors).toEqual(['totp']);
    await provider.createUser(email('server-phone'), PASSWORD);
    const ops = provider.secondFactors;
    if (!ops) throw new Error('secondFactors missing');
    const verifier = { kind: 'none', render: async () => {}, isSolved: () => true, clear: () => {} };
    await expectAuthError(ops.startPhoneEnrollment(phone(), verifier), 'javascript-required');
    const challenge: SecondFactorChallenge = {
      factors: [
        { uid: 'f', kind: 'phone', displayName: null, phoneNumber: '+*******1234', enrolledAt: null },
      ],
      session: { kind: 'supabase-aal1', providerId: 'password' },
      serverSession: { kind: 'supabase-aal1', accessToken: provider.sessionToken() },
    };
    await expectAuthError(ops.startSignIn(challenge, 'f'), 'javascript-required');
    expect(double.outbox.sms).toHaveLength(0);
  });
});
