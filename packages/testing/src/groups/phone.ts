/**
 * Phone sign-in: captcha, SMS code, confirmation.
 * @module
 */
import type { CaptchaVerifier } from '@doorway/auth-core';
import { PHONE_CODE_LENGTH } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { expectAuthError, wrongCode } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { uniquePhone } from '../fixtures.ts';
import { smsSignInStart } from '../steps.ts';

/** Registers the phone group (capability: phone). */
export function phoneTests(h: ContractContext): void {
  const { caps } = h;
  describe.skipIf(!caps.phone)('phone (capability: phone)', () => {
    phoneStartTests(h);
    phoneConfirmTests(h);
    phoneRejectionTests(h);
  });
}

/** The captcha verifier, and starting a sign-in that sends the SMS code. */
function phoneStartTests(h: ContractContext): void {
  const { caps } = h;
  // Rendering a provider's own captcha needs its widget (a DOM on the web).
  it.runIf(caps.captcha)(
    'createCaptchaVerifier - should return a verifier the flow can render and clear',
    async () => {
      const verifier = h.provider.createCaptchaVerifier(h.inspect.captchaContainer?.() ?? null);
      expect(verifier.kind).toEqual(expect.any(String));
      expect(typeof verifier.isSolved()).toBe('boolean');
      await verifier.render();
      verifier.clear();
    },
  );

  it('startPhoneSignIn - should send a 6-digit SMS code and resolve a verification id', async () => {
    const phoneNumber = uniquePhone();
    const { verificationId } = await h.provider.startPhoneSignIn(phoneNumber, h.inspect.solvedVerifier());
    expect(verificationId).toEqual(expect.any(String));
    expect(verificationId).not.toBe('');
    const code = await h.inspect.lastSmsCode(phoneNumber);
    expect(code).toMatch(new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`));
  });
}

/** Confirming the code: a new or existing account, a wrong code, a phone credential. */
function phoneConfirmTests(h: ContractContext): void {
  it('confirmPhoneCode - should create an account for a new phone number', async () => {
    const phoneNumber = uniquePhone();
    const { verificationId, code } = await smsSignInStart(h, phoneNumber);
    const result = await h.provider.confirmPhoneCode(verificationId, code);
    expect(result).toMatchObject({ isNewUser: true, providerId: 'phone' });
    expect(result.user).toMatchObject({ phoneNumber, isAnonymous: false });
    expect(result.user.providerIds).toContain('phone');
    expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
  });

  it('confirmPhoneCode - should sign in to an existing phone account', async () => {
    const phoneNumber = uniquePhone();
    const uid = await h.inspect.createUser({ phoneNumber });
    const { verificationId, code } = await smsSignInStart(h, phoneNumber);
    const result = await h.provider.confirmPhoneCode(verificationId, code);
    expect(result).toMatchObject({ isNewUser: false, providerId: 'phone' });
    expect(result.user.uid).toBe(uid);
  });

  it('confirmPhoneCode - should reject invalid-verification-code for a wrong code', async () => {
    const { verificationId, code } = await smsSignInStart(h, uniquePhone());
    await expectAuthError(
      h.provider.confirmPhoneCode(verificationId, wrongCode(code)),
      'invalid-verification-code',
    );
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('signInWithCredential - should sign in with a phone credential', async () => {
    const phoneNumber = uniquePhone();
    const { verificationId, code } = await smsSignInStart(h, phoneNumber);
    const result = await h.provider.signInWithCredential({ kind: 'phone', verificationId, code });
    expect(result.providerId).toBe('phone');
    expect(result.user.phoneNumber).toBe(phoneNumber);
  });
}

/** Numbers that are not E.164 and unsolved captchas. */
function phoneRejectionTests(h: ContractContext): void {
  const { caps } = h;
  it('startPhoneSignIn - should reject invalid-phone-number for a number that is not E.164', async () => {
    await expectAuthError(
      h.provider.startPhoneSignIn('12345', h.inspect.solvedVerifier()),
      'invalid-phone-number',
    );
  });

  // Only a provider that runs a captcha can tell a solved one from an unsolved one.
  it.runIf(caps.captcha)(
    'startPhoneSignIn - should reject captcha-check-failed for an unsolved captcha',
    async () => {
      const unsolved: CaptchaVerifier = {
        kind: 'contract-unsolved',
        render: async () => {},
        isSolved: () => false,
        clear: () => {},
      };
      await expectAuthError(h.provider.startPhoneSignIn(uniquePhone(), unsolved), 'captcha-check-failed');
    },
  );
}
