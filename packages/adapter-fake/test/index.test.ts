/**
 * What the contract suite does not cover: faults, expiry on the injected clock, outbox shape, redirect round
 * trip, tenant isolation of codes, enumeration protection switched at run time, the calls log, captcha
 * control, the fake IdP and the admin helpers.
 */
import { ACCOUNT_OPERATIONS, ACTION_MODES, type AuthCredential, AuthError } from '@doorway/auth-core';
import { expectAuthError } from '@doorway/testing';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  createFakeProvider,
  createManualClock,
  createMemoryStorage,
  DEFAULT_ACTION_CODE_TTL_MS,
  DEFAULT_SMS_CODE_TTL_MS,
  FAKE_IDP_URL,
  type FakeProviderOptions,
  fakeFederatedCredential,
  REDIRECT_STORAGE_KEY,
} from '../src/index.ts';

const START = Date.UTC(2025, 0, 1);
const URL_BASE = 'https://app.example/finish';
const EMAIL = 'ann@example.com';
const PASSWORD = 'secret-123';
const PHONE = '+16505550100';

function setup(options: FakeProviderOptions = {}) {
  const clock = createManualClock(START);
  const provider = createFakeProvider({ clock, ...options });
  return { clock, provider, backend: provider.backend };
}

async function startPhone(provider: ReturnType<typeof setup>['provider'], phone = PHONE) {
  const { verificationId } = await provider.startPhoneSignIn(phone, provider.createCaptchaVerifier(null));
  const sms = provider.backend.outbox.lastSms(phone);
  if (sms === null) throw new Error('no SMS sent');
  return { verificationId, code: sms.code };
}

describe('createFakeProvider - capabilities', () => {
  it('capabilities - should advertise everything by default, with the configured federated ids', () => {
    const { provider } = setup({ federatedProviders: ['google.com'] });
    expect(provider.capabilities).toEqual({
      password: true,
      emailLink: true,
      phone: true,
      anonymous: true,
      federated: ['google.com'],
      popup: true,
      redirect: true,
      tenants: true,
      reliableSignInMethodLookup: true,
      actionCodes: [...ACTION_MODES],
      captcha: true,
      secondFactors: ['phone', 'totp'],
      passkeys: true,
      account: [...ACCOUNT_OPERATIONS],
    });
    expect(setup().provider.capabilities.federated).toEqual(['google.com', 'github.com']);
  });

  it('capabilities - should keep its identity until something changes', () => {
    const { provider, backend } = setup();
    const first = provider.capabilities;
    backend.faults.set({ network: true });
    expect(provider.capabilities).toBe(first);
    backend.faults.set({ enumerationProtection: true });
    expect(provider.capabilities).not.toBe(first);
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
  });

  it('createUser - should reject operation-not-allowed when the password capability is off', async () => {
    const { provider } = setup({ capabilities: { password: false, emailLink: false, phone: false } });
    await expectAuthError(provider.createUser(EMAIL, PASSWORD), 'operation-not-allowed');
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'operation-not-allowed');
    await expectAuthError(provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE }), 'operation-not-allowed');
    await expectAuthError(
      provider.startPhoneSignIn(PHONE, provider.createCaptchaVerifier(null)),
      'operation-not-allowed',
    );
  });

  it('signInWithFederated - should reject operation-not-allowed for a provider id that is not configured', async () => {
    const { provider } = setup();
    await expectAuthError(
      provider.signInWithFederated('facebook.com', { mode: 'popup' }),
      'operation-not-allowed',
    );
    const credential = fakeFederatedCredential('facebook.com', { sub: 'f-1', email: EMAIL });
    await expectAuthError(provider.signInWithCredential(credential), 'operation-not-allowed');
  });
});

