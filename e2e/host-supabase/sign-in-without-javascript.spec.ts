/**
 * The sign-in page with JavaScript off on the host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST
 * DOUBLE (not Supabase): every card is a form run on the server over GoTrue's REST API, and a sign-in there
 * is the session cookie and a 303 to the success URL. Password sign-up on the combined card, sign-out by
 * the account page's form, sign-in after a wrong password, recovery through the emailed link.
 */
import type { Page } from '@playwright/test';
import {
  accountValue,
  expect,
  hostWidgetOf,
  lastRecoveryLink,
  test,
  toEmailEntry,
  uniqueEmail,
} from './fixtures.ts';

test.use({ javaScriptEnabled: false });

/** The session cookie of the page's context, if any. */
async function hasSession(page: Page): Promise<boolean> {
  return (await page.context().cookies()).some((c) => c.name === 'doorway_session' && c.httpOnly);
}

/** An account made through the scripts-off sign-up, then signed out. */
async function signUpAndOut(page: Page, email: string, password: string) {
  const widget = hostWidgetOf(page, { scripts: false });
  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.button('Create account').click();
  await widget.field('First & last name').fill('Reset Person');
  await widget.field('Choose password').fill(password);
  await widget.button('Save').click();
  await expect(page).toHaveURL('/account');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
}

/** From /login to the combined password card. */
async function toPasswordCard(page: Page, email: string) {
  const widget = hostWidgetOf(page, { scripts: false });
  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  return widget;
}

test.describe('remix-host on Supabase (GoTrue test double) with JavaScript turned off', () => {
  test('sign up on the combined card, /account, sign out by its form, a wrong password, sign in again', async ({
    page,
    widget,
  }) => {
    const email = uniqueEmail('nojs-ada');
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    await toEmailEntry(widget);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('passwordSignIn', 'Sign in');
    await expect(widget.root).toContainText('Enter your password, or create an account if you are new here.');
    await widget.button('Create account').click();
    await widget.card('passwordSignUp', 'Create account');
    await expect(widget.field('Email')).toHaveValue(email);
    await widget.field('First & last name').fill('Ada Lovelace');
    await widget.field('Choose password').fill('secret123');
    await widget.button('Save').click();
    await expect(page).toHaveURL('/account');
    await expect(accountValue(page, 'Email')).toHaveText(email);
    await expect(accountValue(page, 'Name')).toHaveText('Ada Lovelace');
    await expect(accountValue(page, 'Signed in with')).toHaveText('password');
    expect(await hasSession(page)).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', 'Signed out');
    expect(await hasSession(page)).toBe(false);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');

    await toEmailEntry(widget);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('not-the-password1');
    await widget.button('Sign in').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.expectError("The email and password you entered don't match");
    await expect(widget.field('Email')).toHaveValue(email);
    await expect(widget.field('Password')).toHaveValue('');
    await expect(widget.field('Password')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    await expect(page).toHaveURL('/account');
    await expect(accountValue(page, 'Email')).toHaveText(email);
    expect(await hasSession(page)).toBe(true);
  });

  test('recovery: the emailed link, the reset form, sign in with the new password', async ({ page }) => {
    const email = uniqueEmail('nojs-reset');
    await signUpAndOut(page, email, 'secret123');

    const widget = await toPasswordCard(page, email);
    await widget.button('Trouble signing in?').click();
    await widget.card('passwordRecovery', 'Recover password');
    await expect(widget.field('Email')).toHaveValue(email);
    await widget.button('Send').click();
    await widget.card('recoveryEmailSent', 'Check your email');
    await expect(widget.root).toContainText(
      `Follow the instructions sent to ${email} to recover your password`,
    );

    const link = new URL(await lastRecoveryLink(email));
    expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:4330/action');
    expect(link.searchParams.get('continueUrl')).toBe('http://127.0.0.1:4330/login');
    await page.goto(link.href);
    await widget.card('passwordReset', 'Reset your password');
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.card('passwordResetSuccess', 'Password changed');
    await widget.button('Continue').click();
    await expect(page).toHaveURL('/login');

    await toPasswordCard(page, email);
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await widget.field('Password').fill('n3w-secret');
    await widget.button('Sign in').click();
    await expect(page).toHaveURL('/account');
    await expect(accountValue(page, 'Email')).toHaveText(email);
  });
});
