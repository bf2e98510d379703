/**
 * Password sign-up, sign-in and sign-out on the host, on either backend (e2e/backends.ts): the widget
 * makes or signs in the account, the server sets its httpOnly session cookie and /account shows it; sign-out
 * ends the session at the backend, clears the cookie and signs the browser's SDK out. (Each backend's own
 * tests: e2e/host/signin.spec.ts, e2e/host/signout.spec.ts, e2e/host-supabase/password.spec.ts.)
 */

import type { BrowserContext } from '@playwright/test';
import { errorMessages, validationMessages } from '../../packages/auth-core/src/messages.ts';
import { expect, signUp, test, toSignUpCard } from '../backends.ts';
import { submitPassword, toPasswordSignInFromAccount, uiText, uniqueEmail } from '../host-pages.ts';

/** The host's session cookie in `context`, if any. */
const sessionOf = async (context: BrowserContext) =>
  (await context.cookies()).find((c) => c.name === 'doorway_session');

test.describe('sign up', () => {
  test('the widget creates the account, the server sets an httpOnly session cookie, /account shows it', async ({
    page,
    backend,
    widget,
    account,
  }) => {
    await page.goto('/login');
    await widget.card('providerChooser', uiText.providerChooserTitle);
    if (backend.termsUrl)
      await expect(widget.link('Terms of Service')).toHaveAttribute('href', backend.termsUrl);
    else await expect(widget.link('Terms of Service')).toHaveCount(0);
    const email = uniqueEmail('ada');
    await toSignUpCard(widget, backend, email);
    await widget.field(uiText.nameLabel).fill('Ada Lovelace');
    await widget.field(uiText.newPasswordLabel).fill('abc');
    await widget.button(uiText.save).click();
    await widget.expectError(validationMessages['password-weak']);
    await widget.field(uiText.newPasswordLabel).fill('secret123');
    await widget.button(uiText.save).click();
    await widget.card('signedIn', uiText.signedIn);
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Name')).toHaveText('Ada Lovelace');
    await expect(account.value('Signed in with')).toHaveText('password');
    await expect(account.value('Linked sign-in methods')).toHaveText(backend.passwordMethods);

    const session = await sessionOf(page.context());
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: false,
      domain: '127.0.0.1',
    });
    expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + backend.sessionSeconds.min);
    expect(session?.expires).toBeLessThan(Date.now() / 1000 + backend.sessionSeconds.max);
    expect(await page.evaluate(() => document.cookie)).not.toContain('doorway_session');
  });
});

test.describe('sign in', () => {
  test('the account page sends a visitor to sign in, a wrong password is refused, then back to /account', async ({
    page,
    browser,
    backend,
    widget,
    account,
  }) => {
    const email = uniqueEmail('grace');
    await backend.createAccount(browser, { email, name: 'Grace Hopper', password: 'secret123' });
    await toPasswordSignInFromAccount(page, widget, email);
    await submitPassword(widget, 'not-the-password1');
    await widget.expectError(errorMessages['wrong-password']);
    await expect(widget.field(uiText.passwordLabel)).toHaveAttribute('aria-invalid', 'true');
    await submitPassword(widget, 'secret123');
    await widget.card('signedIn', uiText.signedIn);
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });
});

test.describe('sign out', () => {
  test('revokes the session everywhere, clears the cookie, signs the SDK out and shows the card', async ({
    page,
    context,
    backend,
    widget,
    account,
  }) => {
    await signUp(page, widget, backend, {
      email: uniqueEmail('out'),
      name: 'Ada Lovelace',
      password: 'secret123',
    });
    const cookie = await sessionOf(context);
    expect(cookie).toBeDefined();
    // Let the sign-in's second pass so the revocation below applies to this session (a wait, not a timed
    // assertion): `revokesWholeSeconds`.
    if (backend.revokesWholeSeconds) await page.waitForTimeout(1100);

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', uiText.signOutTitle);
    await expect(widget.root).toContainText(uiText.signOutText);
    expect(await sessionOf(context)).toBeUndefined();

    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    // The browser's SDK is signed out too: the widget starts on the provider chooser.
    await widget.card('providerChooser', uiText.providerChooserTitle);

    // The old cookie, replayed, is revoked.
    if (cookie) await context.addCookies([cookie]);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    expect(await sessionOf(context)).toBeUndefined();

    await widget.button(uiText.signInWithEmail).click();
    await widget.card('emailEntry');
  });
});
