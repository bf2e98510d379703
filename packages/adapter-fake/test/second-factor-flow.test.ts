/**
 * The second-factor challenge through the engine: after a right first factor, the chooser (or the only
 * factor at once), the SMS factor's captcha and code, an authenticator app's code, wrong and expired codes,
 * Cancel, and the same challenge posted as forms to the server flow (an authenticator app works there; an
 * SMS factor needs JavaScript). On the fake provider, which keeps the pending sign-in in its backend.
 */
import { normalizeConfig, type WidgetConfigInput } from '@doorway/auth-core';
import { createServerFlow, type ServerFlowResult } from '@doorway/auth-core/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFakeProvider,
  createFakeServerProvider,
  createManualClock,
  type FakeUserInput,
  SECOND_FACTOR_SIGN_IN_TTL_MS,
} from '../src/index.ts';
import { expectCard, type Harness, open } from './harness.ts';

const ALL: WidgetConfigInput = { signInOptions: ['email', 'google.com', 'phone'] };
const EMAIL = 'ada@example.com';
const PASSWORD = 'secret1';
const PHONE = '+15555550100';
const SECRET = 'JBSWY3DPEHPK3PXP';

type Factors = NonNullable<FakeUserInput['secondFactors']>;
const BOTH: Factors = [
  { kind: 'phone', phoneNumber: PHONE },
  { kind: 'totp', secret: SECRET },
];

/** Ada, with `factors`, has typed her right password. */
async function afterPassword(factors: Factors = BOTH, smsCodeTtlMs?: number): Promise<Harness> {
  const users = [{ email: EMAIL, password: PASSWORD, secondFactors: factors }];
  const h = await open(ALL, { fakeOptions: { users, ...(smsCodeTtlMs ? { smsCodeTtlMs } : {}) } });
  await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  await h.send({ type: 'SUBMIT_EMAIL', email: EMAIL });
  await h.send({ type: 'SUBMIT_PASSWORD', password: PASSWORD });
  return h;
}

function uidOf(h: Harness): string {
  return h.fake.backend.findUserByEmail(EMAIL)?.uid ?? '';
}

function factorUid(h: Harness, kind: 'phone' | 'totp'): string {
  const s = h.flow.getSnapshot();
  const factor = 'challenge' in s ? s.challenge.factors.find((f) => f.kind === kind) : undefined;
  if (!factor) throw new Error(`no ${kind} factor on ${s.card}`);
  return factor.uid;
}

async function sendSms(h: Harness): Promise<string> {
  await h.send({
    type: 'SEND_SECOND_FACTOR_SMS',
    captchaSolved: true,
    verifier: h.fake.createCaptchaVerifier(null),
  });
  expectCard(h, 'secondFactorCode');
  return h.fake.backend.outbox.lastSms(PHONE)?.code ?? '';
}

const other = (code: string) => (code === '000000' ? '111111' : '000000');

