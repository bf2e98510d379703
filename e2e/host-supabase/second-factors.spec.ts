/**
 * Second factors on the host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (not Supabase): an
 * authenticator app added on /account (the card's operations run on the server with the session's token,
 * `POST /account/second-factors`), the secret read from the card and the codes computed here; then asked
 * for at the next sign-in, with scripts and without (the code card is a plain form), a code from the wrong
 * time window refused; removed, and the password alone signs in again. The double runs on the real clock
 * and accepts the code of the step before and after. A challenge the server met (the password posted as a
 * form) puts no token of the pending aal1 session in the page (issue 24), and the widget hydrated on it
 * finishes it through the server.
 */
import { type Browser, expect as baseExpect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expectNoAxeViolations } from '../fixtures.ts';
import { accountValue, expect, hostWidgetOf, signUp, test, toEmailEntry, uniqueEmail } from './fixtures.ts';

const PASSWORD = 'secret123';
const STEP_MS = 30_000;

/** The code an authenticator app with `secret` shows at `at` (RFC 6238: SHA-1, 6 digits, 30 s). */
const totpAt = (secret: string, at: number) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: at,
  });

/** A code of `secret` from ten minutes or more ago that no step near now shows. */
function farCode(secret: string, now: number): string {
  const near = [-2, -1, 0, 1, 2].map((step) => totpAt(secret, now + step * STEP_MS));
  for (let minutes = 10; ; minutes++) {
    const code = totpAt(secret, now - minutes * 60_000);
    if (!near.includes(code)) return code;
  }
}

/** The claims of every JWT-shaped string in `html` (the page also carries the project's anon key, one). */
function jwtClaimsIn(html: string): Record<string, unknown>[] {
  const tokens = html.match(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g) ?? [];
  return tokens.map(
    (token) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >,
  );
}

/**
 * Issue 24: the page the server rendered for a challenge holds the challenge (the hydration data names it)
 * but no token of the pending session: no user's JWT (the aal1 access token), nothing called a refresh or
 * access token.
 */
function expectNoSessionTokens(html: string) {
  expect(html).toContain('supabase-aal1');
  expect(jwtClaimsIn(html).filter((claims) => 'sub' in claims || 'session_id' in claims)).toEqual([]);
  expect(html).not.toMatch(/refresh_?token/i);
  expect(html).not.toMatch(/access_?token/i);
}

/** The HTML the server answers the next POST of `page`'s form with (the document, as the browser got it). */
function nextPostedPage(page: Page): Promise<string> {
  return page
    .waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login')
    .then((r) => r.text());
}

/** The account page's second-factor card. */
function factorsOf(page: Page) {
  const root = page.locator('.host-second-factors');
  return {
    root,
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    field: (name: string) => root.getByLabel(name, { exact: true }),
    list: root.getByRole('list', { name: 'Your second steps' }),
  };
}

/** The password card of `email`, from /login (scripts on or off). */
async function toPassword(page: Page, email: string, scripts: boolean) {
  const widget = hostWidgetOf(page, { scripts });
  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  await widget.field('Password').fill(PASSWORD);
  await widget.button('Sign in').click();
  return widget;
}

/** Signs in with the password and the authenticator's code in a context without JavaScript. */
async function signInWithoutScripts(browser: Browser, baseURL: string, email: string, secret: string) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const widget = await toPassword(page, email, false);
  await widget.card('secondFactorCode', 'Enter your code');
  // Without scripts the document is the server's HTML as it came, hydration data included.
  expectNoSessionTokens(await page.content());
  await widget.field('6-digit code').fill(farCode(secret, Date.now()));
  await widget.button('Verify').click();
  await widget.expectError('Wrong code. Try again.');
  await widget.field('6-digit code').fill(totpAt(secret, Date.now()));
  await widget.button('Verify').click();
  await baseExpect(page).toHaveURL('/account');
  await baseExpect(accountValue(page, 'Email')).toHaveText(email);
  // Chromium's script-disabling emulation parses <noscript> content but does not lay it out (a browser
  // with JavaScript switched off does): what is checked here is the markup the server sends.
  baseExpect(await page.locator('.host-second-factors noscript').textContent()).toBe(
    'Adding or removing a second factor needs JavaScript.',
  );
  await context.close();
}

