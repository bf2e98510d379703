/**
 * Second factors on the Firebase host's emulator, for the specs that need an account with one: made over
 * the Identity Toolkit REST API (a verified email, then a text-message factor enrolled with the emulator's
 * SMS code), and the emulator's SMS count. Used by e2e/host/second-factors.spec.ts and e2e/cluster/.
 */
import { expect } from '@playwright/test';
import { EMULATOR, lastOobCode, lastSmsCode, sendOobCode } from './fixtures.ts';

/** The password of the accounts made here. */
export const FACTOR_PASSWORD = 'Secret-123';

const API = `${EMULATOR}/identitytoolkit.googleapis.com/v1`;

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${API}/${path}?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${path}: ${response.status} ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

/** Verifies an account's email with the VERIFY_EMAIL code the emulator sends (applied over REST). */
export async function verifyEmail(email: string): Promise<void> {
  const { idToken } = await post<{ idToken: string }>('accounts:signInWithPassword', {
    email,
    password: FACTOR_PASSWORD,
    returnSecureToken: true,
  });
  await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken });
  const { oobCode } = await lastOobCode(email, 'VERIFY_EMAIL');
  const { emailVerified } = await post<{ emailVerified: boolean }>('accounts:update', { oobCode });
  expect(emailVerified).toBe(true);
}

/**
 * Presses `name` until `done` holds: the emulator's mock visible reCAPTCHA solves itself shortly after it
 * renders, and until then the button answers "Solve the reCAPTCHA".
 */
export async function pressUntil(press: () => Promise<void>, done: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await press();
    await done();
  }).toPass({ timeout: 20_000 });
}

/** A password account with a verified email and a text-message factor, made over REST; its factor's number. */
export async function accountWithPhoneFactor(email: string): Promise<string> {
  const phone = `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  await post('accounts:signUp', { email, password: FACTOR_PASSWORD, returnSecureToken: true });
  await verifyEmail(email);
  const { idToken } = await post<{ idToken: string }>('accounts:signInWithPassword', {
    email,
    password: FACTOR_PASSWORD,
    returnSecureToken: true,
  });
  const v2 = `${EMULATOR}/identitytoolkit.googleapis.com/v2/accounts`;
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${v2}/${path}?key=demo-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.ok, `${path}: ${response.status}`).toBe(true);
    return (await response.json()) as T;
  };
  const started = await call<{ phoneSessionInfo: { sessionInfo: string } }>('mfaEnrollment:start', {
    idToken,
    phoneEnrollmentInfo: { phoneNumber: phone },
  });
  await call('mfaEnrollment:finalize', {
    idToken,
    displayName: 'Work phone',
    phoneVerificationInfo: {
      sessionInfo: started.phoneSessionInfo.sessionInfo,
      code: await lastSmsCode(phone),
    },
  });
  return phone;
}

/** How many SMS codes the emulator has sent to a number. */
export async function countSms(phoneNumber: string): Promise<number> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/demo-doorway/verificationCodes`);
  const { verificationCodes = [] } = (await response.json()) as {
    verificationCodes?: { phoneNumber: string }[];
  };
  return verificationCodes.filter((c) => c.phoneNumber === phoneNumber).length;
}
