/**
 * The action route on the form path (`runFormPath` with `ACTION_PAGE`), on the fake's server provider: what a
 * browser without JavaScript gets for every emailed link, each card's form post, and what it never gets
 * (the code in the page or a log, a continue URL off the origin, a result from another origin's post).
 */
import { createFakeProvider, createFakeServerProvider, type FakeProvider } from '@doorway/adapter-fake';
import type { ActionMode, FlowState } from '@doorway/auth-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_PAGE, actionStatus, pageState, withoutActionCode } from '../app/action.server.ts';
import { isStaticCard } from '../app/action-cards.ts';
import { parseHostConfig } from '../app/config.server.ts';
import { codeModeOf } from '../app/form-path.server.ts';
import { ACTION_PAGE_HEADERS } from '../app/security-headers.ts';
import { fakeSessions, formBrowser, ORIGIN, request, viewOf } from './fakes.ts';

const config = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email,google.com,anonymous' });

/** A browser without JavaScript on the action route of a host over `world`. */
function browser(world: FakeProvider = createFakeProvider(), hostConfig = config) {
  return {
    world,
    ...formBrowser({
      config: hostConfig,
      provider: () => createFakeServerProvider(world),
      sessions: () => fakeSessions(),
      page: ACTION_PAGE,
    }),
  };
}

/** A world with Ada's account. */
function withAda(options: Parameters<typeof createFakeProvider>[0] = {}) {
  const world = createFakeProvider(options);
  const uid = world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
  return { world, uid };
}

const link = (mode: string, code: string, extra: Record<string, string> = {}) =>
  `/action?${new URLSearchParams({ mode, oobCode: code, ...extra })}`;

