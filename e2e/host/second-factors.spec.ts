// Second factors on the Firebase host: a text-message factor added on /account (the browser's SDK signed
// in from the session cookie), then a password sign-in clicked as a person would (possibly before
// hydration: the server meets the second factor, and the hydrated widget finishes its challenge with the
// emulator's SMS code), the factor removed, and the password alone signing in again.
import type { Page } from '@playwright/test';
import {
  accountOf,
  EMULATOR,
  expect,
  expectNoAxeViolations,
  lastOobCode,
  lastSmsCode,
  sendOobCode,
  signIn,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

const PASSWORD = 'Secret-123';
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
async function verifyEmail(email: string): Promise<void> {
  const { idToken } = await post<{ idToken: string }>('accounts:signInWithPassword', {
    email,
    password: PASSWORD,
    returnSecureToken: true,
  });
  await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken });
  const { oobCode } = await lastOobCode(email, 'VERIFY_EMAIL');
  const { emailVerified } = await post<{ emailVerified: boolean }>('accounts:update', { oobCode });
  expect(emailVerified).toBe(true);
}

/** The account page's second-factor card. */
function factorsOf(page: Page) {
  const root = page.locator('.host-second-factors');
  return {
    root,
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    field: (name: string) => root.getByLabel(name, { exact: true }),
    list: root.getByRole('list', { name: 'Your second steps' }),
  };
}

/**
 * Presses `name` until `done` holds: the emulator's mock visible reCAPTCHA solves itself shortly after it
 * renders, and until then the button answers "Solve the reCAPTCHA".
 */
async function pressUntil(press: () => Promise<void>, done: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await press();
    await done();
  }).toPass({ timeout: 20_000 });
}

test('an SMS second factor: added on /account, asked at sign-in (wrong then right code), removed', async ({
  page,
  widget,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('two-step');
  const phone = `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  const account = accountOf(page);
  await signUp(page, email, PASSWORD);
  await verifyEmail(email);
  // A fresh sign-in, so the session (and the browser's SDK signed in from it) knows the email is verified.
  await account.signOut.click();
  await page.waitForURL('**/login?signedOut=1');
  await signIn(page, email, PASSWORD);
  await page.waitForURL('**/account');

  // The server renders the heading; the card arrives with the browser's SDK.
  await expect(page.getByRole('heading', { level: 2, name: 'Second factors' })).toBeVisible();
  const factors = factorsOf(page);
  await factors.button('Add text-message (SMS) factor').click();
  await factors.field('Phone number').fill(phone);
  await expectNoAxeViolations(page);
  await pressUntil(
    () => factors.button('Send code').click({ timeout: 2000 }),
    () => expect(factors.field('6-digit code')).toBeVisible({ timeout: 1500 }),
  );
  await expectNoAxeViolations(page);
  await factors.field('6-digit code').fill(await lastSmsCode(phone));
  await factors.field('Name for this factor (optional)').fill('Work phone');
  await factors.button('Verify').click();
  await expect(factors.list).toContainText('Work phone');

  await account.signOut.click();
  await page.waitForURL('**/login?signedOut=1');
  const smsBefore = await countSms(phone);
  await signIn(page, email, PASSWORD);
  await widget.card('secondFactorPhone', 'Verify it’s you');
  await pressUntil(
    () => widget.button('Send code').click({ timeout: 2000 }),
    () => expect(widget.root).toHaveAttribute('data-card', 'secondFactorCode', { timeout: 1500 }),
  );
  await widget.card('secondFactorCode', 'Enter your code');
  await expect.poll(() => countSms(phone)).toBeGreaterThan(smsBefore);
  const code = await lastSmsCode(phone);
  await widget.field('6-digit code').fill(code === '000000' ? '111111' : '000000');
  await widget.button('Verify').click();
  await widget.expectError('Wrong code. Try again.');
  await widget.field('6-digit code').fill(code);
  await widget.button('Verify').click();
  await page.waitForURL('**/account');
  await expect(account.value('Email')).toHaveText(email);

  await expect(factors.list).toContainText('Work phone');
  await factors.button('Remove Work phone').click();
  await factors.button('Yes, remove it').click();
  await expect(factors.root).toContainText('You have not added a second step yet.');

  await account.signOut.click();
  await page.waitForURL('**/login?signedOut=1');
  await signIn(page, email, PASSWORD);
  await page.waitForURL('**/account');
  await expect(account.value('Email')).toHaveText(email);
});

/** A password account with a verified email and a text-message factor, made over REST; its factor's number. */
async function accountWithPhoneFactor(email: string): Promise<string> {
  const phone = `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
  await post('accounts:signUp', { email, password: PASSWORD, returnSecureToken: true });
  await verifyEmail(email);
  const { idToken } = await post<{ idToken: string }>('accounts:signInWithPassword', {
    email,
    password: PASSWORD,
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

test('the password posted before the scripts arrive: the server meets the factor, the hydrated widget finishes it', async ({
  page,
  widget,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('early');
  const phone = await accountWithPhoneFactor(email);
  // The page's scripts are held until the password has been posted: every step so far is a server form.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/**', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  // As `signIn`, without waiting for the page's load event (the held scripts hold it back).
  await page.goto('/login', { waitUntil: 'commit' });
  await widget.button('Sign in with email').click();
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.field('Password').fill(PASSWORD);
  await widget.button('Sign in').click();
  await expect(widget.root).toHaveAttribute('data-card', 'secondFactorPhone');
  release();
  await widget.card('secondFactorPhone', 'Verify it’s you');
  const smsBefore = await countSms(phone);
  await pressUntil(
    () => widget.button('Send code').click({ timeout: 2000 }),
    () => expect(widget.root).toHaveAttribute('data-card', 'secondFactorCode', { timeout: 1500 }),
  );
  await widget.card('secondFactorCode', 'Enter your code');
  await expect.poll(() => countSms(phone)).toBeGreaterThan(smsBefore);
  await widget.field('6-digit code').fill(await lastSmsCode(phone));
  await widget.button('Verify').click();
  await page.waitForURL('**/account');
  await expect(accountOf(page).value('Email')).toHaveText(email);
});

/** How many SMS codes the emulator has sent to a number. */
async function countSms(phoneNumber: string): Promise<number> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/demo-doorway/verificationCodes`);
  const { verificationCodes = [] } = (await response.json()) as {
    verificationCodes?: { phoneNumber: string }[];
  };
  return verificationCodes.filter((c) => c.phoneNumber === phoneNumber).length;
}
