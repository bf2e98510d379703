/**
 * Second factors on the Firebase host's emulator: accounts with one made over the Identity Toolkit REST
 * API (a verified email, then a text-message factor enrolled with the emulator's SMS code), the emulator's
 * SMS count, and the challenge card's Send code pressed past the emulator's reCAPTCHA. Used by the
 * `firebase` backend of e2e/backends.ts and by e2e/cluster/.
 */
import { expect } from '@playwright/test';
import { type HostWidget, uiText, uniquePhone } from '../host-pages.ts';
import { EMULATOR, lastOobCode, lastSmsCode, PROJECT, sendOobCode } from './fixtures.ts';

/** The password of the accounts made here unless a test gives its own. */
export const FACTOR_PASSWORD = 'Secret-123';

/** The name the text-message factors made here are given. */
export const PHONE_FACTOR_NAME = 'Work phone';

const identityToolkit = `${EMULATOR}/identitytoolkit.googleapis.com`;

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${identityToolkit}/${path}?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${path}: ${response.status} ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

/** An ID token of a password account, signed in over REST. */
async function idTokenOf(email: string, password: string): Promise<string> {
  const { idToken } = await post<{ idToken: string }>('v1/accounts:signInWithPassword', {
    email,
    password,
    returnSecureToken: true,
  });
  return idToken;
}

/** Verifies an account's email with the VERIFY_EMAIL code the emulator sends (applied over REST). */
export async function verifyEmail(email: string, password = FACTOR_PASSWORD): Promise<void> {
  await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken: await idTokenOf(email, password) });
  const { oobCode } = await lastOobCode(email, 'VERIFY_EMAIL');
  const { emailVerified } = await post<{ emailVerified: boolean }>('v1/accounts:update', { oobCode });
  expect(emailVerified).toBe(true);
}

/**
 * Presses until `done` holds: the emulator's mock visible reCAPTCHA solves itself shortly after it
 * renders, and until then the button answers "Solve the reCAPTCHA".
 */
export async function pressUntil(press: () => Promise<void>, done: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await press();
    await done();
  }).toPass({ timeout: 20_000 });
}

/**
 * On the sign-in widget's text-message challenge: Send code, pressed until the code card shows, and a new
 * SMS to `phone` at the emulator.
 */
export async function sendSmsCode(widget: Pick<HostWidget, 'button' | 'root'>, phone: string): Promise<void> {
  const before = await countSms(phone);
  await pressUntil(
    () => widget.button(uiText.sendCode).click({ timeout: 2000 }),
    () => expect(widget.root).toHaveAttribute('data-card', 'secondFactorCode', { timeout: 1500 }),
  );
  await expect.poll(() => countSms(phone)).toBeGreaterThan(before);
}

/**
 * A password account with a verified email and a text-message factor named {@link PHONE_FACTOR_NAME},
 * made over REST; its factor's number.
 */
export async function accountWithPhoneFactor(email: string, password = FACTOR_PASSWORD): Promise<string> {
  const phone = uniquePhone();
  await post('v1/accounts:signUp', { email, password, returnSecureToken: true });
  await verifyEmail(email, password);
  const idToken = await idTokenOf(email, password);
  const started = await post<{ phoneSessionInfo: { sessionInfo: string } }>(
    'v2/accounts/mfaEnrollment:start',
    {
      idToken,
      phoneEnrollmentInfo: { phoneNumber: phone },
    },
  );
  await post('v2/accounts/mfaEnrollment:finalize', {
    idToken,
    displayName: PHONE_FACTOR_NAME,
    phoneVerificationInfo: {
      sessionInfo: started.phoneSessionInfo.sessionInfo,
      code: await lastSmsCode(phone),
    },
  });
  return phone;
}

/** How many SMS codes the emulator has sent to a number. */
export async function countSms(phoneNumber: string): Promise<number> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/${PROJECT}/verificationCodes`);
  const { verificationCodes = [] } = (await response.json()) as {
    verificationCodes?: { phoneNumber: string }[];
  };
  return verificationCodes.filter((c) => c.phoneNumber === phoneNumber).length;
}
