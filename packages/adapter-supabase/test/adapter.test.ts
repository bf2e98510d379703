/**
 * Focused tests of the Supabase adapter, against the GoTrue double (no Supabase Auth server runs here).
 */

import {
  AuthError,
  confirmPasswordResetAction,
  createFlow,
  createMemoryStorage,
  type ErrorCode,
  type Flow,
  handleActionCode,
  messageFor,
  normalizeConfig,
  type WidgetConfigInput,
  waitForProvider,
} from '@doorway/auth-core';
import { GOTRUE_DEFAULT_TEMPLATES } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import {
  AuthApiError,
  AuthPKCECodeVerifierMissingError,
  AuthRetryableFetchError,
  AuthSessionMissingError,
  AuthUnknownError,
  AuthWeakPasswordError,
  GoTrueClient,
} from '@supabase/supabase-js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createSupabaseProvider,
  lazySupabaseProvider,
  mapSupabaseErrorCode,
  parseActionCode,
  SUPABASE_ERROR_TABLE,
  type SupabaseErrorContext,
  toAuthError,
} from '../src/index.ts';
import { ACTION_URL, createSupabaseHarness, server } from './harness.ts';

afterAll(() => server.close());

const PASSWORD = 'Secret-123';
const RAW = 'RAW SUPABASE TEXT that must never reach a person';
let n = 0;
const email = (label: string) => `${label}-${++n}@example.com`;
const phone = () => `+1650555${String(1000 + ++n).slice(-4)}`;

function widget(
  provider: Parameters<typeof createFlow>[0]['provider'],
  input: WidgetConfigInput,
  url: string,
): Flow {
  return createFlow({
    provider,
    config: normalizeConfig({ displayMode: 'identifierFirst', ...input }, 'http://localhost'),
    url,
    storage: createMemoryStorage(),
    createId: () => `sid-${++n}`,
    navigate: () => {},
  });
}

async function card(flow: Flow, name: string): Promise<void> {
  await vi.waitFor(() => expect(flow.getSnapshot().card).toBe(name), { timeout: 3000 });
}

