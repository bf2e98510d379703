/**
 * "Last used" on the host: after signing out, the chooser marks the option this browser last signed in
 * with. The host keeps it in a cookie (the option's id only), so the page the server sends marks it, with
 * JavaScript and without.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { accountOf, createAccount, expect, hostWidgetOf, test, uniqueEmail } from './fixtures.ts';

const CHOOSER_BUTTONS = [
  'Sign in with email',
  'Sign in with phone',
  'Sign in with Google',
  'Continue as guest',
];

/** The chooser marks `name` "Last used" (its description), and no other option. */
async function expectMarked(widget: ReturnType<typeof hostWidgetOf>, name: string) {
  await expect(widget.button(name)).toHaveAccessibleName(name);
  await expect(widget.button(name)).toHaveAccessibleDescription('Last used');
  for (const other of CHOOSER_BUTTONS.filter((n) => n !== name)) {
    await expect(widget.button(other)).toHaveAccessibleDescription('');
  }
  await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(1);
}

/** The "Last used" cookie, which holds the option's id and nothing about the person. */
async function lastUsedCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === 'doorway_last_used');
  expect(cookie, 'the "Last used" cookie').toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  return cookie?.value;
}

/** Signs out from the account page and goes on from the sign-out card to the chooser. */
async function signOutToChooser(page: Page, scripts: boolean) {
  const widget = hostWidgetOf(page, { scripts });
  await accountOf(page).signOut.click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await widget.card('signOut', 'Signed out');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
  return widget;
}

test.describe('"Last used" on the host', () => {
  test('Google, then sign out: the chooser marks Google, from the page the server sends', async ({
    page,
    context,
    widget,
    account,
  }) => {
    const email = uniqueEmail('last-google');
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(0);
    page.once('dialog', (dialog) =>
      dialog.accept(JSON.stringify({ sub: 'g-last', email, email_verified: true })),
    );
    await widget.button('Sign in with Google').click();
    await page.waitForURL('/account');
    await expect(account.value('Signed in with')).toHaveText('google.com');
    expect(await lastUsedCookie(context)).toBe('google.com');

    const chooser = await signOutToChooser(page, true);
    await expectMarked(chooser, 'Sign in with Google');
    expect(await lastUsedCookie(context)).toBe('google.com');

    // Without what the widget kept in this browser, the server's cookie alone marks it.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await expectMarked(widget, 'Sign in with Google');
  });

  test.describe('with JavaScript turned off', () => {
    test.use({ javaScriptEnabled: false });

    test('a password sign-in, sign out: the served chooser marks email', async ({
      page,
      context,
      widget,
      account,
    }) => {
      const email = uniqueEmail('last-nojs');
      await createAccount(email, 'secret123');
      await page.goto('/login');
      await widget.card('providerChooser', 'Sign in');
      await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(0);
      await widget.button('Sign in with email').click();
      await widget.card('emailEntry', 'Sign in with email');
      await widget.field('Email').fill(email);
      await widget.button('Next').click();
      await widget.card('passwordSignIn', 'Sign in');
      await widget.field('Password').fill('secret123');
      await widget.button('Sign in').click();
      await expect(page).toHaveURL('/account');
      await expect(account.value('Signed in with')).toHaveText('password');
      expect(await lastUsedCookie(context)).toBe('email');

      const chooser = await signOutToChooser(page, false);
      await expectMarked(chooser, 'Sign in with email');
      await page.goto('/login');
      await widget.card('providerChooser', 'Sign in');
      await expectMarked(widget, 'Sign in with email');
    });
  });
});
