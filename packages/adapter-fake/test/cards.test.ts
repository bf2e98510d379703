/**
 * Every card of spec §2 is reachable: for each card, a path from a start state on the fake provider.
 * `paths` is typed as a record over every card name, so a new card without a path does not compile, and
 * the first test fails if the record and the card list ever disagree.
 */
import { type CardName, createMemoryStorage, type WidgetConfigInput } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProvider } from '../src/index.ts';
import { CARDS, expectCard, type Harness, ORIGIN, open } from './harness.ts';

const ALL: WidgetConfigInput = { signInOptions: ['email', 'google.com', 'github.com', 'phone', 'anonymous'] };
const LINK: WidgetConfigInput = {
  signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }, 'google.com'],
};
const ACTION = { url: `${ORIGIN}/action` };

async function atEmail(
  input: WidgetConfigInput = ALL,
  users: Parameters<typeof createFakeProvider>[0] = {},
): Promise<Harness> {
  const h = await open(input, { fakeOptions: users });
  if (h.card() === 'providerChooser') await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  expectCard(h, 'emailEntry');
  return h;
}

async function passwordSignIn(): Promise<Harness> {
  const h = await atEmail(ALL, {
    users: [{ email: 'ann@example.com', password: 'abc123', displayName: 'Ann' }],
  });
  await h.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
  return h;
}

async function phoneCode(): Promise<Harness> {
  const h = await open({ signInOptions: ['phone'] });
  const verifier = h.fake.createCaptchaVerifier(null);
  await h.send({
    type: 'SUBMIT_PHONE',
    phoneNumber: '+15555550100',
    country: 'US',
    captchaSolved: true,
    verifier,
  });
  return h;
}

async function emailLinkSent(
  input: WidgetConfigInput = LINK,
  storage = createMemoryStorage(),
  fake = createFakeProvider(),
): Promise<Harness> {
  const h = await open(input, { storage, fake });
  if (h.card() === 'providerChooser') await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  await h.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
  return h;
}

function lastLink(h: Harness, to = 'ann@example.com'): string {
  const mail = h.fake.backend.outbox.lastEmail(to);
  if (!mail) throw new Error(`no email to ${to}`);
  return mail.link;
}

