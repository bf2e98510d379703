import { ADA, expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test('password recovery: reset email, new password, failure on reuse', async ({
  page,
  home,
  widget,
  panel,
}) => {
  await page.goto(home);
  await enterEmail(widget, ADA.email);
  await widget.button('Trouble signing in?').click();
  await widget.card('passwordRecovery', 'Recover password');
  await expect(widget.field('Email')).toHaveValue(ADA.email);
  await widget.button('Send').click();
  await widget.card('recoveryEmailSent', 'Check your email');
  await expect(widget.root).toContainText(`Follow the instructions sent to ${ADA.email}`);

  const link = panel.emailLink('resetPassword', ADA.email);
  const href = await link.getAttribute('href');
  await link.click();
  await widget.card('passwordReset', 'Reset your password');
  await expect(widget.root).toContainText(`for ${ADA.email}`);
  await widget.field('Choose password').fill('abc');
  await widget.button('Save').click();
  await widget.expectError('Use at least 6 characters with letters and numbers');
  await widget.field('Choose password').fill('n3w-secret');
  await widget.button('Save').click();
  await widget.card('passwordResetSuccess', 'Password changed');
  await widget.button('Continue').click();
  await widget.card('providerChooser');

  await enterEmail(widget, ADA.email);
  await widget.field('Password').fill('n3w-secret');
  await widget.button('Sign in').click();
  await widget.card('signedIn', 'Signed in!');

  await page.goto(href ?? '');
  await widget.card('passwordResetFailure', 'Try resetting your password again');
});
