/**
 * Second factors in the fake, beyond the contract: seeding, the TOTP window on the injected clock (and an
 * RFC 6238 vector), expiry, every first factor's challenge, enrolment, the revert email, the server
 * provider across requests, faults and the capability switch.
 */
import { AuthError, type SecondFactorChallenge } from '@doorway/auth-core';
import { expectAuthError } from '@doorway/testing';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  createFakeProvider,
  createFakeServerProvider,
  createManualClock,
  type FakeProviderOptions,
  type FakeUserInput,
  fakeFederatedCredential,
  SECOND_FACTOR_SIGN_IN_TTL_MS,
} from '../src/index.ts';

const START = Date.UTC(2025, 0, 1);
const EMAIL = 'ann@example.com';
const PASSWORD = 'secret-123';
const FACTOR_PHONE = '+15555550100';
// RFC 6238's SHA-1 test secret ("12345678901234567890"), base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const STEP_MS = 30_000;

function setup(user: FakeUserInput = {}, options: FakeProviderOptions = {}) {
  const clock = createManualClock(START);
  const provider = createFakeProvider({
    clock,
    users: [{ email: EMAIL, password: PASSWORD, ...user }],
    ...options,
  });
  const ops = provider.secondFactors;
  if (ops === undefined) throw new Error('the fake offers second factors');
  const uid = provider.backend.findUserByEmail(EMAIL)?.uid ?? '';
  return { clock, provider, backend: provider.backend, ops, uid };
}

/** The challenge a rejected first factor carries. */
async function challengeOf(pending: Promise<unknown>): Promise<SecondFactorChallenge> {
  const error = await expectAuthError(pending, 'second-factor-required');
  return error.challenge ?? expect.fail('second-factor-required without a challenge');
}

function totpAt(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
}

describe('secondFactors - seeding', () => {
  it('createFakeProvider - should seed factors, normalised, each with an enrolment id', () => {
    const { backend, uid } = setup({
      secondFactors: [
        { kind: 'phone', phoneNumber: '+1 (555) 555-0100', displayName: 'Work phone' },
        { kind: 'totp', secret: 'gezd gnbv gy3t qojq gezd gnbv gy3t qojq' },
      ],
    });
    expect(backend.getUser(uid)?.secondFactors).toEqual([
      {
        uid: 'mfa-1',
        kind: 'phone',
        phoneNumber: FACTOR_PHONE,
        displayName: 'Work phone',
        enrolledAt: START,
      },
      { uid: 'mfa-2', kind: 'totp', secret: RFC_SECRET, displayName: null, enrolledAt: START },
    ]);
  });

  it('backend.createUser - should refuse a factor phone that is not E.164 and a secret that is not base32', () => {
    const { backend } = setup();
    expect(() =>
      backend.createUser({ email: 'bo@example.com', secondFactors: [{ kind: 'phone', phoneNumber: '12' }] }),
    ).toThrow(AuthError);
    expect(() =>
      backend.createUser({
        email: 'bo@example.com',
        secondFactors: [{ kind: 'totp', secret: 'not base32!' }],
      }),
    ).toThrow(TypeError);
    expect(backend.findUserByEmail('bo@example.com')).toBeNull();
  });

  it('signInWithEmailAndPassword - should reject second-factor-required with masked numbers and names, signing nobody in', async () => {
    const { provider } = setup({
      secondFactors: [
        { kind: 'phone', phoneNumber: FACTOR_PHONE },
        { kind: 'totp', secret: RFC_SECRET, displayName: 'Authenticator' },
      ],
    });
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    expect(challenge.factors).toEqual([
      { uid: 'mfa-1', kind: 'phone', displayName: null, phoneNumber: '+*******0100', enrolledAt: START },
      { uid: 'mfa-2', kind: 'totp', displayName: 'Authenticator', phoneNumber: null, enrolledAt: START },
    ]);
    expect(JSON.parse(JSON.stringify(challenge.session))).toEqual(challenge.session);
    expect(provider.getCurrentUser()).toBeNull();
  });

  it('signInWithEmailAndPassword - should leave the user already signed in as it was', async () => {
    const { provider } = setup({ secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] });
    const { user } = await provider.signInAnonymously();
    await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    expect(provider.getCurrentUser()?.uid).toBe(user.uid);
  });
});