describe('the second-factor challenge in the browser runner', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('two factors: the chooser lists both, the phone masked; nobody is signed in yet', async () => {
    const h = await afterPassword();
    expectCard(h, 'secondFactorChooser');
    const s = h.flow.getSnapshot();
    const factors = s.card === 'secondFactorChooser' ? s.challenge.factors : [];
    expect(factors.map((f) => f.kind)).toEqual(['phone', 'totp']);
    expect(factors[0]?.phoneNumber).toMatch(/0100$/);
    expect(factors[0]?.phoneNumber).not.toBe(PHONE);
    expect(h.fake.getCurrentUser()).toBeNull();
  });

  it('an authenticator app: a wrong code keeps the card with the spec message, the right one signs in', async () => {
    const h = await afterPassword();
    await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorUid(h, 'totp') });
    expectCard(h, 'secondFactorCode');
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: '12' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'secondFactorCode', error: 'code-invalid' });
    const right = h.fake.backend.totpCode(uidOf(h)) ?? '';
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: other(right) });
    expect(h.flow.getSnapshot()).toMatchObject({
      card: 'secondFactorCode',
      error: 'invalid-verification-code',
    });
    expect(h.fake.getCurrentUser()).toBeNull();
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: ` ${right} ` });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'signedIn', message: 'signedIn' });
    expect(h.fake.getCurrentUser()?.uid).toBe(uidOf(h));
  });

  it('the only factor an authenticator app: straight to its code card', async () => {
    const h = await afterPassword([{ kind: 'totp', secret: SECRET }]);
    expectCard(h, 'secondFactorCode');
  });

  it('the only factor a phone: its card, an unsolved captcha refused, then the code with a 0:15 resend countdown', async () => {
    const h = await afterPassword([{ kind: 'phone', phoneNumber: PHONE }]);
    expectCard(h, 'secondFactorPhone');
    await h.send({ type: 'SEND_SECOND_FACTOR_SMS', captchaSolved: false, verifier: null });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'secondFactorPhone', error: 'captcha-required' });
    expect(h.fake.backend.outbox.lastSms(PHONE)).toBeNull();
    const code = await sendSms(h);
    expect(h.flow.getSnapshot()).toMatchObject({ resendIn: 15 });
    await h.send({ type: 'RESEND_CODE' });
    expect(h.fake.backend.outbox.sms).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'secondFactorCode', resendIn: 0 });
    await h.send({ type: 'RESEND_CODE' });
    expect(h.fake.backend.outbox.sms).toHaveLength(2);
    const fresh = h.fake.backend.outbox.lastSms(PHONE)?.code ?? '';
    expect(fresh).not.toBe('');
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: fresh });
    expectCard(h, 'signedIn');
    expect(code).not.toBe('');
  });

  it('an SMS code that expired: back to the chooser with "This code is no longer valid"; another code signs in', async () => {
    // Codes last a minute here; the pending sign-in, five.
    const h = await afterPassword(BOTH, 60_000);
    await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorUid(h, 'phone') });
    const code = await sendSms(h);
    await vi.advanceTimersByTimeAsync(2 * 60 * 1000);
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'secondFactorChooser', error: 'code-expired' });
    await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorUid(h, 'phone') });
    const fresh = await sendSms(h);
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: fresh });
    expectCard(h, 'signedIn');
  });

  it('a pending sign-in that expired: back to the start with "Your sign-in session has expired"', async () => {
    const h = await afterPassword();
    await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorUid(h, 'totp') });
    await vi.advanceTimersByTimeAsync(SECOND_FACTOR_SIGN_IN_TTL_MS + 1);
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: h.fake.backend.totpCode(uidOf(h)) ?? '' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'providerChooser', error: 'session-expired' });
    expect(h.fake.getCurrentUser()).toBeNull();
  });

  it('Cancel from each card: the chooser of sign-in options, the pending sign-in forgotten', async () => {
    for (const step of ['chooser', 'phone', 'code'] as const) {
      const h = await afterPassword();
      const s = h.flow.getSnapshot();
      if (s.card !== 'secondFactorChooser') throw new Error(`on ${s.card}`);
      const challenge = structuredClone(s.challenge);
      const totp = factorUid(h, 'totp');
      if (step !== 'chooser')
        await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorUid(h, 'phone') });
      if (step === 'code') await sendSms(h);
      await h.send({ type: 'CANCEL' });
      expectCard(h, 'providerChooser');
      expect(h.fake.getCurrentUser()).toBeNull();
      // The challenge is dead: the backend forgot it.
      await expect(h.fake.secondFactors?.startSignIn(challenge, totp)).rejects.toMatchObject({
        code: 'code-expired',
      });
    }
  });

  it('a federated first factor meets the same challenge', async () => {
    const h = await open(ALL, {
      fakeOptions: {
        users: [
          {
            email: EMAIL,
            federated: [{ providerId: 'google.com', sub: 'g-ada' }],
            secondFactors: [{ kind: 'totp', secret: SECRET }],
          },
        ],
      },
    });
    h.fake.backend.idp.queue({ sub: 'g-ada', email: EMAIL });
    await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    expectCard(h, 'secondFactorCode');
    await h.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: h.fake.backend.totpCode(uidOf(h)) ?? '' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'signedIn', result: { providerId: 'google.com' } });
  });

  it('a provider that offers no second factors: the password alone signs in', async () => {
    const h = await open(ALL, {
      fakeOptions: {
        capabilities: { secondFactors: [] },
        users: [{ email: EMAIL, password: PASSWORD }],
      },
    });
    await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
    await h.send({ type: 'SUBMIT_EMAIL', email: EMAIL });
    await h.send({ type: 'SUBMIT_PASSWORD', password: PASSWORD });
    // The fake ignores factors it does not offer: a plain sign-in.
    expectCard(h, 'signedIn');
  });
});

