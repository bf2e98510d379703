/**
 * The sign-in page with JavaScript off, on either backend (e2e/backends.ts): every card is a real form run
 * on the server (the same engine, over the backend's REST API), and a sign-in made there is the session
 * cookie and a 303 to the success URL. Sign-up, sign-out by the account page's form, sign-in after a wrong
 * password, recovery through the emailed link. (What the emulator's host alone offers without scripts:
 * e2e/host/sign-in-without-javascript.spec.ts.)
 */
import { errorMessages } from '../../packages/auth-core/src/messages.ts';
import { expect, test, toSignUpCard } from '../backends.ts';
import {
  hasSession,
  signInWithNewPassword,
  submitPassword,
  toPasswordSignInFromAccount,
  uiText,
  uniqueEmail,
} from '../host-pages.ts';

test.use({ javaScriptEnabled: false });

test.describe('sign-in page with JavaScript turned off', () => {
  // Each card's markup is axe-checked on a copy served to a second page: as long on either host as the
  // `remix-host-supabase` project's journeys (e2e/playwright.config.ts).
  test.describe.configure({ timeout: 120_000 });

  test('sign up (with the name), the account page, sign out by its form, sign in again', async ({
    page,
    backend,
    widget,
    account,
  }) => {
    const email = uniqueEmail('nojs-ada');
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    await toSignUpCard(widget, backend, email);
    await widget.field(uiText.nameLabel).fill('Ada Lovelace');
    await widget.field(uiText.newPasswordLabel).fill('secret123');
    await widget.button(uiText.save).click();
    await expect(page).toHaveURL('/account');
    await expect(account.heading).toBeVisible();
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Name')).toHaveText('Ada Lovelace');
    await expect(account.value('Signed in with')).toHaveText('password');
    expect(await hasSession(page)).toBe(true);

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', uiText.signOutTitle);
    await expect(widget.root).toContainText(uiText.signOutText);
    expect(await hasSession(page)).toBe(false);

    await toPasswordSignInFromAccount(page, widget, email);
    await submitPassword(widget, 'not-the-password1');
    await widget.card('passwordSignIn', uiText.passwordSignInTitle);
    await widget.expectError(errorMessages['wrong-password']);
    await expect(widget.field(uiText.emailLabel)).toHaveValue(email);
    await expect(widget.field(uiText.passwordLabel)).toHaveValue('');
    await expect(widget.field(uiText.passwordLabel)).toHaveAttribute('aria-invalid', 'true');
    await submitPassword(widget, 'secret123');
    await expect(page).toHaveURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    expect(await hasSession(page)).toBe(true);
  });

  test('recovery: Trouble signing in?, the emailed reset link, the reset form, sign in with the new password', async ({
    page,
    widget,
    openResetLink,
  }) => {
    const email = uniqueEmail('nojs-reset');
    await openResetLink(email);
    await widget.field(uiText.newPasswordLabel).fill('n3w-secret');
    await widget.button(uiText.save).click();
    await widget.card('passwordResetSuccess', uiText.passwordResetSuccessTitle);
    await widget.button(uiText.continue).click();
    await expect(page).toHaveURL('/login');

    await signInWithNewPassword(page, widget, email, { old: 'secret123', new: 'n3w-secret' });
  });
});
