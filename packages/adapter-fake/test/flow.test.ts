/**
 * The flow runner on the fake provider, with vitest's fake timers: delays, countdowns, callbacks,
 * round trips, lazy loading and hostile action URLs.
 */
import {
  createFlow,
  createMemoryStorage,
  type ErrorInfo,
  formatCountdown,
  handleActionCode,
  normalizeConfig,
  type SignInResult,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProvider } from '../src/index.ts';
import { expectCard, LOGIN, ORIGIN, open } from './harness.ts';

const EMAIL: WidgetConfigInput = { signInOptions: ['email'], signInSuccessUrl: '/account' };
const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

async function atPassword(input: WidgetConfigInput = EMAIL, latencyMs = 0) {
  const h = await open(input, { fakeOptions: { users: [ANN], faults: { latencyMs } } });
  h.flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
  await vi.advanceTimersByTimeAsync(latencyMs);
  await h.settle();
  expectCard(h, 'passwordSignIn');
  return h;
}

describe('busy spinner', () => {
  it('shows only once a call has been pending for 500 ms', async () => {
    const h = await atPassword(EMAIL, 2000);
    h.flow.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    await vi.advanceTimersByTimeAsync(499);
    expect(h.flow.getSnapshot()).toMatchObject({ busy: false });
    expect(h.flow.getSnapshot().pending).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.flow.getSnapshot()).toMatchObject({ busy: true, card: 'passwordSignIn' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(h.flow.getSnapshot()).toMatchObject({ busy: false, card: 'signedIn' });
  });

  it('never shows for a fast call', async () => {
    const h = await atPassword();
    const seen: boolean[] = [];
    h.flow.subscribe(() => seen.push(h.flow.getSnapshot().busy));
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    await vi.advanceTimersByTimeAsync(600);
    expect(seen).not.toContain(true);
  });
});

describe('success', () => {
  it('shows "Signed in!" for 1000 ms, then redirects through safeRedirect', async () => {
    const h = await atPassword();
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'signedIn', message: 'signedIn' });
    await vi.advanceTimersByTimeAsync(999);
    expect(h.navigated).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.navigated).toEqual([`${ORIGIN}/account`]);
  });

  it('a signInSuccess callback returning false cancels the redirect, and gets the user', async () => {
    const seen: SignInResult[] = [];
    const h = await atPassword({
      ...EMAIL,
      callbacks: {
        signInSuccess: (r) => {
          seen.push(r);
          return false;
        },
      },
    });
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.navigated).toEqual([]);
    expect(seen.map((r) => r.user.email)).toEqual(['ann@example.com']);
  });

  it('an async callback that resolves late still redirects once', async () => {
    const h = await atPassword({
      ...EMAIL,
      callbacks: { signInSuccess: () => new Promise((r) => setTimeout(() => r(true), 3000)) },
    });
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.navigated).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.navigated).toEqual([`${ORIGIN}/account`]);
  });

  it('uiShown is called once, for the first interactive card', async () => {
    const uiShown = vi.fn();
    const h = await atPassword({ ...EMAIL, callbacks: { uiShown } });
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(uiShown).toHaveBeenCalledTimes(1);
  });
});