describe('createFakeProvider - faults', () => {
  it('faults - should fail every remote call with network-request-failed, but not signOut or setTenant', async () => {
    const { provider, backend } = setup();
    backend.faults.set({ network: true });
    await expectAuthError(provider.signInAnonymously(), 'network-request-failed');
    await expectAuthError(provider.fetchSignInMethodsForEmail(EMAIL), 'network-request-failed');
    await expect(provider.signOut()).resolves.toBeUndefined();
    await expect(provider.setTenant('t1')).resolves.toBeUndefined();
    backend.faults.set({ network: false });
    await expect(provider.signInAnonymously()).resolves.toMatchObject({ providerId: 'anonymous' });
  });

  it('faults - should fail only the listed methods', async () => {
    const { provider, backend } = setup();
    backend.faults.set({ network: { methods: ['createUser', 'signOut'] } });
    await expectAuthError(provider.createUser(EMAIL, PASSWORD), 'network-request-failed');
    await expectAuthError(provider.signOut(), 'network-request-failed');
    await expect(provider.signInAnonymously()).resolves.toMatchObject({ isNewUser: true });
  });

  it('faults - should rate-limit each method with its own code', async () => {
    const { provider, backend } = setup();
    backend.faults.set({ rateLimit: true });
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'too-many-requests');
    await expectAuthError(provider.createUser(EMAIL, PASSWORD), 'sign-up-too-many-requests');
    await expectAuthError(
      provider.startPhoneSignIn(PHONE, provider.createCaptchaVerifier(null)),
      'phone-too-many-requests',
    );
    await expectAuthError(provider.sendPasswordResetEmail(EMAIL), 'too-many-requests');
  });

  it('faults - should refuse client sign-up when signUpDisabled, while the admin can still create users', async () => {
    const { provider, backend } = setup({ faults: { signUpDisabled: true } });
    await expectAuthError(provider.createUser(EMAIL, PASSWORD), 'sign-up-disabled');
    await expectAuthError(provider.signInAnonymously(), 'sign-up-disabled');
    const { verificationId, code } = await startPhone(provider);
    await expectAuthError(provider.confirmPhoneCode(verificationId, code), 'sign-up-disabled');
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      isNewUser: false,
    });
  });

  it('faults.failNext - should fail the next call of a method once, with the given code and details', async () => {
    const { provider, backend } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    backend.faults.failNext('signInWithEmailAndPassword', 'requires-recent-login');
    backend.faults.failNext('signInWithEmailAndPassword', 'account-exists-with-different-credential', {
      email: EMAIL,
    });
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'requires-recent-login');
    const second = await expectAuthError(
      provider.signInWithEmailAndPassword(EMAIL, PASSWORD),
      'account-exists-with-different-credential',
    );
    expect(second.email).toBe(EMAIL);
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      providerId: 'password',
    });
  });

  it('faults.failNth - should fail only the nth call of a method from now, once', async () => {
    const { provider, backend } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    backend.faults.failNth('signInWithEmailAndPassword', 2, 'network-request-failed');
    backend.faults.failNth('signInAnonymously', 1, 'too-many-requests');
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      providerId: 'password',
    });
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'network-request-failed');
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      providerId: 'password',
    });
    await expectAuthError(provider.signInAnonymously(), 'too-many-requests');
    await expect(provider.signInAnonymously()).resolves.toMatchObject({ isNewUser: true });
    expect(() => backend.faults.failNth('signOut', 0, 'generic')).toThrow(RangeError);
    backend.faults.failNth('signOut', 1, 'generic');
    backend.faults.reset();
    await expect(provider.signOut()).resolves.toBeUndefined();
  });

  it('faults.reset - should restore the initial switches and drop queued failures', async () => {
    const { provider, backend } = setup({ faults: { enumerationProtection: true } });
    backend.faults.set({ network: true, enumerationProtection: false });
    backend.faults.failNext('signInAnonymously', 'generic');
    backend.faults.reset();
    expect(backend.faults.get()).toMatchObject({ network: false, enumerationProtection: true });
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
    await expect(provider.signInAnonymously()).resolves.toMatchObject({ isNewUser: true });
  });

  it('faults - should wait latencyMs through the injected sleep before each call', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const { provider, backend } = setup({ sleep });
    await provider.signInAnonymously();
    expect(sleep).not.toHaveBeenCalled();
    backend.faults.set({ latencyMs: 750 });
    await provider.signOut();
    expect(sleep).toHaveBeenCalledWith(750);
  });
});

