import { ADA, expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test.describe('anonymous upgrade', () => {
  test.beforeEach(async ({ page, home, panel, widget }) => {
    await page.goto(home);
    await panel.check('Anonymous upgrade');
    await panel.button('Sign in anonymously first').click();
    await expect(panel.panel).toContainText('Signed in: anonymous user');
    await widget.ready();
  });

  test('a guest signs up: the same user is upgraded', async ({ panel, widget }) => {
    const guest = /\((uid-\d+)\)/.exec((await panel.panel.textContent()) ?? '')?.[1];
    expect(guest).toBeTruthy();
    await enterEmail(widget, 'guest.keeps.data@example.com');
    await widget.field('First & last name').fill('Former Guest');
    await widget.field('Choose password').fill('g0od-pass');
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: guest.keeps.data@example.com (${guest})`);
  });

  test('a guest signs in to an existing account: merge conflict for the app to resolve', async ({
    panel,
    widget,
  }) => {
    await enterEmail(widget, ADA.email);
    await widget.field('Password').fill(ADA.password);
    await widget.button('Sign in').click();
    await widget.expectError('This account already exists. Sign in to it to continue.');
    await widget.card('passwordSignIn');
    await expect(panel.panel).toContainText('Merge conflict');
    await panel.button('Sign in to the existing account').click();
    await expect(panel.panel).toContainText(`Signed in: ${ADA.email}`);
  });
});