describe('toAuthError - the error table', () => {
  // Every code of the table, with the catalogue code each context must give (the README's table).
  const EXPECTED: readonly [string, SupabaseErrorContext, ErrorCode][] = [
    ['invalid_credentials', 'password', 'wrong-password'],
    ['user_already_exists', 'signUp', 'email-already-in-use'],
    ['email_exists', 'update', 'email-already-in-use'],
    ['phone_exists', 'phone', 'credential-already-in-use'],
    ['identity_already_exists', 'federated', 'credential-already-in-use'],
    ['weak_password', 'signUp', 'weak-password'],
    ['same_password', 'link', 'weak-password'],
    ['over_request_rate_limit', 'password', 'too-many-requests'],
    ['over_request_rate_limit', 'signUp', 'sign-up-too-many-requests'],
    ['over_request_rate_limit', 'phone', 'phone-too-many-requests'],
    ['over_request_rate_limit', 'sms', 'phone-too-many-requests'],
    ['over_email_send_rate_limit', 'email', 'too-many-requests'],
    ['over_email_send_rate_limit', 'signUp', 'sign-up-too-many-requests'],
    ['over_sms_send_rate_limit', 'phone', 'phone-too-many-requests'],
    ['otp_expired', 'sms', 'code-expired'],
    ['otp_expired', 'link', 'invalid-action-code'],
    ['signup_disabled', 'signUp', 'sign-up-disabled'],
    ['otp_disabled', 'email', 'sign-up-disabled'],
    ['email_address_invalid', 'signUp', 'invalid-email'],
    ['validation_failed', 'password', 'invalid-email'],
    ['validation_failed', 'signUp', 'invalid-email'],
    ['validation_failed', 'phone', 'invalid-phone-number'],
    ['validation_failed', 'sms', 'invalid-verification-code'],
    ['validation_failed', 'link', 'invalid-action-code'],
    ['validation_failed', 'federated', 'operation-not-allowed'],
    ['validation_failed', 'other', 'generic'],
    ['email_provider_disabled', 'email', 'operation-not-allowed'],
    ['phone_provider_disabled', 'phone', 'operation-not-allowed'],
    ['provider_disabled', 'federated', 'operation-not-allowed'],
    ['anonymous_provider_disabled', 'anonymous', 'operation-not-allowed'],
    ['manual_linking_disabled', 'federated', 'operation-not-allowed'],
    ['oauth_provider_not_supported', 'federated', 'operation-not-allowed'],
    ['email_address_not_authorized', 'email', 'operation-not-allowed'],
    ['email_not_confirmed', 'password', 'operation-not-allowed'],
    ['phone_not_confirmed', 'password', 'operation-not-allowed'],
    ['provider_email_needs_verification', 'federated', 'operation-not-allowed'],
    ['user_banned', 'password', 'user-disabled'],
    ['user_not_found', 'other', 'user-not-found'],
    ['captcha_failed', 'phone', 'captcha-check-failed'],
    ['reauthentication_needed', 'update', 'requires-recent-login'],
    ['reauthentication_not_valid', 'update', 'requires-recent-login'],
    ['session_not_found', 'update', 'requires-recent-login'],
    ['session_not_found', 'link', 'invalid-action-code'],
    ['session_expired', 'update', 'requires-recent-login'],
    ['refresh_token_not_found', 'update', 'requires-recent-login'],
    ['refresh_token_already_used', 'update', 'requires-recent-login'],
    ['bad_jwt', 'update', 'requires-recent-login'],
    ['no_authorization', 'update', 'requires-recent-login'],
    ['bad_code_verifier', 'link', 'session-expired'],
    ['pkce_code_verifier_not_found', 'federated', 'session-expired'],
    ['flow_state_not_found', 'link', 'invalid-action-code'],
    ['flow_state_not_found', 'federated', 'session-expired'],
    ['flow_state_expired', 'link', 'expired-action-code'],
    ['flow_state_expired', 'federated', 'session-expired'],
    ['bad_oauth_state', 'federated', 'session-expired'],
    ['bad_oauth_callback', 'federated', 'session-expired'],
    ['request_timeout', 'other', 'network-request-failed'],
    ['validation_failed', 'mfaEnroll', 'invalid-phone-number'],
    ['validation_failed', 'mfaSignIn', 'invalid-verification-code'],
    ['session_not_found', 'mfaSignIn', 'code-expired'],
    ['refresh_token_already_used', 'mfaSignIn', 'code-expired'],
    ['mfa_verification_failed', 'mfaSignIn', 'invalid-verification-code'],
    ['mfa_verification_failed', 'mfaEnroll', 'invalid-verification-code'],
    ['mfa_challenge_expired', 'mfaSignIn', 'code-expired'],
    ['mfa_ip_address_mismatch', 'mfaSignIn', 'code-expired'],
    ['mfa_factor_not_found', 'mfaSignIn', 'code-expired'],
    ['mfa_factor_not_found', 'mfaEnroll', 'code-expired'],
    ['mfa_factor_not_found', 'other', 'generic'],
    ['mfa_verified_factor_exists', 'mfaEnroll', 'credential-already-in-use'],
    ['insufficient_aal', 'mfaEnroll', 'requires-recent-login'],
    ['insufficient_aal', 'other', 'requires-recent-login'],
    ['too_many_enrolled_mfa_factors', 'mfaEnroll', 'operation-not-allowed'],
    ['mfa_totp_enroll_not_enabled', 'mfaEnroll', 'operation-not-allowed'],
    ['mfa_totp_verify_not_enabled', 'mfaSignIn', 'operation-not-allowed'],
    ['mfa_phone_enroll_not_enabled', 'mfaEnroll', 'operation-not-allowed'],
    ['mfa_phone_verify_not_enabled', 'mfaSignIn', 'operation-not-allowed'],
    ['validation_failed', 'passkey', 'passkey-not-found'],
    ['passkey_disabled', 'passkey', 'operation-not-allowed'],
    ['too_many_passkeys', 'passkey', 'operation-not-allowed'],
    ['webauthn_challenge_not_found', 'passkey', 'session-expired'],
    ['webauthn_challenge_expired', 'passkey', 'session-expired'],
    ['webauthn_verification_failed', 'passkey', 'passkey-invalid'],
    ['webauthn_credential_exists', 'passkey', 'credential-already-in-use'],
    ['single_identity_not_deletable', 'account', 'last-sign-in-method'],
    ['identity_not_found', 'account', 'operation-not-allowed'],
    ['email_conflict_identity_not_deletable', 'account', 'operation-not-allowed'],
  ];

  it('SUPABASE_ERROR_TABLE - should have an expectation for every code it maps', () => {
    expect(new Set(EXPECTED.map(([code]) => code))).toEqual(new Set(Object.keys(SUPABASE_ERROR_TABLE)));
  });

  it.each(EXPECTED)(
    'toAuthError - should map %s in context %s to %s, with the catalogue text',
    (code, context, expected) => {
      const error = toAuthError(new AuthApiError(RAW, 400, code), context);
      expect(error).toBeInstanceOf(AuthError);
      expect(error.code).toBe(expected);
      expect(error.message).toBe(messageFor(expected));
      expect(mapSupabaseErrorCode(code, context)).toBe(expected);
    },
  );

  it('toAuthError - should map unknown codes, codeless errors and non-errors to generic', () => {
    for (const thrown of [
      new AuthApiError(RAW, 418, 'a_code_gotrue_may_add_later'),
      new AuthApiError(RAW, 400, undefined),
      new AuthUnknownError(RAW, new Error(RAW)),
      new Error(RAW),
      RAW,
      null,
      undefined,
    ]) {
      const error = toAuthError(thrown, 'password');
      expect(error.code).toBe('generic');
      expect(error.message).toBe(messageFor('generic'));
    }
  });

  it('toAuthError - should map fetch failures and 5xx to network-request-failed', () => {
    expect(toAuthError(new AuthRetryableFetchError(RAW, 0)).code).toBe('network-request-failed');
    expect(toAuthError(new AuthRetryableFetchError(RAW, 503)).code).toBe('network-request-failed');
  });

  it('toAuthError - should map supabase-js client-side errors', () => {
    expect(toAuthError(new AuthSessionMissingError(), 'update').code).toBe('requires-recent-login');
    expect(toAuthError(new AuthPKCECodeVerifierMissingError(), 'link').code).toBe('session-expired');
    expect(toAuthError(new AuthWeakPasswordError(RAW, 422, ['length']), 'signUp').code).toBe('weak-password');
  });

  it('toAuthError - should keep a Doorway AuthError and its details', () => {
    const original = new AuthError('email-already-in-use', { email: 'a@example.com' });
    expect(toAuthError(original, 'update')).toBe(original);
    const credential = { kind: 'password', email: 'a@example.com', password: 'x' } as const;
    expect(
      toAuthError(new AuthApiError(RAW, 422, 'email_exists'), 'update', { credential }).credential,
    ).toEqual(credential);
  });

  it.each([true, false])(
    'signInWithEmailAndPassword - should map GoTrue error bodies (API versioning %s) without their text',
    async (apiVersioning) => {
      const { provider, double } = createSupabaseHarness({ double: { apiVersioning } });
      double.faults.failNext('POST /token', { status: 429, code: 'over_request_rate_limit', message: RAW });
      const error = await expectAuthError(
        provider.signInWithEmailAndPassword(email('rate'), PASSWORD),
        'too-many-requests',
      );
      expect(error.message).toBe(messageFor('too-many-requests'));
      expect(JSON.stringify(error)).not.toContain('RAW');
    },
  );

  it('every method - should reject network-request-failed, never a raw message, when the network is down', async () => {
    // supabase-js logs the fetch failure itself; keep the test output clean.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { provider, double } = createSupabaseHarness();
    double.faults.network = true;
    const verifier = provider.createCaptchaVerifier(null);
    const calls: (() => Promise<unknown>)[] = [
      () => provider.signInWithEmailAndPassword(email('net'), PASSWORD),
      () => provider.createUser(email('net'), PASSWORD),
      () => provider.sendPasswordResetEmail(email('net')),
      () => provider.sendSignInLinkToEmail(email('net'), { url: ACTION_URL, handleCodeInApp: true }),
      () => provider.signInAnonymously(),
      () => provider.startPhoneSignIn(phone(), verifier),
      () => provider.verifyPasswordResetCode(`recovery-${'a'.repeat(56)}`),
      () => provider.checkActionCode(`signup-${'b'.repeat(56)}`),
    ];
    for (const call of calls) {
      const error = await expectAuthError(call(), 'network-request-failed');
      expect(error.message).toBe(messageFor('network-request-failed'));
    }
    logged.mockRestore();
    double.faults.network = false;
    double.faults.serverError = true;
    await expectAuthError(
      provider.signInWithEmailAndPassword(email('net'), PASSWORD),
      'network-request-failed',
    );
  });
});

