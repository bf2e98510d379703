import { describe, expect, it } from 'vitest';
import { normalizeConfig, type WidgetConfigInput } from '../src/config.ts';
import type { ErrorInfo } from '../src/errors.ts';
import type { FlowEvent } from '../src/events.ts';
import type { Effect } from '../src/ops.ts';
import type { ProviderCapabilities } from '../src/provider.ts';
import { type FlowContext, initialState } from '../src/start.ts';
import type { FlowState } from '../src/states.ts';
import { transition } from '../src/transition.ts';
import { annSignIn } from './results.ts';

const ORIGIN = 'https://app.example';
const CAPS: ProviderCapabilities = {
  password: true,
  emailLink: true,
  phone: true,
  anonymous: true,
  federated: ['google.com', 'github.com'],
  popup: true,
  redirect: true,
  tenants: true,
  reliableSignInMethodLookup: true,
  actionCodes: [
    'resetPassword',
    'recoverEmail',
    'revertSecondFactorAddition',
    'verifyEmail',
    'verifyAndChangeEmail',
    'signIn',
    'select',
  ],
  captcha: true,
};
const RESULT = annSignIn();

/** A tiny driver over the pure transition: keeps state and the effects of the last step. */
function driver(
  input: WidgetConfigInput,
  opts: { url?: string; caps?: Partial<ProviderCapabilities>; anonymousUid?: string } = {},
) {
  const ctx: FlowContext = {
    config: normalizeConfig(input, ORIGIN),
    capabilities: { ...CAPS, ...opts.caps },
  };
  let state: FlowState = initialState();
  let effects: readonly Effect[] = [];
  const d = {
    ctx,
    get state() {
      return state;
    },
    get effects() {
      return effects;
    },
    send(event: FlowEvent) {
      [state, effects] = transition(state, event, ctx);
      return d;
    },
    resolve(result: unknown) {
      if (!state.pending) throw new Error(`nothing pending on ${state.card}`);
      return d.send({ type: 'PROVIDER_RESOLVED', id: state.pending.id, result });
    },
    reject(error: ErrorInfo) {
      if (!state.pending) throw new Error(`nothing pending on ${state.card}`);
      return d.send({ type: 'PROVIDER_REJECTED', id: state.pending.id, error });
    },
    get op() {
      return state.pending?.op;
    },
  };
  d.send({
    type: 'START',
    url: opts.url ?? `${ORIGIN}/login`,
    currentUser: opts.anonymousUid
      ? { ...RESULT.user, uid: opts.anonymousUid, isAnonymous: true, email: null, providerIds: [] }
      : null,
    redirectPending: false,
  });
  return d;
}

const EMAIL_AND_GOOGLE: WidgetConfigInput = { signInOptions: ['email', 'google.com', 'phone', 'anonymous'] };

function atEmail(input: WidgetConfigInput = EMAIL_AND_GOOGLE, opts = {}) {
  const d = driver(input, opts);
  if (d.state.card === 'providerChooser') d.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
  expect(d.state.card).toBe('emailEntry');
  return d;
}

describe('first card', () => {
  it('option-first shows the provider chooser; a lone email option starts at email entry', () => {
    expect(driver(EMAIL_AND_GOOGLE).state.card).toBe('providerChooser');
    expect(driver({ signInOptions: ['email'] }).state.card).toBe('emailEntry');
    expect(driver({ signInOptions: ['phone'] }).state.card).toBe('phoneEntry');
    expect(driver({ ...EMAIL_AND_GOOGLE, displayMode: 'identifierFirst' }).state.card).toBe('emailEntry');
  });

  it('fires uiShown once, with the first interactive card', () => {
    const d = driver(EMAIL_AND_GOOGLE);
    expect(d.effects).toContainEqual({ type: 'uiShown' });
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'email' });
    expect(d.effects).not.toContainEqual({ type: 'uiShown' });
  });
});

