import { answerPopup, expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test.describe('federated sign-in', () => {
  test('popup: a 500×600 fake IdP window picks the identity', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await widget.ready();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with Google').click(),
    ]);
    await expect(popup.getByRole('heading', { name: 'Google' })).toBeVisible();
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 600]);
    await popup.getByLabel('Account email').fill('new.google@example.com');
    await answerPopup(popup, 'Continue');
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText('Signed in: new.google@example.com');
  });

  test('popup closed without choosing: the permissions message', async ({ page, home, widget }) => {
    await page.goto(home);
    await widget.ready();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with GitHub').click(),
    ]);
    await answerPopup(popup, 'Cancel');
    await widget.expectError('Please authorize the required permissions to sign in to the application');
    await expect(widget.root).toHaveAttribute('data-card', 'providerChooser');
  });

  test('redirect: to the fake IdP page and back', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await panel.check('Redirect');
    await widget.ready();
    await widget.button('Sign in with Google').click();
    await expect(page).toHaveURL(/\/idp\?/);
    await expect(page.getByRole('heading', { name: 'Google' })).toBeVisible();
    await page.getByLabel('Account email').fill('redirected@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).not.toHaveURL(/\/idp/);
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText('Signed in: redirected@example.com');
  });

  test('an account that uses Google: federated sign-in card, then a different IdP email', async ({
    page,
    home,
    widget,
  }) => {
    await page.goto(home);
    await enterEmail(widget, 'grace@example.com');
    await widget.card('federatedSignIn', 'Sign in');
    await expect(widget.root).toContainText(
      "You've already used grace@example.com. Sign in with Google to continue.",
    );
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      widget.button('Sign in with Google').click(),
    ]);
    await expect(popup.getByLabel('Account email')).toHaveValue('grace@example.com');
    await popup.getByLabel('Account email').fill('grace.other@example.com');
    await answerPopup(popup, 'Continue');
    await widget.card('emailMismatch', 'Continue sign-in?');
    await expect(widget.root).toContainText('You originally wanted to sign in with grace@example.com');
    await widget.button('Continue').click();
    await widget.card('signedIn');
  });

  test('an account whose provider is not offered: unsupported provider', async ({ page, home, widget }) => {
    await page.goto(home);
    await enterEmail(widget, 'margaret@example.com');
    await widget.card('unsupportedProvider', 'Sign in');
    await widget.button('Back').click();
    await widget.card('providerChooser');
  });
});
