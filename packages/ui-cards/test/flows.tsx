/**
 * The flows the fake provider supports, as a person goes through them on the real `<SignInWidget>`: the
 * steps (fill fields by label, press buttons by name, load pages), the provider calls a clean run makes,
 * and the card each ends on. Shared by the fault matrix and the double-submit tests.
 */
import type { FakeIdpHandler, FakeProviderOptions, ProviderMethod } from '@doorway/adapter-fake';
import { type KeyValueStorage, uiText, type WidgetConfigInput } from '@doorway/auth-core';
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import { ORIGIN } from './harness.tsx';
import { createSession, type MountOptions, type Session } from './session.tsx';

export type Ctx = Record<string, string>;
type Value = string | ((s: Session, ctx: Ctx) => string);

/** One thing a person does: fill fields, then press a button and/or something else (load a page). */
export interface Step {
  fill?: readonly (readonly [label: string, value: Value])[];
  /** The button that sends this step; pressed again to retry it. */
  press?: string;
  act?: (s: Session, ctx: Ctx) => Promise<void>;
}

export interface FlowSpec {
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

export const FLOWS: readonly FlowSpec[] = [
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

/** A session for the flow, before its first page load; `extra` adds fake options (e.g. a `sleep`). */
export async function start(
  flow: FlowSpec,
  createStorage?: () => KeyValueStorage | null | undefined,
  extra: FakeProviderOptions = {},
) {
  const s = createSession({
    config: flow.config,
    fakeOptions: { ...flow.fakeOptions, ...extra },
    ...(createStorage ? { createStorage } : {}),
  });
  const ctx = (await flow.setup?.(s)) ?? {};
  return { s, ctx };
}

/** The step's field values, resolved for this session. */
export function valuesOf(s: Session, ctx: Ctx, step: Step): (readonly [string, string])[] {
  return (step.fill ?? []).map(
    ([label, value]) => [label, typeof value === 'function' ? value(s, ctx) : value] as const,
  );
}

export async function doStep(s: Session, ctx: Ctx, step: Step): Promise<(readonly [string, string])[]> {
  const filled = valuesOf(s, ctx, step);
  for (const [label, value] of filled) await s.fill(label, value);
  if (step.press !== undefined) await s.press(step.press);
  if (step.act) await step.act(s, ctx);
  return filled;
}

export function expectEnd(s: Session, flow: FlowSpec): void {
  expect(s.card()).toBe(flow.end.card);
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(flow.end.heading);
}
