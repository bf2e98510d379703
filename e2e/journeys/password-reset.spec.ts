/**
 * Password reset from the emailed link, on either backend (e2e/backends.ts): the widget asks for the
 * email, the backend "sends" the recovery email, its link opens the host's server-side action page (the
 * server verifies the code, which spends it), the new password is set by the card's form post, and only
 * the new password signs in.
 */
import { validationMessages } from '../../packages/auth-core/src/messages.ts';
import { expect, test } from '../backends.ts';
import { signInWithNewPassword, uiText, uniqueEmail } from '../host-pages.ts';

test.describe('password reset from the emailed link', () => {
  test('recovery email, the reset page on the server, then sign in with the new password', async ({
    page,
    widget,
    openResetLink,
  }) => {
    const email = uniqueEmail('reset');
    // The link continues to the page that asked; on Supabase, Doorway's own template links to /action.
    const link = await openResetLink(email);
    expect(link.searchParams.get('mode')).toBe('resetPassword');
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
    await signInWithNewPassword(page, widget, email, { old: 'secret123', new: 'n3w-secret' });
  });
});