describe('createFakeProvider - enumeration protection', () => {
  it('fetchSignInMethodsForEmail - should hide accounts once protection is switched on at run time', async () => {
    const { provider, backend } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await expect(provider.fetchSignInMethodsForEmail(EMAIL)).resolves.toEqual(['password']);
    backend.faults.set({ enumerationProtection: true });
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
    await expect(provider.fetchSignInMethodsForEmail(EMAIL)).resolves.toEqual([]);
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, 'wrong-1'), 'wrong-password');
    await expectAuthError(
      provider.signInWithEmailAndPassword('nobody@example.com', 'wrong-1'),
      'wrong-password',
    );
    await expect(provider.sendPasswordResetEmail('nobody@example.com')).resolves.toBeUndefined();
    expect(backend.outbox.emails).toHaveLength(0);
  });

  it('fetchSignInMethodsForEmail - should list every email method in the order added, without phone', async () => {
    const { provider, backend } = setup();
    backend.createUser({
      email: EMAIL,
      password: PASSWORD,
      emailLink: true,
      phoneNumber: PHONE,
      federated: [{ providerId: 'google.com', sub: 'g-1' }],
    });
    await expect(provider.fetchSignInMethodsForEmail('ANN@example.com ')).resolves.toEqual([
      'password',
      'emailLink',
      'google.com',
    ]);
  });
});

describe('createFakeProvider - expiry on the injected clock', () => {
  it('confirmPhoneCode - should reject code-expired once the SMS code has lived 5 minutes', async () => {
    const { provider, clock } = setup();
    const { verificationId, code } = await startPhone(provider);
    clock.advance(DEFAULT_SMS_CODE_TTL_MS);
    await expectAuthError(provider.confirmPhoneCode(verificationId, code), 'code-expired');
  });

  it('confirmPhoneCode - should accept the code until just before it expires, with a configured lifetime', async () => {
    const { provider, clock } = setup({ smsCodeTtlMs: 30_000 });
    const { verificationId, code } = await startPhone(provider);
    clock.advance(29_999);
    await expect(provider.confirmPhoneCode(verificationId, code)).resolves.toMatchObject({
      providerId: 'phone',
    });
  });

  it('confirmPhoneCode - should reject code-expired for a verification id already used or unknown', async () => {
    const { provider } = setup();
    const { verificationId, code } = await startPhone(provider);
    await expectAuthError(
      provider.confirmPhoneCode(verificationId, '000000' === code ? '111111' : '000000'),
      'invalid-verification-code',
    );
    await provider.confirmPhoneCode(verificationId, code);
    await expectAuthError(provider.confirmPhoneCode(verificationId, code), 'code-expired');
    await expectAuthError(provider.confirmPhoneCode('vid-unknown', code), 'code-expired');
  });

  it('verifyPasswordResetCode - should reject expired-action-code after an hour', async () => {
    const { provider, backend, clock } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await provider.sendPasswordResetEmail(EMAIL);
    const mail = backend.outbox.lastEmail(EMAIL, 'resetPassword');
    if (mail === null) throw new Error('no email');
    clock.advance(DEFAULT_ACTION_CODE_TTL_MS - 1);
    await expect(provider.verifyPasswordResetCode(mail.oobCode)).resolves.toBe(EMAIL);
    clock.advance(1);
    await expectAuthError(provider.verifyPasswordResetCode(mail.oobCode), 'expired-action-code');
    await expectAuthError(provider.confirmPasswordReset(mail.oobCode, 'n3w-secret'), 'expired-action-code');
    await expectAuthError(provider.checkActionCode(mail.oobCode), 'expired-action-code');
  });

  it('signInWithEmailLink - should reject expired-action-code with a configured lifetime', async () => {
    const { provider, backend, clock } = setup({ actionCodeTtlMs: 60_000 });
    await provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE, handleCodeInApp: true });
    const link = backend.outbox.lastEmail(EMAIL, 'signIn')?.link ?? '';
    clock.advance(60_000);
    await expectAuthError(provider.signInWithEmailLink(EMAIL, link), 'expired-action-code');
  });
});

