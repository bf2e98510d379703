/**
 * Password reset on the Remix host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (not
 * Supabase): the widget asks for the email, the double "sends" Doorway's recovery template (read from its
 * double-only outbox route), the link lands on the host's server-side action page (the server verifies the
 * link, which uses it, and keeps its recovery session), the new password is set by the card's form post.
 */
import { expect, lastRecoveryLink, signUp, test, toEmailEntry, uniqueEmail } from './fixtures.ts';

test('reset link → the server-side reset page → new password → sign in with it', async ({ page, widget }) => {
  const email = uniqueEmail('reset');
  // An account (combined card → Create account), then signed out.
  await signUp(page, widget, { email, name: 'Reset Person', password: 'secret123' });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await widget.card('signOut', 'Signed out');

  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  await widget.button('Trouble signing in?').click();
  await widget.card('passwordRecovery', 'Recover password');
  await widget.button('Send').click();
  await widget.card('recoveryEmailSent', 'Check your email');
  await expect(widget.root).toContainText(
    `Follow the instructions sent to ${email} to recover your password`,
  );

  // Doorway's template: the host's action route, continuing to the page that asked.
  const link = new URL(await lastRecoveryLink(email));
  expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:4330/action');
  expect(link.searchParams.get('mode')).toBe('resetPassword');
  expect(link.searchParams.get('oobCode')).toMatch(/^recovery-\w+$/);
  expect(link.searchParams.get('continueUrl')).toBe('http://127.0.0.1:4330/login');

  await page.goto(link.href);
  await widget.card('passwordReset', 'Reset your password');
  await expect(widget.root).toContainText(`for ${email}`);
  await widget.field('Choose password').fill('abc');
  await widget.button('Save').click();
  await widget.card('passwordReset', 'Reset your password');
  await expect(widget.root.locator('.doorway-error')).toHaveText(
    'Use at least 6 characters with letters and numbers',
  );
  await widget.field('Choose password').fill('n3w-secret');
  await widget.button('Save').click();
  await widget.card('passwordResetSuccess', 'Password changed');
  await widget.button('Continue').click();
  await expect(page).toHaveURL('/login');

  // The link is spent.
  await page.goto(link.href);
  await widget.card('passwordResetFailure', 'Try resetting your password again');

  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.field('Password').fill('secret123');
  await widget.button('Sign in').click();
  await widget.expectError("The email and password you entered don't match");
  await widget.field('Password').fill('n3w-secret');
  await widget.button('Sign in').click();
  await page.waitForURL('/account');
});
