import { enterEmail } from '../host-pages.ts';
import { expect, test, uniqueEmail } from './fixtures.ts';

test.describe('anonymous upgrade', () => {
  test('a guest gets a session, then signs up and keeps the same account', async ({
    page,
    widget,
    account,
  }) => {
    await page.goto('/login');
    await widget.card('providerChooser');
    await widget.button('Continue as guest').click();
    await page.waitForURL('/account');
    await expect(account.value('Signed in with')).toHaveText('anonymous');
    await expect(account.value('Linked sign-in methods')).toHaveText('none (guest)');
    const guest = await account.value('User ID').textContent();

    // Back on the login page the widget knows the guest (restored by the SDK) and links instead.
    const email = uniqueEmail('upgraded');
    await page.goto('/login');
    await widget.card('providerChooser');
    await enterEmail(widget, email);
    await widget.card('passwordSignUp');
    await widget.field('First & last name').fill('Guest Upgraded');
    await widget.field('Choose password').fill('secret123');
    await widget.button('Save').click();
    await page.waitForURL('/account');
    await expect(account.value('User ID')).toHaveText(guest ?? '');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Linked sign-in methods')).toHaveText('password');
  });
});