describe('secondFactors - TOTP on the injected clock', () => {
  const totpUser = { secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] } as const;

  it('finishSignIn - should accept the RFC 6238 code of its test secret at T = 59 s', async () => {
    const { clock, provider, ops, uid } = setup(totpUser);
    clock.set(59_000);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    const result = await ops.finishSignIn(challenge, verificationId, '287082');
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { uid } });
    expect(provider.getCurrentUser()?.uid).toBe(uid);
  });

  it.each([
    ['the current step', 0],
    ['the step before', -STEP_MS],
    ['the step after', STEP_MS],
  ])('finishSignIn - should accept a code of %s', async (_, offset) => {
    const { clock, provider, backend, ops, uid } = setup(totpUser);
    clock.advance(12_345);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    if (offset === 0) expect(backend.totpCode(uid)).toBe(totpAt(RFC_SECRET, clock.now()));
    await ops.finishSignIn(challenge, verificationId, totpAt(RFC_SECRET, clock.now() + offset));
    expect(provider.getCurrentUser()?.uid).toBe(uid);
  });

  it.each([
    ['two steps before', -2 * STEP_MS],
    ['two steps after', 2 * STEP_MS],
    ['an hour before', -3_600_000],
  ])('finishSignIn - should reject invalid-verification-code for a code from %s', async (_, offset) => {
    const { clock, provider, ops } = setup(totpUser);
    clock.advance(12_345);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    const code = totpAt(RFC_SECRET, clock.now() + offset);
    expect(code).not.toBe(totpAt(RFC_SECRET, clock.now()));
    await expectAuthError(ops.finishSignIn(challenge, verificationId, code), 'invalid-verification-code');
    expect(provider.getCurrentUser()).toBeNull();
  });

  it('finishSignIn - should reject code-expired once the pending sign-in is older than its lifetime', async () => {
    const { clock, provider, ops } = setup(totpUser);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    clock.advance(SECOND_FACTOR_SIGN_IN_TTL_MS);
    const code = totpAt(RFC_SECRET, clock.now());
    await expectAuthError(ops.finishSignIn(challenge, verificationId, code), 'code-expired');
    await expectAuthError(ops.startSignIn(challenge, 'mfa-1'), 'code-expired');
  });
});

describe('secondFactors - SMS', () => {
  const phoneUser = { secondFactors: [{ kind: 'phone', phoneNumber: FACTOR_PHONE }] } as const;

  it('startSignIn - should text a 6-digit code under its verification id; a wrong code, then the right one', async () => {
    const { provider, backend, ops, uid } = setup(phoneUser);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(
      challenge,
      'mfa-1',
      provider.createCaptchaVerifier(null),
    );
    const sms = backend.outbox.lastSms(FACTOR_PHONE);
    expect(sms).toMatchObject({ to: FACTOR_PHONE, verificationId, sentAt: START, tenantId: null });
    const code = sms?.code ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await expectAuthError(
      ops.finishSignIn(challenge, verificationId, code === '000000' ? '111111' : '000000'),
      'invalid-verification-code',
    );
    await expect(ops.finishSignIn(challenge, verificationId, code)).resolves.toMatchObject({ user: { uid } });
    // Used up with the pending sign-in.
    await expectAuthError(ops.finishSignIn(challenge, verificationId, code), 'code-expired');
  });

  it('finishSignIn - should reject code-expired for an SMS code older than the phone sign-in lifetime', async () => {
    const { clock, provider, backend, ops } = setup(phoneUser, { smsCodeTtlMs: 60_000 });
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    clock.advance(60_000);
    const code = backend.outbox.lastSms(FACTOR_PHONE)?.code ?? '';
    await expectAuthError(ops.finishSignIn(challenge, verificationId, code), 'code-expired');
  });

  it('startSignIn - should reject captcha-check-failed for an unsolved verifier', async () => {
    const { provider, backend, ops } = setup(phoneUser);
    backend.captcha.autoSolve = false;
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    await expectAuthError(
      ops.startSignIn(challenge, 'mfa-1', provider.createCaptchaVerifier(null)),
      'captcha-check-failed',
    );
  });

  it('cancelSignIn - should drop the pending sign-in: its codes no longer work', async () => {
    const { provider, backend, ops } = setup(phoneUser);
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    await ops.cancelSignIn(challenge);
    const code = backend.outbox.lastSms(FACTOR_PHONE)?.code ?? '';
    await expectAuthError(ops.finishSignIn(challenge, verificationId, code), 'code-expired');
    expect(provider.getCurrentUser()).toBeNull();
    await expect(ops.cancelSignIn({ factors: [], session: 'not the fake’s' })).resolves.toBeUndefined();
    await expect(ops.cancelSignIn(null as unknown as SecondFactorChallenge)).resolves.toBeUndefined();
    await expectAuthError(ops.startSignIn({ factors: [], session: null }, 'mfa-1'), 'code-expired');
  });
});