describe('magic link opened in another browser (PKCE)', () => {
  it('signInWithEmailLink - should sign in with a Doorway template link in a browser without the code verifier', async () => {
    const first = createSupabaseHarness({ flowType: 'pkce' });
    const address = email('pkce');
    await first.provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const link = first.double.outbox.lastEmail(address)?.link ?? '';
    // Issued in a PKCE flow (GoTrue stores and mails a `pkce_` token hash) ...
    expect(parseActionCode(new URL(link).searchParams.get('oobCode') ?? '')?.tokenHash).toMatch(/^pkce_/);

    // Another browser: a second client on the same project, with empty storage (no code verifier).
    const other = createSupabaseHarness({ on: first.double, flowType: 'pkce' });
    const flow = widget(
      other.provider,
      { signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] },
      link,
    );
    // The widget does not know this browser: it asks for the email (the confirmation card) ...
    await card(flow, 'emailLinkConfirmation');
    flow.send({ type: 'CONFIRM_EMAIL', email: address });
    // ... and the token-hash link needs no verifier, so the sign-in completes.
    await card(flow, 'signedIn');
    expect(other.provider.getCurrentUser()?.email).toBe(address);
    flow.dispose();
  });

  it('signInWithEmailLink - should reject session-expired for a PKCE code link opened without the verifier, and succeed where it was asked', async () => {
    // A project that kept Supabase's default templates: the mail links to GoTrue's /verify, which redirects
    // back with a PKCE `code` that only the requesting browser can exchange.
    const first = createSupabaseHarness({
      flowType: 'pkce',
      double: { templates: GOTRUE_DEFAULT_TEMPLATES },
    });
    const address = email('pkcecode');
    await first.provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const mailed = first.double.outbox.lastEmail(address)?.link ?? '';
    const landing = first.double.follow(mailed);
    expect(new URL(landing).searchParams.get('code')).toEqual(expect.any(String));
    expect(first.provider.isSignInWithEmailLink(landing)).toBe(true);

    const other = createSupabaseHarness({ on: first.double, flowType: 'pkce' });
    const before = first.double.requests.length;
    const error = await expectAuthError(
      other.provider.signInWithEmailLink(address, landing),
      'session-expired',
    );
    expect(error.message).toBe('Your sign-in session has expired. Please try again.');
    // supabase-js refuses before any request: the code is still good for the browser that asked.
    expect(first.double.requests.length).toBe(before);
    expect(other.provider.getCurrentUser()).toBeNull();

    const result = await first.provider.signInWithEmailLink(address, landing);
    expect(result).toMatchObject({ providerId: 'emailLink', isNewUser: true });
    expect(result.user.email).toBe(address);
  });
});

