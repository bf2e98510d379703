/**
 * The host in a browser set to dark: the cards a person meets on the way (sign-up, sign-out, sign-in,
 * recovery, phone, the action pages, the error card) and the host's own pages, each checked with axe-core
 * (colour contrast included) as it shows. The page around the widget follows the system's scheme too.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { enterEmail, uiText } from '../host-pages.ts';
import {
  actionUrl,
  createAccount,
  expect,
  expectNoAxeViolations,
  lastOobCode,
  sendOobCode,
  test,
  uniqueEmail,
} from './fixtures.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

test.use({ colorScheme: 'dark' });

/** axe-core on the whole page: the host's header, text and links around the widget as well. */
async function expectPageAccessible(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } };
    const result = await axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, 'axe-core violations').toEqual([]);
}

/** The page is dark: the body's background and text as app.css sets them for a dark scheme. */
async function expectDarkPage(page: Page): Promise<void> {
  const body = page.locator('body');
  await expect(body).toHaveCSS('background-color', 'rgb(18, 19, 22)');
  await expect(body).toHaveCSS('color', 'rgb(236, 236, 236)');
}

test.describe('the host in dark', () => {
  test('sign-up, the account page, sign-out, sign-in, a wrong password, recovery', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('dark');
    await page.goto('/');
    await expectDarkPage(page);
    await expectPageAccessible(page);

    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await expectDarkPage(page);
    await expectPageAccessible(page);
    await widget.button(uiText.signInWithEmail).click();
    await widget.card('emailEntry', uiText.emailEntryTitle);
    await widget.button('Next').click();
    await widget.expectError('Enter your email address to continue');
    await expectNoAxeViolations(page);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('passwordSignUp', 'Create account');
    await widget.field('First & last name').fill('Ada Lovelace');
    await widget.field('Choose password').fill('secret123');
    await widget.button('Save').click();
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    await expectDarkPage(page);
    await expectPageAccessible(page);
    // Sign out looks like the widget's buttons (dark accent, dark text), though it is outside the widget.
    await expect(account.signOut).toHaveCSS('background-color', 'rgb(138, 180, 248)');
    await expect(account.signOut).toHaveCSS('color', 'rgb(11, 27, 51)');

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', 'Signed out');
    await widget.button('Sign in again').click();
    // The chooser, with its "Last used" mark.
    await widget.card('providerChooser', 'Sign in');
    await expect(widget.button(uiText.signInWithEmail)).toHaveAccessibleDescription('Last used');
    await enterEmail(widget, email, { card: true });
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('not-the-password');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await expectNoAxeViolations(page);
    await widget.button('Trouble signing in?').click();
    await widget.card('passwordRecovery', 'Recover password');
    await widget.button('Send').click();
    await widget.card('recoveryEmailSent', 'Check your email');

    // The emailed reset link: the action page's form, then its success; the spent link, its failure.
    const code = await lastOobCode(email, 'PASSWORD_RESET');
    const link = actionUrl(code);
    await page.goto(link);
    await widget.card('passwordReset', 'Reset your password');
    await expectDarkPage(page);
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.card('passwordResetSuccess', 'Password changed');
    await page.goto(link);
    await widget.card('passwordResetFailure', 'Try resetting your password again');
  });

  test('phone entry', async ({ page, widget }) => {
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await widget.button('Sign in with phone').click();
    await widget.card('phoneEntry', 'Enter your phone number');
  });

  test('an action page: email verified, then the spent link', async ({ page, widget }) => {
    const email = uniqueEmail('dark-verify');
    const { idToken } = await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken });
    const link = actionUrl(await lastOobCode(email, 'VERIFY_EMAIL'));
    await page.goto(link);
    await widget.card('emailVerificationSuccess', 'Your email has been verified');
    await expectDarkPage(page);
    await expectPageAccessible(page);
    await page.goto(link);
    await widget.card('emailVerificationFailure', 'Try verifying your email again');
  });

  test('the error card of a page that does not exist', async ({ page, widget }) => {
    await page.goto('/no-such-page');
    await widget.card('unrecoverableError', 'Error encountered');
    await expect(widget.root).toContainText('This page does not exist.');
    await expect(widget.link('Home')).toHaveCSS('color', 'rgb(11, 27, 51)');
    await expectDarkPage(page);
    await expectPageAccessible(page);
  });

  test.describe('with JavaScript turned off', () => {
    test.use({ javaScriptEnabled: false });

    test('the chooser and the email card are dark too', async ({ page, widget }) => {
      await page.goto('/login');
      await widget.card('providerChooser', 'Sign in');
      await expectDarkPage(page);
      await widget.button(uiText.signInWithEmail).click();
      await widget.card('emailEntry', uiText.emailEntryTitle);
    });
  });
});
