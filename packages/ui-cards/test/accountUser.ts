/**
 * Ann's account on the fake for the account components' tests, and a fake with her signed in.
 */
import {
  createFakeProvider,
  createManualClock,
  type FakeProviderOptions,
  type FakeUserInput,
} from '@doorway/adapter-fake';
import type { AuthError } from '@doorway/auth-core';
import { expect } from 'vitest';

const EMAIL = 'ann@example.com';
const PASSWORD = 'secret-123';
type Factors = FakeUserInput['secondFactors'];

/** The fake with Ann signed in, her first factor passed (a code from the outbox or her authenticator). */
export async function signedIn(secondFactors: Factors = [], options: FakeProviderOptions = {}) {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const fake = createFakeProvider({
    clock,
    users: [{ email: EMAIL, password: PASSWORD, secondFactors }],
    ...options,
  });
  const uid = fake.backend.findUserByEmail(EMAIL)?.uid ?? '';
  try {
    await fake.signInWithEmailAndPassword(EMAIL, PASSWORD);
  } catch (error) {
    const challenge = (error as AuthError).challenge;
    const factor = challenge?.factors[0];
    if (!challenge || !factor || !fake.secondFactors) throw error;
    const { verificationId } = await fake.secondFactors.startSignIn(challenge, factor.uid);
    const code =
      factor.kind === 'totp' ? fake.backend.totpCode(uid, factor.uid) : fake.backend.outbox.sms.at(-1)?.code;
    await fake.secondFactors.finishSignIn(challenge, verificationId, code ?? '');
  }
  expect(fake.getCurrentUser()?.uid).toBe(uid);
  fake.backend.clearCalls();
  return { fake, clock, uid };
}