describe('round trips', () => {
  it('email-first password sign-in makes exactly two provider calls, even on a double submit', async () => {
    const h = await open(EMAIL, { fakeOptions: { users: [ANN] } });
    h.fake.backend.clearCalls();
    h.flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    h.flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    await h.settle();
    h.flow.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    h.flow.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    await h.settle();
    expect(h.fake.backend.calls.map((c) => c.method)).toEqual([
      'fetchSignInMethodsForEmail',
      'signInWithEmailAndPassword',
    ]);
  });

  it('with enumeration protection, email entry makes no lookup at all', async () => {
    const h = await open(EMAIL, { fakeOptions: { users: [ANN], faults: { enumerationProtection: true } } });
    h.fake.backend.clearCalls();
    await h.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'passwordSignIn', offerSignUp: true });
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(h.fake.backend.calls.map((c) => c.method)).toEqual(['signInWithEmailAndPassword']);
    expectCard(h, 'signedIn');
  });

  it('with enumeration protection, an unknown email and a wrong password read the same', async () => {
    const a = await open(EMAIL, { fakeOptions: { users: [ANN], faults: { enumerationProtection: true } } });
    await a.send({ type: 'SUBMIT_EMAIL', email: 'nobody@example.com' });
    await a.send({ type: 'SUBMIT_PASSWORD', password: 'whatever1' });
    const b = await open(EMAIL, { fakeOptions: { users: [ANN], faults: { enumerationProtection: true } } });
    await b.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    await b.send({ type: 'SUBMIT_PASSWORD', password: 'whatever1' });
    expect(a.flow.getSnapshot().error).toBe('wrong-password');
    expect(b.flow.getSnapshot().error).toBe('wrong-password');
  });
});

describe('phone', () => {
  async function atCode(smsCodeTtlMs?: number) {
    const h = await open({ signInOptions: ['phone'] }, { fakeOptions: smsCodeTtlMs ? { smsCodeTtlMs } : {} });
    const verifier = h.fake.createCaptchaVerifier(null);
    await h.send({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+15555550100',
      country: 'US',
      captchaSolved: true,
      verifier,
    });
    expectCard(h, 'phoneCode');
    return h;
  }

  it('counts down 0:15 → 0:00 once a second, then resends a new code', async () => {
    const h = await atCode();
    const shown = () => {
      const s = h.flow.getSnapshot();
      return s.card === 'phoneCode' ? formatCountdown(s.resendIn) : s.card;
    };
    expect(shown()).toBe('0:15');
    await vi.advanceTimersByTimeAsync(1000);
    expect(shown()).toBe('0:14');
    await vi.advanceTimersByTimeAsync(13_999);
    expect(shown()).toBe('0:01');
    await vi.advanceTimersByTimeAsync(1);
    expect(shown()).toBe('0:00');
    const first = h.fake.backend.outbox.lastSms('+15555550100')?.code;
    await h.send({ type: 'RESEND_CODE' });
    expect(shown()).toBe('0:15');
    expect(h.fake.backend.outbox.sms).toHaveLength(2);
    expect(first).toBeDefined();
  });

  it('the right code signs in with "Verified!"; a wrong one says "Wrong code. Try again."', async () => {
    const h = await atCode();
    const sent = h.fake.backend.outbox.lastSms('+15555550100')?.code;
    await h.send({ type: 'SUBMIT_CODE', code: sent === '000000' ? '111111' : '000000' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'phoneCode', error: 'invalid-verification-code' });
    await h.send({ type: 'SUBMIT_CODE', code: h.fake.backend.outbox.lastSms('+15555550100')?.code ?? '' });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'signedIn', message: 'verified' });
  });

  it('an expired code returns to phone start with "This code is no longer valid"', async () => {
    const h = await atCode(60_000);
    await vi.advanceTimersByTimeAsync(60_001);
    await h.send({ type: 'SUBMIT_CODE', code: h.fake.backend.outbox.lastSms('+15555550100')?.code ?? '' });
    expect(h.flow.getSnapshot()).toMatchObject({
      card: 'phoneEntry',
      error: 'code-expired',
      phoneNumber: '+15555550100',
    });
  });
});

describe('faults', () => {
  it('a network failure keeps the card and what was typed; a retry then succeeds', async () => {
    const h = await atPassword();
    h.fake.backend.faults.failNext('signInWithEmailAndPassword', 'network-request-failed');
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(h.flow.getSnapshot()).toMatchObject({
      card: 'passwordSignIn',
      email: ANN.email,
      error: 'network-request-failed',
    });
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expectCard(h, 'signedIn');
  });

  it('an action page that fails on the network offers a retry that then works', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: ANN.email });
    const link = fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link;
    fake.backend.faults.set({ network: true });
    const h = await open(EMAIL, { fake, url: link });
    expect(h.flow.getSnapshot()).toMatchObject({
      card: 'recoverableError',
      message: 'network-request-failed',
    });
    fake.backend.faults.set({ network: false });
    await h.send({ type: 'RETRY' });
    expectCard(h, 'emailVerificationSuccess');
  });
});

