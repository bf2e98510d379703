import { expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test.describe('sign-up', () => {
  test('a new email signs up with a name', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await widget.ready();
    await enterEmail(widget, 'new.person@example.com');
    await widget.card('passwordSignUp', 'Create account');
    await expect(widget.field('Email')).toHaveValue('new.person@example.com');
    await widget.button('Save').click();
    await widget.expectError('Enter your account name');
    await expect(widget.field('First & last name')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('First & last name').fill('New Person');
    await widget.field('Choose password').fill('abc');
    await widget.button('Save').click();
    await widget.expectError('Use at least 6 characters with letters and numbers');
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText('Signed in: new.person@example.com');
  });

  test('with email enumeration protection the combined card offers Create account', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    await page.goto(home);
    await panel.check('Email enumeration protection');
    await enterEmail(widget, 'maybe.new@example.com');
    await widget.card('passwordSignIn', 'Sign in');
    await expect(widget.root).toContainText('Enter your password, or create an account if you are new here.');
    await widget.field('Password').fill('whatever1');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await widget.button('Create account').click();
    await widget.card('passwordSignUp', 'Create account');
    await expect(widget.field('Email')).toHaveValue('maybe.new@example.com');
  });

  test('restricted sign-up shows the unauthorized-user card', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await panel.check('Restrict sign-up (unauthorized user)');
    await widget.ready();
    await enterEmail(widget, 'stranger@example.com');
    await widget.card('unauthorizedUser', 'Not authorized');
    await expect(widget.root).toContainText(
      'stranger@example.com is not authorized to create an account here',
    );
    await expect(widget.link('admin@example.com')).toHaveAttribute('href', 'mailto:admin@example.com');
    await widget.button('Back').click();
    await widget.card('providerChooser');
  });

  test('sign-up disabled on the backend is reported on the sign-up card', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    await page.goto(home);
    await panel.check('Sign-up disabled');
    await enterEmail(widget, 'new.person@example.com');
    await widget.field('First & last name').fill('New Person');
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.expectError('New accounts cannot be created for this app');
  });
});
