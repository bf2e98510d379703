// Phone sign-in and anonymous users against the emulator. Phone runs in Node because vitest.config.ts
// loads the SDK's browser build (its Node build stubs phone sign-in out); with app verification disabled
// for testing and no DOM, createCaptchaVerifier gives the SDK-equivalent mock reCAPTCHA.
import type { AuthCredential } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import {
  createAccount,
  expectAuthError,
  freshProvider,
  lastSmsCode,
  resetEmulator,
  uniqueEmail,
  uniquePhone,
} from './emulator.ts';

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

describe('phone', () => {
  it('startPhoneSignIn + confirmPhoneCode - should send an SMS code and sign in with it', async () => {
    const phone = uniquePhone();
    const verifier = provider.createCaptchaVerifier(null);
    await verifier.render();
    expect(verifier.isSolved()).toBe(true);
    const { verificationId } = await provider.startPhoneSignIn(phone, verifier);
    const sms = await lastSmsCode(phone);
    expect(sms.sessionInfo).toBe(verificationId);
    expect(sms.code).toMatch(/^\d{6}$/);
    const result = await provider.confirmPhoneCode(verificationId, sms.code);
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'phone',
      user: { phoneNumber: phone, providerIds: ['phone'], isAnonymous: false },
    });
  });

  it('confirmPhoneCode - should reject a wrong code with invalid-verification-code and accept the right one after', async () => {
    const phone = uniquePhone();
    const { verificationId } = await provider.startPhoneSignIn(phone, provider.createCaptchaVerifier(null));
    const error = await expectAuthError(
      provider.confirmPhoneCode(verificationId, '000000'),
      'invalid-verification-code',
    );
    expect(error.message).toBe('Wrong code. Try again.');
    const { code } = await lastSmsCode(phone);
    await expect(provider.confirmPhoneCode(verificationId, code)).resolves.toMatchObject({
      providerId: 'phone',
    });
  });

  it('confirmPhoneCode - should reject an unknown verification id with code-expired', async () => {
    await expectAuthError(provider.confirmPhoneCode('no-such-session', '123456'), 'code-expired');
  });

  it('signInWithCredential - should sign in with a phone credential', async () => {
    const phone = uniquePhone();
    const { verificationId } = await provider.startPhoneSignIn(phone, provider.createCaptchaVerifier(null));
    const { code } = await lastSmsCode(phone);
    const result = await provider.signInWithCredential({ kind: 'phone', verificationId, code });
    expect(result).toMatchObject({ providerId: 'phone', user: { phoneNumber: phone } });
  });

  it('startPhoneSignIn - should reject a malformed number with invalid-phone-number', async () => {
    await expectAuthError(
      provider.startPhoneSignIn('12345', provider.createCaptchaVerifier(null)),
      'invalid-phone-number',
    );
  });
});

describe('anonymous', () => {
  it('signInAnonymously - should sign in an anonymous user', async () => {
    const result = await provider.signInAnonymously();
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'anonymous',
      user: { isAnonymous: true, email: null, providerIds: [] },
    });
    expect(provider.getCurrentUser()?.isAnonymous).toBe(true);
  });

  it('linkWithCredential - should upgrade an anonymous user with a password, keeping the uid', async () => {
    const { user } = await provider.signInAnonymously();
    const email = uniqueEmail('upgrade');
    const result = await provider.linkWithCredential({ kind: 'password', email, password: 'secret123' });
    expect(result).toMatchObject({
      providerId: 'password',
      user: { uid: user.uid, email, isAnonymous: false, providerIds: ['password'] },
    });
  });

  it('linkWithCredential - should reject an email of another account with email-already-in-use, carrying the credential', async () => {
    const email = uniqueEmail('taken');
    await createAccount({ email, password: 'secret123' });
    await provider.signInAnonymously();
    const credential = { kind: 'password', email, password: 'secret123' } as const;
    const error = await expectAuthError(provider.linkWithCredential(credential), 'email-already-in-use');
    expect(error.credential).toEqual(credential);
  });

  it('confirmPhoneCode - should link a phone number to an anonymous user with { link: true }', async () => {
    const { user } = await provider.signInAnonymously();
    const phone = uniquePhone();
    const { verificationId } = await provider.startPhoneSignIn(phone, provider.createCaptchaVerifier(null));
    const { code } = await lastSmsCode(phone);
    const result = await provider.confirmPhoneCode(verificationId, code, { link: true });
    expect(result).toMatchObject({
      providerId: 'phone',
      user: { uid: user.uid, phoneNumber: phone, isAnonymous: false, providerIds: ['phone'] },
    });
  });

  it('confirmPhoneCode - should reject linking a number of another account with credential-already-in-use', async () => {
    const phone = uniquePhone();
    await createAccount({ phoneNumber: phone });
    await provider.signInAnonymously();
    const { verificationId } = await provider.startPhoneSignIn(phone, provider.createCaptchaVerifier(null));
    const { code } = await lastSmsCode(phone);
    const error = await expectAuthError(
      provider.confirmPhoneCode(verificationId, code, { link: true }),
      'credential-already-in-use',
    );
    // The pending phone credential still signs in to the account that has the number (merge conflict).
    expect(error.credential).toEqual({ kind: 'phone', verificationId, code });
    await provider.signOut();
    const result = await provider.signInWithCredential(error.credential as AuthCredential);
    expect(result.user.phoneNumber).toBe(phone);
    expect(result.isNewUser).toBe(false);
  });
});