describe('the combined, enumeration-safe path', () => {
  it('fetchSignInMethodsForEmail - should resolve [] without asking Supabase, and declare lookups unreliable', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('exists');
    double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true });
    const before = double.requests.length;
    await expect(provider.fetchSignInMethodsForEmail(address)).resolves.toEqual([]);
    expect(double.requests.length).toBe(before);
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
  });

  it('widget - should go from email entry to the combined sign-in card for known and unknown emails alike', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('combined');
    double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true });
    const config = { signInOptions: ['email'] } as const;

    const unknown = widget(provider, config, 'http://localhost/login');
    await card(unknown, 'emailEntry');
    unknown.send({ type: 'SUBMIT_EMAIL', email: email('nobody') });
    await card(unknown, 'passwordSignIn');
    expect(unknown.getSnapshot()).toMatchObject({ offerSignUp: true });
    unknown.send({ type: 'SUBMIT_PASSWORD', password: PASSWORD });
    await vi.waitFor(() => expect(unknown.getSnapshot().error).toBe('wrong-password'));
    unknown.dispose();

    const before = double.requests.length;
    const known = widget(provider, config, 'http://localhost/login');
    await card(known, 'emailEntry');
    known.send({ type: 'SUBMIT_EMAIL', email: address });
    await card(known, 'passwordSignIn');
    expect(known.getSnapshot()).toMatchObject({ offerSignUp: true });
    // No lookup request: the card is the same whether or not the account exists.
    expect(double.requests.length).toBe(before);
    known.send({ type: 'SUBMIT_PASSWORD', password: PASSWORD });
    await card(known, 'signedIn');
    expect(double.requests.length).toBe(before + 1);
    known.dispose();
  });
});