/** Ada's password was right and she has two second factors: the chooser. */
async function secondFactorChooser(): Promise<Harness> {
  const h = await atEmail(ALL, {
    users: [
      {
        email: 'ada@example.com',
        password: 'secret1',
        secondFactors: [
          { kind: 'phone', phoneNumber: '+15555550100' },
          { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP' },
        ],
      },
    ],
  });
  await h.send({ type: 'SUBMIT_EMAIL', email: 'ada@example.com' });
  await h.send({ type: 'SUBMIT_PASSWORD', password: 'secret1' });
  return h;
}

/** Picks the factor of `kind` on the chooser. */
async function chooseFactor(kind: 'phone' | 'totp'): Promise<Harness> {
  const h = await secondFactorChooser();
  const state = h.flow.getSnapshot();
  const factor =
    state.card === 'secondFactorChooser' ? state.challenge.factors.find((f) => f.kind === kind) : null;
  if (!factor) throw new Error(`no ${kind} factor on ${state.card}`);
  await h.send({ type: 'CHOOSE_SECOND_FACTOR', factorUid: factor.uid });
  return h;
}

/** Opens the flow on an action link produced by the fake backend's admin helpers. */
async function openAction(
  make: (h: Harness, uid: string) => string,
  input: WidgetConfigInput = ALL,
): Promise<Harness> {
  const fake = createFakeProvider();
  const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
  const seed = await open(input, { fake });
  return open(input, { fake, url: make(seed, uid) });
}

async function linking(
  existing: Parameters<ReturnType<typeof createFakeProvider>['backend']['createUser']>[0],
  input: WidgetConfigInput,
) {
  const fake = createFakeProvider();
  fake.backend.createUser(existing);
  const h = await open(input, { fake });
  fake.backend.idp.queue({ sub: 'g-ann', email: 'ann@example.com' });
  await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
  return h;
}

const bogus = (mode: string) => `${ORIGIN}/action?mode=${mode}&oobCode=not-a-real-code`;

const paths: Record<CardName, () => Promise<Harness>> = {
  providerChooser: () => open(ALL),
  emailEntry: () => atEmail(),
  passwordSignIn,
  passwordSignUp: async () => {
    const h = await atEmail();
    await h.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    return h;
  },
  passwordRecovery: async () => {
    const h = await passwordSignIn();
    await h.send({ type: 'GO_TO_RECOVERY' });
    return h;
  },
  recoveryEmailSent: async () => {
    const h = await passwordSignIn();
    await h.send({ type: 'GO_TO_RECOVERY' });
    await h.send({ type: 'SUBMIT_RECOVERY', email: 'ann@example.com' });
    expect(h.fake.backend.outbox.lastEmail('ann@example.com', 'resetPassword')).not.toBeNull();
    return h;
  },
  phoneEntry: async () => {
    const h = await open(ALL);
    await h.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    return h;
  },
  phoneCode,
  emailLinkSent: () => emailLinkSent(),
  emailNotReceived: async () => {
    const h = await emailLinkSent();
    await h.send({ type: 'EMAIL_NOT_RECEIVED' });
    return h;
  },
  emailLinkConfirmation: async () => {
    const a = await emailLinkSent();
    return open(LINK, { fake: a.fake, url: lastLink(a), storage: createMemoryStorage() });
  },
  federatedSignIn: async () => {
    const h = await atEmail(ALL, {
      users: [{ email: 'ann@example.com', federated: { providerId: 'google.com', sub: 'g-ann' } }],
    });
    await h.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    return h;
  },
  passwordLinking: () => linking({ email: 'ann@example.com', password: 'abc123' }, ALL),
  federatedLinking: () =>
    linking({ email: 'ann@example.com', federated: { providerId: 'github.com', sub: 'gh-ann' } }, ALL),
  emailLinkLinking: () => linking({ email: 'ann@example.com', emailLink: true }, LINK),
  unsupportedProvider: async () => {
    const h = await atEmail(ALL, {
      users: [{ email: 'ann@example.com', federated: { providerId: 'facebook.com', sub: 'f' } }],
    });
    await h.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    return h;
  },
  unauthorizedUser: async () => {
    const h = await atEmail({ signInOptions: [{ provider: 'email', disableSignUp: true }] });
    await h.send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' });
    return h;
  },
  emailMismatch: async () => {
    const h = await atEmail(ALL, {
      users: [
        { email: 'ann@example.com', federated: { providerId: 'google.com', sub: 'g-ann' } },
        { email: 'bob@example.com', federated: { providerId: 'google.com', sub: 'g-bob' } },
      ],
    });
    await h.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    h.fake.backend.idp.queue({ sub: 'g-bob', email: 'bob@example.com' });
    await h.send({ type: 'SIGN_IN_FEDERATED' });
    return h;
  },
  anonymousUserMismatch: async () => {
    const input: WidgetConfigInput = { ...LINK, autoUpgradeAnonymousUsers: true };
    const fake = createFakeProvider();
    await fake.signInAnonymously();
    const storage = createMemoryStorage();
    const a = await emailLinkSent(input, storage, fake);
    expect(a.flow.getSnapshot().upgradeUid).not.toBeNull();
    const link = lastLink(a);
    await fake.signOut();
    await fake.signInAnonymously();
    return open(input, { fake, url: link, storage });
  },
  differentDeviceError: async () => {
    const input: WidgetConfigInput = {
      signInOptions: [{ provider: 'email', signInMethod: 'emailLink', forceSameDevice: true }],
    };
    const a = await emailLinkSent(input);
    return open(input, { fake: a.fake, url: lastLink(a), storage: createMemoryStorage() });
  },
  sessionEnded: async () => {
    const storage = createMemoryStorage();
    const a = await emailLinkSent(LINK, storage);
    vi.setSystemTime(Date.now() + 3600 * 1000 + 1);
    return open(LINK, { fake: a.fake, url: lastLink(a), storage });
  },
  passwordReset: () => openAction((h, uid) => h.fake.backend.sendPasswordReset(uid, ACTION).link),
  passwordResetSuccess: async () => {
    const h = await openAction((s, uid) => s.fake.backend.sendPasswordReset(uid, ACTION).link);
    await h.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'new-pass-1' });
    return h;
  },
  passwordResetFailure: () => open(ALL, { url: bogus('resetPassword') }),
  emailVerificationSuccess: () =>
    openAction((h, uid) => h.fake.backend.sendVerificationEmail(uid, ACTION).link),
  emailVerificationFailure: () => open(ALL, { url: bogus('verifyEmail') }),
  verifyAndChangeEmailSuccess: () =>
    openAction((h, uid) => h.fake.backend.verifyAndChangeEmail(uid, 'ann.new@example.com', ACTION).link),
  verifyAndChangeEmailFailure: () => open(ALL, { url: bogus('verifyAndChangeEmail') }),
  revertSecondFactorAdditionSuccess: () =>
    openAction((h, uid) => h.fake.backend.addSecondFactor(uid, '+15555550199', ACTION).link),
  revertSecondFactorAdditionFailure: () => open(ALL, { url: bogus('revertSecondFactorAddition') }),
  emailChangeRevoked: () =>
    openAction((h, uid) => h.fake.backend.changeEmail(uid, 'ann.new@example.com', ACTION).link),
  emailChangeRevokeFailure: () => open(ALL, { url: bogus('recoverEmail') }),
  secondFactorChooser,
  secondFactorPhone: () => chooseFactor('phone'),
  secondFactorCode: () => chooseFactor('totp'),
  signOut: () => open(ALL, { signOut: true }),
  recoverableError: async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com', password: 'abc123' });
    const link = fake.backend.sendVerificationEmail(uid, ACTION).link;
    fake.backend.faults.set({ network: true });
    return open(ALL, { fake, url: link });
  },
  unrecoverableError: async () => {
    const a = await emailLinkSent();
    return open(LINK, { fake: a.fake, url: lastLink(a), storage: null });
  },
  spinner: async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser({ email: 'ann@example.com' });
    return open(ALL, { fake, url: fake.backend.sendVerificationEmail(uid, ACTION).link, settle: false });
  },
  signedIn: async () => {
    const h = await passwordSignIn();
    await h.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    return h;
  },
};

describe('every card of spec §2 is reachable on the fake provider', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has a path for exactly the cards the engine defines', () => {
    expect(Object.keys(paths).sort()).toEqual([...CARDS].sort());
    expect(CARDS.length).toBeGreaterThanOrEqual(37);
  });

  it.each([...CARDS])('%s', async (card) => {
    const h = await paths[card]();
    if (card === 'spinner') {
      expect(h.card()).toBe('spinner');
      expect(h.flow.getSnapshot().pending).not.toBeNull();
    } else {
      expectCard(h, card);
    }
    h.flow.dispose();
  });
});
