import {
  actionUrl,
  changeEmail,
  createAccount,
  expect,
  lastOobCode,
  sendOobCode,
  signIn,
  test,
  uniqueEmail,
} from './fixtures.ts';

test.describe('action pages (handled on the server, their cards static pages: the forms post with scripts too)', () => {
  test('verify email: success with the continue URL, then failure when reused; the account shows it', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('verify');
    const { idToken } = await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken, continueUrl: 'http://127.0.0.1:4320/account' });
    const code = await lastOobCode(email, 'VERIFY_EMAIL');
    const link = actionUrl(code, { continueUrl: 'http://127.0.0.1:4320/account' });
    await page.goto(link);
    await widget.card('emailVerificationSuccess', 'Your email has been verified');
    // Continue posts the card; the server sends the browser to the checked continue URL.
    const continued = page.waitForRequest('http://127.0.0.1:4320/account');
    await widget.button('Continue').click();
    await continued;
    await page.goto(link);
    await widget.card('emailVerificationFailure', 'Try verifying your email again');

    await signIn(page, email, 'secret123');
    await page.waitForURL('/account');
    await expect(account.value('Email verified')).toHaveText('Yes');
  });

  test('recover email: the change is revoked, and Change password sends a reset email', async ({
    page,
    widget,
  }) => {
    const email = uniqueEmail('recover');
    const { idToken } = await createAccount(email, 'secret123');
    await changeEmail(idToken, uniqueEmail('changed'));
    const code = await lastOobCode(email, 'RECOVER_EMAIL');
    await page.goto(actionUrl(code));
    await widget.card('emailChangeRevoked', 'Updated email address');
    await expect(widget.root).toContainText(`Your sign-in email address has been changed back to ${email}.`);
    await widget.button('Change password').click();
    await widget.card('recoveryEmailSent', 'Check your email');
    // The reset link continues to the sign-in page, not back to this (spent) link.
    const reset = await lastOobCode(email, 'PASSWORD_RESET');
    expect(new URL(reset.oobLink).searchParams.get('continueUrl')).toBe('http://127.0.0.1:4320/login');
    await page.goto(actionUrl(code));
    await widget.card('emailChangeRevokeFailure', 'Unable to update your email address');

    // The old address signs in again.
    await signIn(page, email, 'secret123');
    await page.waitForURL('/account');
  });

  test('verify and change email: the new address is in force', async ({ page, widget, account }) => {
    const email = uniqueEmail('before');
    const newEmail = uniqueEmail('after');
    const { idToken } = await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'VERIFY_AND_CHANGE_EMAIL', idToken, newEmail });
    // The emulator lists this email under the account's current address.
    const code = await lastOobCode(email, 'VERIFY_AND_CHANGE_EMAIL');
    await page.goto(actionUrl(code));
    await widget.card('verifyAndChangeEmailSuccess', 'Your email has been verified and changed');
    await expect(widget.root).toContainText(`You can now sign in with your new email ${newEmail}.`);
    // No continue URL in the link: Continue shows the sign-in card.
    await widget.button('Continue').click();
    await widget.card('providerChooser', 'Sign in');
    await page.goto(actionUrl(code));
    await widget.card('verifyAndChangeEmailFailure', 'Try updating your email again');

    await signIn(page, newEmail, 'secret123');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(newEmail);
  });

  test('revert second factor: an unusable code gets the failure card', async ({ page, widget }) => {
    // The emulator cannot send REVERT_SECOND_FACTOR_ADDITION (it needs MFA enrolment); the success card is
    // unit-tested on the fake's server provider (apps/remix-host/test/action.test.ts).
    await page.goto('/action?mode=revertSecondFactorAddition&oobCode=not-a-real-code');
    await widget.card('revertSecondFactorAdditionFailure', "Couldn't remove your second factor");
  });
});
