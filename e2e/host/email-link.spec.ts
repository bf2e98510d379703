import {
  EMAIL_LINK_HOST,
  emailSignInUrl,
  expect,
  hostWidgetOf,
  lastOobCode,
  test,
  uniqueEmail,
} from './fixtures.ts';

// The host whose email option signs in by link; its links continue to /action (the action route shows the
// widget for mode=signIn, which completes the sign-in).
test.use({ baseURL: EMAIL_LINK_HOST });

test.describe('email-link sign-in', () => {
  test('same browser: the link completes the sign-in at once', async ({ page, widget, account }) => {
    const email = uniqueEmail('link');
    await page.goto('/login');
    await widget.button('Sign in with email').click();
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('emailLinkSent', 'Sign-in email sent');
    const code = await lastOobCode(email, 'EMAIL_SIGNIN');
    const continueUrl = new URL(new URL(code.oobLink).searchParams.get('continueUrl') ?? '');
    expect(`${continueUrl.origin}${continueUrl.pathname}`).toBe(`${EMAIL_LINK_HOST}/action`);
    await page.goto(emailSignInUrl(code));
    await widget.card('signedIn', 'Signed in!');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('another browser: the confirmation card asks for the email first', async ({
    page,
    browser,
    widget,
  }) => {
    const email = uniqueEmail('device');
    await page.goto('/login');
    await widget.button('Sign in with email').click();
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('emailLinkSent');
    const link = emailSignInUrl(await lastOobCode(email, 'EMAIL_SIGNIN'));

    const other = await browser.newContext({
      baseURL: EMAIL_LINK_HOST,
      viewport: { width: 400, height: 900 },
    });
    try {
      const second = await other.newPage();
      const device = hostWidgetOf(second);
      await second.goto(link);
      await device.card('emailLinkConfirmation', 'Confirm email');
      await device.field('Email').fill('someone.else@example.com');
      await device.button('Next').click();
      await device.expectError('The email provided does not match the current sign-in session.');
      await device.field('Email').fill(email);
      await device.button('Next').click();
      await device.card('signedIn', 'Signed in!');
      await second.waitForURL('/account');
      await expect(second.getByText(email)).toBeVisible();
      expect((await other.cookies()).some((c) => c.name === 'doorway_session' && c.httpOnly)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
