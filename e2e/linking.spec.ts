import { ADA, answerPopup, expect, test } from './fixtures.ts';

test.describe('account linking (account exists with a different credential)', () => {
  test('Google for a password account: enter the password, Google is linked', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    await page.goto(home);
    await widget.ready();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with Google').click(),
    ]);
    await popup.getByLabel('Account email').fill(ADA.email);
    await answerPopup(popup, 'Continue');
    await widget.card('passwordLinking', 'You already have an account');
    await expect(widget.root).toContainText(`You've already used ${ADA.email} to sign in.`);
    await widget.button('Sign in').click();
    await widget.expectError('Enter your password');
    await widget.field('Password').fill(ADA.password);
    await widget.button('Sign in').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${ADA.email}`);
  });

  test('GitHub for a Google account: sign in with Google to link', async ({ page, home, widget }) => {
    await page.goto(home);
    await widget.ready();
    const [first] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with GitHub').click(),
    ]);
    await first.getByLabel('Account email').fill('grace@example.com');
    await answerPopup(first, 'Continue');
    await widget.card('federatedLinking', 'You already have an account');
    await expect(widget.root).toContainText('Sign in with Google to continue with GitHub');
    const [second] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with Google').click(),
    ]);
    await expect(second.getByLabel('Account email')).toHaveValue('grace@example.com');
    await answerPopup(second, 'Continue');
    await widget.card('signedIn', 'Signed in!');
  });

  test('GitHub for an email-link account: link sent, then opened', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await panel.check('Email link');
    await widget.ready();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with GitHub').click(),
    ]);
    await popup.getByLabel('Account email').fill('linus@example.com');
    await answerPopup(popup, 'Continue');
    await widget.card('emailLinkLinking', 'You already have an account');
    await widget.button('Send sign-in link').click();
    await widget.card('emailLinkSent');
    await panel.emailLink('signIn', 'linus@example.com').click();
    await widget.card('signedIn', 'Signed in!');
  });
});
