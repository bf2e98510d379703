/**
 * The fault matrix: every flow the fake provider supports × every provider call it makes, driven through
 * the real `<SignInWidget>`. A clean run of each flow records the calls the widget makes (on a wrapped
 * provider) and must equal the flow's declared `calls`; each declared call is a cell, run once per fault
 * kind with that one call failing:
 *
 * - network failure → "A network error has occurred" is shown, what the person typed is still there, and a
 *   retry (the same button again, or Retry on the error card) completes the flow;
 * - rate limit → the spec's too-many-requests text for that call, the input kept, and a retry once the limit
 *   lifts completes the flow.
 *
 * Storage that throws (denied or full) is run on every flow: flows that must remember something show the
 * web-storage-unsupported card before calling the provider for it; the others complete.
 *
 * A call a flow starts making without a cell fails the clean-run test; a provider method no flow calls fails
 * the coverage test unless it is listed, with the reason, in `NOT_CALLED`.
 */
import type { FakeIdpHandler, FakeProviderOptions, ProviderMethod } from '@doorway/adapter-fake';
import {
  createMemoryStorage,
  type ErrorCode,
  type KeyValueStorage,
  messageFor,
  uiText,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ORIGIN } from './harness.tsx';
import { createSession, type MountOptions, type Session } from './session.tsx';

type Ctx = Record<string, string>;
type Value = string | ((s: Session, ctx: Ctx) => string);

/** One thing a person does: fill fields, then press a button and/or something else (load a page). */
interface Step {
  fill?: readonly (readonly [label: string, value: Value])[];
  /** The button that sends this step; pressed again to retry it. */
  press?: string;
  act?: (s: Session, ctx: Ctx) => Promise<void>;
}

interface FlowSpec {
  name: string;
  config: WidgetConfigInput;
  fakeOptions?: FakeProviderOptions;
  /** Backend preparation before the first page load; what it returns is handed to the steps. */
  setup?: (s: Session) => Promise<Ctx> | Ctx;
  steps: readonly Step[];
  /** The provider calls a clean run makes, in order: the matrix row. */
  calls: readonly ProviderMethod[];
  /** The card the flow ends on, and its heading. */
  end: { card: string; heading: string };
  /** Whether the flow has to remember something in web storage (email-link session, redirect state). */
  needsStorage: boolean;
}

const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };
const NEW = { email: 'new@example.com', name: 'New Person', password: 'secret99' };
const PHONE = '+12015550123';
const ACTION = { url: `${ORIGIN}/action` };

const ALL: WidgetConfigInput = { signInOptions: ['email', 'google.com', 'github.com', 'phone', 'anonymous'] };
const LINK: WidgetConfigInput = {
  signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }, 'google.com'],
};

const load =
  (options: MountOptions | ((s: Session, ctx: Ctx) => MountOptions) = {}): Step['act'] =>
  (s, ctx) =>
    s.mount(typeof options === 'function' ? options(s, ctx) : options);
const openLink = (to: string, newDevice = false) => load((s) => ({ url: s.lastLink(to), newDevice }));

const chooseEmail: Step = { press: uiText.signInWithEmail };
const enterEmail = (email: string): Step => ({ fill: [[uiText.emailLabel, email]], press: uiText.next });
const enterPassword = (password = ANN.password): Step => ({
  fill: [[uiText.passwordLabel, password]],
  press: uiText.signIn,
});
const signUp: Step = {
  fill: [
    [uiText.nameLabel, NEW.name],
    [uiText.newPasswordLabel, NEW.password],
  ],
  press: uiText.save,
};
const smsCode: Value = (s) => s.fake.backend.outbox.lastSms(PHONE)?.code ?? '';

const SIGNED_IN = { card: 'signedIn', heading: uiText.signedIn };

/** The IdP answers every sign-in (a retry too) with Ann's account there. */
const annAtIdp: FakeIdpHandler = (request) => ({
  sub: `${request.providerId}:ann`,
  email: ANN.email,
});

function actionFlow(
  name: string,
  link: (s: Session, uid: string) => string,
  rest: Pick<FlowSpec, 'calls' | 'end'> & { steps?: readonly Step[] },
): FlowSpec {
  return {
    name,
    config: ALL,
    setup: (s) => ({ link: link(s, s.fake.backend.createUser(ANN)) }),
    steps: [{ act: load((_, ctx) => ({ url: ctx.link ?? '' })) }, ...(rest.steps ?? [])],
    calls: rest.calls,
    end: rest.end,
    needsStorage: false,
  };
}