describe('email entry routing (spec §4)', () => {
  it.each([
    ['', 'Enter your email address to continue', 'email-required'],
    ['nope', "That email address isn't correct", 'email-invalid'],
  ])('validates %j without calling the provider', (email, _text, key) => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email });
    expect(d.state.card).toBe('emailEntry');
    expect(d.state.error).toBe(key);
    expect(d.effects.some((e) => e.type === 'call')).toBe(false);
  });

  it('password account → password sign-in', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: ' ann@example.com ' });
    expect(d.op).toEqual({ kind: 'lookupEmail', email: 'ann@example.com', tenantId: undefined });
    d.resolve(['password']);
    expect(d.state).toMatchObject({ card: 'passwordSignIn', email: 'ann@example.com', offerSignUp: false });
  });

  it('no account → sign-up (with the name field when required)', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' }).resolve([]);
    expect(d.state).toMatchObject({ card: 'passwordSignUp', email: 'new@example.com', requireName: true });
  });

  it('no account and sign-up disabled → unauthorized user', () => {
    const d = atEmail({
      signInOptions: [{ provider: 'email', disableSignUp: { adminEmail: 'admin@example.com' } }],
    })
      .send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' })
      .resolve([]);
    expect(d.state).toMatchObject({ card: 'unauthorizedUser', adminEmail: 'admin@example.com' });
  });

  it('no account and email-link option → the link is sent (email-link sent card)', () => {
    const d = atEmail({ signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] })
      .send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' })
      .resolve([]);
    expect(d.op).toMatchObject({ kind: 'sendEmailLink', email: 'new@example.com', pendingCredential: null });
    d.resolve(undefined);
    expect(d.state).toMatchObject({ card: 'emailLinkSent', email: 'new@example.com' });
  });

  it('email-link-only account → email link (link option) or recovery (password option)', () => {
    const link = atEmail({ signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] })
      .send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' })
      .resolve(['emailLink']);
    expect(link.op?.kind).toBe('sendEmailLink');
    const pw = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['emailLink']);
    expect(pw.state).toMatchObject({ card: 'passwordRecovery', email: 'ann@example.com' });
  });

  it('federated account → federated sign-in when offered, unsupported provider otherwise', () => {
    const fed = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['google.com']);
    expect(fed.state).toMatchObject({ card: 'federatedSignIn', providerId: 'google.com' });
    const other = atEmail()
      .send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' })
      .resolve(['facebook.com']);
    expect(other.state).toMatchObject({ card: 'unsupportedProvider', email: 'ann@example.com' });
  });

  it('unreliable lookup (enumeration protection) → combined sign-in card without a lookup call', () => {
    const d = atEmail(EMAIL_AND_GOOGLE, { caps: { reliableSignInMethodLookup: false } }).send({
      type: 'SUBMIT_EMAIL',
      email: 'ann@example.com',
    });
    expect(d.effects.some((e) => e.type === 'call')).toBe(false);
    expect(d.state).toMatchObject({ card: 'passwordSignIn', offerSignUp: true });
    d.send({ type: 'GO_TO_SIGN_UP' });
    expect(d.state).toMatchObject({ card: 'passwordSignUp', email: 'ann@example.com' });
  });

  it('identifier-first picks the tenant by email domain before the lookup', () => {
    const d = driver({
      signInOptions: ['email'],
      displayMode: 'identifierFirst',
      tenants: [
        { id: null, displayName: 'Everyone' },
        { id: 'acme', displayName: 'ACME', emailDomains: ['acme.com'] },
      ],
    }).send({ type: 'SUBMIT_EMAIL', email: 'ann@acme.com' });
    expect(d.op).toEqual({ kind: 'lookupEmail', email: 'ann@acme.com', tenantId: 'acme' });
    d.resolve(['password']);
    expect(d.state.tenantId).toBe('acme');
  });
});

