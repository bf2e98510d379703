/**
 * Second factors on the host, on either backend (e2e/backends.ts): a factor added on /account (a text
 * message on the Firebase emulator, an authenticator app on the GoTrue double: `startFactor`), asked for at
 * the next sign-in with scripts and without, a wrong code refused; removed, and the password alone signs in
 * again. A password posted before the page's scripts arrive: the server meets the challenge, the page it
 * answers holds no token of the pending session (issue 24), and the hydrated widget finishes it.
 */
import type { Browser, Page } from '@playwright/test';
import { errorMessages } from '../../packages/auth-core/src/messages.ts';
import {
  addFactor,
  type Backend,
  expect,
  type NewAccount,
  type SecondFactor,
  signUp,
  test,
} from '../backends.ts';
import { hostWidgetOf } from '../fixtures.ts';
import {
  accountOf,
  accountText,
  enterEmail,
  factorsOf,
  type HostWidget,
  hasSession,
  signInWithPassword,
  signOutToChooser,
  uiText,
  uniqueEmail,
} from '../host-pages.ts';

const PASSWORD = 'Secret-123';

/** The claims of every JWT-shaped string in `html` (a Supabase page also carries the project's anon key, one). */
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
 * Issue 24: a page the server rendered for a challenge holds the challenge (the hydration data names its
 * card and the backend's `challengeSession`) but no token of the pending session: no user's JWT, nothing
 * called a refresh or access token.
 */
function expectNoSessionTokens(html: string, backend: Backend, factor: SecondFactor) {
  expect(html).toContain(factor.challengeCard);
  expect(html).toContain(backend.challengeSession);
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

/** On the code card: a wrong code refused, then the right one. */
async function enterCodes(widget: HostWidget, factor: SecondFactor, refused?: () => Promise<void>) {
  await widget.field(uiText.codeLabel).fill(await factor.wrongCode());
  await widget.button(uiText.verify).click();
  await refused?.();
  await widget.expectError(errorMessages['invalid-verification-code']);
  await widget.field(uiText.codeLabel).fill(await factor.code());
  await widget.button(uiText.verify).click();
}

/**
 * The password and the factor in a browser without JavaScript (`needsScripts`). An authenticator app's
 * code card is a plain form: signed in. A text message is sent past the browser's reCAPTCHA: the card
 * says it needs JavaScript, and nobody is signed in.
 */
async function signInWithoutScripts(
  { browser, baseURL, backend }: { browser: Browser; baseURL: string; backend: Backend },
  account: NewAccount,
  factor: SecondFactor,
) {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const widget = hostWidgetOf(page, { scripts: false });
  await page.goto('/login');
  await signInWithPassword(widget, account.email, account.password);
  await expect(widget.root).toHaveAttribute('data-card', factor.challengeCard);
  // Without scripts the document is the server's HTML as it came, hydration data included.
  expectNoSessionTokens(await page.content(), backend, factor);
  if (factor.needsScripts) {
    // The card says so in its <noscript> (laid out by a browser with JavaScript switched off; Chromium's
    // emulation only parses it), and its Send code is refused on the server: still the card, no session.
    expect(await widget.root.locator('noscript').textContent()).toBe(errorMessages['javascript-required']);
    await widget.button(uiText.sendCode).click();
    await widget.card(factor.challengeCard, uiText.secondFactorPhoneTitle);
    expect(await hasSession(page)).toBe(false);
  } else {
    await factor.toCodeCard(widget);
    await enterCodes(widget, factor);
    await expect(page).toHaveURL('/account');
    await expect(accountOf(page).value('Email')).toHaveText(account.email);
    // Chromium's script-disabling emulation parses <noscript> content but does not lay it out (a browser
    // with JavaScript switched off does): what is checked here is the markup the server sends.
    expect(await factorsOf(page).root.locator('noscript').textContent()).toBe(
      'Adding or removing a second factor needs JavaScript.',
    );
  }
  await context.close();
}

/** Signs out from /account and signs in again with the password, on to the challenge's first card or /account. */
async function signOutAndIn(page: Page, widget: HostWidget, account: NewAccount) {
  await signOutToChooser(page, widget);
  await signInWithPassword(widget, account.email, account.password);
}

test('a second factor: added on /account (a wrong code refused), asked at sign-in with and without scripts, removed', async ({
  page,
  widget,
  account,
  backend,
  browser,
  baseURL,
}) => {
  // About 25 page loads and as many axe-checked cards, one sign-in without scripts among them.
  test.setTimeout(240_000);
  const person = { email: uniqueEmail('two-step'), name: 'Two Steps', password: PASSWORD };
  await signUp(page, widget, backend, person);
  await backend.readyForFactors(page, widget, person);
  const factor = await addFactor(page, backend);
  const factors = factorsOf(page);
  // On Supabase the session moved to the factor's aal2 token: the page still knows who is signed in.
  await page.reload();
  await expect(account.value('Email')).toHaveText(person.email);
  await expect(factors.list).toContainText(factor.name);

  await signOutAndIn(page, widget, person);
  await factor.toCodeCard(widget);
  await enterCodes(widget, factor);
  await page.waitForURL('/account');
  await expect(account.value('Email')).toHaveText(person.email);

  await signInWithoutScripts({ browser, baseURL: baseURL ?? '', backend }, person, factor);

  await expect(factors.list).toContainText(factor.name);
  await factors.button(`${accountText.remove} ${factor.name}`).click();
  await factors.button(accountText.confirmRemove).click();
  await expect(factors.root).toContainText(accountText.none);

  await signOutAndIn(page, widget, person);
  await page.waitForURL('/account');
  await expect(account.value('Email')).toHaveText(person.email);
});

test('the password posted before the scripts arrive: the server meets the factor, no token in the page, the hydrated widget finishes it', async ({
  page,
  widget,
  account,
  backend,
  browser,
}) => {
  test.setTimeout(120_000);
  const person = { email: uniqueEmail('early'), name: 'Early Person', password: PASSWORD };
  const factor = await backend.createAccountWithFactor(browser, person);
  // The page's scripts are held until the password has been posted: every step so far is a server form.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/**', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  // Without waiting for the page's load event (the held scripts hold it back).
  await page.goto('/login', { waitUntil: 'commit' });
  await enterEmail(widget, person.email);
  await widget.field(uiText.passwordLabel).fill(PASSWORD);
  const posted = nextPostedPage(page);
  await widget.button(uiText.signIn).click();
  await expect(widget.root).toHaveAttribute('data-card', factor.challengeCard);
  expectNoSessionTokens(await posted, backend, factor);
  release();
  await factor.toCodeCard(widget);
  // `serverFinishesChallenge`: the hydrated card posts to the server (which holds the pending session), and
  // a wrong code comes back from there on the same card, hydrated again, with no token in it either.
  const refused = backend.serverFinishesChallenge ? nextPostedPage(page) : null;
  await enterCodes(widget, factor, async () => {
    if (refused) expectNoSessionTokens(await refused, backend, factor);
  });
  await page.waitForURL('/account');
  await expect(account.value('Email')).toHaveText(person.email);
});
