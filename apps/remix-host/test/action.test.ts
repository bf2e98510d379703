import { describe, expect, it } from 'vitest';
import { loadActionPage, submitActionPage } from '../app/action.server.ts';
import { type FakeCode, fakeActionDeps, request } from './fakes.ts';

const ORIGIN = 'http://127.0.0.1:3000';

function codes(entries: Record<string, FakeCode> = {}): Map<string, FakeCode> {
  return new Map(
    Object.entries({
      verify1: { operation: 'verifyEmail', email: 'ada@example.com' },
      reset1: { operation: 'resetPassword', email: 'ada@example.com' },
      recover1: { operation: 'recoverEmail', email: 'ada@example.com' },
      change1: { operation: 'verifyAndChangeEmail', email: 'ada.new@example.com' },
      revert1: { operation: 'revertSecondFactorAddition', email: 'ada@example.com', factor: '+1 555-0100' },
      net1: { operation: 'verifyEmail', email: 'ada@example.com', network: true },
      busy1: { operation: 'verifyEmail', email: 'ada@example.com', rateLimited: true },
      ...entries,
    }),
  );
}

const get = (query: string) => request(`/action?${query}`);

describe('loadActionPage (GET /action)', () => {
  it('verifyEmail: applies the code, then offers the safe continue URL as a path', async () => {
    const deps = fakeActionDeps(codes());
    const page = await loadActionPage(
      get('mode=verifyEmail&oobCode=verify1&continueUrl=%2Faccount%3Fa%3D1'),
      deps,
    );
    expect(page).toEqual({
      status: 200,
      view: { card: 'emailVerificationSuccess', continueUrl: '/account?a=1' },
    });
    expect(deps.calls).toEqual(['setTenant:null', 'apply:verify1']);
    // The code is spent: the same link now fails.
    expect((await loadActionPage(get('mode=verifyEmail&oobCode=verify1'), deps)).view).toEqual({
      card: 'emailVerificationFailure',
    });
  });

  it.each([
    '%2F..%2F%2Fevil.example',
    '%2F.%2F%2Fevil.example',
    'http%3A%2F%2F127.0.0.1%3A3000%2F%2Fevil.example',
  ])(
    'verifyEmail: a continueUrl that resolves to //evil.example (%s) continues to the sign-in page (issue 12)',
    async (continueUrl) => {
      const page = await loadActionPage(
        get(`mode=verifyEmail&oobCode=verify1&continueUrl=${continueUrl}`),
        fakeActionDeps(codes()),
      );
      expect(page.view).toEqual({ card: 'emailVerificationSuccess', continueUrl: '/login' });
    },
  );

  it('resetPassword: verifies the code and shows the form for the account, without echoing the code', async () => {
    const page = await loadActionPage(get('mode=resetPassword&oobCode=reset1'), fakeActionDeps(codes()));
    expect(page.view).toEqual({ card: 'passwordReset', email: 'ada@example.com', error: null });
    expect(JSON.stringify(page.view)).not.toContain('reset1');
  });

  it('recoverEmail, verifyAndChangeEmail and revertSecondFactorAddition: their success cards', async () => {
    const deps = fakeActionDeps(codes());
    expect((await loadActionPage(get('mode=recoverEmail&oobCode=recover1'), deps)).view).toEqual({
      card: 'emailChangeRevoked',
      email: 'ada@example.com',
    });
    expect((await loadActionPage(get('mode=verifyAndChangeEmail&oobCode=change1'), deps)).view).toEqual({
      card: 'verifyAndChangeEmailSuccess',
      email: 'ada.new@example.com',
      continueUrl: '/login',
    });
    expect((await loadActionPage(get('mode=revertSecondFactorAddition&oobCode=revert1'), deps)).view).toEqual(
      {
        card: 'revertSecondFactorAdditionSuccess',
        factor: '+1 555-0100',
        email: 'ada@example.com',
      },
    );
  });

  it.each([
    ['resetPassword', 'passwordResetFailure'],
    ['recoverEmail', 'emailChangeRevokeFailure'],
    ['verifyEmail', 'emailVerificationFailure'],
    ['verifyAndChangeEmail', 'verifyAndChangeEmailFailure'],
    ['revertSecondFactorAddition', 'revertSecondFactorAdditionFailure'],
  ])('%s: a missing, garbage, huge or unknown code gets %s', async (mode, card) => {
    for (const code of ['', 'garbage-code', '<script>', `${'a'.repeat(5000)}`, 'no-such-code', '%00']) {
      const page = await loadActionPage(
        get(`mode=${mode}&oobCode=${encodeURIComponent(code)}`),
        fakeActionDeps(codes()),
      );
      expect(page, code.slice(0, 20)).toEqual({ status: 200, view: { card } });
    }
    expect((await loadActionPage(get(`mode=${mode}`), fakeActionDeps(codes()))).view).toEqual({ card });
  });

  it('signIn, select, an unknown or missing mode: the widget', async () => {
    for (const query of [
      'mode=signIn&oobCode=x',
      'mode=select',
      'mode=deleteEverything&oobCode=x',
      '',
      'mode=',
    ]) {
      expect((await loadActionPage(get(query), fakeActionDeps(codes()))).view, query).toEqual({
        card: 'widget',
      });
    }
  });

  it('a network failure: the recoverable error card with status 503', async () => {
    expect(await loadActionPage(get('mode=verifyEmail&oobCode=net1'), fakeActionDeps(codes()))).toEqual({
      status: 503,
      view: { card: 'recoverableError', message: 'network-request-failed' },
    });
  });

  it('a rate limit: the recoverable error card with the spec message and status 429', async () => {
    expect(await loadActionPage(get('mode=verifyEmail&oobCode=busy1'), fakeActionDeps(codes()))).toEqual({
      status: 429,
      view: { card: 'recoverableError', message: 'too-many-requests' },
    });
  });

  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    'https://evil.example/account',
    'https:evil.example',
    'http://127.0.0.1:3000@evil.example/',
    'data:text/html,<script>alert(1)</script>',
    ' javascript:alert(1)',
    '%2F%2Fevil.example',
  ])('a hostile continueUrl %j is never offered: Continue leads to the login page', async (continueUrl) => {
    const deps = fakeActionDeps(codes());
    const page = await loadActionPage(
      get(`mode=verifyEmail&oobCode=verify1&continueUrl=${encodeURIComponent(continueUrl)}`),
      deps,
    );
    expect(page.view).toEqual({ card: 'emailVerificationSuccess', continueUrl: '/login' });
  });

  it('a continueUrl on an allowed origin stays absolute', async () => {
    const deps = fakeActionDeps(codes(), { allowedOrigins: ['https://app.example.com'] });
    const page = await loadActionPage(
      get(
        `mode=verifyEmail&oobCode=verify1&continueUrl=${encodeURIComponent('https://app.example.com/welcome')}`,
      ),
      deps,
    );
    expect(page.view).toEqual({
      card: 'emailVerificationSuccess',
      continueUrl: 'https://app.example.com/welcome',
    });
  });
});