describe('identifier-first', () => {
  const TENANTS: WidgetConfigInput = {
    signInOptions: ['email', 'google.com', 'phone'],
    displayMode: 'identifierFirst',
    tenants: [
      { id: null, displayName: 'Everyone' },
      { id: 'sso', displayName: 'SSO', emailDomains: ['sso.example'], signInOptions: ['github.com'] },
    ],
  };

  it('offers the other options beside email entry', () => {
    const d = driver({ signInOptions: ['email', 'google.com', 'phone'], displayMode: 'identifierFirst' });
    expect(d.state.card).toBe('emailEntry');
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    expect(d.state.card).toBe('phoneEntry');
    const g = driver({ signInOptions: ['email', 'google.com'], displayMode: 'identifierFirst' });
    g.send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    expect(g.op).toMatchObject({ kind: 'federated', providerId: 'google.com' });
  });

  it("an email of a tenant without an email option leads to that tenant's options", () => {
    const d = driver(TENANTS).send({ type: 'SUBMIT_EMAIL', email: 'ann@sso.example' });
    expect(d.op).toEqual({ kind: 'lookupEmail', email: 'ann@sso.example', tenantId: 'sso' });
    d.resolve([]);
    expect(d.state).toMatchObject({ card: 'providerChooser', chooseTenant: false, tenantId: 'sso' });
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'github.com' });
    expect(d.op).toMatchObject({ kind: 'federated', providerId: 'github.com' });
  });

  it('option-first email entry ignores provider choices (they belong to the chooser)', () => {
    const d = atEmail();
    const before = d.state;
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'phone' });
    expect(d.state).toBe(before);
  });
});

describe('password sign-in, sign-up and recovery', () => {
  it('validates, shows provider errors inline and succeeds', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['password']);
    d.send({ type: 'SUBMIT_PASSWORD', password: '' });
    expect(d.state.error).toBe('password-required');
    d.send({ type: 'SUBMIT_PASSWORD', password: 'wrong' });
    d.reject({ code: 'wrong-password' });
    expect(d.state).toMatchObject({ card: 'passwordSignIn', error: 'wrong-password', pending: null });
    d.send({ type: 'SUBMIT_PASSWORD', password: 'right1' });
    d.resolve(RESULT);
    expect(d.state).toMatchObject({ card: 'signedIn', message: 'signedIn' });
    expect(d.effects).toContainEqual({ type: 'startTimer', name: 'success', ms: 1000 });
  });

  it('sign-up checks name and password in order', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'new@example.com' }).resolve([]);
    d.send({ type: 'SUBMIT_SIGN_UP', email: 'new@example.com', name: '', password: 'abc123' });
    expect(d.state.error).toBe('name-required');
    d.send({ type: 'SUBMIT_SIGN_UP', email: 'new@example.com', name: 'New', password: 'abc' });
    expect(d.state.error).toBe('password-weak');
    d.send({ type: 'SUBMIT_SIGN_UP', email: 'new@example.com', name: 'New', password: 'abc123' });
    expect(d.op).toEqual({
      kind: 'createUser',
      email: 'new@example.com',
      password: 'abc123',
      name: 'New',
      link: false,
    });
  });

  it('recovery sends the email then shows the sent card', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['password']);
    d.send({ type: 'GO_TO_RECOVERY' })
      .send({ type: 'SUBMIT_RECOVERY', email: 'ann@example.com' })
      .resolve(undefined);
    expect(d.state).toMatchObject({ card: 'recoveryEmailSent', email: 'ann@example.com' });
  });

  it('a second submit while a call is in flight is ignored (one provider call)', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    const before = d.state;
    d.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    expect(d.state).toBe(before);
    expect(d.effects).toEqual([]);
  });

  it('stale provider results are ignored', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    const id = d.state.pending?.id ?? -1;
    d.send({ type: 'CANCEL' });
    d.send({ type: 'PROVIDER_RESOLVED', id: id - 1, result: ['password'] });
    expect(d.state.card).toBe('emailEntry');
  });

  it('busy turns on only when the 500 ms timer fires while pending', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    expect(d.effects).toContainEqual({ type: 'startTimer', name: 'busy', ms: 500 });
    expect(d.state.busy).toBe(false);
    d.send({ type: 'TIMER', name: 'busy' });
    expect(d.state.busy).toBe(true);
    d.resolve(['password']);
    expect(d.state.busy).toBe(false);
    const after = d.state;
    d.send({ type: 'TIMER', name: 'busy' });
    expect(d.state).toBe(after);
  });
});

