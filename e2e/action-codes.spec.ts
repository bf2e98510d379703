import { ADA, expect, test } from './fixtures.ts';

test.describe('emailed action links', () => {
  test.beforeEach(async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await widget.ready();
    await panel.adminEmail(ADA.email);
  });

  test('verify email: success, then failure when reused', async ({ page, widget, panel }) => {
    await panel.button('Send verification email').click();
    const link = panel.emailLink('verifyEmail', ADA.email);
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await widget.card('emailVerificationSuccess', 'Your email has been verified');
    await widget.button('Continue').click();
    await widget.card('providerChooser');
    await page.goto(href);
    await widget.card('emailVerificationFailure', 'Try verifying your email again');
  });

  test('verify and change email: success, then failure when reused', async ({ page, widget, panel }) => {
    await panel.button('Verify and change email').click();
    const link = panel.emailLink('verifyAndChangeEmail', 'ada.new@example.com');
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await widget.card('verifyAndChangeEmailSuccess', 'Your email has been verified and changed');
    await expect(widget.root).toContainText('You can now sign in with your new email ada.new@example.com.');
    await page.goto(href);
    await widget.card('verifyAndChangeEmailFailure', 'Try updating your email again');
  });

  test('recover email: the change is revoked, and a reset is offered', async ({ page, widget, panel }) => {
    await panel.button('Change email (sends recover link)').click();
    const link = panel.emailLink('recoverEmail', ADA.email);
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await widget.card('emailChangeRevoked', 'Updated email address');
    await expect(widget.root).toContainText(
      `Your sign-in email address has been changed back to ${ADA.email}.`,
    );
    await widget.button('Change password').click();
    await widget.card('recoveryEmailSent');
    await page.goto(href);
    await widget.card('emailChangeRevokeFailure', 'Unable to update your email address');
  });

  test('revert a second factor: removed, then failure when reused', async ({ page, widget, panel }) => {
    await panel.button('Add second factor').click();
    const link = panel.emailLink('revertSecondFactorAddition', ADA.email);
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await widget.card('revertSecondFactorAdditionSuccess', 'Removed second factor');
    await widget.button('Change password').click();
    await widget.card('recoveryEmailSent');
    await page.goto(href);
    await widget.card('revertSecondFactorAdditionFailure', "Couldn't remove your second factor");
  });

  test('a network failure is recoverable: Retry', async ({ widget, panel }) => {
    await panel.button('Send verification email').click();
    const link = panel.emailLink('verifyEmail', ADA.email);
    await panel.check('Network failure');
    await link.click();
    await widget.card('recoverableError', 'Error encountered');
    await expect(widget.root).toContainText('A network error has occurred');
    await panel.uncheck('Network failure');
    await widget.button('Retry').click();
    await widget.card('emailVerificationSuccess');
  });

  test('a slow backend shows the spinner card', async ({ widget, panel }) => {
    await panel.button('Send verification email').click();
    const link = panel.emailLink('verifyEmail', ADA.email);
    await panel.check('Slow network (1.5 s)');
    await link.click();
    await widget.card('spinner');
    await widget.card('emailVerificationSuccess');
  });
});