describe('anonymous upgrade', () => {
  it('linkWithCredential - should upgrade with a password in one request when "Confirm email" is off', async () => {
    const { provider, double } = createSupabaseHarness();
    const anonymous = await provider.signInAnonymously();
    const before = double.requests.length;
    const result = await provider.linkWithCredential({
      kind: 'password',
      email: email('up'),
      password: PASSWORD,
    });
    expect(double.requests.length).toBe(before + 1);
    expect(result.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false, emailVerified: true });
  });

  it('linkWithCredential - should reject operation-not-allowed while the email waits for confirmation, then upgrade through the link', async () => {
    const { provider, double } = createSupabaseHarness({ double: { mailerAutoconfirm: false } });
    const anonymous = await provider.signInAnonymously();
    const address = email('pending');
    const error = await expectAuthError(
      provider.linkWithCredential({ kind: 'password', email: address, password: PASSWORD }),
      'operation-not-allowed',
    );
    expect(error.email).toBe(address);
    expect(provider.getCurrentUser()).toMatchObject({ uid: anonymous.user.uid, isAnonymous: true });

    const link = double.outbox.lastEmail(address, 'email_change')?.link ?? '';
    expect(new URL(link).searchParams.get('mode')).toBe('verifyAndChangeEmail');
    await expect(handleActionCode(link, provider)).resolves.toMatchObject({
      card: 'verifyAndChangeEmailSuccess',
      email: address,
    });
    await provider.signOut();
    const again = await provider.signInWithEmailAndPassword(address, PASSWORD);
    expect(again.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false });
  });

  it('signInWithEmailLink - should upgrade through an email_change link when "Confirm email" is on', async () => {
    const { provider, double } = createSupabaseHarness({ double: { mailerAutoconfirm: false } });
    const anonymous = await provider.signInAnonymously();
    const address = email('anonlink');
    await provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const mail = double.outbox.lastEmail(address);
    expect(mail?.type).toBe('email_change');
    const result = await provider.signInWithEmailLink(address, mail?.link ?? '', { link: true });
    expect(result.user).toMatchObject({ uid: anonymous.user.uid, email: address, isAnonymous: false });
  });

  it("linkWithCredential - should refuse another account's email link without using it", async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('owned');
    const owner = String(
      double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true }).id,
    );
    await provider.signInAnonymously();
    await provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const link = double.outbox.lastEmail(address, 'magiclink')?.link ?? '';
    const credential = { kind: 'emailLink', email: address, link } as const;
    const error = await expectAuthError(provider.linkWithCredential(credential), 'email-already-in-use');
    expect(error.credential).toEqual(credential);
    // The link is still good: the app can sign the person in to the existing account with it.
    const result = await provider.signInWithCredential(credential);
    expect(result.user.uid).toBe(owner);
  });

  it('signInWithFederated - should link an OAuth identity to the anonymous user in a PKCE popup', async () => {
    const { provider, double } = createSupabaseHarness({ flowType: 'pkce' });
    const anonymous = await provider.signInAnonymously();
    double.idp.queue({ sub: 'pkce-popup', email: email('popup'), displayName: 'Pop Up' });
    const result = await provider.signInWithFederated('google.com', { mode: 'popup', link: true });
    expect(result).toMatchObject({ providerId: 'google.com', isNewUser: false });
    expect(result?.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false, displayName: null });
    expect(result?.user.providerIds).toContain('google.com');
  });
});

