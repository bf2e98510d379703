// Second factors on the Firebase host: a text-message factor added on /account (the browser's SDK signed
// in from the session cookie), then a password sign-in clicked as a person would (possibly before
// hydration: the server meets the second factor, and the hydrated widget finishes its challenge with the
// emulator's SMS code), the factor removed, and the password alone signing in again.
import type { Page } from '@playwright/test';
import { enterEmail } from '../host-pages.ts';
import { accountWithPhoneFactor, countSms, FACTOR_PASSWORD, pressUntil, verifyEmail } from './factors.ts';
import {
  accountOf,
  expect,
  expectNoAxeViolations,
  lastSmsCode,
  signIn,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

const PASSWORD = FACTOR_PASSWORD;

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
  await enterEmail(widget, email);
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
