/**
 * The form path's flow cookie against a stranger's (issue 24): a flow cookie planted in a visitor's browser
 * by another origin of the site signs nobody in through an emailed link, and a page URL with a long query
 * still leaves a cookie the browser keeps, so signing in without JavaScript works.
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { enterEmail } from '../host-pages.ts';
import {
  accountOf,
  askForSignInLink,
  createAccount,
  EMAIL_LINK_HOST,
  expect,
  hostWidgetOf,
  test,
  uniqueEmail,
} from './fixtures.ts';

/** Whether a context holds the host's session cookie. */
async function hasSession(context: BrowserContext): Promise<boolean> {
  return (await context.cookies()).some((c) => c.name === 'doorway_session');
}

/** The attacker: asks for a sign-in link to their own address without scripts; the flow cookie and link. */
async function attackerLink(browser: Browser): Promise<{ flow: string; link: string }> {
  const email = uniqueEmail('attacker');
  const context = await browser.newContext({ baseURL: EMAIL_LINK_HOST, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const link = await askForSignInLink(page, hostWidgetOf(page, { scripts: false }), email);
    const flow = (await context.cookies()).find((c) => c.name === 'doorway_flow')?.value ?? '';
    expect(flow).not.toBe('');
    return { flow, link };
  } finally {
    await context.close();
  }
}

test.describe('a planted flow cookie (issue 24)', () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`the attacker's cookie and link sign the visitor in as nobody (scripts ${javaScriptEnabled ? 'on' : 'off'})`, async ({
      browser,
    }) => {
      const { flow, link } = await attackerLink(browser);
      // What `document.cookie = "doorway_flow=F; path=/action"` on another port of the host leaves behind.
      const victim = await browser.newContext({ baseURL: EMAIL_LINK_HOST, javaScriptEnabled });
      try {
        await victim.addCookies([
          { name: 'doorway_flow', value: flow, domain: '127.0.0.1', path: '/action' },
        ]);
        const page = await victim.newPage();
        const widget = hostWidgetOf(page, { scripts: javaScriptEnabled });
        const response = await page.goto(link);
        expect(response?.status()).toBe(200);
        await widget.card('emailLinkConfirmation', 'Confirm email');
        await expect(widget.field('Email')).toHaveValue('');
        expect(new URL(page.url()).pathname).toBe('/action');
        expect(await hasSession(victim)).toBe(false);
        await page.goto('/account');
        await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
        expect(await hasSession(victim)).toBe(false);
      } finally {
        await victim.close();
      }
    });
  }
});

test.describe('a long page URL without JavaScript (issue 24)', () => {
  test.use({ javaScriptEnabled: false });

  test('3 kB of unknown query parameters: the flow cookie still fits and the password signs in', async ({
    page,
    widget,
  }) => {
    const email = uniqueEmail('long-query');
    await createAccount(email, 'secret123');
    const junk = Array.from({ length: 60 }, (_, i) => `utm_${i}=${'x'.repeat(45)}`).join('&');
    expect(junk.length).toBeGreaterThan(3000);
    await page.goto(`/login?${junk}&signInSuccessUrl=%2Faccount`);
    await widget.card('providerChooser', 'Sign in');
    await enterEmail(widget, email, { card: true });
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    await expect(page).toHaveURL('/account');
    await expect(accountOf(page).value('Email')).toHaveText(email);
  });
});
