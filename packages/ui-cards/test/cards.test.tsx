/**
 * Every card of spec §2, rendered on a real flow over the fake provider: its catalogue text, the spec's
 * validation messages (§5), the event it sends, and an axe-core check. `cases` is a record over every card
 * name, so a card without a test does not compile.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import {
  CARDS,
  type CardName,
  createMemoryStorage,
  uiText,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UiEvent } from '../src/index.ts';
import { expectNoAxeViolations, type Opened, ORIGIN, open, renderFlow, settle } from './harness.tsx';

const ALL: WidgetConfigInput = {
  signInOptions: ['email', 'google.com', 'github.com', 'phone', 'anonymous'],
  tosUrl: '/terms',
  privacyPolicyUrl: '/privacy',
};
const LINK: WidgetConfigInput = {
  signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }, 'google.com'],
};
const ACTION = { url: `${ORIGIN}/action` };
const ANN = { email: 'ann@example.com', password: 'abc123', displayName: 'Ann' };

type View = ReturnType<typeof renderFlow>;

function heading(name: string) {
  return screen.getByRole('heading', { level: 1, name });
}

function button(name: string | RegExp) {
  return screen.getByRole('button', { name });
}

/** The field with this label shows `message`, marked invalid and linked by aria-describedby. */
function expectFieldError(label: string, message: string) {
  const input = screen.getByLabelText(label);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const described = (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);
  expect(described).toContain(message);
}

function cardOf(view: View): string | undefined {
  return view.container.querySelector<HTMLElement>('[data-card]')?.dataset.card;
}

async function atEmail(input: WidgetConfigInput = ALL, users = [ANN]): Promise<Opened> {
  const o = await open(input, { fakeOptions: { users } });
  if (o.card() === 'providerChooser') await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  expect(o.card()).toBe('emailEntry');
  return o;
}

async function atPasswordSignIn(): Promise<Opened> {
  const o = await atEmail();
  await o.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
  return o;
}

async function atEmailLinkSent(input = LINK, storage = createMemoryStorage(), fake = createFakeProvider()) {
  const o = await open(input, { storage, fake });
  if (o.card() === 'providerChooser') await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  await o.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
  expect(o.card()).toBe('emailLinkSent');
  return o;
}

function lastLink(o: Opened, to = ANN.email): string {
  const mail = o.fake.backend.outbox.lastEmail(to);
  if (!mail) throw new Error(`no email to ${to}`);
  return mail.link;
}

async function atAction(make: (o: Opened, uid: string) => string): Promise<Opened> {
  const fake = createFakeProvider();
  const uid = fake.backend.createUser(ANN);
  const first = await open(ALL, { fake });
  first.flow.dispose();
  return open(ALL, { fake, url: make(first, uid) });
}

async function atLinking(
  existing: Parameters<ReturnType<typeof createFakeProvider>['backend']['createUser']>[0],
  input = ALL,
) {
  const fake = createFakeProvider();
  fake.backend.createUser(existing);
  const o = await open(input, { fake });
  fake.backend.idp.queue({ sub: 'g-ann', email: ANN.email });
  await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
  return o;
}

