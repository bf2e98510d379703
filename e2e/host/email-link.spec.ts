import { enterEmail, uiText } from '../host-pages.ts';
import {
  accountOf,
  askForSignInLink,
  confirmLinkElsewhere,
  EMAIL_LINK_HOST,
  emailSignInUrl,
  expect,
  hostWidgetOf,
  lastOobCode,
  test,
  uniqueEmail,
} from './fixtures.ts';

// The host whose email option signs in by link; its links continue to /action. The server never completes
// a link on its GET (issue 24): it shows the confirmation card, whose form posts. With scripts on, the widget
// checks the link itself against the session its scripts kept in this origin's localStorage (which no other
// origin can write, unlike a cookie), so a link asked for with scripts completes in the browser.
test.use({ baseURL: EMAIL_LINK_HOST });

test.describe('email-link sign-in', () => {
  test('same browser, scripts on: the widget completes the link from its own session', async ({
    page,
    widget,
    account,
  }) => {
    const email = uniqueEmail('link');
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('emailLinkSent', 'Sign-in email sent');
    const code = await lastOobCode(email, 'EMAIL_SIGNIN');
    const continueUrl = new URL(new URL(code.oobLink).searchParams.get('continueUrl') ?? '');
    expect(`${continueUrl.origin}${continueUrl.pathname}`).toBe(`${EMAIL_LINK_HOST}/action`);
    await page.goto(emailSignInUrl(code));
    await widget.card('signedIn', 'Signed in!');
    await page.waitForURL('/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('same browser, link asked for without scripts: the GET signs nobody in; confirming the address signs in (issue 24)', async ({
    browser,
  }) => {
    const email = uniqueEmail('confirm');
    const asking = await browser.newContext({ baseURL: EMAIL_LINK_HOST, javaScriptEnabled: false });
    let link: string;
    let storageState: Awaited<ReturnType<typeof asking.storageState>>;
    try {
      const page = await asking.newPage();
      link = await askForSignInLink(page, hostWidgetOf(page, { scripts: false }), email);
      storageState = await asking.storageState();
      expect(storageState.cookies.map((c) => c.name)).toContain('doorway_flow');
    } finally {
      await asking.close();
    }
    // The same browser (its flow cookie) with scripts on now.
    const same = await browser.newContext({ baseURL: EMAIL_LINK_HOST, storageState });
    try {
      const page = await same.newPage();
      const widget = hostWidgetOf(page);
      await page.goto(link);
      await widget.card('emailLinkConfirmation', 'Confirm email');
      await expect(widget.field('Email')).toHaveValue('');
      expect((await same.cookies()).some((c) => c.name === 'doorway_session')).toBe(false);
      await widget.field('Email').fill(email);
      await widget.button('Next').click();
      await widget.card('signedIn', 'Signed in!');
      await page.waitForURL('/account');
      await expect(accountOf(page).value('Email')).toHaveText(email);
    } finally {
      await same.close();
    }
  });

  test('another browser: the confirmation card asks for the email first', async ({
    page,
    browser,
    widget,
  }) => {
    const email = uniqueEmail('device');
    const link = await askForSignInLink(page, widget, email);

    const other = await browser.newContext({
      baseURL: EMAIL_LINK_HOST,
      viewport: { width: 400, height: 900 },
    });
    try {
      const second = await other.newPage();
      const device = hostWidgetOf(second);
      await confirmLinkElsewhere(second, device, link, email);
      await device.card('signedIn', uiText.signedIn);
      await second.waitForURL('/account');
      await expect(second.getByText(email)).toBeVisible();
      expect((await other.cookies()).some((c) => c.name === 'doorway_session' && c.httpOnly)).toBe(true);
    } finally {
      await other.close();
    }
  });
});