const locationOf = (out: unknown) => {
  expect(out, 'a redirect').toBeInstanceOf(Response);
  expect((out as Response).status).toBe(303);
  return (out as Response).headers.get('location');
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the action pages without JavaScript', () => {
  it('verifyEmail: applies the code; Continue goes to the safe continue URL; the same link then fails', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendVerificationEmail(uid);
    const b = browser(world);
    const page = link('verifyEmail', oobCode, { continueUrl: '/account?a=1' });
    const shown = await b.get(page);
    expect(viewOf(shown).state.card).toBe('emailVerificationSuccess');
    expect(world.backend.getUser(uid)?.emailVerified).toBe(true);
    expect(locationOf(await b.post(page, { event: 'CONTINUE' }))).toBe('/account?a=1');
    expect(viewOf(await b.get(page)).state.card).toBe('emailVerificationFailure');
  });

  it('resetPassword: the form for the account, a weak password explained, then success and Continue', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendPasswordReset(uid);
    const b = browser(world);
    const page = link('resetPassword', oobCode, { continueUrl: `${ORIGIN}/login?x=1` });
    const form = viewOf(await b.get(page));
    expect(form.state).toMatchObject({ card: 'passwordReset', email: 'ada@example.com', error: null });

    const weak = viewOf(await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'abc' }));
    expect(weak.state).toMatchObject({ card: 'passwordReset', error: 'password-weak' });
    expect(JSON.stringify(weak)).not.toContain('"abc"');

    const done = await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'n3w-secret' });
    expect(viewOf(done).state.card).toBe('passwordResetSuccess');
    expect(world.backend.getUser(uid)?.password).toBe('n3w-secret');
    expect(JSON.stringify(viewOf(done))).not.toContain('n3w-secret');
    expect((done as { headers: Headers }).headers.getSetCookie().join('\n')).not.toContain('n3w-secret');
    expect(locationOf(await b.post(page, { event: 'CONTINUE' }))).toBe('/login?x=1');

    // The link is spent.
    expect(viewOf(await b.get(page)).state.card).toBe('passwordResetFailure');
  });

  it('resetPassword: the form posted without the flow cookie sets nothing and shows the form again', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendPasswordReset(uid);
    const page = link('resetPassword', oobCode);
    await browser(world).get(page);
    const other = browser(world);
    const out = viewOf(await other.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'hijacked1' }));
    expect(out.state.card).toBe('passwordReset');
    expect(world.backend.getUser(uid)?.password).toBe('secret123');
  });

  it('recoverEmail: the change is revoked; Change password emails a reset that continues to the sign-in page', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.changeEmail(uid, 'mallory@example.com');
    const b = browser(world);
    const page = link('recoverEmail', oobCode, { continueUrl: '/account' });
    expect(viewOf(await b.get(page)).state).toMatchObject({
      card: 'emailChangeRevoked',
      email: 'ada@example.com',
    });
    expect(world.backend.getUser(uid)?.email).toBe('ada@example.com');

    const sent = viewOf(await b.post(page, { event: 'CONTINUE' }));
    expect(sent.state).toMatchObject({ card: 'recoveryEmailSent', email: 'ada@example.com' });
    const reset = world.backend.outbox.lastEmail('ada@example.com', 'resetPassword');
    // The reset link continues to the sign-in page, not to the spent recover link.
    expect(reset?.link.startsWith(`${ORIGIN}/login?`)).toBe(true);
    expect(reset?.link).not.toContain(oobCode);
    expect(isStaticCard(sent.state)).toBe(false);
    expect(viewOf(await b.get(page)).state.card).toBe('emailChangeRevokeFailure');
  });

  it('verifyAndChangeEmail and revertSecondFactorAddition: their success cards', async () => {
    const { world, uid } = withAda();
    const change = world.backend.verifyAndChangeEmail(uid, 'ada.new@example.com');
    expect(
      viewOf(await browser(world).get(link('verifyAndChangeEmail', change.oobCode))).state,
    ).toMatchObject({ card: 'verifyAndChangeEmailSuccess', email: 'ada.new@example.com' });
    expect(world.backend.getUser(uid)?.email).toBe('ada.new@example.com');

    const revert = world.backend.addSecondFactor(uid, '+15555550100');
    const b = browser(world);
    const page = link('revertSecondFactorAddition', revert.oobCode);
    const shown = viewOf(await b.get(page)).state;
    expect(shown).toMatchObject({ card: 'revertSecondFactorAdditionSuccess', email: 'ada.new@example.com' });
    expect((shown as { factor: string }).factor).toMatch(/0100$/);
    expect(world.backend.getUser(uid)?.secondFactors).toEqual([]);
    expect(viewOf(await b.post(page, { event: 'CONTINUE' })).state.card).toBe('recoveryEmailSent');
  });

  it.each([
    ['resetPassword', 'passwordResetFailure'],
    ['recoverEmail', 'emailChangeRevokeFailure'],
    ['verifyEmail', 'emailVerificationFailure'],
    ['verifyAndChangeEmail', 'verifyAndChangeEmailFailure'],
    ['revertSecondFactorAddition', 'revertSecondFactorAdditionFailure'],
  ])('%s: a missing, garbage, huge or unknown code gets %s with 200', async (mode, card) => {
    const { world } = withAda();
    for (const code of ['', 'garbage-code', '<script>', 'a'.repeat(5000), 'no-such-code', '%00']) {
      const out = await browser(world).get(link(mode, code));
      expect(viewOf(out).state.card, code.slice(0, 20)).toBe(card);
      expect((out as { status: number }).status).toBe(200);
    }
    expect(viewOf(await browser(world).get(`/action?mode=${mode}`)).state.card).toBe(card);
  });

  it('signIn, select, an unknown or missing mode: the sign-in widget’s cards', async () => {
    for (const query of ['mode=select', 'mode=deleteEverything&oobCode=x', '', 'mode=']) {
      expect(viewOf(await browser().get(`/action?${query}`)).state.card, query).toBe('providerChooser');
    }
    const signIn = viewOf(await browser().get('/action?mode=signIn&oobCode=x')).state;
    expect(isStaticCard(signIn)).toBe(false);
  });

  it.each([
    ['network-request-failed', 503],
    ['too-many-requests', 429],
  ] as const)(
    '%s: the recoverable error card with status %i; Retry checks the code again',
    async (code, status) => {
      const { world, uid } = withAda();
      const { oobCode } = world.backend.sendVerificationEmail(uid);
      world.backend.faults.failNext('applyActionCode', code);
      const b = browser(world);
      const page = link('verifyEmail', oobCode);
      const failed = await b.get(page);
      expect(viewOf(failed).state).toMatchObject({ card: 'recoverableError', message: code });
      expect((failed as { status: number }).status).toBe(status);
      expect(isStaticCard(viewOf(failed).state)).toBe(true);
      const retried = await b.post(page, { event: 'RETRY' });
      expect(viewOf(retried).state.card).toBe('emailVerificationSuccess');
      expect((retried as { status: number }).status).toBe(200);
    },
  );

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
    '/..//evil.example',
    '/.//evil.example',
    'http://127.0.0.1:3000//evil.example',
  ])(
    'a hostile continueUrl %j: Continue never leaves the origin (the sign-in card instead)',
    async (continueUrl) => {
      const { world, uid } = withAda();
      const { oobCode } = world.backend.sendVerificationEmail(uid);
      const b = browser(world);
      const page = link('verifyEmail', oobCode, { continueUrl });
      expect(viewOf(await b.get(page)).state.card).toBe('emailVerificationSuccess');
      expect(viewOf(await b.post(page, { event: 'CONTINUE' })).state.card).toBe('providerChooser');
    },
  );

  it('a continueUrl on an allowed origin: Continue goes there', async () => {
    const allowed = parseHostConfig({
      DOORWAY_SIGN_IN_OPTIONS: 'email',
      DOORWAY_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendVerificationEmail(uid);
    const b = browser(world, allowed);
    const page = link('verifyEmail', oobCode, { continueUrl: 'https://app.example.com/welcome' });
    await b.get(page);
    expect(locationOf(await b.post(page, { event: 'CONTINUE' }))).toBe('https://app.example.com/welcome');
  });

  it('refuses a cross-origin post with 403 and the action headers; the code stays usable', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendPasswordReset(uid);
    const b = browser(world);
    const page = link('resetPassword', oobCode);
    await b.get(page);
    for (const origin of ['https://evil.example', 'null', null]) {
      const out = await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'hijacked1' }, origin);
      expect(out, String(origin)).toBeInstanceOf(Response);
      expect((out as Response).status).toBe(403);
      expect(Object.fromEntries((out as Response).headers)).toMatchObject(ACTION_PAGE_HEADERS);
    }
    expect(world.backend.getUser(uid)?.password).toBe('secret123');
    expect(
      viewOf(await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'n3w-secret' })).state.card,
    ).toBe('passwordResetSuccess');
  });

  it('sends the action headers with every card and redirect, and the flow cookie', async () => {
    const { world, uid } = withAda();
    const { oobCode } = world.backend.sendVerificationEmail(uid);
    const b = browser(world);
    const page = link('verifyEmail', oobCode, { continueUrl: '/account' });
    const shown = await b.get(page);
    if (shown instanceof Response) throw new Error('expected a page');
    expect(Object.fromEntries(shown.headers)).toMatchObject(ACTION_PAGE_HEADERS);
    expect(b.jar.has('doorway_flow')).toBe(true);
    const moved = await b.post(page, { event: 'CONTINUE' });
    expect(Object.fromEntries((moved as Response).headers)).toMatchObject(ACTION_PAGE_HEADERS);
  });

  it('never puts the code into the page or a log: the page’s state has it taken out', async () => {
    const logged = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => undefined),
    );
    const { world, uid } = withAda();
    const reset = world.backend.sendPasswordReset(uid);
    const b = browser(world);
    const page = link('resetPassword', reset.oobCode, { continueUrl: '/account' });
    const form = viewOf(await b.get(page));
    expect(JSON.stringify(form)).not.toContain(reset.oobCode);
    expect(form.state).toMatchObject({ card: 'passwordReset', code: '', pageUrl: `${ORIGIN}/login` });
    const weak = viewOf(await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'abc' }));
    expect(JSON.stringify(weak)).not.toContain(reset.oobCode);

    const verify = world.backend.sendVerificationEmail(uid);
    world.backend.faults.failNext('applyActionCode', 'network-request-failed');
    const failed = viewOf(await b.get(link('verifyEmail', verify.oobCode)));
    expect(failed.state.card).toBe('recoverableError');
    expect(JSON.stringify(failed)).not.toContain(verify.oobCode);
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });
});

