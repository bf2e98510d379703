import { actionUrl, createAccount, expect, lastOobCode, signIn, test, uniqueEmail } from './fixtures.ts';

test.describe('password reset from the emailed link', () => {
  test('recovery email, the reset page on the server, then sign in with the new password', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('reset');
    await createAccount(email, 'secret123');
    await page.goto('/login');
    await widget.button('Sign in with email').click();
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('passwordSignIn');
    await widget.button('Trouble signing in?').click();
    await widget.card('passwordRecovery', 'Recover password');
    await widget.button('Send').click();
    await widget.card('recoveryEmailSent', 'Check your email');
    await expect(widget.root).toContainText(
      `Follow the instructions sent to ${email} to recover your password`,
    );

    const code = await lastOobCode(email, 'PASSWORD_RESET');
    // The emailed link's continue URL is the page that asked.
    expect(new URL(code.oobLink).searchParams.get('continueUrl')).toBe('http://127.0.0.1:4320/login');
    const link = actionUrl(code, { continueUrl: 'http://127.0.0.1:4320/login' });
    await page.goto(link);
    await widget.card('passwordReset', 'Reset your password');
    await expect(widget.root).toContainText(`for ${email}`);
    await expect(widget.root).toContainText('Use at least 6 characters with letters and numbers');
    await widget.field('Choose password').fill('abc');
    await widget.button('Save').click();
    await widget.card('passwordReset', 'Reset your password');
    await expect(widget.root.locator('.doorway-error')).toHaveText(
      'Use at least 6 characters with letters and numbers',
    );
    await expect(widget.field('Choose password')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.card('passwordResetSuccess', 'Password changed');
    await widget.button('Continue').click();
    await expect(page).toHaveURL('/login');

    // The link is spent.
    await page.goto(link);
    await widget.card('passwordResetFailure', 'Try resetting your password again');

    await signIn(page, email, 'n3w-secret');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });
});