describe('faults: rate limits and linking after an email link (found by the ui-cards fault matrix)', () => {
  it('a rate-limited action code shows its message with a Retry that applies the code', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: ANN.email });
    const link = fake.backend.sendVerificationEmail(uid, { url: `${ORIGIN}/action` }).link;
    fake.backend.faults.failNth('applyActionCode', 1, 'too-many-requests');
    const h = await open(EMAIL, { fake, url: link });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'recoverableError', message: 'too-many-requests' });
    await h.send({ type: 'RETRY' });
    expectCard(h, 'emailVerificationSuccess');
    expect(fake.backend.getUser(uid)?.emailVerified).toBe(true);
  });

  it('a rate-limited email-link completion retries the same link', async () => {
    const storage = createMemoryStorage();
    const first = await open(
      { signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] },
      { storage },
    );
    await first.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    expectCard(first, 'emailLinkSent');
    const link = first.fake.backend.outbox.lastEmail(ANN.email)?.link ?? '';
    first.fake.backend.faults.failNth('signInWithEmailLink', 1, 'too-many-requests');
    const h = await open(EMAIL, { fake: first.fake, url: link, storage });
    expect(h.flow.getSnapshot()).toMatchObject({ card: 'recoverableError', message: 'too-many-requests' });
    await h.send({ type: 'RETRY' });
    expectCard(h, 'signedIn');
  });

  it('when linking fails after the email link signed in, the retry links without spending the link again', async () => {
    const input: WidgetConfigInput = {
      signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }, 'google.com'],
    };
    const storage = createMemoryStorage();
    const fake = createFakeProvider({
      users: [{ email: ANN.email, emailLink: true }],
      idp: () => ({ sub: 'g-ann', email: ANN.email }),
    });
    const first = await open(input, { fake, storage });
    await first.send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    expectCard(first, 'emailLinkLinking');
    await first.send({ type: 'SEND_LINKING_EMAIL' });
    expectCard(first, 'emailLinkSent');
    const link = fake.backend.outbox.lastEmail(ANN.email)?.link ?? '';
    fake.backend.faults.failNth('linkWithCredential', 1, 'network-request-failed');
    const h = await open(input, { fake, url: link, storage });
    expect(h.flow.getSnapshot()).toMatchObject({
      card: 'recoverableError',
      message: 'network-request-failed',
    });
    fake.backend.clearCalls();
    await h.send({ type: 'RETRY' });
    expectCard(h, 'signedIn');
    expect(fake.backend.calls.map((c) => c.method)).toEqual(['linkWithCredential']);
    expect(fake.backend.findUserByEmail(ANN.email)?.providerIds).toEqual(['emailLink', 'google.com']);
  });
});

describe('anonymous upgrade', () => {
  it('upgrades the same uid, and a conflict calls signInFailure with the pending credential', async () => {
    const failures: ErrorInfo[] = [];
    const input: WidgetConfigInput = {
      signInOptions: ['email'],
      autoUpgradeAnonymousUsers: true,
      callbacks: { signInFailure: (e) => void failures.push(e) },
    };
    const fake = createFakeProvider({ users: [ANN] });
    const anon = await fake.signInAnonymously();
    const h = await open(input, { fake });
    await h.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    await h.send({ type: 'SUBMIT_SIGN_UP', email: 'new@example.com', name: 'New', password: 'abc123' });
    expectCard(h, 'signedIn');
    const snap = h.flow.getSnapshot();
    expect(snap.card === 'signedIn' && snap.result?.user.uid).toBe(anon.user.uid);

    await fake.signOut();
    await fake.signInAnonymously();
    const c = await open(input, { fake });
    await c.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    await c.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(c.flow.getSnapshot()).toMatchObject({
      card: 'passwordSignIn',
      error: 'anonymous-upgrade-merge-conflict',
    });
    expect(failures).toEqual([
      {
        code: 'anonymous-upgrade-merge-conflict',
        credential: { kind: 'password', email: ANN.email, password: 'abc123' },
      },
    ]);
  });
});