describe('phone', () => {
  const solved = { kind: 'test', render: async () => {}, isSolved: () => true, clear: () => {} };
  function atCode() {
    const d = driver({ signInOptions: [{ provider: 'phone', allowedCountries: ['US', 'GB'] }] });
    d.send({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+15555550100',
      country: 'US',
      captchaSolved: true,
      verifier: solved,
    });
    return d.resolve({ verificationId: 'v1' });
  }

  it('validates country, number and captcha', () => {
    const d = driver({ signInOptions: [{ provider: 'phone', allowedCountries: ['US'] }] });
    d.send({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+33612345678',
      country: 'FR',
      captchaSolved: true,
      verifier: solved,
    });
    expect(d.state.error).toBe('country-unsupported');
    d.send({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+1555',
      country: 'US',
      captchaSolved: true,
      verifier: solved,
    });
    expect(d.state.error).toBe('phone-invalid');
    d.send({
      type: 'SUBMIT_PHONE',
      phoneNumber: '+15555550100',
      country: 'US',
      captchaSolved: false,
      verifier: solved,
    });
    expect(d.state.error).toBe('captcha-required');
  });

  it('counts the resend countdown down from 15 and then allows resend', () => {
    const d = atCode();
    expect(d.state).toMatchObject({ card: 'phoneCode', resendIn: 15, verificationId: 'v1' });
    d.send({ type: 'RESEND_CODE' });
    expect(d.effects).toEqual([]);
    for (let i = 14; i >= 0; i--) {
      d.send({ type: 'TIMER', name: 'resend' });
      expect(d.state).toMatchObject({ resendIn: i });
    }
    expect(d.effects).toEqual([]);
    d.send({ type: 'RESEND_CODE' });
    expect(d.op).toEqual({ kind: 'startPhone', phoneNumber: '+15555550100', verifier: null });
    d.resolve({ verificationId: 'v2' });
    expect(d.state).toMatchObject({ card: 'phoneCode', resendIn: 15, verificationId: 'v2' });
  });

  it('wrong code stays; expired code returns to phone start with its message', () => {
    const d = atCode();
    d.send({ type: 'SUBMIT_CODE', code: '12345' });
    expect(d.state.error).toBe('code-invalid');
    d.send({ type: 'SUBMIT_CODE', code: '123456' }).reject({ code: 'invalid-verification-code' });
    expect(d.state).toMatchObject({ card: 'phoneCode', error: 'invalid-verification-code' });
    d.send({ type: 'SUBMIT_CODE', code: '123456' }).reject({ code: 'code-expired' });
    expect(d.state).toMatchObject({ card: 'phoneEntry', error: 'code-expired', phoneNumber: '+15555550100' });
  });

  it('a right code shows "Verified!"', () => {
    const d = atCode().send({ type: 'SUBMIT_CODE', code: '123456' }).resolve(RESULT);
    expect(d.state).toMatchObject({ card: 'signedIn', message: 'verified' });
  });
});

describe('success and redirect', () => {
  function signedIn(
    url = `${ORIGIN}/login`,
    input: WidgetConfigInput = { ...EMAIL_AND_GOOGLE, signInSuccessUrl: '/home' },
  ) {
    return driver(input, { url }).send({ type: 'CHOOSE_PROVIDER', providerId: 'anonymous' }).resolve(RESULT);
  }

  it('redirects after both the callback allowed it and 1000 ms passed', () => {
    const d = signedIn();
    expect(d.effects).toContainEqual({
      type: 'signInSuccess',
      result: RESULT,
      redirectUrl: `${ORIGIN}/home`,
    });
    d.send({ type: 'CALLBACK_RESULT', redirect: true });
    expect(d.effects).toEqual([]);
    d.send({ type: 'TIMER', name: 'success' });
    expect(d.effects).toEqual([{ type: 'redirect', url: `${ORIGIN}/home` }]);
  });

  it('a callback returning false cancels the redirect', () => {
    const d = signedIn()
      .send({ type: 'TIMER', name: 'success' })
      .send({ type: 'CALLBACK_RESULT', redirect: false });
    expect(d.effects).toEqual([]);
  });

  it('a signInSuccessUrl query value is honoured only through safeRedirect', () => {
    const ok = signedIn(`${ORIGIN}/login?signInSuccessUrl=%2Faccount`);
    expect(ok.state.redirectUrl).toBe(`${ORIGIN}/account`);
    const evil = signedIn(`${ORIGIN}/login?signInSuccessUrl=https%3A%2F%2Fevil.example`);
    expect(evil.state.redirectUrl).toBe(`${ORIGIN}/home`);
  });
});

