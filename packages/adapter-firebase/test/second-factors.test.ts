// Second factors against the Auth emulator, beyond the contract's group: the challenge every kind of
// first factor meets, its trip through JSON, cancelling, what Firebase refuses (an unverified email, SMS as
// the first factor of an account with a second factor), the form provider finishing a challenge over
// REST, and the revertSecondFactorAddition action code. The emulator has SMS second factors only (TOTP is
// covered by second-factors.unit.test.ts); each SMS send gets a fresh captcha verifier.
import type {
  AuthCredential,
  AuthProvider,
  SecondFactorChallenge,
  SecondFactorInfo,
  SecondFactorOperations,
} from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createFirebaseServer } from '../src/server.ts';
import {
  createAccount,
  EMULATOR_URL,
  expectAuthError,
  freshProvider,
  lastOobCode,
  lastSmsCode,
  oobCodes,
  PROJECT_ID,
  resetEmulator,
  uniqueEmail,
  uniquePhone,
  verifyEmailOf,
} from './emulator.ts';

const PASSWORD = 'Secret-123';
const server = createFirebaseServer({ projectId: PROJECT_ID, emailEnumerationProtection: false });

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider({ secondFactors: ['phone'] }));
});
afterEach(() => dispose());

function ops(p: AuthProvider = provider): SecondFactorOperations {
  const factors = p.secondFactors;
  if (factors === undefined) throw new Error('the provider declares second factors');
  return factors;
}

/** Enrols a new number on the signed-in user (a fresh captcha for the send); resolves the factor. */
async function enrolPhone(): Promise<{ factor: SecondFactorInfo; phone: string }> {
  const phone = uniquePhone();
  const { verificationId } = await ops().startPhoneEnrollment(phone, provider.createCaptchaVerifier(null));
  const { code } = await lastSmsCode(phone);
  return { factor: await ops().finishPhoneEnrollment(verificationId, code, 'Work phone'), phone };
}

/** A password account with a verified email and an SMS second factor; signed out. */
async function passwordAccountWithPhone(): Promise<{
  email: string;
  phone: string;
  factor: SecondFactorInfo;
}> {
  const email = uniqueEmail('mfa');
  await createAccount({ email, password: PASSWORD, emailVerified: true });
  await provider.signInWithEmailAndPassword(email, PASSWORD);
  const enrolled = await enrolPhone();
  await provider.signOut();
  return { email, ...enrolled };
}

/** The challenge a rejected sign-in carries. */
async function challengeOf(signIn: Promise<unknown>): Promise<SecondFactorChallenge> {
  const error = await expectAuthError(signIn, 'second-factor-required');
  if (error.challenge === undefined) throw new Error('second-factor-required carries a challenge');
  return error.challenge;
}

/** Finishes a challenge with the SMS code sent to `phone` (a fresh captcha for the send). */
async function finishWithSms(challenge: SecondFactorChallenge, factorUid: string, phone: string) {
  const { verificationId } = await ops().startSignIn(
    challenge,
    factorUid,
    provider.createCaptchaVerifier(null),
  );
  const { code } = await lastSmsCode(phone);
  return ops().finishSignIn(challenge, verificationId, code);
}

/** A credential the emulator accepts for a Facebook identity (an unsigned JSON access token). */
function facebookCredential(sub: string, email: string): AuthCredential {
  return { kind: 'federated', providerId: 'facebook.com', accessToken: JSON.stringify({ sub, email }) };
}

describe('second-factor-required', () => {
  it('signInWithEmailAndPassword - should reject second-factor-required with a JSON challenge that finishes the sign-in', async () => {
    const { email, phone, factor } = await passwordAccountWithPhone();
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(email, PASSWORD));
    const copy = JSON.parse(JSON.stringify(challenge)) as SecondFactorChallenge;
    expect(copy).toEqual(challenge);
    expect(Object.keys(challenge.session as object)).toEqual(['resolverId']);
    expect(challenge.factors).toEqual([
      {
        uid: factor.uid,
        kind: 'phone',
        displayName: 'Work phone',
        phoneNumber: `+*******${phone.slice(-4)}`,
        enrolledAt: expect.any(Number),
      },
    ]);
    expect(Math.abs((challenge.factors[0]?.enrolledAt ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(provider.getCurrentUser()).toBeNull();
    const result = await finishWithSms(copy, factor.uid, phone);
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { email } });
    expect(provider.getCurrentUser()?.email).toBe(email);
  });

  it('signInWithCredential - should reject second-factor-required for a federated account, and finish as that provider with its credential', async () => {
    const email = uniqueEmail('fb');
    const credential = facebookCredential(`fb-${email}`, email);
    const { user } = await provider.signInWithCredential(credential);
    await verifyEmailOf(email);
    await provider.signOut();
    await provider.signInWithCredential(credential);
    const { factor, phone } = await enrolPhone();
    await provider.signOut();
    const challenge = await challengeOf(provider.signInWithCredential(credential));
    expect(challenge.factors.map((f) => f.uid)).toEqual([factor.uid]);
    expect(provider.getCurrentUser()).toBeNull();
    const result = await finishWithSms(challenge, factor.uid, phone);
    expect(result).toMatchObject({ providerId: 'facebook.com', isNewUser: false, user: { uid: user.uid } });
    expect(result.credential).toMatchObject({ kind: 'federated', providerId: 'facebook.com' });
  });

  it('signInWithEmailLink - should reject second-factor-required, and finish as emailLink', async () => {
    const { email, phone, factor } = await passwordAccountWithPhone();
    await provider.sendSignInLinkToEmail(email, { url: 'http://localhost/finish', handleCodeInApp: true });
    const { oobLink } = await lastOobCode(email, 'EMAIL_SIGNIN');
    const challenge = await challengeOf(provider.signInWithEmailLink(email, oobLink));
    const result = await finishWithSms(challenge, factor.uid, phone);
    expect(result).toMatchObject({ providerId: 'emailLink', isNewUser: false, user: { email } });
  });

  it('startPhoneSignIn - should reject operation-not-allowed for the number of an account with a second factor', async () => {
    const email = uniqueEmail('mfa');
    const number = uniquePhone();
    await createAccount({ email, password: PASSWORD, emailVerified: true, phoneNumber: number });
    await provider.signInWithEmailAndPassword(email, PASSWORD);
    await enrolPhone();
    await provider.signOut();
    // Firebase refuses SMS as the first factor of such an account (UNSUPPORTED_FIRST_FACTOR).
    await expectAuthError(
      provider.startPhoneSignIn(number, provider.createCaptchaVerifier(null)),
      'operation-not-allowed',
    );
  });
});

