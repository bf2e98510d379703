/**
 * The sign-in page with JavaScript off: every card is a real form run on the server (the same engine, the
 * Identity Toolkit REST API of the Auth emulator), and a sign-in made there is the session cookie and a
 * 303 to the success URL. People's journeys, by roles and labels; axe-core checks each card's markup.
 * The journeys both backends share (sign-up, sign-out, sign-in, recovery): e2e/journeys/.
 */
import type { Browser, Page } from '@playwright/test';
import { enterEmail, hasSession, uiText } from '../host-pages.ts';
import {
  accountOf,
  askForSignInLink,
  confirmLinkElsewhere,
  createAccount,
  EMAIL_LINK_HOST,
  emailSignInUrl,
  expect,
  hostWidgetOf,
  lastOobCode,
  test,
  uniqueEmail,
} from './fixtures.ts';

test.use({ javaScriptEnabled: false });

/** From /login to the password card of an existing account. */
async function toPasswordCard(page: Page, email: string, from = '/login') {
  const widget = hostWidgetOf(page, { scripts: false });
  await page.goto(from);
  await widget.card('providerChooser', 'Sign in');
  await enterEmail(widget, email, { card: true });
  await widget.card('passwordSignIn', 'Sign in');
  return widget;
}

/** A second browser with scripts off, on `baseURL`. */
function scriptsOffContext(browser: Browser, baseURL: string) {
  return browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 400, height: 900 } });
}

test.describe('sign-in page with JavaScript turned off', () => {
  test('the first card is the sign-in card itself, as a form: no spinner, no script needed', async ({
    page,
    widget,
  }) => {
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await expect(page.getByRole('progressbar')).toBeHidden();
    for (const name of [
      uiText.signInWithEmail,
      'Sign in with phone',
      'Sign in with Google',
      'Continue as guest',
    ])
      await expect(widget.button(name)).toBeVisible();
    await expect(widget.link('Terms of Service')).toHaveAttribute('href', '/terms');
  });

  test('a refused sign-up keeps the email and the name, never the password', async ({ page, widget }) => {
    const email = uniqueEmail('nojs-weak');
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignUp', 'Create account');
    await widget.field('First & last name').fill('Ada Lovelace');
    await widget.field('Choose password').fill('abc');
    await widget.button('Save').click();
    await widget.card('passwordSignUp', 'Create account');
    await widget.expectError('Use at least 6 characters with letters and numbers');
    await expect(widget.field('Choose password')).toHaveAttribute('aria-invalid', 'true');
    await expect(widget.field('Choose password')).toHaveValue('');
    await expect(widget.field('Email')).toHaveValue(email);
    await expect(widget.field('First & last name')).toHaveValue('Ada Lovelace');
  });

  test('the sign-out card’s Sign in again starts over', async ({ page, widget }) => {
    await page.goto('/login?signedOut=1');
    await widget.card('signOut', 'Signed out');
    await widget.button('Sign in again').click();
    await widget.card('providerChooser', 'Sign in');
  });

  test('a wrong password: the error, the email kept, the password field empty; then signed in', async ({
    page,
    account,
  }) => {
    const email = uniqueEmail('nojs-grace');
    await createAccount(email, 'secret123');
    const widget = await toPasswordCard(page, email, '/login?signInSuccessUrl=%2F%3Fwelcome%3D1');
    await widget.field('Password').fill('not-the-password');
    await widget.button('Sign in').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.expectError("The email and password you entered don't match");
    await expect(widget.field('Email')).toHaveValue(email);
    await expect(widget.field('Password')).toHaveValue('');
    await expect(widget.field('Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(widget.field('Password')).toHaveAccessibleDescription(
      "The email and password you entered don't match",
    );
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    // The success URL of the page that asked (its query survives the posts).
    await expect(page).toHaveURL('/?welcome=1');
    await page.goto('/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('Cancel on the password card goes back to the first card', async ({ page }) => {
    const email = uniqueEmail('nojs-cancel');
    await createAccount(email, 'secret123');
    const widget = await toPasswordCard(page, email);
    await widget.button('Cancel').click();
    await widget.card('providerChooser', 'Sign in');
  });

  test('guest: Continue as guest signs in anonymously', async ({ page, widget, account }) => {
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await widget.button('Continue as guest').click();
    await expect(page).toHaveURL('/account');
    await expect(account.value('Signed in with')).toHaveText('anonymous');
    await expect(account.value('Linked sign-in methods')).toHaveText('none (guest)');
    expect(await hasSession(page)).toBe(true);
  });

  test('the cards that need scripts say so: phone (reCAPTCHA) and Google (popup)', async ({
    page,
    widget,
  }) => {
    await page.goto('/login');
    await widget.button('Sign in with phone').click();
    await widget.card('phoneEntry', 'Enter your phone number');
    // Chromium's script-disabling emulation parses <noscript> content but does not lay it out (a browser
    // with JavaScript switched off does): what is checked here is the markup the server sends.
    expect(await widget.root.locator('noscript').textContent()).toBe(
      'Signing in this way needs JavaScript. Turn on JavaScript in your browser and try again.',
    );
    await page.goto('/login');
    await widget.button('Sign in with Google').click();
    await widget.card('providerChooser', 'Sign in');
    await expect(widget.root).toContainText(
      'Signing in this way needs JavaScript. Turn on JavaScript in your browser and try again.',
    );
  });
});

test.describe('email-link sign-in with JavaScript turned off', () => {
  test.use({ baseURL: EMAIL_LINK_HOST });

  test('same browser: the link asks for the email (its GET signs nobody in: issue 24), then signs in', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('nojs-link');
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await enterEmail(widget, email, { card: true });
    await widget.card('emailLinkSent', 'Sign-in email sent');
    await expect(widget.root).toContainText(email);
    const code = await lastOobCode(email, 'EMAIL_SIGNIN');
    await page.goto(emailSignInUrl(code));
    await widget.card('emailLinkConfirmation', 'Confirm email');
    await expect(widget.field('Email')).toHaveValue('');
    expect(await hasSession(page)).toBe(false);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await expect(page).toHaveURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Signed in with')).toHaveText('password');
    expect(await hasSession(page)).toBe(true);
  });

  test('another browser: the confirmation card asks for the email, then signs in', async ({
    page,
    browser,
    widget,
  }) => {
    const email = uniqueEmail('nojs-device');
    const link = await askForSignInLink(page, widget, email);

    const other = await scriptsOffContext(browser, EMAIL_LINK_HOST);
    try {
      const second = await other.newPage();
      await confirmLinkElsewhere(second, hostWidgetOf(second, { scripts: false }), link, email);
      await expect(second).toHaveURL('/account');
      await expect(accountOf(second).value('Email')).toHaveText(email);
      expect(await hasSession(second)).toBe(true);
    } finally {
      await other.close();
    }
    // The first browser is not signed in by the other's use of the link.
    expect(await hasSession(page)).toBe(false);
  });
});