/** Ada has two second factors: a phone and an authenticator app. */
const ADA = {
  email: 'ada@example.com',
  password: 'secret1',
  secondFactors: [
    { kind: 'phone', phoneNumber: '+15555550100', displayName: 'Work phone' },
    { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP', displayName: 'Phone app' },
  ],
} as const;

/** Ada's password was right: the chooser of her second factors. */
async function atSecondFactorChooser(): Promise<Opened> {
  const o = await atEmail(ALL, [ADA as unknown as typeof ANN]);
  await o.send({ type: 'SUBMIT_EMAIL', email: ADA.email });
  await o.send({ type: 'SUBMIT_PASSWORD', password: ADA.password });
  expect(o.card()).toBe('secondFactorChooser');
  return o;
}

/** The uid of Ada's factor of `kind` in the challenge on the card. */
function factorOf(o: Opened, kind: 'phone' | 'totp'): string {
  const state = o.flow.getSnapshot();
  if (!('challenge' in state)) throw new Error(`no challenge on ${state.card}`);
  const factor = state.challenge.factors.find((f) => f.kind === kind);
  if (!factor) throw new Error(`no ${kind} factor`);
  return factor.uid;
}

const bogus = (mode: string) => `${ORIGIN}/action?mode=${mode}&oobCode=not-a-real-code`;

async function atPhoneCode(): Promise<Opened> {
  const o = await open({ signInOptions: ['phone', 'email'] }, { fakeOptions: {} });
  await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
  const verifier = o.fake.createCaptchaVerifier(null);
  await o.send({
    type: 'SUBMIT_PHONE',
    phoneNumber: '+12015550123',
    country: 'US',
    captchaSolved: true,
    verifier,
  });
  expect(o.card()).toBe('phoneCode');
  return o;
}

/** Checks a card whose only action is a button sending `event` and leading to `next`. */
async function clickThrough(o: Opened, view: View, label: string, event: UiEvent, next: CardName) {
  await view.user.click(button(label));
  await settle();
  expect(view.last()).toEqual(event);
  expect(o.card()).toBe(next);
}

const cases: Record<CardName, () => Promise<void>> = {
  async providerChooser() {
    const o = await open(ALL);
    const view = renderFlow(o);
    heading(uiText.providerChooserTitle);
    for (const name of [
      'Sign in with email',
      'Sign in with Google',
      'Sign in with GitHub',
      'Sign in with phone',
    ]) {
      expect(button(name)).toBeTruthy();
    }
    expect(button('Continue as guest')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    await expectNoAxeViolations(view.container);
    await clickThrough(
      o,
      view,
      'Sign in with email',
      { type: 'CHOOSE_PROVIDER', providerId: 'email' },
      'emailEntry',
    );
  },

  async emailEntry() {
    const o = await atEmail();
    const view = renderFlow(o);
    heading(uiText.emailEntryTitle);
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    await view.user.click(button('Next'));
    expectFieldError('Email', 'Enter your email address to continue');
    await view.user.type(email, 'not-an-email');
    await view.user.click(button('Next'));
    expectFieldError('Email', "That email address isn't correct");
    await expectNoAxeViolations(view.container);
    await view.user.clear(email);
    await view.user.type(email, 'new@example.com{Enter}');
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    expect(o.card()).toBe('passwordSignUp');
  },

  async passwordSignIn() {
    const o = await atPasswordSignIn();
    const view = renderFlow(o);
    heading(uiText.passwordSignInTitle);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(ANN.email);
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    await view.user.click(button('Sign in'));
    expectFieldError('Password', 'Enter your password');
    await view.user.type(password, 'wrong-one{Enter}');
    await settle();
    expectFieldError('Password', "The email and password you entered don't match");
    await expectNoAxeViolations(view.container);
    await view.user.clear(password);
    await view.user.type(password, `${ANN.password}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_PASSWORD', password: ANN.password });
    expect(o.card()).toBe('signedIn');
    heading('Signed in!');
  },

  async passwordSignUp() {
    const o = await atEmail();
    await o.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    const view = renderFlow(o);
    heading(uiText.passwordSignUpTitle);
    expect(screen.getByLabelText('Email').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByLabelText(uiText.nameLabel).getAttribute('autocomplete')).toBe('name');
    const password = screen.getByLabelText(uiText.newPasswordLabel);
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByText(uiText.passwordHint)).toBeTruthy();
    await view.user.click(button('Save'));
    expectFieldError(uiText.nameLabel, 'Enter your account name');
    await view.user.type(screen.getByLabelText(uiText.nameLabel), 'New Person');
    await view.user.click(button('Save'));
    expectFieldError(uiText.newPasswordLabel, 'Enter your password');
    await expectNoAxeViolations(view.container);
    await view.user.type(password, 'secret99{Enter}');
    await settle();
    expect(view.last()).toEqual({
      type: 'SUBMIT_SIGN_UP',
      email: 'new@example.com',
      name: 'New Person',
      password: 'secret99',
    });
    expect(o.card()).toBe('signedIn');
    expect(o.fake.backend.findUserByEmail('new@example.com')?.displayName).toBe('New Person');
  },

  async passwordRecovery() {
    const o = await atPasswordSignIn();
    const view = renderFlow(o);
    await clickThrough(o, view, 'Trouble signing in?', { type: 'GO_TO_RECOVERY' }, 'passwordRecovery');
    heading(uiText.passwordRecoveryTitle);
    screen.getByText(uiText.passwordRecoveryText);
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe(ANN.email);
    await view.user.clear(email);
    await view.user.click(button('Send'));
    expectFieldError('Email', 'Enter your email address to continue');
    await expectNoAxeViolations(view.container);
    await view.user.type(email, `${ANN.email}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_RECOVERY', email: ANN.email });
    expect(o.card()).toBe('recoveryEmailSent');
    expect(o.fake.backend.outbox.lastEmail(ANN.email, 'resetPassword')).not.toBeNull();
  },

  async recoveryEmailSent() {
    const o = await atPasswordSignIn();
    await o.send({ type: 'GO_TO_RECOVERY' });
    await o.send({ type: 'SUBMIT_RECOVERY', email: ANN.email });
    const view = renderFlow(o);
    heading(uiText.recoveryEmailSentTitle);
    screen.getByText(uiText.recoveryEmailSentText(ANN.email));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Done', { type: 'CONTINUE' }, 'passwordSignIn');
  },

  async phoneEntry() {
    const o = await open({ signInOptions: ['email', { provider: 'phone', allowedCountries: ['US', 'CA'] }] });
    await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    const view = renderFlow(o);
    heading(uiText.phoneEntryTitle);
    const country = (await screen.findByLabelText('Country')) as HTMLSelectElement;
    expect([...country.options].map((op) => op.value).sort()).toEqual(['CA', 'US']);
    expect(country.value).toBe('US');
    const phone = screen.getByLabelText('Phone number');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
    await view.user.type(phone, '+44 7700 900123{Enter}');
    await settle();
    expectFieldError('Country', 'The country code provided is not supported.');
    o.fake.backend.captcha.autoSolve = false;
    await view.user.clear(phone);
    await view.user.type(phone, '(201) 555-0123{Enter}');
    await settle();
    expect(screen.getAllByText('Solve the reCAPTCHA').length).toBeGreaterThan(0);
    await expectNoAxeViolations(view.container);
    o.fake.backend.captcha.solve();
    await view.user.click(button('Verify'));
    await settle();
    expect(view.last()).toMatchObject({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+12015550123',
      country: 'US',
      captchaSolved: true,
    });
    expect(o.card()).toBe('phoneCode');
    expect(o.fake.backend.outbox.lastSms('+12015550123')).not.toBeNull();
  },

  async phoneCode() {
    const o = await atPhoneCode();
    const view = renderFlow(o);
    heading(uiText.phoneCodeTitle);
    screen.getByText(uiText.phoneCodeText('+12015550123'));
    const code = screen.getByLabelText(uiText.codeLabel);
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    screen.getByText('Resend code in 0:15');
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
    await view.user.type(code, '123{Enter}');
    expectFieldError(uiText.codeLabel, 'Wrong code. Try again.');
    const sms = o.fake.backend.outbox.lastSms('+12015550123');
    const wrong = sms?.code === '000000' ? '111111' : '000000';
    await view.user.clear(code);
    await view.user.type(code, `${wrong}{Enter}`);
    await settle();
    expectFieldError(uiText.codeLabel, 'Wrong code. Try again.');
    await expectNoAxeViolations(view.container);
    await settle();
    o.clock.advance(14_000);
    await settle();
    screen.getByText('Resend code in 0:01');
    o.clock.advance(1000);
    await settle();
    await clickThrough(o, view, 'Resend', { type: 'RESEND_CODE' }, 'phoneCode');
    expect(o.fake.backend.outbox.sms).toHaveLength(2);
    const fresh = o.fake.backend.outbox.lastSms('+12015550123')?.code ?? '';
    await view.user.clear(screen.getByLabelText(uiText.codeLabel));
    await view.user.type(screen.getByLabelText(uiText.codeLabel), `${fresh}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_CODE', code: fresh });
    expect(o.card()).toBe('signedIn');
    heading('Verified!');
  },

  async emailLinkSent() {
    const o = await atEmailLinkSent();
    const view = renderFlow(o);
    heading(uiText.emailLinkSentTitle);
    screen.getByText(uiText.emailLinkSentText(ANN.email));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Trouble getting email?', { type: 'EMAIL_NOT_RECEIVED' }, 'emailNotReceived');
  },

  async emailNotReceived() {
    const o = await atEmailLinkSent();
    await o.send({ type: 'EMAIL_NOT_RECEIVED' });
    const view = renderFlow(o);
    heading(uiText.emailNotReceivedTitle);
    screen.getByText(uiText.emailNotReceivedText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Resend', { type: 'RESEND_EMAIL' }, 'emailLinkSent');
    expect(o.fake.backend.outbox.emails).toHaveLength(2);
  },

  async emailLinkConfirmation() {
    const a = await atEmailLinkSent();
    const o = await open(LINK, { fake: a.fake, url: lastLink(a), storage: createMemoryStorage() });
    const view = renderFlow(o);
    heading(uiText.emailLinkConfirmationTitle);
    screen.getByText(uiText.emailLinkConfirmationText);
    await view.user.click(button('Next'));
    expectFieldError('Email', 'Enter your email address to continue');
    await expectNoAxeViolations(view.container);
    await view.user.type(screen.getByLabelText('Email'), `${ANN.email}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'CONFIRM_EMAIL', email: ANN.email });
    expect(o.card()).toBe('signedIn');
  },

  async federatedSignIn() {
    const o = await atEmail(ALL, [
      { email: ANN.email, federated: { providerId: 'google.com', sub: 'g-ann' } },
    ] as never);
    await o.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    const view = renderFlow(o);
    heading(uiText.federatedSignInTitle);
    screen.getByText(uiText.federatedSignInText(ANN.email, 'Google'));
    await expectNoAxeViolations(view.container);
    o.fake.backend.idp.queue({ sub: 'g-ann', email: ANN.email });
    await clickThrough(o, view, 'Sign in with Google', { type: 'SIGN_IN_FEDERATED' }, 'signedIn');
  },

  async passwordLinking() {
    const o = await atLinking(ANN);
    const view = renderFlow(o);
    heading(uiText.linkingTitle);
    screen.getByText(uiText.passwordLinkingText(ANN.email, 'Google'));
    await view.user.click(button('Sign in'));
    expectFieldError('Password', 'Enter your password');
    await expectNoAxeViolations(view.container);
    await view.user.type(screen.getByLabelText('Password'), `${ANN.password}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_PASSWORD', password: ANN.password });
    expect(o.card()).toBe('signedIn');
    expect(o.fake.backend.findUserByEmail(ANN.email)?.providerIds).toEqual(['password', 'google.com']);
  },

  async federatedLinking() {
    const o = await atLinking({ email: ANN.email, federated: { providerId: 'github.com', sub: 'gh-ann' } });
    const view = renderFlow(o);
    heading(uiText.linkingTitle);
    screen.getByText(uiText.federatedLinkingText(ANN.email, 'GitHub', 'Google'));
    await expectNoAxeViolations(view.container);
    o.fake.backend.idp.queue({ sub: 'gh-ann', email: ANN.email });
    await clickThrough(o, view, 'Sign in with GitHub', { type: 'SIGN_IN_FEDERATED' }, 'signedIn');
  },

  async emailLinkLinking() {
    const o = await atLinking({ email: ANN.email, emailLink: true }, LINK);
    const view = renderFlow(o);
    heading(uiText.linkingTitle);
    screen.getByText(uiText.emailLinkLinkingText(ANN.email, 'Google'));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Send sign-in link', { type: 'SEND_LINKING_EMAIL' }, 'emailLinkSent');
  },

  async unsupportedProvider() {
    const o = await atEmail(ALL, [
      { email: ANN.email, federated: { providerId: 'facebook.com', sub: 'f' } },
    ] as never);
    await o.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    const view = renderFlow(o);
    heading(uiText.unsupportedProviderTitle);
    screen.getByText(uiText.unsupportedProviderText(ANN.email));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Back', { type: 'CANCEL' }, 'providerChooser');
  },

  async unauthorizedUser() {
    const input: WidgetConfigInput = {
      signInOptions: [
        { provider: 'email', disableSignUp: { adminEmail: 'admin@example.com', helpLink: '/help' } },
        'phone',
      ],
    };
    const o = await atEmail(input);
    await o.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    const view = renderFlow(o);
    heading(uiText.unauthorizedUserTitle);
    screen.getByText(uiText.unauthorizedUserText('new@example.com'));
    expect(screen.getByRole('link', { name: 'admin@example.com' }).getAttribute('href')).toBe(
      'mailto:admin@example.com',
    );
    expect(screen.getByRole('link', { name: uiText.learnMore }).getAttribute('href')).toBe('/help');
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Back', { type: 'CANCEL' }, 'providerChooser');
  },

  async emailMismatch() {
    const users = [
      { email: ANN.email, federated: { providerId: 'google.com', sub: 'g-ann' } },
      { email: 'bob@example.com', federated: { providerId: 'google.com', sub: 'g-bob' } },
    ];
    const o = await atEmail(ALL, users as never);
    await o.send({ type: 'SUBMIT_EMAIL', email: ANN.email });
    o.fake.backend.idp.queue({ sub: 'g-bob', email: 'bob@example.com' });
    await o.send({ type: 'SIGN_IN_FEDERATED' });
    const view = renderFlow(o);
    heading(uiText.emailMismatchTitle);
    screen.getByText(uiText.emailMismatchText(ANN.email, 'bob@example.com'));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Continue', { type: 'CONTINUE' }, 'signedIn');
  },

  async anonymousUserMismatch() {
    const input: WidgetConfigInput = { ...LINK, autoUpgradeAnonymousUsers: true };
    const fake = createFakeProvider();
    await fake.signInAnonymously();
    const storage = createMemoryStorage();
    const a = await atEmailLinkSent(input, storage, fake);
    a.flow.dispose();
    await fake.signOut();
    await fake.signInAnonymously();
    const o = await open(input, { fake, url: lastLink(a), storage });
    const view = renderFlow(o);
    heading(uiText.anonymousUserMismatchTitle);
    screen.getByText(uiText.anonymousUserMismatchText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Start over', { type: 'CANCEL' }, 'providerChooser');
  },

  async differentDeviceError() {
    const input: WidgetConfigInput = {
      signInOptions: [{ provider: 'email', signInMethod: 'emailLink', forceSameDevice: true }, 'google.com'],
    };
    const a = await atEmailLinkSent(input);
    const o = await open(input, { fake: a.fake, url: lastLink(a), storage: createMemoryStorage() });
    const view = renderFlow(o);
    heading(uiText.differentDeviceErrorTitle);
    screen.getByText(uiText.differentDeviceErrorText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Start over', { type: 'CANCEL' }, 'providerChooser');
  },

  async sessionEnded() {
    const storage = createMemoryStorage();
    const a = await atEmailLinkSent(LINK, storage);
    a.clock.advance(3600 * 1000 + 1);
    const o = await open(LINK, { fake: a.fake, url: lastLink(a), storage, clock: a.clock });
    const view = renderFlow(o);
    heading(uiText.sessionEndedTitle);
    screen.getByText(uiText.sessionEndedText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Start over', { type: 'CANCEL' }, 'providerChooser');
  },

  async secondFactorChooser() {
    const o = await atSecondFactorChooser();
    const view = renderFlow(o);
    heading(uiText.secondFactorChooserTitle);
    screen.getByText(uiText.secondFactorChooserText);
    // The phone number as the provider masks it, never in full.
    button(uiText.secondFactorPhoneOption('+*******0100'));
    expect(screen.queryByText(/5555550100/)).toBeNull();
    await expectNoAxeViolations(view.container);
    const totp = factorOf(o, 'totp');
    await view.user.click(button(uiText.secondFactorTotpOption('Phone app')));
    await settle();
    expect(view.last()).toEqual({ type: 'CHOOSE_SECOND_FACTOR', factorUid: totp });
    expect(o.card()).toBe('secondFactorCode');
  },

  async secondFactorPhone() {
    const o = await atSecondFactorChooser();
    await o.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorOf(o, 'phone') });
    expect(o.card()).toBe('secondFactorPhone');
    const view = renderFlow(o);
    heading(uiText.secondFactorPhoneTitle);
    screen.getByText(uiText.secondFactorPhoneText('+*******0100'));
    await expectNoAxeViolations(view.container);
    await view.user.click(button(uiText.sendCode));
    await settle();
    // The fake's captcha is solved once rendered: the code is texted.
    expect(view.last()).toMatchObject({ type: 'SEND_SECOND_FACTOR_SMS', captchaSolved: true });
    expect(o.card()).toBe('secondFactorCode');
    expect(o.fake.backend.outbox.lastSms('+15555550100')).not.toBeNull();
    await clickThrough(o, view, 'Cancel', { type: 'CANCEL' }, 'providerChooser');
    expect(o.fake.getCurrentUser()).toBeNull();
  },

  async secondFactorCode() {
    const o = await atSecondFactorChooser();
    await o.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factorOf(o, 'totp') });
    const view = renderFlow(o);
    heading(uiText.secondFactorCodeTitle);
    screen.getByText(uiText.secondFactorTotpText);
    const code = screen.getByLabelText(uiText.codeLabel);
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    // An authenticator app has nothing to resend.
    expect(screen.queryByText(/Resend/)).toBeNull();
    await view.user.type(code, '12{Enter}');
    expectFieldError(uiText.codeLabel, 'Wrong code. Try again.');
    await expectNoAxeViolations(view.container);
    const uid = o.fake.backend.findUserByEmail(ADA.email)?.uid ?? '';
    const right = o.fake.backend.totpCode(uid) ?? '';
    const wrong = right === '000000' ? '111111' : '000000';
    await view.user.clear(code);
    await view.user.type(code, `${wrong}{Enter}`);
    await settle();
    expect(o.card()).toBe('secondFactorCode');
    expectFieldError(uiText.codeLabel, 'Wrong code. Try again.');
    expect(o.fake.getCurrentUser()).toBeNull();
    await view.user.clear(code);
    await view.user.type(code, `${right}{Enter}`);
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: right });
    expect(o.card()).toBe('signedIn');
    heading('Signed in!');
    expect(o.fake.getCurrentUser()?.uid).toBe(uid);
  },

  async passwordReset() {
    const o = await atAction((a, uid) => a.fake.backend.sendPasswordReset(uid, ACTION).link);
    const view = renderFlow(o);
    heading(uiText.passwordResetTitle);
    screen.getByText(uiText.passwordResetFor(ANN.email));
    const password = screen.getByLabelText(uiText.newPasswordLabel);
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    await view.user.click(button('Save'));
    expectFieldError(uiText.newPasswordLabel, 'Enter your password');
    await view.user.type(password, 'abc{Enter}');
    expectFieldError(uiText.newPasswordLabel, uiText.passwordHint);
    await expectNoAxeViolations(view.container);
    await view.user.clear(password);
    await view.user.type(password, 'n3w-secret{Enter}');
    await settle();
    expect(view.last()).toEqual({ type: 'SUBMIT_NEW_PASSWORD', password: 'n3w-secret' });
    expect(o.card()).toBe('passwordResetSuccess');
    expect(o.fake.backend.findUserByEmail(ANN.email)?.password).toBe('n3w-secret');
  },

  async passwordResetSuccess() {
    const o = await atAction((a, uid) => a.fake.backend.sendPasswordReset(uid, ACTION).link);
    await o.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'n3w-secret' });
    const view = renderFlow(o);
    heading(uiText.passwordResetSuccessTitle);
    screen.getByText(uiText.passwordResetSuccessText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Continue', { type: 'CONTINUE' }, 'providerChooser');
  },

  async passwordResetFailure() {
    const o = await open(ALL, { url: bogus('resetPassword') });
    const view = renderFlow(o);
    heading(uiText.passwordResetFailureTitle);
    screen.getByText(uiText.passwordResetFailureText);
    expect(screen.queryByRole('button')).toBeNull();
    await expectNoAxeViolations(view.container);
  },

  async emailVerificationSuccess() {
    const o = await atAction((a, uid) => a.fake.backend.sendVerificationEmail(uid, ACTION).link);
    const view = renderFlow(o);
    heading(uiText.emailVerificationSuccessTitle);
    screen.getByText(uiText.emailVerificationSuccessText);
    expect(o.fake.backend.findUserByEmail(ANN.email)?.emailVerified).toBe(true);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Continue', { type: 'CONTINUE' }, 'providerChooser');
  },

  async emailVerificationFailure() {
    const o = await open(ALL, { url: bogus('verifyEmail') });
    const view = renderFlow(o);
    heading(uiText.emailVerificationFailureTitle);
    screen.getByText(uiText.emailVerificationFailureText);
    await expectNoAxeViolations(view.container);
  },

  async verifyAndChangeEmailSuccess() {
    const o = await atAction(
      (a, uid) => a.fake.backend.verifyAndChangeEmail(uid, 'ann.new@example.com', ACTION).link,
    );
    const view = renderFlow(o);
    heading(uiText.verifyAndChangeEmailSuccessTitle);
    screen.getByText(uiText.verifyAndChangeEmailSuccessText('ann.new@example.com'));
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Continue', { type: 'CONTINUE' }, 'providerChooser');
  },

  async verifyAndChangeEmailFailure() {
    const o = await open(ALL, { url: bogus('verifyAndChangeEmail') });
    const view = renderFlow(o);
    heading(uiText.verifyAndChangeEmailFailureTitle);
    screen.getByText(uiText.verifyAndChangeEmailFailureText);
    await expectNoAxeViolations(view.container);
  },

  async revertSecondFactorAdditionSuccess() {
    const o = await atAction((a, uid) => a.fake.backend.addSecondFactor(uid, '+12015550199', ACTION).link);
    const view = renderFlow(o);
    heading(uiText.revertSecondFactorAdditionSuccessTitle);
    expect(view.container.textContent).toContain('second factor is no longer attached to your account');
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, uiText.resetPasswordAction, { type: 'CONTINUE' }, 'recoveryEmailSent');
  },

  async revertSecondFactorAdditionFailure() {
    const o = await open(ALL, { url: bogus('revertSecondFactorAddition') });
    const view = renderFlow(o);
    heading(uiText.revertSecondFactorAdditionFailureTitle);
    screen.getByText(uiText.revertSecondFactorAdditionFailureText);
    await expectNoAxeViolations(view.container);
  },

  async emailChangeRevoked() {
    const o = await atAction((a, uid) => a.fake.backend.changeEmail(uid, 'ann.new@example.com', ACTION).link);
    const view = renderFlow(o);
    heading(uiText.emailChangeRevokedTitle);
    screen.getByText(uiText.emailChangeRevokedText(ANN.email));
    screen.getByText(uiText.emailChangeRevokedResetText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, uiText.resetPasswordAction, { type: 'CONTINUE' }, 'recoveryEmailSent');
  },

  async emailChangeRevokeFailure() {
    const o = await open(ALL, { url: bogus('recoverEmail') });
    const view = renderFlow(o);
    heading(uiText.emailChangeRevokeFailureTitle);
    screen.getByText(uiText.emailChangeRevokeFailureText);
    await expectNoAxeViolations(view.container);
  },

  async signOut() {
    const o = await open(ALL, { signOut: true });
    const view = renderFlow(o);
    heading(uiText.signOutTitle);
    screen.getByText(uiText.signOutText);
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Sign in again', { type: 'SIGN_IN_AGAIN' }, 'providerChooser');
  },

  async recoverableError() {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser(ANN);
    const link = fake.backend.sendVerificationEmail(uid, ACTION).link;
    fake.backend.faults.set({ network: true });
    const o = await open(ALL, { fake, url: link });
    const view = renderFlow(o);
    heading(uiText.recoverableErrorTitle);
    screen.getByText('A network error has occurred');
    await expectNoAxeViolations(view.container);
    fake.backend.faults.set({ network: false });
    await clickThrough(o, view, 'Retry', { type: 'RETRY' }, 'emailVerificationSuccess');
  },

  async unrecoverableError() {
    const a = await atEmailLinkSent();
    const o = await open(LINK, { fake: a.fake, url: lastLink(a), storage: null });
    const view = renderFlow(o);
    heading(uiText.unrecoverableErrorTitle);
    screen.getByText(
      'The browser you are using does not support Web Storage. Please try again in a different browser.',
    );
    expect(screen.queryByRole('button')).toBeNull();
    await expectNoAxeViolations(view.container);
  },

  async spinner() {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser(ANN);
    fake.backend.faults.set({ latencyMs: 60_000 });
    const o = await open(ALL, { fake, url: fake.backend.sendVerificationEmail(uid, ACTION).link });
    const view = renderFlow(o);
    expect(o.card()).toBe('spinner');
    screen.getByRole('progressbar', { name: uiText.spinnerLabel });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(uiText.spinnerLabel);
    await expectNoAxeViolations(view.container);
    o.flow.dispose();
  },

  async signedIn() {
    const o = await atPasswordSignIn();
    await o.send({ type: 'SUBMIT_PASSWORD', password: ANN.password });
    const view = renderFlow(o);
    heading('Signed in!');
    await expectNoAxeViolations(view.container);
    await clickThrough(o, view, 'Sign out', { type: 'SIGN_OUT' }, 'signOut');
    expect(o.fake.getCurrentUser()).toBeNull();
  },
};

describe('cards', () => {
  it('has a test for exactly the cards the engine defines', () => {
    expect(Object.keys(cases).sort()).toEqual([...CARDS].sort());
  });

  it.each([...CARDS])('%s: renders its text, validates, sends its event', async (card) => {
    await cases[card]();
  });

  it('@doorway/ui-cards/cards exports the component of every card, named after it', async () => {
    const all: Record<string, unknown> = await import('../src/cards.ts');
    const componentOf = (card: string) =>
      card === 'spinner' ? 'SpinnerCard' : `${card.charAt(0).toUpperCase()}${card.slice(1)}`;
    expect(Object.keys(all).sort()).toEqual(CARDS.map(componentOf).sort());
    for (const component of Object.values(all)) expect(typeof component).toBe('function');
  });
});

describe('card details', () => {
  it('tenant chooser: one button per tenant, CHOOSE_TENANT, then Back returns to it', async () => {
    const o = await open(
      {
        signInOptions: ['email', 'google.com'],
        tenants: [
          { id: null, displayName: 'Everyone' },
          { id: 'acme', displayName: 'Acme staff' },
        ],
      },
      { fakeOptions: { tenants: ['acme'] } },
    );
    const view = renderFlow(o);
    heading(uiText.tenantChooserTitle);
    await view.user.click(button('Acme staff'));
    await settle();
    expect(view.last()).toEqual({ type: 'CHOOSE_TENANT', tenantId: 'acme' });
    expect(o.flow.getSnapshot().tenantId).toBe('acme');
    heading(uiText.providerChooserTitle);
    await view.user.click(button('Back'));
    expect(view.last()).toEqual({ type: 'CANCEL' });
    heading(uiText.tenantChooserTitle);
  });

  it('combined sign-in card (enumeration protection) offers Create account', async () => {
    const o = await atEmail(ALL);
    o.fake.backend.faults.set({ enumerationProtection: true });
    await o.send({ type: 'SUBMIT_EMAIL', email: 'someone@example.com' });
    const view = renderFlow(o);
    screen.getByText(uiText.combinedSignInText);
    await clickThrough(o, view, 'Create account', { type: 'GO_TO_SIGN_UP' }, 'passwordSignUp');
    expect(cardOf(view)).toBe('passwordSignUp');
  });

  it('sign-up without the name field when requireDisplayName is off', async () => {
    const o = await atEmail({ signInOptions: [{ provider: 'email', requireDisplayName: false }, 'phone'] });
    await o.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    renderFlow(o);
    expect(screen.queryByLabelText(uiText.nameLabel)).toBeNull();
  });

  it('phone entry offers every libphonenumber-js country but the blocked ones, from the default country', async () => {
    const o = await open({
      signInOptions: [{ provider: 'phone', defaultCountry: 'GB', blockedCountries: ['FR'] }, 'email'],
    });
    await o.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    const view = renderFlow(o);
    const country = (await screen.findByLabelText('Country')) as HTMLSelectElement;
    expect(country.value).toBe('GB');
    const values = [...country.options].map((op) => op.value);
    expect(values).not.toContain('FR');
    expect(values.length).toBeGreaterThan(200);
    expect(within(country).getByRole('option', { name: 'United Kingdom +44' })).toBeTruthy();
    await view.user.type(screen.getByLabelText('Phone number'), '07700 900123{Enter}');
    await settle();
    expect(view.last()).toMatchObject({ type: 'SUBMIT_PHONE', phoneNumber: '+447700900123', country: 'GB' });
  });

  it('an expired SMS code returns to phone entry with "This code is no longer valid"', async () => {
    const o = await atPhoneCode();
    const view = renderFlow(o);
    const code = o.fake.backend.outbox.lastSms('+12015550123')?.code ?? '';
    o.fake.backend.faults.failNext('confirmPhoneCode', 'code-expired');
    await view.user.type(screen.getByLabelText(uiText.codeLabel), `${code}{Enter}`);
    await settle();
    expect(o.card()).toBe('phoneEntry');
    await screen.findByLabelText('Country');
    screen.getByText('This code is no longer valid');
  });

  it('provider errors on the chooser are shown (popup closed: user-cancelled)', async () => {
    const o = await open(ALL);
    const view = renderFlow(o);
    o.fake.backend.idp.cancelNext();
    await view.user.click(button('Sign in with Google'));
    await settle();
    screen.getByText('Please authorize the required permissions to sign in to the application');
  });
});

describe('identifier-first email entry', () => {
  it('offers the other sign-in options beside the email form, and they work', async () => {
    const o = await open({ signInOptions: ['email', 'phone', 'google.com'], displayMode: 'identifierFirst' });
    const view = renderFlow(o);
    expect(cardOf(view)).toBe('emailEntry');
    const others = screen.getByRole('region', { name: 'Other ways to sign in' });
    expect(within(others).getByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    await view.user.click(within(others).getByRole('button', { name: 'Sign in with phone' }));
    await settle();
    expect(view.sent.at(-1)).toEqual({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    expect(o.card()).toBe('phoneEntry');
  });

  it('option-first email entry shows no other options (the chooser has them)', async () => {
    const o = await atEmail();
    renderFlow(o);
    expect(screen.queryByRole('region', { name: 'Other ways to sign in' })).toBeNull();
  });
});