describe('sign-up and action codes', () => {
  it('createUser - should reject operation-not-allowed when "Confirm email" is on, after mailing a verifyEmail link that works', async () => {
    const { provider, double } = createSupabaseHarness({ double: { mailerAutoconfirm: false } });
    const address = email('confirm');
    const error = await expectAuthError(
      provider.createUser(address, PASSWORD, 'Ada'),
      'operation-not-allowed',
    );
    expect(error.email).toBe(address);
    expect(provider.getCurrentUser()).toBeNull();
    const link = double.outbox.lastEmail(address, 'signup')?.link ?? '';
    expect(link.startsWith(`${ACTION_URL}?mode=verifyEmail&`)).toBe(true);
    await expect(handleActionCode(link, provider)).resolves.toMatchObject({
      card: 'emailVerificationSuccess',
    });
    const code = new URL(link).searchParams.get('oobCode') ?? '';
    // Applied once: a second use is refused, as is checking it.
    await expectAuthError(provider.applyActionCode(code), 'invalid-action-code');
    await expectAuthError(provider.checkActionCode(code), 'invalid-action-code');
    await provider.signOut();
    const result = await provider.signInWithEmailAndPassword(address, PASSWORD);
    expect(result.user).toMatchObject({ emailVerified: true, displayName: 'Ada' });
  });

  it('createUser - should reject email-already-in-use for Supabase\'s decoy user when "Confirm email" is on', async () => {
    const { provider, double } = createSupabaseHarness({ double: { mailerAutoconfirm: false } });
    const address = email('decoy');
    double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true });
    await expectAuthError(provider.createUser(address, PASSWORD), 'email-already-in-use');
  });

  it('checkActionCode - should describe a verifyAndChangeEmail code (previousEmail is null: Supabase does not return it)', async () => {
    const { provider, double } = createSupabaseHarness();
    const before = email('before');
    const after = email('after');
    const uid = String(
      double.admin.createUser({ email: before, password: PASSWORD, email_confirm: true }).id,
    );
    const generated = double.admin.generateLink({
      type: 'email_change_new',
      email: before,
      new_email: after,
    });
    const code = `email_change-${generated.hashed_token}`;
    await expect(provider.checkActionCode(code)).resolves.toEqual({
      operation: 'verifyAndChangeEmail',
      email: after,
      previousEmail: null,
    });
    await provider.applyActionCode(code);
    const result = await provider.signInWithEmailAndPassword(after, PASSWORD);
    expect(result.user).toMatchObject({ uid, email: after, emailVerified: true });
  });

  it('confirmPasswordResetAction - should keep the code usable after a weak password', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('reset');
    double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true });
    await provider.sendPasswordResetEmail(address);
    const link = double.outbox.lastEmail(address, 'recovery')?.link ?? '';
    const opened = await handleActionCode(link, provider);
    expect(opened).toMatchObject({ card: 'passwordReset', email: address });
    const code = new URL(link).searchParams.get('oobCode') ?? '';
    double.faults.failNext('PUT /user', { status: 422, code: 'weak_password', message: RAW });
    await expect(confirmPasswordResetAction(code, address, 'Stronger-456', provider)).resolves.toMatchObject({
      card: 'passwordReset',
      error: 'weak-password',
    });
    await expect(confirmPasswordResetAction(code, address, 'Stronger-456', provider)).resolves.toMatchObject({
      card: 'passwordResetSuccess',
    });
    await expect(confirmPasswordResetAction(code, address, 'Another-789', provider)).resolves.toEqual({
      card: 'passwordResetFailure',
    });
  });

  it('checkActionCode - should refuse sign-in links (operation-not-allowed) without using them', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('notcode');
    await provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const link = double.outbox.lastEmail(address)?.link ?? '';
    await expectAuthError(
      provider.checkActionCode(new URL(link).searchParams.get('oobCode') ?? ''),
      'operation-not-allowed',
    );
    await expect(provider.signInWithEmailLink(address, link)).resolves.toMatchObject({
      providerId: 'emailLink',
    });
  });
});