describe('the second-factor challenge on the form path (no JavaScript)', () => {
  // A test value shaped as `openssl rand -base64 48` output (a sealing secret must be random).
  const SEAL = 'h2sC1NkV21XqZ5_i8QOzuzSH-q_lQDVtueX-EhaaC4o';
  const ORIGIN = 'https://app.example';
  const LOGIN = `${ORIGIN}/login`;

  function browser(factors: Factors) {
    const clock = createManualClock(Date.UTC(2025, 0, 1));
    const world = createFakeProvider({
      clock,
      users: [{ email: EMAIL, password: PASSWORD, secondFactors: factors }],
    });
    const flow = createServerFlow({ secret: SEAL, now: () => clock.now() });
    const config = normalizeConfig(ALL, ORIGIN);
    let cookie: string | null = null;
    const send = async (fields?: Record<string, string>): Promise<ServerFlowResult> => {
      const headers = new Headers();
      if (cookie !== null) headers.set('cookie', `__Host-doorway_flow=${cookie}`);
      let request = new Request(LOGIN, { headers });
      if (fields) {
        headers.set('content-type', 'application/x-www-form-urlencoded');
        request = new Request(LOGIN, {
          method: 'POST',
          headers,
          body: new URLSearchParams(fields).toString(),
        });
      }
      const out = await flow.handle(request, createFakeServerProvider(world), config);
      const match = /^__Host-doorway_flow=([^;]*);.*Max-Age=(\d+)/.exec(out.setCookie);
      cookie = match?.[2] === '0' ? null : (match?.[1] ?? null);
      return out;
    };
    const uid = world.backend.findUserByEmail(EMAIL)?.uid ?? '';
    return { world, send, totp: () => world.backend.totpCode(uid) ?? '', uid };
  }

  async function toSecondFactor(b: ReturnType<typeof browser>): Promise<ServerFlowResult> {
    await b.send();
    await b.send({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
    await b.send({ event: 'SUBMIT_EMAIL', email: EMAIL });
    return b.send({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
  }

  it('an authenticator app: the chooser, a wrong code, the right code, then the session', async () => {
    const b = browser(BOTH);
    const chooser = await toSecondFactor(b);
    expect(chooser.state.card).toBe('secondFactorChooser');
    expect(chooser.signedIn).toBeNull();
    expect(JSON.stringify(chooser.state)).not.toContain(PASSWORD);
    const totpUid =
      chooser.state.card === 'secondFactorChooser' ? chooser.state.challenge.factors[1]?.uid : '';
    const code = await b.send({ event: 'CHOOSE_SECOND_FACTOR', factorUid: totpUid ?? '' });
    expect(code.state.card).toBe('secondFactorCode');
    const wrong = await b.send({ event: 'SUBMIT_SECOND_FACTOR_CODE', code: other(b.totp()) });
    expect(wrong.state).toMatchObject({ card: 'secondFactorCode', error: 'invalid-verification-code' });
    expect(wrong.signedIn).toBeNull();
    const done = await b.send({ event: 'SUBMIT_SECOND_FACTOR_CODE', code: b.totp() });
    expect(done.state.card).toBe('signedIn');
    expect(done.signedIn?.result.user.uid).toBe(b.uid);
    expect(done.signedIn?.sessionToken).toEqual(expect.any(String));
  });

  it('an SMS factor: its card, and sending the code says it needs JavaScript; nothing is texted', async () => {
    const b = browser([{ kind: 'phone', phoneNumber: PHONE }]);
    const phone = await toSecondFactor(b);
    expect(phone.state.card).toBe('secondFactorPhone');
    const posted = await b.send({ event: 'SEND_SECOND_FACTOR_SMS' });
    expect(posted.state.card).toBe('secondFactorPhone');
    expect(b.world.backend.outbox.lastSms(PHONE)).toBeNull();
    expect(posted.signedIn).toBeNull();
  });

  it('Cancel posts: back to the chooser of sign-in options, the pending sign-in forgotten', async () => {
    const b = browser(BOTH);
    const chooser = await toSecondFactor(b);
    const challenge = chooser.state.card === 'secondFactorChooser' ? chooser.state.challenge : null;
    const out = await b.send({ event: 'CANCEL' });
    expect(out.state.card).toBe('providerChooser');
    await expect(
      b.world.secondFactors?.startSignIn(
        challenge ?? { factors: [], session: null },
        challenge?.factors[1]?.uid ?? '',
      ),
    ).rejects.toMatchObject({ code: 'code-expired' });
  });
});