describe('modes the provider has no links for (Supabase’s capabilities.actionCodes)', () => {
  const SUPABASE_LIKE: ActionMode[] = ['resetPassword', 'verifyEmail', 'verifyAndChangeEmail'];

  it.each([
    ['recoverEmail', 'emailChangeRevokeFailure'],
    ['revertSecondFactorAddition', 'revertSecondFactorAdditionFailure'],
  ])('%s: the failure card, and the provider never sees the code', async (mode, card) => {
    const { world, uid } = withAda({ capabilities: { actionCodes: SUPABASE_LIKE } });
    const sent =
      mode === 'recoverEmail'
        ? world.backend.changeEmail(uid, 'mallory@example.com')
        : world.backend.addSecondFactor(uid, '+15555550100');
    world.backend.clearCalls();
    expect(viewOf(await browser(world).get(link(mode, sent.oobCode))).state.card).toBe(card);
    expect(
      world.backend.calls.map((c) => c.method).filter((m) => /ActionCode|PasswordReset/.test(m)),
    ).toEqual([]);
    // Nothing was applied.
    expect(world.backend.getUser(uid)?.email).toBe(
      mode === 'recoverEmail' ? 'mallory@example.com' : 'ada@example.com',
    );
  });

  it('the modes it has still work', async () => {
    const { world, uid } = withAda({ capabilities: { actionCodes: SUPABASE_LIKE } });
    const { oobCode } = world.backend.sendPasswordReset(uid);
    expect(viewOf(await browser(world).get(link('resetPassword', oobCode))).state.card).toBe('passwordReset');
  });
});

