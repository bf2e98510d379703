/**
 * Second factors: enrolling an SMS or authenticator-app (TOTP) factor, the `second-factor-required`
 * challenge a password sign-in then meets, finishing it with the factor's code, listing, removing and
 * cancelling. TOTP codes are computed from the enrolment's secret as an authenticator app would (RFC 6238,
 * by `otpauth`), at the harness's time (`inspect.now`).
 * @module
 */
import type {
  SecondFactorChallenge,
  SecondFactorInfo,
  SecondFactorOperations,
  SignInResult,
} from '@doorway/auth-core';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue, wrongCode } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail, uniquePhone } from '../fixtures.ts';

const STEP_MS = 30_000;

/** Registers the second-factor group (capabilities: secondFactors, password). */
export function secondFactorTests(h: ContractContext): void {
  const kinds = h.caps.secondFactors ?? [];
  describe.skipIf(kinds.length === 0 || !h.caps.password)(
    'second factors (capabilities: secondFactors, password)',
    () => {
      describe.skipIf(!kinds.includes('phone'))('SMS second factor (secondFactors: phone)', () => {
        phoneFactorTests(h);
      });
      describe.skipIf(!kinds.includes('totp'))(
        'authenticator-app second factor (secondFactors: totp)',
        () => {
          totpFactorTests(h);
        },
      );
      factorManagementTests(h);
    },
  );
}

/** The provider's second-factor operations (the capability promises them). */
function ops(h: ContractContext): SecondFactorOperations {
  return requireValue(
    h.provider.secondFactors,
    'provider.secondFactors (capabilities.secondFactors lists a kind)',
  );
}

/**
 * A new password account, signed in (a fresh sign-in: recent enough to enrol). A backend that enrols only
 * verified emails has the harness verify it, then the account signs in again: the session must say so.
 */
async function signedInAccount(h: ContractContext): Promise<{ email: string; uid: string }> {
  const email = uniqueEmail('mfa');
  const { user } = await h.provider.createUser(email, PASSWORD);
  if (h.inspect.verifyEmail !== undefined) {
    await h.inspect.verifyEmail(email);
    await h.provider.signOut();
    await h.provider.signInWithEmailAndPassword(email, PASSWORD);
  }
  return { email, uid: user.uid };
}

/**
 * Signs out, signs in with the password, and returns the challenge the rejection carries, after a trip
 * through JSON (a server keeps it in a sealed cookie between requests).
 */
async function passwordChallenge(h: ContractContext, email: string): Promise<SecondFactorChallenge> {
  await h.provider.signOut();
  const error = await expectAuthError(
    h.provider.signInWithEmailAndPassword(email, PASSWORD),
    'second-factor-required',
  );
  const challenge = requireValue(error.challenge, 'the challenge of second-factor-required');
  return JSON.parse(JSON.stringify(challenge)) as SecondFactorChallenge;
}

/** Enrols an SMS factor on the signed-in user; resolves it and its number. */
async function enrolPhone(h: ContractContext): Promise<{ factor: SecondFactorInfo; phoneNumber: string }> {
  const phoneNumber = uniquePhone();
  const { verificationId } = await ops(h).startPhoneEnrollment(phoneNumber, h.inspect.solvedVerifier());
  const code = requireValue(await h.inspect.lastSmsCode(phoneNumber), `an SMS code to ${phoneNumber}`);
  const factor = await ops(h).finishPhoneEnrollment(verificationId, code, 'Work phone');
  return { factor, phoneNumber };
}

/** The harness's time. */
function now(h: ContractContext): number {
  return h.inspect.now?.() ?? Date.now();
}

/** The code an authenticator app shows for `secret`, `offsetMs` away from the harness's time. */
function totpCode(h: ContractContext, secret: string, offsetMs = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: now(h) + offsetMs,
  });
}

/** A code from ten minutes or more away, unlike any of the accepted steps (now and one either side). */
function farTotpCode(h: ContractContext, secret: string): string {
  const near = new Set([-STEP_MS, 0, STEP_MS].map((offset) => totpCode(h, secret, offset)));
  for (let steps = 20; ; steps += 1) {
    const code = totpCode(h, secret, -steps * STEP_MS);
    if (!near.has(code)) return code;
  }
}

/** Enrols an authenticator-app factor on the signed-in user; resolves it and its secret. */
async function enrolTotp(h: ContractContext): Promise<{ factor: SecondFactorInfo; secret: string }> {
  const { enrollmentId, secret } = await ops(h).startTotpEnrollment();
  const factor = await ops(h).finishTotpEnrollment(enrollmentId, totpCode(h, secret), 'Authenticator');
  return { factor, secret };
}

/** Enrols one factor of whichever kind the provider offers (TOTP first: no SMS involved). */
async function enrolAny(h: ContractContext): Promise<SecondFactorInfo> {
  const kinds = h.caps.secondFactors ?? [];
  return kinds.includes('totp') ? (await enrolTotp(h)).factor : (await enrolPhone(h)).factor;
}

function expectSignedInAs(h: ContractContext, result: SignInResult, uid: string): void {
  expect(result).toMatchObject({ providerId: 'password', isNewUser: false });
  expect(result.user.uid).toBe(uid);
  expect(h.provider.getCurrentUser()?.uid).toBe(uid);
}