describe('createFakeProvider - outbox', () => {
  it('sendSignInLinkToEmail - should append mode, oobCode and apiKey to the continue URL', async () => {
    const { provider, backend } = setup();
    await provider.sendSignInLinkToEmail('Ann@Example.com', { url: URL_BASE, handleCodeInApp: true });
    expect(backend.outbox.emails).toEqual([
      {
        to: EMAIL,
        kind: 'signIn',
        link: `${URL_BASE}?mode=signIn&oobCode=oob-1&apiKey=fake`,
        oobCode: 'oob-1',
        sentAt: START,
        tenantId: null,
      },
    ]);
  });

  it('sendSignInLinkToEmail - should keep the query and fragment the continue URL already has', async () => {
    const { provider, backend } = setup();
    await provider.sendSignInLinkToEmail(EMAIL, {
      url: `${URL_BASE}?doorway_sid=s1#top`,
      handleCodeInApp: true,
    });
    const link = backend.outbox.lastEmail(EMAIL)?.link;
    expect(link).toBe(`${URL_BASE}?doorway_sid=s1&mode=signIn&oobCode=oob-1&apiKey=fake#top`);
    expect(provider.isSignInWithEmailLink(link ?? '')).toBe(true);
  });

  it('isSignInWithEmailLink - should recognise a link wrapped in a link or continueUrl parameter', async () => {
    const { provider, backend } = setup();
    await provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE, handleCodeInApp: true });
    const link = backend.outbox.lastEmail(EMAIL)?.link ?? '';
    const wrapped = `https://app.page.link/?link=${encodeURIComponent(link)}`;
    expect(provider.isSignInWithEmailLink(wrapped)).toBe(true);
    await expect(provider.signInWithEmailLink(EMAIL, wrapped)).resolves.toMatchObject({ isNewUser: true });
    expect(provider.isSignInWithEmailLink(`${URL_BASE}?mode=resetPassword&oobCode=x`)).toBe(false);
  });

  it('sendPasswordResetEmail - should use the default action URL when no settings are given', async () => {
    const { provider, backend } = setup({ actionUrl: 'https://auth.example/__/auth/action' });
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await provider.sendPasswordResetEmail(EMAIL);
    expect(backend.outbox.lastEmail(EMAIL, 'resetPassword')?.link).toBe(
      'https://auth.example/__/auth/action?mode=resetPassword&oobCode=oob-1&apiKey=fake',
    );
  });

  it('startPhoneSignIn - should record a 6-digit SMS with its verification id and time', async () => {
    const { provider, backend, clock } = setup();
    clock.advance(5);
    const { verificationId } = await provider.startPhoneSignIn(
      '+1 (650) 555-0100',
      provider.createCaptchaVerifier(null),
    );
    expect(verificationId).toBe('vid-1');
    expect(backend.outbox.sms).toEqual([
      {
        to: PHONE,
        code: expect.stringMatching(/^\d{6}$/),
        verificationId,
        sentAt: START + 5,
        tenantId: null,
      },
    ]);
  });

  it('startPhoneSignIn - should send the same codes for the same seed, and other codes for another seed', async () => {
    const codes = async (seed?: number) => {
      const { provider, backend } = setup(seed === undefined ? {} : { seed });
      for (let i = 0; i < 3; i++) await startPhone(provider);
      return backend.outbox.sms.map((s) => s.code);
    };
    expect(await codes()).toEqual(await codes());
    expect(await codes(42)).not.toEqual(await codes());
  });

  it('outbox.clear - should empty both lists', async () => {
    const { provider, backend } = setup();
    await startPhone(provider);
    await provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE });
    backend.outbox.clear();
    expect(backend.outbox.emails).toHaveLength(0);
    expect(backend.outbox.sms).toHaveLength(0);
    expect(backend.outbox.lastSms(PHONE)).toBeNull();
  });

  it('createId - should name users, codes and verifications with an injected generator', async () => {
    let n = 0;
    const { provider, backend } = setup({ createId: (prefix) => `${prefix}_${++n}` });
    const { user } = await provider.signInAnonymously();
    expect(user.uid).toBe('uid_1');
    await provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE });
    expect(backend.outbox.lastEmail(EMAIL)?.oobCode).toBe('oob_2');
  });
});