describe('the pending sign-in', () => {
  it('secondFactors.cancelSignIn - should leave nobody signed in and forget the challenge', async () => {
    const { email, phone, factor } = await passwordAccountWithPhone();
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(email, PASSWORD));
    const { verificationId } = await ops().startSignIn(
      challenge,
      factor.uid,
      provider.createCaptchaVerifier(null),
    );
    await ops().cancelSignIn(challenge);
    expect(provider.getCurrentUser()).toBeNull();
    const { code } = await lastSmsCode(phone);
    await expectAuthError(ops().finishSignIn(challenge, verificationId, code), 'code-expired');
    expect(provider.getCurrentUser()).toBeNull();
  });

  it('secondFactors.startSignIn - should reject code-expired for a challenge another provider made, and for a factor it does not list', async () => {
    const { email, factor } = await passwordAccountWithPhone();
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(email, PASSWORD));
    const other = freshProvider({ secondFactors: ['phone'] });
    try {
      const elsewhere = ops(other.provider).startSignIn(
        challenge,
        factor.uid,
        other.provider.createCaptchaVerifier(null),
      );
      await expectAuthError(elsewhere, 'code-expired');
    } finally {
      await other.dispose();
    }
    await expectAuthError(
      ops().startSignIn(challenge, 'no-such-factor', provider.createCaptchaVerifier(null)),
      'code-expired',
    );
  });

  it('secondFactors.startSignIn - should reject captcha-check-failed for an SMS factor without a verifier', async () => {
    const { email, factor } = await passwordAccountWithPhone();
    const challenge = await challengeOf(provider.signInWithEmailAndPassword(email, PASSWORD));
    await expectAuthError(ops().startSignIn(challenge, factor.uid), 'captcha-check-failed');
  });
});

describe('enrolment', () => {
  it('secondFactors.startPhoneEnrollment - should reject operation-not-allowed while the email is unverified', async () => {
    await provider.createUser(uniqueEmail('unverified'), PASSWORD);
    await expectAuthError(
      ops().startPhoneEnrollment(uniquePhone(), provider.createCaptchaVerifier(null)),
      'operation-not-allowed',
    );
  });

  it('secondFactors.list / unenroll - should reject requires-recent-login with nobody signed in', async () => {
    await expectAuthError(ops().list(), 'requires-recent-login');
    await expectAuthError(ops().unenroll('any-factor'), 'requires-recent-login');
  });

  it('secondFactors.unenroll - should reject generic for a factor the account does not have', async () => {
    const email = uniqueEmail('mfa');
    await createAccount({ email, password: PASSWORD, emailVerified: true });
    await provider.signInWithEmailAndPassword(email, PASSWORD);
    await enrolPhone();
    await expectAuthError(ops().unenroll('no-such-factor'), 'generic');
  });
});

