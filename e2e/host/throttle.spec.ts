/**
 * The host's throttle on the real host and the Auth emulator (issue 24): a burst of wrong passwords with
 * JavaScript off gets the catalogue's too-many-requests card with status 429 and `Retry-After`, while the
 * right password from another address still signs in; a burst of bad tokens on `/session` gets 429, and
 * the widget (JavaScript on) then shows the same message when its session is refused.
 *
 * The e2e hosts trust 127.0.0.1 as a proxy (scripts/e2e-host.mjs): each browser here sends its own
 * `X-Forwarded-For` (documentation addresses), so these limits are its own and no other spec is slowed.
 * @see issue 24
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { enterEmail } from '../host-pages.ts';
import { accountOf, createAccount, expect, hostWidgetOf, test, uniqueEmail } from './fixtures.ts';

const HOST = 'http://127.0.0.1:4320';
/** The catalogue's `too-many-requests` (spec §8). */
const TOO_MANY = 'You have entered an incorrect password too many times. Please try again in a few minutes.';
/** DOORWAY_THROTTLE_ACCOUNT_FAILURES's default: failures against one account before its guessers wait. */
const ACCOUNT_FAILURES = 10;
/** DOORWAY_THROTTLE_CLIENT_FAILURES's default. */
const CLIENT_FAILURES = 100;

/**
 * An address of a documentation range (RFC 5737) no other test uses: the wrong passwords come from
 * 203.0.113, the bad tokens from 192.0.2 (the two tests run side by side), the owner from 198.51.100.
 */
function address(range: '203.0.113' | '192.0.2' | '198.51.100'): string {
  return `${range}.${1 + Math.floor(Math.random() * 254)}`;
}

/** A browser whose requests to the host come "through the proxy" from `client`. */
async function browserAt(browser: Browser, client: string, scripts: boolean): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: HOST,
    javaScriptEnabled: scripts,
    viewport: { width: 400, height: 900 },
  });
  await context.route(`${HOST}/**`, (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': client } }),
  );
  return context;
}

test.describe('the throttle (issue 24)', () => {
  test('JavaScript off: a burst of wrong passwords gets 429 and the message; the right password from another address signs in', async ({
    browser,
  }) => {
    const email = uniqueEmail('throttled');
    await createAccount(email, 'right-password-1');
    const attacker = await browserAt(browser, address('203.0.113'), false);
    const page = await attacker.newPage();
    const widget = hostWidgetOf(page, { scripts: false });
    await page.goto('/login');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', 'Sign in');
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_FAILURES; i++) {
      await widget.field('Password').fill(`wrong-guess-${i}`);
      const answered = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().includes('/login'),
      );
      await widget.button('Sign in').click();
      const response = await answered;
      statuses.push(response.status());
      if (i === ACCOUNT_FAILURES) {
        expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([...Array<number>(ACCOUNT_FAILURES).fill(200), 429]);
    await widget.card('passwordSignIn', 'Sign in');
    await widget.expectError(TOO_MANY);
    await attacker.close();

    // The owner, from an address with no failures, signs in.
    const owner = await browserAt(browser, address('198.51.100'), false);
    const ownerPage = await owner.newPage();
    const ownerWidget = hostWidgetOf(ownerPage, { scripts: false });
    await ownerPage.goto('/login');
    await enterEmail(ownerWidget, email);
    await ownerWidget.field('Password').fill('right-password-1');
    await ownerWidget.button('Sign in').click();
    await ownerPage.waitForURL('**/account');
    await expect(accountOf(ownerPage).heading).toBeVisible();
    await owner.close();
  });

  test('/session: a burst of bad tokens gets 429, and the widget then shows the message instead of signing in', async ({
    browser,
  }) => {
    const email = uniqueEmail('session-throttled');
    await createAccount(email, 'right-password-2');
    const context = await browserAt(browser, address('192.0.2'), true);
    const page = await context.newPage();
    await page.goto('/login');
    const post = (idToken: string) =>
      page.evaluate(async (token) => {
        const response = await fetch('/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ idToken: token }),
        });
        return { status: response.status, retryAfter: response.headers.get('retry-after') };
      }, idToken);
    const statuses = new Set<number>();
    for (let i = 0; i < CLIENT_FAILURES; i++) statuses.add((await post(`not.a.token${i}`)).status);
    expect([...statuses]).toEqual([401]);
    const refused = await post('not.a.token');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);

    // The right password in the browser: the provider signs in, the host refuses the session and says why.
    const widget = hostWidgetOf(page);
    await page.goto('/login');
    await widget.card('providerChooser', 'Sign in');
    await enterEmail(widget, email);
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('right-password-2');
    await widget.button('Sign in').click();
    await expect(page.locator('.host-notice')).toHaveText(TOO_MANY);
    expect((await context.cookies()).some((c) => c.name === 'doorway_session')).toBe(false);
    await context.close();
  });
});