describe('secondFactors - every first factor', () => {
  const user: FakeUserInput = {
    phoneNumber: '+15555550111',
    emailLink: true,
    federated: { providerId: 'google.com', sub: 'g-ann' },
    secondFactors: [{ kind: 'totp', secret: RFC_SECRET }],
  };
  type Setup = ReturnType<typeof setup>;
  const identity = { sub: 'g-ann', email: EMAIL };
  const firstFactors: [string, string, (s: Setup) => Promise<unknown>][] = [
    ['password', 'password', (s) => s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD)],
    [
      'email link',
      'emailLink',
      async (s) => {
        await s.provider.sendSignInLinkToEmail(EMAIL, { url: 'https://app.example/finish' });
        return s.provider.signInWithEmailLink(EMAIL, s.backend.outbox.lastEmail(EMAIL, 'signIn')?.link ?? '');
      },
    ],
    [
      'phone',
      'phone',
      async (s) => {
        const { verificationId } = await s.provider.startPhoneSignIn(
          '+15555550111',
          s.provider.createCaptchaVerifier(null),
        );
        return s.provider.confirmPhoneCode(
          verificationId,
          s.backend.outbox.lastSms('+15555550111')?.code ?? '',
        );
      },
    ],
    [
      'federated popup',
      'google.com',
      (s) => {
        s.backend.idp.queue(identity);
        return s.provider.signInWithFederated('google.com', { mode: 'popup' });
      },
    ],
    [
      'federated redirect',
      'google.com',
      async (s) => {
        s.backend.idp.queue(identity);
        await s.provider.signInWithFederated('google.com', { mode: 'redirect' });
        return s.provider.getRedirectResult();
      },
    ],
    [
      'federated credential',
      'google.com',
      (s) => s.provider.signInWithCredential(fakeFederatedCredential('google.com', identity)),
    ],
  ];

  it.each(firstFactors)(
    '%s - should ask for the second factor, then sign in as the first factor said',
    async (_, providerId, signIn) => {
      const s = setup(user);
      const challenge = await challengeOf(signIn(s));
      expect(s.provider.getCurrentUser()).toBeNull();
      const { verificationId } = await s.ops.startSignIn(challenge, 'mfa-1');
      const result = await s.ops.finishSignIn(challenge, verificationId, totpAt(RFC_SECRET, s.clock.now()));
      expect(result).toMatchObject({ providerId, isNewUser: false, user: { uid: s.uid } });
      expect(result.credential?.kind).toBe(providerId === 'google.com' ? 'federated' : undefined);
      expect(s.provider.getCurrentUser()?.uid).toBe(s.uid);
    },
  );

  it('linkWithCredential - should link to the signed-in user without a second factor', async () => {
    const s = setup({ secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] });
    const challenge = await challengeOf(s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await s.ops.startSignIn(challenge, 'mfa-1');
    await s.ops.finishSignIn(challenge, verificationId, totpAt(RFC_SECRET, s.clock.now()));
    const linked = await s.provider.linkWithCredential(fakeFederatedCredential('google.com', identity));
    expect(linked.user.providerIds).toContain('google.com');
  });
});