describe('submitActionPage (POST /action)', () => {
  const post = (query: string, fields: Record<string, string>, origin: string | null = ORIGIN) =>
    request(`/action?${query}`, { method: 'POST', origin, body: new URLSearchParams(fields) });

  it('resetPassword: a weak password stays on the form with its message', async () => {
    const deps = fakeActionDeps(codes());
    const short = await submitActionPage(
      post('mode=resetPassword&oobCode=reset1', { intent: 'resetPassword', newPassword: 'abc' }),
      deps,
    );
    expect(short.view).toEqual({ card: 'passwordReset', email: 'ada@example.com', error: 'password-weak' });
    const weak = await submitActionPage(
      post('mode=resetPassword&oobCode=reset1', { intent: 'resetPassword', newPassword: 'abcdef' }),
      deps,
    );
    expect(weak.view).toEqual({ card: 'passwordReset', email: 'ada@example.com', error: 'weak-password' });
  });

  it('resetPassword: success with the continue URL, then the used code fails', async () => {
    const deps = fakeActionDeps(codes());
    const done = await submitActionPage(
      post('mode=resetPassword&oobCode=reset1&continueUrl=%2Flogin%3Fx%3D1', {
        intent: 'resetPassword',
        newPassword: 'n3w-secret',
      }),
      deps,
    );
    expect(done).toEqual({ status: 200, view: { card: 'passwordResetSuccess', continueUrl: '/login?x=1' } });
    const again = await submitActionPage(
      post('mode=resetPassword&oobCode=reset1', { intent: 'resetPassword', newPassword: 'n3w-secret' }),
      deps,
    );
    expect(again.view).toEqual({ card: 'passwordResetFailure' });
  });

  it('Change password: sends a reset email whose continue URL is this host’s login page', async () => {
    const deps = fakeActionDeps(codes());
    const sent = await submitActionPage(
      post('mode=recoverEmail&oobCode=recover1', { intent: 'sendPasswordReset', email: ' ada@example.com ' }),
      deps,
    );
    expect(sent.view).toEqual({ card: 'recoveryEmailSent', email: 'ada@example.com' });
    expect(deps.sent).toEqual([{ email: 'ada@example.com', url: `${ORIGIN}/login` }]);
    // Sending never touches the (spent) code.
    expect(deps.calls).toEqual([]);
  });

  it('Change password: a bad address or a failed send gives the recovery card with the message', async () => {
    const bad = await submitActionPage(
      post('mode=recoverEmail', { intent: 'sendPasswordReset', email: 'nope' }),
      fakeActionDeps(codes()),
    );
    expect(bad.view).toEqual({ card: 'passwordRecovery', email: 'nope', error: 'email-invalid' });
    const failing = await submitActionPage(
      post('mode=recoverEmail', { intent: 'sendPasswordReset', email: 'ada@example.com' }),
      fakeActionDeps(codes(), { sendFails: true }),
    );
    expect(failing.view).toEqual({
      card: 'passwordRecovery',
      email: 'ada@example.com',
      error: 'network-request-failed',
    });
  });

  it('a cross-origin post is refused with a thrown 403 and does nothing', async () => {
    const deps = fakeActionDeps(codes());
    for (const origin of ['https://evil.example', 'null', null]) {
      let thrown: unknown;
      try {
        await submitActionPage(
          post(
            'mode=resetPassword&oobCode=reset1',
            { intent: 'resetPassword', newPassword: 'n3w-secret' },
            origin,
          ),
          deps,
        );
      } catch (e) {
        thrown = e;
      }
      expect(thrown, String(origin)).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(403);
    }
    expect(deps.calls).toEqual([]);
    expect(deps.sent).toEqual([]);
  });

  it('an unknown intent renders the page as a GET would', async () => {
    const page = await submitActionPage(
      post('mode=resetPassword&oobCode=reset1', { intent: 'other' }),
      fakeActionDeps(codes()),
    );
    expect(page.view).toEqual({ card: 'passwordReset', email: 'ada@example.com', error: null });
  });
});