describe('createFakeProvider - federated IdP', () => {
  it('signInWithFederated - should store a redirect result in the injected storage, navigate, and deliver it once', async () => {
    const storage = createMemoryStorage();
    const navigate = vi.fn();
    const { provider, backend } = setup({ storage, navigate });
    backend.idp.queue({ sub: 'g-1', email: EMAIL, displayName: 'Ann' });
    await expect(
      provider.signInWithFederated('google.com', { mode: 'redirect', loginHint: EMAIL }),
    ).resolves.toBeNull();
    expect(navigate).toHaveBeenCalledWith(
      `${FAKE_IDP_URL}?providerId=google.com&login_hint=ann%40example.com`,
    );
    expect(storage.getItem(REDIRECT_STORAGE_KEY)).not.toBeNull();
    expect(provider.getCurrentUser()).toBeNull();
    const result = await provider.getRedirectResult();
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'google.com',
      user: { email: EMAIL, displayName: 'Ann' },
    });
    expect(result?.credential).toEqual(
      fakeFederatedCredential('google.com', { sub: 'g-1', email: EMAIL, displayName: 'Ann' }),
    );
    await expect(provider.getRedirectResult()).resolves.toBeNull();
  });

  it('getRedirectResult - should pick up a pending redirect from storage shared with a new provider instance', async () => {
    const storage = createMemoryStorage();
    const before = setup({ storage });
    before.backend.idp.queue({ sub: 'g-2', email: EMAIL });
    await before.provider.signInWithFederated('github.com', { mode: 'redirect' });
    const after = setup({ storage });
    await expect(after.provider.getRedirectResult()).resolves.toMatchObject({ providerId: 'github.com' });
  });

  it('getRedirectResult - should ignore garbage in the storage', async () => {
    const storage = createMemoryStorage();
    storage.setItem(REDIRECT_STORAGE_KEY, '{not json');
    const { provider } = setup({ storage });
    await expect(provider.getRedirectResult()).resolves.toBeNull();
  });

  it('signInWithFederated - should ask the idp callback when nothing is queued, and treat null as a cancel', async () => {
    const idp = vi
      .fn()
      .mockResolvedValueOnce({ sub: 'cb-1', email: 'cb@example.com' })
      .mockResolvedValueOnce(null);
    const { provider } = setup({ idp });
    const result = await provider.signInWithFederated('google.com', {
      mode: 'popup',
      loginHint: 'cb@example.com',
      scopes: ['profile'],
    });
    expect(result?.user.email).toBe('cb@example.com');
    expect(idp).toHaveBeenCalledWith({
      providerId: 'google.com',
      mode: 'popup',
      loginHint: 'cb@example.com',
      scopes: ['profile'],
      customParameters: {},
    });
    await provider.signOut();
    await expectAuthError(provider.signInWithFederated('google.com', { mode: 'popup' }), 'user-cancelled');
  });

  it('signInWithFederated - should sign in a default identity built from the login hint', async () => {
    const { provider } = setup();
    const result = await provider.signInWithFederated('google.com', {
      mode: 'popup',
      loginHint: 'Hint@Example.com',
    });
    expect(result?.user).toMatchObject({
      email: 'hint@example.com',
      emailVerified: true,
      displayName: 'Fake User',
    });
  });

  it('signInWithFederated - should block only the given number of popups, and never a redirect', async () => {
    const { provider, backend } = setup();
    backend.idp.blockPopup(2);
    await expect(provider.signInWithFederated('google.com', { mode: 'redirect' })).resolves.toBeNull();
    await expectAuthError(provider.signInWithFederated('google.com', { mode: 'popup' }), 'popup-blocked');
    await expectAuthError(provider.signInWithFederated('google.com', { mode: 'popup' }), 'popup-blocked');
    await expect(provider.signInWithFederated('google.com', { mode: 'popup' })).resolves.not.toBeNull();
  });

  it('signInWithFederated - should carry a credential that finishes the sign-in after account-exists-with-different-credential', async () => {
    const { provider, backend } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    backend.idp.queue({ sub: 'g-3', email: EMAIL });
    const error = await expectAuthError(
      provider.signInWithFederated('google.com', { mode: 'popup' }),
      'account-exists-with-different-credential',
    );
    const pending = error.credential;
    if (pending === undefined) throw new Error('no credential');
    await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    const linked = await provider.linkWithCredential(pending);
    expect(linked.user.providerIds).toEqual(['password', 'google.com']);
    await provider.signOut();
    await expect(provider.signInWithCredential(pending)).resolves.toMatchObject({ isNewUser: false });
  });

  it('signInWithCredential - should reject generic for a federated credential the IdP never issued', async () => {
    const { provider } = setup();
    const bad: AuthCredential = { kind: 'federated', providerId: 'google.com', idToken: 'not json' };
    await expectAuthError(provider.signInWithCredential(bad), 'generic');
  });

  it('signInWithFederated - should reject requires-recent-login when asked to link with nobody signed in', async () => {
    const { provider } = setup();
    await expectAuthError(
      provider.signInWithFederated('google.com', { mode: 'popup', link: true }),
      'requires-recent-login',
    );
  });
});