describe('secondFactors - enrolment', () => {
  async function signedIn(options: FakeProviderOptions = {}) {
    const s = setup({}, options);
    await s.provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    return s;
  }

  it('startPhoneEnrollment - should reject requires-recent-login with nobody signed in', async () => {
    const { provider, ops } = setup();
    await expectAuthError(
      ops.startPhoneEnrollment(FACTOR_PHONE, provider.createCaptchaVerifier(null)),
      'requires-recent-login',
    );
    await expectAuthError(ops.startTotpEnrollment(), 'requires-recent-login');
    await expectAuthError(ops.unenroll('mfa-1'), 'requires-recent-login');
  });

  it('finishPhoneEnrollment - should enrol the number and email a revert link that removes it', async () => {
    const { provider, backend, ops, uid } = await signedIn();
    const { verificationId } = await ops.startPhoneEnrollment(
      '+1 555 555 0100',
      provider.createCaptchaVerifier(null),
    );
    const code = backend.outbox.lastSms(FACTOR_PHONE)?.code ?? '';
    await expectAuthError(ops.finishPhoneEnrollment(verificationId, `${code}0`), 'invalid-verification-code');
    const info = await ops.finishPhoneEnrollment(verificationId, code, ' Work phone ');
    expect(info).toEqual({
      uid: 'mfa-1',
      kind: 'phone',
      displayName: 'Work phone',
      phoneNumber: FACTOR_PHONE,
      enrolledAt: START,
    });
    await expect(ops.list()).resolves.toEqual([info]);
    const mail = backend.outbox.lastEmail(EMAIL, 'revertSecondFactorAddition');
    expect(mail?.link).toContain('mode=revertSecondFactorAddition');
    await expect(provider.checkActionCode(mail?.oobCode ?? '')).resolves.toMatchObject({
      factor: '+*******0100',
    });
    await provider.applyActionCode(mail?.oobCode ?? '');
    expect(backend.getUser(uid)?.secondFactors).toEqual([]);
  });

  it('startPhoneEnrollment - should reject credential-already-in-use for a number the user has enrolled', async () => {
    const { provider, ops } = setup({ secondFactors: [{ kind: 'phone', phoneNumber: FACTOR_PHONE }] });
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    await ops.finishSignIn(
      challenge,
      verificationId,
      provider.backend.outbox.lastSms(FACTOR_PHONE)?.code ?? '',
    );
    await expectAuthError(
      ops.startPhoneEnrollment(FACTOR_PHONE, provider.createCaptchaVerifier(null)),
      'credential-already-in-use',
    );
  });

  it('startTotpEnrollment - should give a seeded base32 secret and its otpauth URI; the app code enrols it', async () => {
    const { clock, backend, ops, uid } = await signedIn();
    const enrollment = await ops.startTotpEnrollment();
    expect(enrollment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrollment.uri);
    expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(
      `otpauth://totp/Doorway:${EMAIL}`,
    );
    expect(uri.searchParams.get('secret')).toBe(enrollment.secret);
    expect(uri.searchParams.get('issuer')).toBe('Doorway');
    const again = await (await signedIn()).ops.startTotpEnrollment();
    expect(again.secret).toBe(enrollment.secret);

    clock.advance(STEP_MS);
    const code = backend.totpCode(uid);
    expect(code).toBe(totpAt(enrollment.secret, clock.now()));
    await expectAuthError(
      ops.finishTotpEnrollment(enrollment.enrollmentId, totpAt(enrollment.secret, clock.now() + 3 * STEP_MS)),
      'invalid-verification-code',
    );
    const info = await ops.finishTotpEnrollment(enrollment.enrollmentId, code ?? '', 'Authenticator');
    expect(info).toMatchObject({ kind: 'totp', displayName: 'Authenticator', phoneNumber: null });
    expect(backend.totpCode(uid, info.uid)).toBe(code);
    expect(backend.getUser(uid)?.secondFactors).toMatchObject([{ kind: 'totp', secret: enrollment.secret }]);
  });

  it('unenroll - should remove the factor, after which password sign-in needs none', async () => {
    const { provider, ops } = await signedIn();
    const { enrollmentId, secret } = await ops.startTotpEnrollment();
    const info = await ops.finishTotpEnrollment(enrollmentId, totpAt(secret, START));
    await provider.signOut();
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    const { verificationId } = await ops.startSignIn(challenge, info.uid);
    await ops.finishSignIn(challenge, verificationId, totpAt(secret, START));
    await expectAuthError(ops.unenroll('mfa-404'), 'generic');
    await ops.unenroll(info.uid);
    await expect(ops.list()).resolves.toEqual([]);
    await provider.signOut();
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      providerId: 'password',
    });
  });
});