describe('email links', () => {
  it('signInWithEmailLink - should refuse another email before using the link, which still works afterwards', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('mine');
    await provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const link = double.outbox.lastEmail(address)?.link ?? '';
    const before = double.requests.length;
    await expectAuthError(provider.signInWithEmailLink(email('yours'), link), 'email-mismatch');
    expect(double.requests.length).toBe(before);
    await expect(provider.signInWithEmailLink(address, link)).resolves.toMatchObject({ isNewUser: true });
  });

  it('signInWithEmailLink - should sign out again when a link without the email hash belongs to another email', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('nohash');
    await provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true });
    const url = new URL(double.outbox.lastEmail(address)?.link ?? '');
    url.searchParams.delete('doorway_eh');
    await expectAuthError(provider.signInWithEmailLink(email('other'), url.href), 'email-mismatch');
    expect(provider.getCurrentUser()).toBeNull();
  });

  it('sendSignInLinkToEmail - should ask once for a known email and twice (create_user off, then on) for a new one', async () => {
    const { provider, double } = createSupabaseHarness();
    const known = email('known');
    double.admin.createUser({ email: known, password: PASSWORD, email_confirm: true });
    const otp = () => double.requests.filter((r) => r.path === '/otp').length;
    await provider.sendSignInLinkToEmail(known, { url: ACTION_URL, handleCodeInApp: true });
    expect(otp()).toBe(1);
    await provider.sendSignInLinkToEmail(email('new'), { url: ACTION_URL, handleCodeInApp: true });
    expect(otp()).toBe(3);
  });

  it('sendSignInLinkToEmail - should send nothing and say nothing for an unknown email when sign-up by link is off', async () => {
    const { provider, double } = createSupabaseHarness({ settings: { emailLinkSignUp: false } });
    const address = email('closed');
    await expect(
      provider.sendSignInLinkToEmail(address, { url: ACTION_URL, handleCodeInApp: true }),
    ).resolves.toBeUndefined();
    expect(double.outbox.lastEmail(address)).toBeNull();
  });
});

