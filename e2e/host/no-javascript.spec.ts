import {
  actionUrl,
  changeEmail,
  createAccount,
  expect,
  lastOobCode,
  sendOobCode,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

test.describe('action pages with JavaScript turned off', () => {
  test.use({ javaScriptEnabled: false });

  test('reset password: the form posts, a weak password is explained, then success', async ({
    page,
    widget,
  }) => {
    const email = uniqueEmail('nojs-reset');
    await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'PASSWORD_RESET', email, continueUrl: 'http://127.0.0.1:4320/account' });
    const link = actionUrl(await lastOobCode(email, 'PASSWORD_RESET'), {
      continueUrl: 'http://127.0.0.1:4320/account',
    });
    await page.goto(link);
    await widget.card('passwordReset', 'Reset your password');
    await widget.field('Choose password').fill('abc');
    await widget.button('Save').click();
    await widget.card('passwordReset');
    await expect(widget.root.locator('.doorway-error')).toHaveText(
      'Use at least 6 characters with letters and numbers',
    );
    await widget.field('Choose password').fill('n3w-secret');
    await widget.button('Save').click();
    await widget.card('passwordResetSuccess', 'Password changed');
    const continued = page.waitForRequest('http://127.0.0.1:4320/account');
    await widget.button('Continue').click();
    await continued;
    await page.goto(link);
    await widget.card('passwordResetFailure');
  });

  test('verify email and its failure', async ({ page, widget }) => {
    const email = uniqueEmail('nojs-verify');
    const { idToken } = await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken });
    const link = actionUrl(await lastOobCode(email, 'VERIFY_EMAIL'));
    await page.goto(link);
    await widget.card('emailVerificationSuccess', 'Your email has been verified');
    // No continue URL in the link: Continue shows the sign-in card, a form like the others.
    await widget.button('Continue').click();
    await widget.card('providerChooser', 'Sign in');
    await page.goto(link);
    await widget.card('emailVerificationFailure');
  });

  test('recover email, then Change password by a form post', async ({ page, widget }) => {
    const email = uniqueEmail('nojs-recover');
    const { idToken } = await createAccount(email, 'secret123');
    await changeEmail(idToken, uniqueEmail('nojs-changed'));
    await page.goto(actionUrl(await lastOobCode(email, 'RECOVER_EMAIL')));
    await widget.card('emailChangeRevoked', 'Updated email address');
    await widget.button('Change password').click();
    await widget.card('recoveryEmailSent', 'Check your email');
    await lastOobCode(email, 'PASSWORD_RESET');
  });

  test('sign-out by a plain form post', async ({ page, browser, baseURL }) => {
    // Signed up with scripts on, signed out with them off: one session cookie either way.
    const js = await browser.newContext({ baseURL, javaScriptEnabled: true });
    try {
      await signUp(await js.newPage(), uniqueEmail('nojs-out'), 'secret123');
      await page.context().addCookies(await js.cookies());
    } finally {
      await js.close();
    }
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL('/login?signedOut=1');
    expect((await page.context().cookies()).some((c) => c.name === 'doorway_session')).toBe(false);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
  });
});