describe('federated sign-in and linking', () => {
  const pending = { kind: 'federated' as const, providerId: 'google.com', idToken: '{"sub":"g1"}' };

  it('account exists with a different credential → look up and link with the password', () => {
    const d = driver(EMAIL_AND_GOOGLE).send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    expect(d.op).toMatchObject({ kind: 'federated', providerId: 'google.com', mode: 'popup', link: false });
    d.reject({
      code: 'account-exists-with-different-credential',
      email: 'ann@example.com',
      credential: pending,
    });
    expect(d.op).toEqual({ kind: 'lookupForLinking', email: 'ann@example.com', credential: pending });
    d.resolve(['password']);
    expect(d.state).toMatchObject({
      card: 'passwordLinking',
      email: 'ann@example.com',
      pendingCredential: pending,
    });
    d.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(d.op).toEqual({
      kind: 'passwordSignInAndLink',
      email: 'ann@example.com',
      password: 'abc123',
      credential: pending,
    });
  });

  it('existing federated account → federated linking; email-link account → email-link linking', () => {
    const fed = driver(EMAIL_AND_GOOGLE).send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    fed.reject({
      code: 'account-exists-with-different-credential',
      email: 'a@example.com',
      credential: pending,
    });
    fed.resolve(['github.com']);
    expect(fed.state.card).toBe('unsupportedProvider');
    const gh = driver({ signInOptions: ['email', 'google.com', 'github.com'] }).send({
      type: 'CHOOSE_PROVIDER',
      providerId: 'google.com',
    });
    gh.reject({
      code: 'account-exists-with-different-credential',
      email: 'a@example.com',
      credential: pending,
    });
    gh.resolve(['github.com']);
    expect(gh.state).toMatchObject({ card: 'federatedLinking', providerId: 'github.com' });
    gh.send({ type: 'SIGN_IN_FEDERATED' });
    expect(gh.op).toMatchObject({
      kind: 'federated',
      providerId: 'github.com',
      loginHint: 'a@example.com',
      pendingCredential: pending,
    });
  });

  it('a federated account with another email than the one entered → email mismatch', () => {
    const d = atEmail().send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['google.com']);
    d.send({ type: 'SIGN_IN_FEDERATED' }).resolve({
      ...RESULT,
      user: { ...RESULT.user, email: 'other@example.com' },
    });
    expect(d.state).toMatchObject({ card: 'emailMismatch', enteredEmail: 'ann@example.com' });
    d.send({ type: 'CONTINUE' });
    expect(d.state.card).toBe('signedIn');
  });

  it('a cancelled popup shows the spec message inline', () => {
    const d = driver(EMAIL_AND_GOOGLE)
      .send({ type: 'CHOOSE_PROVIDER', providerId: 'google.com' })
      .reject({ code: 'user-cancelled' });
    expect(d.state).toMatchObject({ card: 'providerChooser', error: 'user-cancelled' });
  });
});

