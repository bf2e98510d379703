/**
 * "Last used" on the host, on either backend (e2e/backends.ts): after signing out, the chooser marks the
 * option this browser last signed in with. The host keeps it in a cookie (the option's id only), so the page
 * the server sends marks it, with JavaScript and without. (Google, which the emulator's host alone offers:
 * e2e/host/last-used.spec.ts.)
 */
import { expect, signUp, test } from '../backends.ts';
import {
  expectMarked,
  lastUsedCookie,
  signInWithPassword,
  signOutToChooser,
  uiText,
  uniqueEmail,
} from '../host-pages.ts';

test.describe('"Last used" on the host', () => {
  test('a password sign-up, sign out: the chooser marks email', async ({
    page,
    context,
    backend,
    widget,
  }) => {
    await page.goto('/login');
    await widget.card('providerChooser', uiText.providerChooserTitle);
    await expect(widget.root.getByText(uiText.lastUsed, { exact: true })).toHaveCount(0);
    await signUp(page, widget, backend, {
      email: uniqueEmail('last'),
      name: 'Ada Lovelace',
      password: 'secret123',
    });
    expect(await lastUsedCookie(context)).toBe('email');

    await signOutToChooser(page, widget);
    await expectMarked(widget, uiText.signInWithEmail, backend.chooser(true));
    expect(await lastUsedCookie(context)).toBe('email');

    // Without what the widget kept in this browser, the server's cookie alone marks it.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/login');
    await widget.card('providerChooser', uiText.providerChooserTitle);
    await expectMarked(widget, uiText.signInWithEmail, backend.chooser(true));
  });

  test.describe('with JavaScript turned off', () => {
    test.use({ javaScriptEnabled: false });

    test('a password sign-in, sign out: the served chooser marks email', async ({
      page,
      browser,
      context,
      backend,
      widget,
      account,
    }) => {
      const email = uniqueEmail('last-nojs');
      await backend.createAccount(browser, { email, name: 'Ada Lovelace', password: 'secret123' });
      await page.goto('/login');
      await widget.card('providerChooser', uiText.providerChooserTitle);
      await expect(widget.root.getByText(uiText.lastUsed, { exact: true })).toHaveCount(0);
      await signInWithPassword(widget, email, 'secret123');
      await expect(page).toHaveURL('/account');
      await expect(account.value('Signed in with')).toHaveText('password');
      expect(await lastUsedCookie(context)).toBe('email');

      await signOutToChooser(page, widget);
      await expectMarked(widget, uiText.signInWithEmail, backend.chooser(false));
      await page.goto('/login');
      await widget.card('providerChooser', uiText.providerChooserTitle);
      await expectMarked(widget, uiText.signInWithEmail, backend.chooser(false));
    });
  });
});