describe('phone', () => {
  it('confirmPhoneCode - should reject code-expired once the code has outlived its lifetime', async () => {
    let now = Date.UTC(2030, 0, 1);
    const clock = {
      now: () => now,
      setTimeout: (fn: () => void) => setTimeout(fn, 0),
      clearTimeout: () => {},
    };
    const { provider, double } = createSupabaseHarness({ settings: { clock } });
    const number = phone();
    const { verificationId } = await provider.startPhoneSignIn(number, provider.createCaptchaVerifier(null));
    const code = double.outbox.lastSms(number)?.otp ?? '';
    now += 61_000;
    double.clock.advance(61_000);
    await expectAuthError(provider.confirmPhoneCode(verificationId, code), 'code-expired');
  });

  it('createCaptchaVerifier - should count as solved without a configured captcha (Supabase renders none)', async () => {
    const { provider } = createSupabaseHarness();
    const verifier = provider.createCaptchaVerifier(null);
    await verifier.render();
    expect(verifier.isSolved()).toBe(true);
    expect(provider.capabilities.captcha).toBe(false);
  });
});

describe('provider', () => {
  it('capabilities - should declare what Supabase has', () => {
    const { provider } = createSupabaseHarness();
    expect(provider.capabilities).toEqual({
      password: true,
      emailLink: true,
      phone: true,
      anonymous: true,
      federated: ['google.com', 'github.com'],
      popup: true,
      redirect: true,
      tenants: false,
      reliableSignInMethodLookup: false,
      actionCodes: ['resetPassword', 'verifyEmail', 'verifyAndChangeEmail'],
      captcha: false,
      secondFactors: ['totp', 'phone'],
      passkeys: true,
      account: [
        'updateProfile',
        'changeEmail',
        'changePassword',
        'listMethods',
        'unlink',
        'signOutOtherSessions',
      ],
    });
    const { provider: noMfa } = createSupabaseHarness({ settings: { secondFactors: [] } });
    expect(noMfa.capabilities.secondFactors).toBeUndefined();
    expect(noMfa.secondFactors).toBeUndefined();
  });

  it('setTenant - should accept only the project itself', async () => {
    const { provider } = createSupabaseHarness();
    await expect(provider.setTenant(null)).resolves.toBeUndefined();
    await expectAuthError(provider.setTenant('tenant-a'), 'operation-not-allowed');
  });

  it('getCurrentUser - should follow a sign-out made on the client directly', async () => {
    const { provider } = createSupabaseHarness();
    await provider.createUser(email('direct'), PASSWORD);
    await provider.client.auth.signOut({ scope: 'local' });
    expect(provider.getCurrentUser()).toBeNull();
  });

  it('signInWithEmailAndPassword - should make one request', async () => {
    const { provider, double } = createSupabaseHarness();
    const address = email('once');
    double.admin.createUser({ email: address, password: PASSWORD, email_confirm: true });
    const before = double.requests.length;
    await provider.signInWithEmailAndPassword(address, PASSWORD);
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /token']);
  });

  it('createSupabaseProvider - should work on a client the app created', async () => {
    const { double } = createSupabaseHarness();
    const auth = new GoTrueClient({
      url: double.authUrl,
      headers: { apikey: double.anonKey, Authorization: `Bearer ${double.anonKey}` },
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    });
    const provider = createSupabaseProvider({ client: { auth } });
    const result = await provider.createUser(email('own'), PASSWORD);
    expect(provider.getCurrentUser()).toEqual(result.user);
    expect((await auth.getUser()).data.user?.id).toBe(result.user.uid);
    provider.dispose();
  });

  it('lazySupabaseProvider - should hand the widget the provider once its session is loaded', async () => {
    const { double } = createSupabaseHarness();
    const lazy = lazySupabaseProvider({ url: double.projectUrl, anonKey: double.anonKey });
    expect(lazy.getProvider()).toBeNull();
    const provider = await waitForProvider(lazy);
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(false);
    expect(provider.getCurrentUser()).toBeNull();
  });

  it("getRedirectResult - should ignore a URL that did not come back from the adapter's own OAuth sign-in", async () => {
    const { provider, browser } = createSupabaseHarness();
    browser.url = 'http://localhost/app?code=someone-elses#access_token=x&refresh_token=y';
    await expect(provider.getRedirectResult()).resolves.toBeNull();
  });
});