describe('form provider', () => {
  /** Sends the SMS of a pending sign-in as a browser would (the emulator asks no captcha). */
  async function sendSignInSms(mfaPendingCredential: string, mfaEnrollmentId: string): Promise<string> {
    const response = await fetch(
      `${EMULATOR_URL}/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start?key=fake-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mfaPendingCredential, mfaEnrollmentId, phoneSignInInfo: {} }),
      },
    );
    const body = (await response.json()) as { phoneResponseInfo: { sessionInfo: string } };
    return body.phoneResponseInfo.sessionInfo;
  }

  it('finishSignIn - should finish a challenge over REST with an SMS session, list and remove the factor', async () => {
    const { email, phone, factor } = await passwordAccountWithPhone();
    const challenge = await challengeOf(server.formProvider().signInWithEmailAndPassword(email, PASSWORD));
    expect(challenge.factors).toEqual([
      expect.objectContaining({ uid: factor.uid, kind: 'phone', phoneNumber: `+*******${phone.slice(-4)}` }),
    ]);
    const stored = JSON.parse(JSON.stringify(challenge)) as SecondFactorChallenge;
    const { mfaPendingCredential } = stored.session as { mfaPendingCredential: string };
    const sessionInfo = await sendSignInSms(mfaPendingCredential, factor.uid);
    const { code } = await lastSmsCode(phone);
    // A later request's provider finishes what the first one's challenge started.
    const form = server.formProvider();
    await expectAuthError(ops(form).finishSignIn(stored, sessionInfo, '000000'), 'invalid-verification-code');
    await expectAuthError(ops(form).finishSignIn(stored, 'no-such-session', code), 'code-expired');
    expect(form.sessionToken()).toBeNull();
    const result = await ops(form).finishSignIn(stored, sessionInfo, code);
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { email } });
    const cookie = await server.createSessionCookie(form.sessionToken() as string, { expiresInMs: 300_000 });
    expect((await server.verifySessionCookie(cookie, { checkRevoked: true }))?.email).toBe(email);
    expect(await ops(form).list()).toEqual([{ ...factor, enrolledAt: expect.any(Number) }]);
    await ops(form).unenroll(factor.uid);
    expect(await ops(form).list()).toEqual([]);
    await expect(server.formProvider().signInWithEmailAndPassword(email, PASSWORD)).resolves.toMatchObject({
      user: { email },
    });
  });
});

describe("a server's challenge", () => {
  it('secondFactors.startSignIn / finishSignIn - should finish a REST sign-in’s challenge, JSON round-tripped, in the browser provider through the SDK’s own resolver', async () => {
    const { email, phone, factor } = await passwordAccountWithPhone();
    const fromServer = await challengeOf(server.formProvider().signInWithEmailAndPassword(email, PASSWORD));
    const challenge = JSON.parse(JSON.stringify(fromServer)) as SecondFactorChallenge;
    expect(challenge.session).toEqual({
      mfaPendingCredential: expect.any(String),
      providerId: 'password',
      mfaInfo: [expect.objectContaining({ mfaEnrollmentId: factor.uid, phoneInfo: expect.any(String) })],
    });
    expect(provider.getCurrentUser()).toBeNull();
    const { verificationId } = await ops().startSignIn(
      challenge,
      factor.uid,
      provider.createCaptchaVerifier(null),
    );
    const { code } = await lastSmsCode(phone);
    await expectAuthError(
      ops().finishSignIn(challenge, verificationId, '000000'),
      'invalid-verification-code',
    );
    expect(provider.getCurrentUser()).toBeNull();
    const result = await ops().finishSignIn(challenge, verificationId, code);
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false, user: { email } });
    expect(provider.getCurrentUser()?.email).toBe(email);
    expect(provider.auth.currentUser?.email).toBe(email);
    const idToken = await provider.auth.currentUser?.getIdToken();
    const cookie = await server.createSessionCookie(idToken as string, { expiresInMs: 300_000 });
    expect((await server.verifySessionCookie(cookie, { checkRevoked: true }))?.email).toBe(email);
    // Finished: the pending sign-in is forgotten.
    await expectAuthError(ops().finishSignIn(challenge, verificationId, code), 'code-expired');
  });

  it('secondFactors.startSignIn - should reject code-expired for a server challenge without its mfaInfo (the SDK’s resolver needs it)', async () => {
    const { email, factor } = await passwordAccountWithPhone();
    const fromServer = await challengeOf(server.formProvider().signInWithEmailAndPassword(email, PASSWORD));
    const { mfaPendingCredential, providerId } = fromServer.session as {
      mfaPendingCredential: string;
      providerId: string;
    };
    const bare = { factors: fromServer.factors, session: { mfaPendingCredential, providerId } };
    await expectAuthError(
      ops().startSignIn(bare, factor.uid, provider.createCaptchaVerifier(null)),
      'code-expired',
    );
    expect(provider.getCurrentUser()).toBeNull();
  });
});

describe('revertSecondFactorAddition', () => {
  it('checkActionCode / applyActionCode - should reject a bad revert code with invalid-action-code, as the emulator answers', async () => {
    const { email } = await passwordAccountWithPhone();
    // The emulator sends no "second factor added" email, so no real revert code can be had.
    expect((await oobCodes()).filter((c) => c.email === email).map((c) => c.requestType)).toEqual([]);
    const answer = await fetch(
      `${EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=fake-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ oobCode: 'not-a-revert-code' }),
      },
    );
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
      /^INVALID_OOB_CODE/,
    );
    await expectAuthError(provider.checkActionCode('not-a-revert-code'), 'invalid-action-code');
    await expectAuthError(provider.applyActionCode('not-a-revert-code'), 'invalid-action-code');
    await expectAuthError(
      server.serverProvider().checkActionCode('not-a-revert-code'),
      'invalid-action-code',
    );
  });
});
