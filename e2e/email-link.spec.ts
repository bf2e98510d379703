import { expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

const LINUS = 'linus@example.com';

test.describe('email-link sign-in', () => {
  test.beforeEach(async ({ page, home, panel, widget }) => {
    await page.goto(home);
    await panel.check('Email link');
    await widget.ready();
  });

  test('same device: sent, not received, resend, open the link', async ({ widget, panel }) => {
    await enterEmail(widget, LINUS);
    await widget.card('emailLinkSent', 'Sign-in email sent');
    await expect(widget.root).toContainText(
      `A sign-in email with additional instructions was sent to ${LINUS}`,
    );
    await widget.button('Trouble getting email?').click();
    await widget.card('emailNotReceived', 'Trouble getting email?');
    await widget.button('Resend').click();
    await widget.card('emailLinkSent');
    await expect(panel.panel.getByRole('list', { name: 'Emails' }).getByRole('listitem')).toHaveCount(2);
    await panel.emailLink('signIn', LINUS).click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${LINUS}`);
  });

  test('another device (new browser context) confirms the email', async ({
    browser,
    baseURL,
    widget,
    panel,
  }) => {
    await enterEmail(widget, LINUS);
    await widget.card('emailLinkSent');
    const href = await panel.emailLink('signIn', LINUS).getAttribute('href');
    expect(href).toBeTruthy();

    const other = await browser.newContext({ baseURL, viewport: { width: 400, height: 900 } });
    try {
      const page = await other.newPage();
      await page.goto(href ?? '');
      const device = (await import('./fixtures.ts')).widgetOf(page);
      await device.card('emailLinkConfirmation', 'Confirm email');
      await device.button('Next').click();
      await device.expectError('Enter your email address to continue');
      await device.field('Email').fill('someone.else@example.com');
      await device.button('Next').click();
      await device.expectError('The email provided does not match the current sign-in session.');
      await device.field('Email').fill(LINUS);
      await device.button('Next').click();
      await device.card('signedIn', 'Signed in!');
    } finally {
      await other.close();
    }
  });

  test('forced same device: another device gets the different-device card', async ({ widget, panel }) => {
    await panel.check('Force same device for email links');
    await widget.ready();
    await enterEmail(widget, LINUS);
    await widget.card('emailLinkSent');
    await panel.anotherDevice('signIn', LINUS).click();
    await widget.card('differentDeviceError', 'New device or browser detected');
    await widget.button('Start over').click();
    await widget.card('providerChooser');
  });

  test('an expired email-link session shows session ended', async ({ widget, panel }) => {
    await enterEmail(widget, LINUS);
    await widget.card('emailLinkSent');
    await panel.check('Expired codes (clock +2 h)');
    await panel.emailLink('signIn', LINUS).click();
    await widget.card('sessionEnded', 'Session ended');
    await expect(widget.root).toContainText('Your sign-in session has expired. Please try again.');
  });

  test('a link started by another guest session shows the anonymous-user mismatch', async ({
    widget,
    panel,
  }) => {
    await panel.check('Anonymous upgrade');
    await panel.button('Sign in anonymously first').click();
    await expect(panel.panel).toContainText('Signed in: anonymous user');
    await widget.ready();
    await enterEmail(widget, 'guest.upgrade@example.com');
    await widget.card('emailLinkSent');
    await panel.button('Sign out (app)').click();
    await panel.button('Sign in anonymously first').click();
    await expect(panel.panel).toContainText('Signed in: anonymous user');
    await panel.emailLink('signIn', 'guest.upgrade@example.com').click();
    await widget.card('anonymousUserMismatch', 'Session ended');
  });

  test('without web storage the widget cannot keep the session: unrecoverable error', async ({
    widget,
    panel,
  }) => {
    await panel.check('No web storage');
    await widget.ready();
    await enterEmail(widget, LINUS);
    await widget.card('unrecoverableError', 'Error encountered');
    await expect(widget.root).toContainText('The browser you are using does not support Web Storage.');
  });
});