describe('passkeys', () => {
  const WITH_PASSKEY: WidgetConfigInput = { signInOptions: ['email', 'passkey'] };
  const PASSKEY_RESULT = { ...RESULT, providerId: 'passkey' };

  it('the passkey option calls passkeys.signIn and ends signed in, as the passkey', () => {
    const d = driver(WITH_PASSKEY, { caps: { passkeys: true } });
    expect(d.state.card).toBe('providerChooser');
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'passkey' });
    expect(d.op).toEqual({ kind: 'passkey' });
    d.resolve(PASSKEY_RESULT);
    expect(d.state.card).toBe('signedIn');
    expect(d.effects).toContainEqual(
      expect.objectContaining({ type: 'signInSuccess', result: PASSKEY_RESULT }),
    );
  });

  it('a dismissed dialog keeps the chooser with the passkey message; other failures say theirs', () => {
    const d = driver(WITH_PASSKEY, { caps: { passkeys: true } });
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'passkey' }).reject({ code: 'user-cancelled' });
    expect(d.state.card).toBe('providerChooser');
    expect(d.state.error).toBe('passkey-cancelled');
    d.send({ type: 'CHOOSE_PROVIDER', providerId: 'passkey' }).reject({ code: 'passkey-not-found' });
    expect(d.state.card).toBe('providerChooser');
    expect(d.state.error).toBe('passkey-not-found');
  });

  it("a passkey picked from the email field's autofill signs in; a failure says why, a dismissal nothing", () => {
    const d = atEmail(WITH_PASSKEY, { caps: { passkeys: true } });
    d.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'user-cancelled' } });
    expect(d.state.error).toBeNull();
    d.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'passkeys-unsupported' } });
    expect(d.state.error).toBeNull();
    d.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'passkey-not-found' } });
    expect(d.state).toMatchObject({ card: 'emailEntry', error: 'passkey-not-found' });
    d.send({ type: 'PASSKEY_AUTOFILLED', result: { not: 'a result' } });
    expect(d.state.card).toBe('emailEntry');
    d.send({ type: 'PASSKEY_AUTOFILLED', result: PASSKEY_RESULT });
    expect(d.state.card).toBe('signedIn');
    expect(d.effects).toContainEqual(
      expect.objectContaining({ type: 'signInSuccess', result: PASSKEY_RESULT }),
    );
  });

  it('a passkey whose account has a second factor asks for it, by button and by autofill alike', () => {
    const totp = { uid: 'f1', kind: 'totp', displayName: 'Phone app', phoneNumber: null, enrolledAt: 1 };
    const sms = { ...totp, uid: 'f2', kind: 'phone', phoneNumber: '+1******1234' };
    const caps = { passkeys: true, secondFactors: ['phone', 'totp'] } as const;
    const required = (factors: object[]) =>
      ({ code: 'second-factor-required', challenge: { factors, session: 's1' } }) as ErrorInfo;
    const button = driver(WITH_PASSKEY, { caps });
    button.send({ type: 'CHOOSE_PROVIDER', providerId: 'passkey' }).reject(required([totp, sms]));
    expect(button.state).toMatchObject({ card: 'secondFactorChooser', error: null });
    const autofilled = atEmail(WITH_PASSKEY, { caps });
    autofilled.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: required([totp, sms]) });
    expect(autofilled.state).toMatchObject({
      card: 'secondFactorChooser',
      challenge: { factors: [totp, sms], session: 's1' },
      error: null,
    });
    // The only factor opens at once: an SMS factor's card (captcha first), an app's code being started.
    const onlySms = atEmail(WITH_PASSKEY, { caps });
    onlySms.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: required([sms]) });
    expect(onlySms.state).toMatchObject({ card: 'secondFactorPhone', factor: sms });
    const onlyApp = atEmail(WITH_PASSKEY, { caps });
    onlyApp.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: required([totp]) });
    expect(onlyApp.op).toMatchObject({ kind: 'startSecondFactor', factorUid: 'f1', sms: false });
    // Without a challenge a card can show, or where second factors are not offered: generic, as the button.
    const bare = atEmail(WITH_PASSKEY, { caps });
    bare.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: { code: 'second-factor-required' } });
    expect(bare.state).toMatchObject({ card: 'emailEntry', error: 'generic' });
    const without = atEmail(WITH_PASSKEY, { caps: { passkeys: true } });
    without.send({ type: 'PASSKEY_AUTOFILL_FAILED', error: required([totp]) });
    expect(without.state).toMatchObject({ card: 'emailEntry', error: 'generic' });
  });

  it('an autofill answer is ignored anywhere but a quiet email card', () => {
    const d = atEmail(WITH_PASSKEY, { caps: { passkeys: true } });
    d.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' });
    const waiting = d.state;
    d.send({ type: 'PASSKEY_AUTOFILLED', result: PASSKEY_RESULT });
    expect(d.state).toBe(waiting);
    const chooser = driver(WITH_PASSKEY, { caps: { passkeys: true } });
    chooser.send({ type: 'PASSKEY_AUTOFILLED', result: PASSKEY_RESULT });
    expect(chooser.state.card).toBe('providerChooser');
  });

  it('does nothing for a config without the option', () => {
    const unconfigured = driver(EMAIL_AND_GOOGLE, { caps: { passkeys: true } });
    unconfigured.send({ type: 'CHOOSE_PROVIDER', providerId: 'passkey' });
    expect(unconfigured.state.pending).toBeNull();
  });
});

