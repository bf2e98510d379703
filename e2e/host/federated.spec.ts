import type { Page } from '@playwright/test';
import { createAccount, expect, test, uniqueEmail, uniqueSub } from './fixtures.ts';

/**
 * The SDK's popup and redirect need apis.google.com (offline here). On the Auth emulator the host asks for
 * the identity as JSON claims (a prompt) and signs in with GoogleAuthProvider.credential(claims), which
 * the emulator accepts: the widget's real flow, through the app's UI, on the Firebase side.
 */
function answerIdentity(page: Page, claims: Record<string, unknown>) {
  page.once('dialog', (dialog) => dialog.accept(JSON.stringify(claims)));
}

test.describe('federated sign-in and account linking', () => {
  test('Google: a new account from the emulator identity', async ({ page, widget, account }) => {
    const email = uniqueEmail('google');
    await page.goto('/login');
    await widget.card('providerChooser');
    answerIdentity(page, { sub: uniqueSub('g-new'), email, email_verified: true });
    await widget.button('Sign in with Google').click();
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Signed in with')).toHaveText('google.com');
    await expect(account.value('Linked sign-in methods')).toHaveText('google.com');
  });

  test('cancelling the identity prompt shows the permissions message', async ({ page, widget }) => {
    await page.goto('/login');
    await widget.card('providerChooser');
    page.once('dialog', (dialog) => dialog.dismiss());
    await widget.button('Sign in with Google').click();
    await widget.expectError('Please authorize the required permissions to sign in to the application');
  });

  test('account exists with a different credential: the password links Google to it', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('linked');
    const sub = uniqueSub('g-link');
    await createAccount(email, 'secret123');
    await page.goto('/login');
    await widget.card('providerChooser');
    // An unverified Google email of a password account: Firebase refuses to sign in and offers linking.
    answerIdentity(page, { sub, email, email_verified: false });
    await widget.button('Sign in with Google').click();
    await widget.card('passwordLinking', 'You already have an account');
    await expect(widget.root).toContainText(
      `You've already used ${email} to sign in. Enter your password for that account to also sign in with Google.`,
    );
    await widget.field('Password').fill('wrong-password');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    await page.waitForURL('/account');
    await expect(account.value('Linked sign-in methods')).toHaveText('google.com, password');

    // Google alone now signs in to the same account.
    const uid = await account.value('User ID').textContent();
    await page.context().clearCookies();
    await page.goto('/login?signedOut=1');
    await widget.card('signOut');
    await widget.button('Sign in again').click();
    answerIdentity(page, { sub, email, email_verified: false });
    await widget.button('Sign in with Google').click();
    await page.waitForURL('/account');
    await expect(account.value('User ID')).toHaveText(uid ?? '');
    await expect(account.value('Signed in with')).toHaveText('google.com');
  });
});