describe('the action page’s parts', () => {
  it('codeModeOf: the modes whose code the route handles', () => {
    expect(codeModeOf(`${ORIGIN}/action?mode=verifyEmail&oobCode=x`)).toBe('verifyEmail');
    for (const url of [
      `${ORIGIN}/action?mode=signIn&oobCode=x`,
      `${ORIGIN}/action?mode=select`,
      `${ORIGIN}/`,
    ])
      expect(codeModeOf(url), url).toBeNull();
    expect(codeModeOf('not a url')).toBeNull();
  });

  it('withoutActionCode: an action URL becomes the sign-in page; other URLs stay as they are', () => {
    expect(withoutActionCode(`${ORIGIN}/action?mode=recoverEmail&oobCode=abc&continueUrl=%2Fx&lang=en`)).toBe(
      `${ORIGIN}/login`,
    );
    expect(withoutActionCode(`${ORIGIN}/login?mode=signIn&oobCode=abc&signInSuccessUrl=%2Fdocs`)).toBe(
      `${ORIGIN}/login?signInSuccessUrl=%2Fdocs`,
    );
    for (const same of [`${ORIGIN}/action?mode=select`, `${ORIGIN}/login`, 'ada@example.com', ''])
      expect(withoutActionCode(same)).toBe(same);
  });

  it('pageState leaves a sign-in link’s page alone (the browser completes that link)', () => {
    const state = {
      card: 'emailLinkConfirmation',
      link: `${ORIGIN}/action?mode=signIn&oobCode=abc`,
    } as unknown;
    const req = request('/action?mode=signIn&oobCode=abc');
    expect(pageState(state as FlowState, req)).toBe(state);
  });

  it('actionStatus: 503 and 429 for transient failures only', () => {
    const error = (message: string) =>
      ({ card: 'recoverableError', message, retry: null }) as unknown as FlowState;
    expect(actionStatus(error('network-request-failed'), 200)).toBe(503);
    expect(actionStatus(error('too-many-requests'), 200)).toBe(429);
    expect(actionStatus(error('invalid-action-code'), 200)).toBe(200);
    expect(actionStatus({ card: 'passwordResetFailure' } as FlowState, 400)).toBe(400);
  });

  it('isStaticCard: the cards of a code and its Retry, not the sign-in cards', () => {
    const as = (state: object) => state as FlowState;
    expect(isStaticCard(as({ card: 'passwordReset' }))).toBe(true);
    expect(isStaticCard(as({ card: 'emailChangeRevoked' }))).toBe(true);
    expect(isStaticCard(as({ card: 'recoverableError', retry: { kind: 'actionCode', url: '' } }))).toBe(true);
    expect(isStaticCard(as({ card: 'recoverableError', retry: { kind: 'signOut' } }))).toBe(false);
    expect(isStaticCard(as({ card: 'emailLinkConfirmation' }))).toBe(false);
    expect(isStaticCard(as({ card: 'providerChooser' }))).toBe(false);
    expect(isStaticCard(undefined)).toBe(false);
  });
});