/** Enrolling a phone, the challenge listing it masked, a wrong SMS code, the right one. */
function phoneFactorTests(h: ContractContext): void {
  it('secondFactors.finishPhoneEnrollment - should enrol the number the SMS code was sent to', async () => {
    await signedInAccount(h);
    const { factor, phoneNumber } = await enrolPhone(h);
    expect(factor).toMatchObject({ kind: 'phone', uid: expect.any(String) });
    expect(factor.phoneNumber).toEqual(expect.stringMatching(new RegExp(`${phoneNumber.slice(-4)}$`)));
    expect((await ops(h).list()).map((f) => f.uid)).toContain(factor.uid);
  });

  it('secondFactors.finishPhoneEnrollment - should reject invalid-verification-code for a wrong code', async () => {
    await signedInAccount(h);
    const phoneNumber = uniquePhone();
    const { verificationId } = await ops(h).startPhoneEnrollment(phoneNumber, h.inspect.solvedVerifier());
    const code = requireValue(await h.inspect.lastSmsCode(phoneNumber), `an SMS code to ${phoneNumber}`);
    await expectAuthError(
      ops(h).finishPhoneEnrollment(verificationId, wrongCode(code)),
      'invalid-verification-code',
    );
  });

  it('signInWithEmailAndPassword - should reject second-factor-required with a challenge listing the phone, masked', async () => {
    const { email } = await signedInAccount(h);
    const { factor, phoneNumber } = await enrolPhone(h);
    const challenge = await passwordChallenge(h, email);
    const listed = requireValue(
      challenge.factors.find((f) => f.uid === factor.uid),
      'the enrolled phone among the challenge factors',
    );
    expect(listed.kind).toBe('phone');
    expect(listed.phoneNumber).toEqual(expect.stringMatching(new RegExp(`${phoneNumber.slice(-4)}$`)));
    expect(listed.phoneNumber).not.toBe(phoneNumber);
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('secondFactors.finishSignIn - should reject invalid-verification-code for a wrong SMS code, then sign in with the right one', async () => {
    const { email, uid } = await signedInAccount(h);
    const { factor, phoneNumber } = await enrolPhone(h);
    const challenge = await passwordChallenge(h, email);
    const { verificationId } = await ops(h).startSignIn(challenge, factor.uid, h.inspect.solvedVerifier());
    const code = requireValue(await h.inspect.lastSmsCode(phoneNumber), `an SMS code to ${phoneNumber}`);
    await expectAuthError(
      ops(h).finishSignIn(challenge, verificationId, wrongCode(code)),
      'invalid-verification-code',
    );
    expect(h.provider.getCurrentUser()).toBeNull();
    expectSignedInAs(h, await ops(h).finishSignIn(challenge, verificationId, code), uid);
  });
}

/** Enrolling an authenticator app, the challenge listing it, a code from another time, the current one. */
function totpFactorTests(h: ContractContext): void {
  it('secondFactors.startTotpEnrollment - should give a base32 secret and its otpauth:// URI', async () => {
    await signedInAccount(h);
    const { secret, uri, enrollmentId } = await ops(h).startTotpEnrollment();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(enrollmentId).toEqual(expect.any(String));
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.host).toBe('totp');
    expect(parsed.searchParams.get('secret')).toBe(secret);
  });

  it('secondFactors.finishTotpEnrollment - should refuse a code from another time window and enrol with the current one', async () => {
    await signedInAccount(h);
    const { enrollmentId, secret } = await ops(h).startTotpEnrollment();
    await expectAuthError(
      ops(h).finishTotpEnrollment(enrollmentId, farTotpCode(h, secret)),
      'invalid-verification-code',
    );
    const factor = await ops(h).finishTotpEnrollment(enrollmentId, totpCode(h, secret), 'Authenticator');
    expect(factor).toMatchObject({ kind: 'totp', phoneNumber: null, uid: expect.any(String) });
  });

  it('secondFactors.finishSignIn - should refuse a TOTP code from a far time window and sign in with the current one', async () => {
    const { email, uid } = await signedInAccount(h);
    const { factor, secret } = await enrolTotp(h);
    const challenge = await passwordChallenge(h, email);
    expect(challenge.factors.find((f) => f.uid === factor.uid)).toMatchObject({ kind: 'totp' });
    const { verificationId } = await ops(h).startSignIn(challenge, factor.uid);
    await expectAuthError(
      ops(h).finishSignIn(challenge, verificationId, farTotpCode(h, secret)),
      'invalid-verification-code',
    );
    expect(h.provider.getCurrentUser()).toBeNull();
    expectSignedInAs(h, await ops(h).finishSignIn(challenge, verificationId, totpCode(h, secret)), uid);
  });
}

/** Listing, removing, cancelling; and enrolment needing someone signed in. */
function factorManagementTests(h: ContractContext): void {
  it('secondFactors.unenroll - should remove the factor from the list; password sign-in then needs none', async () => {
    const { email, uid } = await signedInAccount(h);
    const factor = await enrolAny(h);
    expect((await ops(h).list()).map((f) => f.uid)).toEqual([factor.uid]);
    await ops(h).unenroll(factor.uid);
    expect(await ops(h).list()).toEqual([]);
    await h.provider.signOut();
    expectSignedInAs(h, await h.provider.signInWithEmailAndPassword(email, PASSWORD), uid);
  });

  it('secondFactors.cancelSignIn - should leave nobody signed in', async () => {
    const { email } = await signedInAccount(h);
    await enrolAny(h);
    const challenge = await passwordChallenge(h, email);
    await ops(h).cancelSignIn(challenge);
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  const totp = (h.caps.secondFactors ?? []).includes('totp');
  const method = totp ? 'startTotpEnrollment' : 'startPhoneEnrollment';
  it(`secondFactors.${method} - should reject requires-recent-login with nobody signed in`, async () => {
    await h.provider.signOut();
    const start = totp
      ? ops(h).startTotpEnrollment()
      : ops(h).startPhoneEnrollment(uniquePhone(), h.inspect.solvedVerifier());
    await expectAuthError(start, 'requires-recent-login');
  });
}