describe('createFakeProvider - phone and captcha', () => {
  it('startPhoneSignIn - should reject captcha-check-failed until an unsolved captcha is solved', async () => {
    const { provider, backend } = setup();
    backend.captcha.autoSolve = false;
    const verifier = provider.createCaptchaVerifier(null);
    expect(verifier.isSolved()).toBe(false);
    await expectAuthError(provider.startPhoneSignIn(PHONE, verifier), 'captcha-check-failed');
    backend.captcha.solve(verifier);
    await expect(provider.startPhoneSignIn(PHONE, verifier)).resolves.toMatchObject({
      verificationId: 'vid-1',
    });
  });

  it('createCaptchaVerifier - should stop counting as solved once cleared', async () => {
    const { provider } = setup();
    const verifier = provider.createCaptchaVerifier(null);
    await verifier.render();
    verifier.clear();
    expect(verifier.isSolved()).toBe(false);
    await expectAuthError(verifier.render(), 'captcha-check-failed');
  });

  it('startPhoneSignIn - should reject unsupported-country for a blocked prefix', async () => {
    const { provider } = setup({ blockedCountryPrefixes: ['+7'] });
    await expectAuthError(
      provider.startPhoneSignIn('+74951234567', provider.createCaptchaVerifier(null)),
      'unsupported-country',
    );
    await expect(startPhone(provider)).resolves.toMatchObject({ verificationId: 'vid-1' });
  });

  it('confirmPhoneCode - should keep the session usable after a wrong code', async () => {
    const { provider } = setup();
    const { verificationId, code } = await startPhone(provider);
    const wrong = code === '123456' ? '654321' : '123456';
    await expectAuthError(provider.confirmPhoneCode(verificationId, wrong), 'invalid-verification-code');
    await expect(provider.confirmPhoneCode(verificationId, code)).resolves.toMatchObject({ isNewUser: true });
  });
});

describe('createFakeProvider - tenants', () => {
  it('setTenant - should reject generic for a tenant that is not configured', async () => {
    const { provider } = setup({ tenants: ['acme'] });
    await expectAuthError(provider.setTenant('other'), 'generic');
    await expect(provider.setTenant('acme')).resolves.toBeUndefined();
    expect(provider.backend.tenantId).toBe('acme');
  });

  it('applyActionCode - should accept a code only in the tenant that issued it', async () => {
    const { provider, backend } = setup();
    await provider.setTenant('acme');
    const uid = backend.createUser({ email: EMAIL, password: PASSWORD });
    const mail = backend.sendVerificationEmail(uid, { url: URL_BASE });
    expect(mail.link).toContain('tenantId=acme');
    expect(mail.tenantId).toBe('acme');
    await provider.setTenant(null);
    await expectAuthError(provider.applyActionCode(mail.oobCode), 'invalid-action-code');
    await provider.setTenant('acme');
    await provider.applyActionCode(mail.oobCode);
    expect(backend.getUser(uid)?.emailVerified).toBe(true);
  });

  it('backend.listUsers - should list the users of one tenant', () => {
    const { backend } = setup({
      users: [{ email: EMAIL }, { email: EMAIL, tenantId: 'acme' }, { email: 'b@example.com' }],
    });
    expect(backend.listUsers().map((u) => u.email)).toEqual([EMAIL, 'b@example.com']);
    expect(backend.listUsers('acme').map((u) => u.tenantId)).toEqual(['acme']);
    expect(backend.findUserByEmail(EMAIL, 'acme')?.uid).toBe('uid-2');
  });
});