const FLOWS: readonly FlowSpec[] = [
  {
    name: 'provider chooser → email → password sign-in',
    config: ALL,
    fakeOptions: { users: [ANN] },
    steps: [{ act: load() }, chooseEmail, enterEmail(ANN.email), enterPassword()],
    calls: ['fetchSignInMethodsForEmail', 'signInWithEmailAndPassword'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'password sign-in, then sign out',
    config: ALL,
    fakeOptions: { users: [ANN] },
    steps: [{ act: load() }, chooseEmail, enterEmail(ANN.email), enterPassword(), { press: uiText.signOut }],
    calls: ['fetchSignInMethodsForEmail', 'signInWithEmailAndPassword', 'signOut'],
    end: { card: 'signOut', heading: uiText.signOutTitle },
    needsStorage: false,
  },
  {
    name: 'sign-up',
    config: ALL,
    steps: [{ act: load() }, chooseEmail, enterEmail(NEW.email), signUp],
    calls: ['fetchSignInMethodsForEmail', 'createUser'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'password recovery',
    config: ALL,
    fakeOptions: { users: [ANN] },
    steps: [
      { act: load() },
      chooseEmail,
      enterEmail(ANN.email),
      { press: uiText.troubleSigningIn },
      { fill: [[uiText.emailLabel, ANN.email]], press: uiText.send },
    ],
    calls: ['fetchSignInMethodsForEmail', 'sendPasswordResetEmail'],
    end: { card: 'recoveryEmailSent', heading: uiText.recoveryEmailSentTitle },
    needsStorage: false,
  },
  {
    name: 'combined sign-in (email enumeration protection)',
    config: ALL,
    fakeOptions: { users: [ANN], faults: { enumerationProtection: true } },
    steps: [{ act: load() }, chooseEmail, enterEmail(ANN.email), enterPassword()],
    calls: ['signInWithEmailAndPassword'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'combined sign-up (email enumeration protection)',
    config: ALL,
    fakeOptions: { faults: { enumerationProtection: true } },
    steps: [{ act: load() }, chooseEmail, enterEmail(NEW.email), { press: uiText.createAccount }, signUp],
    calls: ['createUser'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'email → federated sign-in',
    config: ALL,
    fakeOptions: { users: [{ email: ANN.email, federated: { providerId: 'google.com', sub: 'g-ann' } }] },
    setup: (s) => {
      s.fake.backend.idp.queue({ sub: 'g-ann', email: ANN.email });
      return {};
    },
    steps: [{ act: load() }, chooseEmail, enterEmail(ANN.email), { press: uiText.signInWith('Google') }],
    calls: ['fetchSignInMethodsForEmail', 'signInWithFederated'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'federated sign-in by popup',
    config: ALL,
    setup: (s) => {
      s.fake.backend.idp.queue({ sub: 'g-new', email: NEW.email });
      return {};
    },
    steps: [{ act: load() }, { press: uiText.signInWith('Google') }],
    calls: ['signInWithFederated'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'federated sign-in by redirect',
    config: { signInOptions: ['email', 'google.com'], signInFlow: 'redirect' },
    setup: (s) => {
      s.fake.backend.idp.queue({ sub: 'g-new', email: NEW.email });
      return {};
    },
    steps: [{ act: load() }, { press: uiText.signInWith('Google') }, { act: load() }],
    calls: ['signInWithFederated', 'getRedirectResult'],
    end: SIGNED_IN,
    needsStorage: true,
  },
  {
    name: 'anonymous sign-in',
    config: ALL,
    steps: [{ act: load() }, { press: uiText.continueAsGuest }],
    calls: ['signInAnonymously'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'phone start + code',
    config: { signInOptions: ['phone', 'email'] },
    steps: [
      { act: load() },
      { press: uiText.signInWithPhone },
      { fill: [[uiText.phoneLabel, '(201) 555-0123']], press: uiText.verify },
      { fill: [[uiText.codeLabel, smsCode]], press: uiText.verify },
    ],
    calls: ['startPhoneSignIn', 'confirmPhoneCode'],
    end: { card: 'signedIn', heading: uiText.verified },
    needsStorage: false,
  },
  {
    name: 'phone start, resend code, code',
    config: { signInOptions: ['phone', 'email'] },
    steps: [
      { act: load() },
      { press: uiText.signInWithPhone },
      { fill: [[uiText.phoneLabel, '(201) 555-0123']], press: uiText.verify },
      { act: (s) => s.advance(15_000) },
      { press: uiText.resend },
      { fill: [[uiText.codeLabel, smsCode]], press: uiText.verify },
    ],
    calls: ['startPhoneSignIn', 'startPhoneSignIn', 'confirmPhoneCode'],
    end: { card: 'signedIn', heading: uiText.verified },
    needsStorage: false,
  },
  {
    name: 'email link: send, complete on the same device',
    config: LINK,
    steps: [{ act: load() }, chooseEmail, enterEmail(ANN.email), { act: openLink(ANN.email) }],
    calls: ['fetchSignInMethodsForEmail', 'sendSignInLinkToEmail', 'signInWithEmailLink'],
    end: SIGNED_IN,
    needsStorage: true,
  },
  {
    name: 'email link: send, resend, complete',
    config: LINK,
    steps: [
      { act: load() },
      chooseEmail,
      enterEmail(ANN.email),
      { press: uiText.troubleGettingEmail },
      { press: uiText.resendEmail },
      { act: openLink(ANN.email) },
    ],
    calls: [
      'fetchSignInMethodsForEmail',
      'sendSignInLinkToEmail',
      'sendSignInLinkToEmail',
      'signInWithEmailLink',
    ],
    end: SIGNED_IN,
    needsStorage: true,
  },
  {
    name: 'email link: send, complete on another device',
    config: LINK,
    steps: [
      { act: load() },
      chooseEmail,
      enterEmail(ANN.email),
      { act: openLink(ANN.email, true) },
      enterEmail(ANN.email),
    ],
    calls: ['fetchSignInMethodsForEmail', 'sendSignInLinkToEmail', 'signInWithEmailLink'],
    end: SIGNED_IN,
    needsStorage: true,
  },
  {
    name: 'linking: federated account exists, password sign-in links it',
    config: ALL,
    fakeOptions: { users: [ANN], idp: annAtIdp },
    steps: [{ act: load() }, { press: uiText.signInWith('Google') }, enterPassword()],
    calls: [
      'signInWithFederated',
      'fetchSignInMethodsForEmail',
      'signInWithEmailAndPassword',
      'linkWithCredential',
    ],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'linking: another identity provider links it',
    config: ALL,
    fakeOptions: {
      users: [{ email: ANN.email, federated: { providerId: 'github.com', sub: 'github.com:ann' } }],
      idp: annAtIdp,
    },
    steps: [{ act: load() }, { press: uiText.signInWith('Google') }, { press: uiText.signInWith('GitHub') }],
    calls: ['signInWithFederated', 'fetchSignInMethodsForEmail', 'signInWithFederated', 'linkWithCredential'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'linking: an email link links it',
    config: LINK,
    fakeOptions: { users: [{ email: ANN.email, emailLink: true }], idp: annAtIdp },
    steps: [
      { act: load() },
      { press: uiText.signInWith('Google') },
      { press: uiText.sendLink },
      { act: openLink(ANN.email) },
    ],
    calls: [
      'signInWithFederated',
      'fetchSignInMethodsForEmail',
      'sendSignInLinkToEmail',
      'signInWithEmailLink',
      'linkWithCredential',
    ],
    end: SIGNED_IN,
    needsStorage: true,
  },
  {
    name: 'anonymous upgrade by sign-up',
    config: { signInOptions: ['email'], autoUpgradeAnonymousUsers: true },
    setup: async (s) => {
      await s.fake.signInAnonymously();
      return {};
    },
    steps: [{ act: load() }, enterEmail(NEW.email), signUp],
    calls: ['fetchSignInMethodsForEmail', 'linkWithCredential'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'sign-out page',
    config: ALL,
    setup: async (s) => {
      await s.fake.signInAnonymously();
      return {};
    },
    steps: [{ act: load({ signOut: true }) }],
    calls: ['signOut'],
    end: { card: 'signOut', heading: uiText.signOutTitle },
    needsStorage: false,
  },
  actionFlow('action code: resetPassword', (s, uid) => s.fake.backend.sendPasswordReset(uid, ACTION).link, {
    steps: [{ fill: [[uiText.newPasswordLabel, 'n3w-secret']], press: uiText.save }],
    calls: ['setTenant', 'verifyPasswordResetCode', 'confirmPasswordReset'],
    end: { card: 'passwordResetSuccess', heading: uiText.passwordResetSuccessTitle },
  }),
  actionFlow('action code: verifyEmail', (s, uid) => s.fake.backend.sendVerificationEmail(uid, ACTION).link, {
    calls: ['setTenant', 'applyActionCode'],
    end: { card: 'emailVerificationSuccess', heading: uiText.emailVerificationSuccessTitle },
  }),
  actionFlow(
    'action code: verifyAndChangeEmail',
    (s, uid) => s.fake.backend.verifyAndChangeEmail(uid, 'ann.new@example.com', ACTION).link,
    {
      calls: ['setTenant', 'checkActionCode', 'applyActionCode'],
      end: { card: 'verifyAndChangeEmailSuccess', heading: uiText.verifyAndChangeEmailSuccessTitle },
    },
  ),
  actionFlow(
    'action code: recoverEmail, then reset the password',
    (s, uid) => s.fake.backend.changeEmail(uid, 'ann.new@example.com', ACTION).link,
    {
      steps: [{ press: uiText.resetPasswordAction }],
      calls: ['setTenant', 'checkActionCode', 'applyActionCode', 'sendPasswordResetEmail'],
      end: { card: 'recoveryEmailSent', heading: uiText.recoveryEmailSentTitle },
    },
  ),
  actionFlow(
    'action code: revertSecondFactorAddition, then reset the password',
    (s, uid) => s.fake.backend.addSecondFactor(uid, '+12015550199', ACTION).link,
    {
      steps: [{ press: uiText.resetPasswordAction }],
      calls: ['setTenant', 'checkActionCode', 'applyActionCode', 'sendPasswordResetEmail'],
      end: { card: 'recoveryEmailSent', heading: uiText.recoveryEmailSentTitle },
    },
  ),
  {
    name: 'tenants: option-first tenant choice → email → password',
    config: {
      signInOptions: ['email'],
      tenants: [
        { id: null, displayName: 'Everyone' },
        { id: 'acme', displayName: 'Acme' },
      ],
    },
    fakeOptions: { users: [{ ...ANN, tenantId: 'acme' }] },
    steps: [{ act: load() }, { press: 'Acme' }, enterEmail(ANN.email), enterPassword()],
    calls: ['setTenant', 'fetchSignInMethodsForEmail', 'signInWithEmailAndPassword'],
    end: SIGNED_IN,
    needsStorage: false,
  },
  {
    name: 'tenants: identifier-first tenant from the email domain',
    config: {
      displayMode: 'identifierFirst',
      signInOptions: ['email'],
      tenants: [
        { id: 'acme', displayName: 'Acme', emailDomains: ['acme.com'] },
        { id: null, displayName: 'Everyone' },
      ],
    },
    fakeOptions: { users: [{ email: 'ann@acme.com', password: ANN.password, tenantId: 'acme' }] },
    steps: [{ act: load() }, enterEmail('ann@acme.com'), enterPassword()],
    calls: ['setTenant', 'fetchSignInMethodsForEmail', 'signInWithEmailAndPassword'],
    end: SIGNED_IN,
    needsStorage: false,
  },
];

/** Every provider method: `null` when some flow must call it, else why the widget never does. */
const NOT_CALLED: Record<ProviderMethod, string | null> = {
  setTenant: null,
  fetchSignInMethodsForEmail: null,
  signInWithEmailAndPassword: null,
  createUser: null,
  signInWithCredential:
    'the widget never calls it: pending credentials are linked with linkWithCredential after sign-in',
  signInWithFederated: null,
  getRedirectResult: null,
  signInAnonymously: null,
  startPhoneSignIn: null,
  confirmPhoneCode: null,
  sendSignInLinkToEmail: null,
  signInWithEmailLink: null,
  sendPasswordResetEmail: null,
  verifyPasswordResetCode: null,
  confirmPasswordReset: null,
  checkActionCode: null,
  applyActionCode: null,
  linkWithCredential: null,
  signOut: null,
};

/** The spec's rate-limit code for a call (the fake's documented mapping). */
function rateLimitCode(method: ProviderMethod): ErrorCode {
  if (method === 'createUser') return 'sign-up-too-many-requests';
  if (method === 'startPhoneSignIn') return 'phone-too-many-requests';
  return 'too-many-requests';
}

const FAULTS = {
  network: (_: ProviderMethod): ErrorCode => 'network-request-failed',
  'rate limit': rateLimitCode,
} as const;

/** A matrix cell: the nth call (1-based) of `method` in the flow's clean run. */
interface Cell {
  method: ProviderMethod;
  nth: number;
}

function cellsOf(flow: FlowSpec): Cell[] {
  const seen = new Map<ProviderMethod, number>();
  return flow.calls.map((method) => {
    const nth = (seen.get(method) ?? 0) + 1;
    seen.set(method, nth);
    return { method, nth };
  });
}

async function start(flow: FlowSpec, createStorage?: () => KeyValueStorage | null) {
  const s = createSession({
    config: flow.config,
    ...(flow.fakeOptions ? { fakeOptions: flow.fakeOptions } : {}),
    ...(createStorage ? { createStorage } : {}),
  });
  const ctx = (await flow.setup?.(s)) ?? {};
  return { s, ctx };
}

async function doStep(s: Session, ctx: Ctx, step: Step): Promise<(readonly [string, string])[]> {
  const filled = (step.fill ?? []).map(
    ([label, value]) => [label, typeof value === 'function' ? value(s, ctx) : value] as const,
  );
  for (const [label, value] of filled) await s.fill(label, value);
  if (step.press !== undefined) await s.press(step.press);
  if (step.act) await step.act(s, ctx);
  return filled;
}

function expectEnd(s: Session, flow: FlowSpec): void {
  expect(s.card()).toBe(flow.end.card);
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(flow.end.heading);
}

describe.each(FLOWS)('fault matrix: $name', (flow) => {
  it('a clean run makes exactly the declared calls (one matrix cell each)', async () => {
    const { s, ctx } = await start(flow);
    for (const step of flow.steps) await doStep(s, ctx, step);
    expectEnd(s, flow);
    expect(s.log.map((c) => c.method)).toEqual(flow.calls);
    expect(s.log.every((c) => c.settled)).toBe(true);
  });

  for (const [kind, codeFor] of Object.entries(FAULTS)) {
    it.each(cellsOf(flow))(
      `${kind} at $method #$nth: message shown, input kept, a retry completes`,
      async ({ method, nth }) => {
        const code = codeFor(method);
        const { s, ctx } = await start(flow);
        s.fake.backend.faults.failNth(method, nth, code);
        const failed = () => s.log.filter((c) => c.method === method)[nth - 1]?.error === code;
        let shown = false;
        for (const step of flow.steps) {
          const filled = await doStep(s, ctx, step);
          if (shown || !failed()) continue;
          shown = true;
          expect(s.visibleText()).toContain(messageFor(code));
          for (const [label, value] of filled) expect((await s.field(label)).value).toBe(value);
          if (s.card() === 'recoverableError') await s.press(uiText.retry);
          else if (step.press !== undefined) await s.press(step.press);
          else throw new Error(`no way to retry on the ${s.card()} card`);
        }
        expect(shown).toBe(true);
        expectEnd(s, flow);
      },
    );
  }
});

const STORAGE_FAULTS: Record<string, () => KeyValueStorage> = {
  'storage denied (every access throws)': () => {
    const deny = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    return { getItem: deny, setItem: deny, removeItem: deny };
  },
  'storage full (writes throw)': () => {
    const memory = createMemoryStorage();
    return {
      getItem: (key) => memory.getItem(key),
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: (key) => memory.removeItem(key),
    };
  },
};

describe.each(Object.entries(STORAGE_FAULTS))('%s', (_, createStorage) => {
  it.each(FLOWS)(
    '$name: web storage unsupported card where storage is needed, else completes',
    async (flow) => {
      const { s, ctx } = await start(flow, createStorage);
      for (const step of flow.steps) {
        await doStep(s, ctx, step);
        if (s.card() === 'unrecoverableError') break;
      }
      const made = s.log.map((c) => c.method);
      if (flow.needsStorage) {
        expect(s.card()).toBe('unrecoverableError');
        expect(s.visibleText()).toContain(messageFor('web-storage-unsupported'));
        // It stops before the call that needed the storage.
        expect(made.length).toBeLessThan(flow.calls.length);
        expect(flow.calls.slice(0, made.length)).toEqual(made);
      } else {
        expectEnd(s, flow);
        expect(made).toEqual(flow.calls);
      }
    },
  );
});

describe('fault matrix coverage', () => {
  it('every provider method is a cell of some flow, or is listed with the reason no flow calls it', () => {
    const called = new Set(FLOWS.flatMap((f) => f.calls));
    const missing = Object.entries(NOT_CALLED)
      .filter(([method, reason]) => reason === null && !called.has(method as ProviderMethod))
      .map(([method]) => method);
    expect(missing).toEqual([]);
    const listedButCalled = Object.entries(NOT_CALLED)
      .filter(([method, reason]) => reason !== null && called.has(method as ProviderMethod))
      .map(([method]) => method);
    expect(listedButCalled).toEqual([]);
  });

  it('the matrix has a cell per declared call for each fault kind', () => {
    const cells = FLOWS.flatMap((f) => cellsOf(f).map((c) => `${f.name} / ${c.method} #${c.nth}`));
    expect(new Set(cells).size).toBe(FLOWS.reduce((n, f) => n + f.calls.length, 0));
  });
});
