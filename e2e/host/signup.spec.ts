import { enterEmail } from '../host-pages.ts';
import { expect, test, uniqueEmail } from './fixtures.ts';

test.describe('sign up', () => {
  test('the widget creates the account, the server sets an httpOnly session cookie, /account shows it', async ({
    page,
    context,
    widget,
    account,
  }) => {
    const email = uniqueEmail('ada');
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await expect(widget.link('Terms of Service')).toHaveAttribute('href', '/terms');
    await enterEmail(widget, email, { card: true });
    await widget.card('passwordSignUp', 'Create account');
    await widget.field('First & last name').fill('Ada Lovelace');
    await widget.field('Choose password').fill('abc');
    await widget.button('Save').click();
    await widget.expectError('Use at least 6 characters with letters and numbers');
    await widget.field('Choose password').fill('secret123');
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
    await expect(account.value('Name')).toHaveText('Ada Lovelace');
    await expect(account.value('Signed in with')).toHaveText('password');
    await expect(account.value('Linked sign-in methods')).toHaveText('password');

    const session = (await context.cookies()).find((c) => c.name === 'doorway_session');
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: false,
      domain: '127.0.0.1',
    });
    // Five days (Max-Age), give or take the test's own duration.
    expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + 4.9 * 24 * 3600);
    expect(await page.evaluate(() => document.cookie)).not.toContain('doorway_session');
  });
});