describe('createFakeProvider - action codes', () => {
  it('checkActionCode - should describe a revertSecondFactorAddition code with a masked factor, and applyActionCode removes it', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({ email: EMAIL, password: PASSWORD });
    const mail = backend.addSecondFactor(uid, '+1 650 555 0199');
    expect(mail).toMatchObject({ to: EMAIL, kind: 'revertSecondFactorAddition' });
    expect(backend.getUser(uid)?.secondFactors).toEqual([
      { uid: 'mfa-1', kind: 'phone', phoneNumber: '+16505550199', displayName: null, enrolledAt: START },
    ]);
    await expect(provider.checkActionCode(mail.oobCode)).resolves.toEqual({
      operation: 'revertSecondFactorAddition',
      email: EMAIL,
      previousEmail: null,
      factor: '+*******0199',
    });
    await provider.applyActionCode(mail.oobCode);
    expect(backend.getUser(uid)?.secondFactors).toEqual([]);
  });

  it('backend.changeEmail - should change the email at once and mail a recoverEmail code to the old address', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({ email: EMAIL, password: PASSWORD, emailVerified: true });
    const mail = backend.changeEmail(uid, 'new@example.com');
    expect(mail).toMatchObject({ to: EMAIL, kind: 'recoverEmail' });
    expect(backend.getUser(uid)).toMatchObject({ email: 'new@example.com', emailVerified: false });
    await provider.applyActionCode(mail.oobCode);
    expect(backend.getUser(uid)).toMatchObject({ email: EMAIL, emailVerified: true });
  });

  it('backend.verifyAndChangeEmail - should mail the new address and change the email only when applied', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({ email: EMAIL, password: PASSWORD });
    const mail = backend.verifyAndChangeEmail(uid, 'new@example.com');
    expect(mail).toMatchObject({ to: 'new@example.com', kind: 'verifyAndChangeEmail' });
    expect(backend.getUser(uid)?.email).toBe(EMAIL);
    await provider.applyActionCode(mail.oobCode);
    expect(backend.getUser(uid)?.email).toBe('new@example.com');
  });

  it('backend.verifyAndChangeEmail - should throw email-already-in-use for a taken address', () => {
    const { backend } = setup();
    const uid = backend.createUser({ email: EMAIL });
    backend.createUser({ email: 'taken@example.com' });
    expect(() => backend.verifyAndChangeEmail(uid, 'taken@example.com')).toThrow(AuthError);
  });

  it('applyActionCode - should reject invalid-action-code for codes that can only be checked', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({ email: EMAIL, password: PASSWORD });
    const reset = backend.sendPasswordReset(uid);
    await expectAuthError(provider.applyActionCode(reset.oobCode), 'invalid-action-code');
    await expect(provider.checkActionCode(reset.oobCode)).resolves.toMatchObject({
      operation: 'resetPassword',
    });
  });

  it('applyActionCode - should reject invalid-action-code for a verifyEmail code sent to an address the user no longer has', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({ email: EMAIL });
    const mail = backend.sendVerificationEmail(uid);
    backend.updateUser(uid, { email: 'other@example.com' });
    await expectAuthError(provider.applyActionCode(mail.oobCode), 'invalid-action-code');
  });

  it('sendPasswordResetEmail - should reject invalid-continue-uri for a continue URL that is not http(s)', async () => {
    const { provider, backend } = setup();
    backend.createUser({ email: EMAIL, password: PASSWORD });
    await expectAuthError(
      provider.sendPasswordResetEmail(EMAIL, { url: 'javascript:alert(1)' }),
      'invalid-continue-uri',
    );
  });
});

describe('createFakeProvider - users and the admin side', () => {
  it('signIn - should reject user-disabled on every sign-in path for a disabled account', async () => {
    const { provider, backend } = setup();
    const uid = backend.createUser({
      email: EMAIL,
      password: PASSWORD,
      phoneNumber: PHONE,
      federated: { providerId: 'google.com', sub: 'g-9' },
    });
    backend.updateUser(uid, { disabled: true });
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, PASSWORD), 'user-disabled');
    const { verificationId, code } = await startPhone(provider);
    await expectAuthError(provider.confirmPhoneCode(verificationId, code), 'user-disabled');
    await expectAuthError(
      provider.signInWithCredential(fakeFederatedCredential('google.com', { sub: 'g-9', email: EMAIL })),
      'user-disabled',
    );
    await provider.sendSignInLinkToEmail(EMAIL, { url: URL_BASE });
    await expectAuthError(
      provider.signInWithEmailLink(EMAIL, backend.outbox.lastEmail(EMAIL)?.link ?? ''),
      'user-disabled',
    );
  });

  it('backend.deleteUser - should sign the deleted user out', async () => {
    const { provider, backend } = setup();
    const { user } = await provider.signInAnonymously();
    backend.deleteUser(user.uid);
    expect(provider.getCurrentUser()).toBeNull();
    expect(backend.getUser(user.uid)).toBeNull();
  });

  it('backend.createUser - should throw on a clash with an existing email, phone or federated identity', () => {
    const { backend } = setup();
    backend.createUser({
      email: EMAIL,
      phoneNumber: PHONE,
      federated: { providerId: 'google.com', sub: 'g-1' },
    });
    expect(() => backend.createUser({ email: EMAIL })).toThrow(
      expect.objectContaining({ code: 'email-already-in-use' }),
    );
    expect(() => backend.createUser({ phoneNumber: PHONE })).toThrow(
      expect.objectContaining({ code: 'credential-already-in-use' }),
    );
    expect(() => backend.createUser({ federated: { providerId: 'google.com', sub: 'g-1' } })).toThrow(
      expect.objectContaining({ code: 'credential-already-in-use' }),
    );
  });

  it('getCurrentUser - should return the same object until the user changes', async () => {
    const { provider, backend } = setup();
    const { user } = await provider.createUser(EMAIL, PASSWORD, 'Ann');
    const first = provider.getCurrentUser();
    expect(provider.getCurrentUser()).toBe(first);
    expect(first).toEqual(user);
    backend.updateUser(user.uid, { displayName: 'Ann B.' });
    expect(provider.getCurrentUser()).not.toBe(first);
    expect(provider.getCurrentUser()?.displayName).toBe('Ann B.');
  });

  it('backend.subscribe - should notify after calls and admin changes until unsubscribed', async () => {
    const { provider, backend } = setup();
    const listener = vi.fn();
    const unsubscribe = backend.subscribe(listener);
    await provider.signInAnonymously();
    backend.createUser({ email: EMAIL });
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    await provider.signOut();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('backend.reset - should forget everything and restart the ids, keeping the seeded users', async () => {
    const { provider, backend } = setup({ users: [{ email: EMAIL, password: PASSWORD }] });
    await provider.createUser('b@example.com', PASSWORD);
    await provider.setTenant('acme');
    backend.faults.set({ network: true });
    backend.reset();
    expect(provider.getCurrentUser()).toBeNull();
    expect(backend.tenantId).toBeNull();
    expect(backend.calls).toHaveLength(0);
    expect(backend.listUsers().map((u) => [u.uid, u.email])).toEqual([['uid-1', EMAIL]]);
    await expect(provider.signInWithEmailAndPassword(EMAIL, PASSWORD)).resolves.toMatchObject({
      isNewUser: false,
    });
  });
});