describe('lazy provider', () => {
  it('shows the unrecoverable error card when the script never loads (5 s)', async () => {
    const flow = createFlow({
      provider: { loadScript: () => new Promise(() => {}), getProvider: () => null },
      config: normalizeConfig(EMAIL, ORIGIN),
      url: LOGIN,
      storage: createMemoryStorage(),
    });
    expect(flow.getSnapshot().card).toBe('spinner');
    await vi.advanceTimersByTimeAsync(4999);
    expect(flow.getSnapshot().card).toBe('spinner');
    await vi.advanceTimersByTimeAsync(1);
    expect(flow.getSnapshot()).toMatchObject({
      card: 'unrecoverableError',
      message: 'provider-load-timeout',
    });
  });

  it('starts normally once the identity library appears', async () => {
    const fake = createFakeProvider();
    let ready = false;
    const flow = createFlow({
      provider: { loadScript: async () => {}, getProvider: () => (ready ? fake : null) },
      config: normalizeConfig(EMAIL, ORIGIN),
      url: LOGIN,
      storage: createMemoryStorage(),
    });
    await vi.advanceTimersByTimeAsync(3000);
    ready = true;
    await vi.advanceTimersByTimeAsync(200);
    expect(flow.getSnapshot().card).toBe('emailEntry');
  });
});

describe('snapshots', () => {
  it('keep identity when nothing changed and notify once per send', async () => {
    const h = await open(EMAIL);
    const before = h.flow.getSnapshot();
    const listener = vi.fn();
    h.flow.subscribe(listener);
    h.flow.send({ type: 'GO_TO_SIGN_UP' });
    expect(h.flow.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    h.flow.send({ type: 'SUBMIT_EMAIL', email: '' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(h.flow.getSnapshot()).not.toBe(before);
    expect(before).toMatchObject({ card: 'emailEntry', error: null });
  });

  it('ignore events and late results after dispose', async () => {
    const h = await open(EMAIL, { fakeOptions: { users: [ANN], faults: { latencyMs: 1000 } } });
    h.flow.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    h.flow.dispose();
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.flow.getSnapshot().card).toBe('emailEntry');
  });
});

describe('handleActionCode on hostile action URLs', () => {
  const hostile = fc.constantFrom(
    'javascript:alert(1)',
    '//evil.example',
    'https://evil.example',
    '%2F%2Fevil.example',
    'https:%2F%2Fevil.example',
    '/\\evil.example',
    'https://app.example@evil.example',
    '/fine',
  );
  it('1,000 random URLs: never throws, never returns a continue URL off the allowed origins', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: ANN.email, password: 'abc123' });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'resetPassword',
          'recoverEmail',
          'revertSecondFactorAddition',
          'verifyEmail',
          'verifyAndChangeEmail',
          'signIn',
          'select',
          'bogus',
          '',
        ),
        fc.oneof(fc.constant('good'), fc.string({ maxLength: 3000 })),
        fc.option(fc.oneof(hostile, fc.string({ maxLength: 50 })), { nil: undefined }),
        async (mode, code, continueUrl) => {
          const real = code === 'good' ? fake.backend.sendVerificationEmail(uid).oobCode : code;
          const url = new URL(`${ORIGIN}/action`);
          url.searchParams.set('mode', mode);
          url.searchParams.set('oobCode', real);
          if (continueUrl !== undefined) url.searchParams.set('continueUrl', continueUrl);
          const result = await handleActionCode(url, fake, { allowedOrigins: [ORIGIN] });
          if ('continueUrl' in result && result.continueUrl !== null) {
            expect(new URL(result.continueUrl).origin).toBe(ORIGIN);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