describe('anonymous upgrade', () => {
  it('links instead of signing in, and a conflict calls the failure callback with the credential', () => {
    const d = atEmail({ ...EMAIL_AND_GOOGLE, autoUpgradeAnonymousUsers: true }, { anonymousUid: 'anon1' });
    expect(d.state.upgradeUid).toBe('anon1');
    d.send({ type: 'SUBMIT_EMAIL', email: 'ann@example.com' }).resolve(['password']);
    d.send({ type: 'SUBMIT_PASSWORD', password: 'abc123' });
    expect(d.op).toMatchObject({ kind: 'passwordSignIn', link: true });
    d.reject({ code: 'email-already-in-use' });
    expect(d.state.error).toBe('anonymous-upgrade-merge-conflict');
    expect(d.effects).toContainEqual({
      type: 'signInFailure',
      error: {
        code: 'anonymous-upgrade-merge-conflict',
        credential: { kind: 'password', email: 'ann@example.com', password: 'abc123' },
      },
    });
  });
});

describe('email link completion', () => {
  const link = `${ORIGIN}/login?doorway_sid=s1&mode=signIn&oobCode=abc`;
  it.each([
    [{ outcome: 'otherDevice' }, 'emailLinkConfirmation'],
    [{ outcome: 'differentDevice' }, 'differentDeviceError'],
    [{ outcome: 'anonymousUserMismatch' }, 'anonymousUserMismatch'],
    [{ outcome: 'sessionEnded' }, 'sessionEnded'],
  ])('%j → %s', (check, card) => {
    const d = driver(EMAIL_AND_GOOGLE, { url: link });
    expect(d.op).toEqual({ kind: 'checkEmailLink', url: link, upgradeUid: null });
    d.resolve(check);
    expect(d.state.card).toBe(card);
  });

  it('same device completes at once; another device asks for the email and reports a mismatch', () => {
    const same = driver(EMAIL_AND_GOOGLE, { url: link }).resolve({
      outcome: 'sameDevice',
      email: 'ann@example.com',
      pendingCredential: null,
    });
    expect(same.op).toMatchObject({ kind: 'completeEmailLink', email: 'ann@example.com', link });
    const other = driver(EMAIL_AND_GOOGLE, { url: link }).resolve({ outcome: 'otherDevice' });
    other.send({ type: 'CONFIRM_EMAIL', email: 'bob@example.com' }).reject({ code: 'email-mismatch' });
    expect(other.state).toMatchObject({ card: 'emailLinkConfirmation', error: 'email-mismatch' });
  });

  it('no web storage → the web-storage-unsupported card', () => {
    const d = driver(EMAIL_AND_GOOGLE, { url: link }).reject({ code: 'web-storage-unsupported' });
    expect(d.state).toMatchObject({ card: 'unrecoverableError', message: 'web-storage-unsupported' });
  });
});

describe('action codes in the widget', () => {
  it('reset password: form, weak password inline, success', () => {
    const url = `${ORIGIN}/action?mode=resetPassword&oobCode=abc&continueUrl=%2Fdone`;
    const d = driver(EMAIL_AND_GOOGLE, { url });
    expect(d.op).toEqual({ kind: 'actionCode', url });
    d.resolve({
      card: 'passwordReset',
      code: 'abc',
      email: 'ann@example.com',
      continueUrl: `${ORIGIN}/done`,
    });
    expect(d.state).toMatchObject({ card: 'passwordReset', email: 'ann@example.com' });
    d.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'abc' });
    expect(d.state.error).toBe('password-weak');
    d.send({ type: 'SUBMIT_NEW_PASSWORD', password: 'abc123' }).resolve(undefined);
    expect(d.state).toMatchObject({ card: 'passwordResetSuccess', continueUrl: `${ORIGIN}/done` });
    d.send({ type: 'CONTINUE' });
    expect(d.effects).toEqual([{ type: 'redirect', url: `${ORIGIN}/done` }]);
  });

  it('a network failure offers a retry of the same call', () => {
    const url = `${ORIGIN}/action?mode=verifyEmail&oobCode=abc`;
    const d = driver(EMAIL_AND_GOOGLE, { url }).resolve({
      card: 'recoverableError',
      message: 'network-request-failed',
    });
    expect(d.state).toMatchObject({ card: 'recoverableError', message: 'network-request-failed' });
    d.send({ type: 'RETRY' });
    expect(d.op).toEqual({ kind: 'actionCode', url });
  });
});