describe('createFakeProvider - calls log', () => {
  it('backend.calls - should log each round trip with the clock time, and nothing for local methods', async () => {
    const { provider, backend, clock } = setup();
    await provider.createUser(EMAIL, PASSWORD);
    clock.advance(1000);
    await expectAuthError(provider.signInWithEmailAndPassword(EMAIL, 'wrong-1'), 'wrong-password');
    provider.getCurrentUser();
    provider.isSignInWithEmailLink(URL_BASE);
    provider.createCaptchaVerifier(null);
    expect(backend.calls).toEqual([
      { method: 'createUser', at: START },
      { method: 'signInWithEmailAndPassword', at: START + 1000 },
    ]);
    backend.clearCalls();
    expect(backend.calls).toHaveLength(0);
  });

  it('createUser - should sign in with the display name in one round trip', async () => {
    const { provider, backend } = setup();
    await provider.createUser(EMAIL, PASSWORD, 'Ann');
    expect(backend.calls.map((c) => c.method)).toEqual(['createUser']);
    expect(provider.getCurrentUser()?.displayName).toBe('Ann');
  });
});

describe('createFakeProvider - rejections', () => {
  it('every method - should resolve or reject with an AuthError, whatever the input', async () => {
    const { provider } = setup();
    const text = fc.oneof(
      fc.string(),
      fc.emailAddress(),
      fc.webUrl(),
      fc.constantFrom('', ' ', '+1', 'oob-1', 'vid-1'),
    );
    await fc.assert(
      fc.asyncProperty(text, text, async (a, b) => {
        const attempts: Promise<unknown>[] = [
          provider.fetchSignInMethodsForEmail(a),
          provider.signInWithEmailAndPassword(a, b),
          provider.createUser(a, b, b),
          provider.signInWithCredential({ kind: 'federated', providerId: 'google.com', idToken: a }),
          provider.signInWithCredential({ kind: 'emailLink', email: a, link: b }),
          provider.startPhoneSignIn(a, provider.createCaptchaVerifier(null)),
          provider.confirmPhoneCode(a, b),
          provider.sendSignInLinkToEmail(a, { url: b }),
          provider.signInWithEmailLink(a, b, { link: true }),
          provider.sendPasswordResetEmail(a),
          provider.verifyPasswordResetCode(a),
          provider.confirmPasswordReset(a, b),
          provider.checkActionCode(a),
          provider.applyActionCode(a),
          provider.linkWithCredential({ kind: 'password', email: a, password: b }),
          provider.signInWithFederated(a, { mode: 'popup' }),
          provider.setTenant(a),
        ];
        for (const outcome of await Promise.allSettled(attempts)) {
          if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(AuthError);
        }
        expect(typeof provider.isSignInWithEmailLink(a)).toBe('boolean');
        await provider.signOut();
      }),
      { numRuns: 100 },
    );
  });
});