describe('secondFactors - around the provider', () => {
  it('createFakeServerProvider - should finish, in a later request, the sign-in an earlier one challenged', async () => {
    const world = createFakeProvider({
      clock: createManualClock(START),
      users: [{ email: EMAIL, password: PASSWORD, secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] }],
    });
    const first = createFakeServerProvider(world);
    const error = await expectAuthError(
      first.signInWithEmailAndPassword(EMAIL, PASSWORD),
      'second-factor-required',
    );
    expect(first.sessionToken()).toBeNull();
    // What a sealed cookie carries between requests.
    const sealed = JSON.stringify(error.challenge);
    const later = createFakeServerProvider(world);
    const ops = later.secondFactors ?? expect.fail('the server provider offers second factors');
    const challenge = JSON.parse(sealed) as SecondFactorChallenge;
    const { verificationId } = await ops.startSignIn(challenge, 'mfa-1');
    await ops.finishSignIn(challenge, verificationId, totpAt(RFC_SECRET, START));
    expect(later.sessionToken()).toEqual(expect.any(String));
    expect(world.getCurrentUser()).toBeNull();
  });

  it('backend.faults - should fail and log second-factor calls by their names; cancelSignIn is local', async () => {
    const { provider, backend, ops } = setup({ secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] });
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    backend.clearCalls();
    backend.faults.failNext('secondFactors.startSignIn', 'network-request-failed');
    await expectAuthError(ops.startSignIn(challenge, 'mfa-1'), 'network-request-failed');
    backend.faults.set({ rateLimit: true });
    await expectAuthError(ops.startSignIn(challenge, 'mfa-1'), 'phone-too-many-requests');
    backend.faults.set({ rateLimit: false, network: true });
    await ops.cancelSignIn(challenge);
    expect(backend.calls.map((c) => c.method)).toEqual([
      'secondFactors.startSignIn',
      'secondFactors.startSignIn',
      'secondFactors.cancelSignIn',
    ]);
  });

  it('capabilities - should leave second factors out when turned off: no operations, and seeded factors ignored', async () => {
    const provider = createFakeProvider({
      capabilities: { secondFactors: [] },
      users: [{ email: EMAIL, password: PASSWORD, secondFactors: [{ kind: 'totp', secret: RFC_SECRET }] }],
    });
    expect(provider.secondFactors).toBeUndefined();
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      providerId: 'password',
    });
  });

  it('capabilities - should challenge only the kinds offered', async () => {
    const { provider, ops } = setup(
      {
        secondFactors: [
          { kind: 'phone', phoneNumber: FACTOR_PHONE },
          { kind: 'totp', secret: RFC_SECRET },
        ],
      },
      { capabilities: { secondFactors: ['totp'] } },
    );
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    expect(challenge.factors.map((f) => f.kind)).toEqual(['totp']);
    await expectAuthError(ops.startSignIn(challenge, 'mfa-1'), 'code-expired');
    await expectAuthError(
      ops.startPhoneEnrollment(FACTOR_PHONE, provider.createCaptchaVerifier(null)),
      'operation-not-allowed',
    );
  });
});
