/**
 * Password reset from the emailed link, on either backend (e2e/backends.ts): the widget asks for the
 * email, the backend "sends" the recovery email, its link opens the host's server-side action page (the
 * server verifies the code, which spends it), the new password is set by the card's form post, and only
 * the new password signs in.
 */
import { errorMessages, validationMessages } from '../../packages/auth-core/src/messages.ts';
import { expect, test } from '../backends.ts';
import { submitPassword, toPasswordSignIn, uiText, uniqueEmail } from '../host-pages.ts';

test.describe('password reset from the emailed link', () => {
  test('recovery email, the reset page on the server, then sign in with the new password', async ({
    page,
    browser,
    baseURL,
    backend,
    widget,
    account,
  }) => {
    const email = uniqueEmail('reset');
    await backend.createAccount(browser, { email, name: 'Reset Person', password: 'secret123' });
    await page.goto('/login');
    await toPasswordSignIn(widget, email);
    await widget.button(uiText.troubleSigningIn).click();
    await widget.card('passwordRecovery', uiText.passwordRecoveryTitle);
    await widget.button(uiText.send).click();
    await widget.card('recoveryEmailSent', uiText.recoveryEmailSentTitle);
    await expect(widget.root).toContainText(uiText.recoveryEmailSentText(email));

    // The emailed link's continue URL is the page that asked.
    const link = new URL(await backend.lastResetLink(email));
    expect(link.searchParams.get('continueUrl')).toBe(`${baseURL}/login`);
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    if (backend.linksToHost) {
      // Doorway's own template (Supabase): the link is the host's action page itself.
      expect(`${link.origin}${link.pathname}`).toBe(`${baseURL}/action`);
    }
    await page.goto(link.href);
    await widget.card('passwordReset', uiText.passwordResetTitle);
    await expect(widget.root).toContainText(uiText.passwordResetFor(email));
    await expect(widget.root).toContainText(uiText.passwordHint);
    await widget.field(uiText.newPasswordLabel).fill('abc');
    await widget.button(uiText.save).click();
    await widget.card('passwordReset', uiText.passwordResetTitle);
    await expect(widget.root.locator('.doorway-error')).toHaveText(validationMessages['password-weak']);
    await expect(widget.field(uiText.newPasswordLabel)).toHaveAttribute('aria-invalid', 'true');
    await widget.field(uiText.newPasswordLabel).fill('n3w-secret');
    await widget.button(uiText.save).click();
    await widget.card('passwordResetSuccess', uiText.passwordResetSuccessTitle);
    await widget.button(uiText.continue).click();
    await expect(page).toHaveURL('/login');

    // The link is spent.
    await page.goto(link.href);
    await widget.card('passwordResetFailure', uiText.passwordResetFailureTitle);

    // The old password no longer signs in; the new one does.
    await page.goto('/login');
    await toPasswordSignIn(widget, email);
    await submitPassword(widget, 'secret123');
    await widget.expectError(errorMessages['wrong-password']);
    await submitPassword(widget, 'n3w-secret');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });
});