/** A new password account signed up on /login, with an authenticator app added on /account: its email and secret. */
async function signUpWithAuthenticator(page: Page): Promise<{ email: string; secret: string }> {
  const widget = hostWidgetOf(page, { scripts: true });
  const email = uniqueEmail('two-step');
  await signUp(page, widget, { email, name: 'Two Steps', password: PASSWORD });

  const factors = factorsOf(page);
  await expect(page.getByRole('heading', { level: 2, name: 'Second factors' })).toBeVisible();
  await expect(factors.root).toContainText('You have not added a second step yet.');
  await factors.button('Add authenticator app').click();
  const secret = (await factors.root.getByRole('definition').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(
    factors.root.getByRole('img', { name: 'QR code that adds this account to an authenticator app' }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await factors.field('6-digit code').fill(farCode(secret, Date.now()));
  await factors.button('Verify').click();
  await expect(factors.field('6-digit code')).toHaveAccessibleDescription(/Wrong code\. Try again\./);
  await factors.field('6-digit code').fill(totpAt(secret, Date.now()));
  await factors.button('Verify').click();
  // GoTrue names a factor when it is started (a name given at the end is not used: the adapter's README).
  await expect(factors.list).toContainText('Authenticator app');
  // The session moved to the factor's aal2 token: the page still knows who is signed in.
  await page.reload();
  await expect(accountValue(page, 'Email')).toHaveText(email);
  await expect(factors.list).toContainText('Authenticator app');
  return { email, secret };
}

test('an authenticator app: added on /account, asked at sign-in with and without scripts, removed', async ({
  page,
  widget,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { email, secret } = await signUpWithAuthenticator(page);
  const factors = factorsOf(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await toPassword(page, email, true);
  await widget.card('secondFactorCode', 'Enter your code');
  await expect(widget.root).toContainText('Enter the 6-digit code from your authenticator app.');
  await expectNoAxeViolations(page);
  await widget.field('6-digit code').fill(farCode(secret, Date.now()));
  await widget.button('Verify').click();
  await widget.expectError('Wrong code. Try again.');
  await widget.field('6-digit code').fill(totpAt(secret, Date.now()));
  await widget.button('Verify').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);

  await signInWithoutScripts(browser, baseURL ?? '', email, secret);

  await expect(factors.list).toContainText('Authenticator app');
  await factors.button('Remove Authenticator app').click();
  await factors.button('Yes, remove it').click();
  await expect(factors.root).toContainText('You have not added a second step yet.');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await toPassword(page, email, true);
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);
});

test('the password posted before the scripts arrive: the server meets the factor, no token in the page, the hydrated widget finishes it through the server', async ({
  page,
  widget,
}) => {
  test.setTimeout(120_000);
  const { email, secret } = await signUpWithAuthenticator(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  // The page's scripts are held until the password has been posted: every step so far is a server form.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/**', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await widget.button('Sign in with email').click();
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.field('Password').fill(PASSWORD);
  const posted = nextPostedPage(page);
  await widget.button('Sign in').click();
  await expect(widget.root).toHaveAttribute('data-card', 'secondFactorCode');
  expectNoSessionTokens(await posted);
  release();
  await widget.card('secondFactorCode', 'Enter your code');
  // The hydrated card posts to the server (which holds the pending session): a wrong code comes back from
  // there on the same card, hydrated again, and the right one signs in.
  const refused = nextPostedPage(page);
  await widget.field('6-digit code').fill(farCode(secret, Date.now()));
  await widget.button('Verify').click();
  expectNoSessionTokens(await refused);
  await widget.expectError('Wrong code. Try again.');
  await widget.field('6-digit code').fill(totpAt(secret, Date.now()));
  await widget.button('Verify').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);
});
