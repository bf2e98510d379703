/**
 * Fixtures and page objects for the playground specs: each test gets its own fake-backend "world", a
 * widget page object (by roles and labels) and the side panel's page object. Every card a test passes
 * through is checked with axe-core (the cards' pictures are e2e/visual.spec.ts's).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, test as base, expect, type Locator, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';

// The catalogue's texts, as the widget shows them (its source: the e2e step runs before the packages are built).
export { uiText } from '../packages/auth-core/src/cardText.ts';

// The minified build: a page parses it before each first check, and the unminified one is 2.3 times larger.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * What axe-core has already passed in this worker: the widget's markup with addresses and numbers
 * generalised (each test signs up its own account; React's ids count up), with the page's origin (its
 * stylesheets), viewport, colour scheme and whether scripts run. The same markup under the same styles
 * gets the same result, so each distinct card state is checked once per worker, not once per test.
 */
const passed = new Set<string>();

async function axeKey(page: Page, scripts: boolean): Promise<string> {
  const markup = await page
    .locator('.doorway')
    .evaluateAll((roots) => roots.map((root) => root.outerHTML).join('\n'));
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  const { width = 0, height = 0 } = page.viewportSize() ?? {};
  const general = markup.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, 'e@x').replace(/\d+/g, '0');
  return [new URL(page.url()).origin, width, height, dark, scripts, general].join('\n');
}

/**
 * Runs axe-core on the widget and expects no violations (once per distinct card state and page look in a
 * worker: see {@link passed}).
 */
export async function expectNoAxeViolations(page: Page, options: { scripts?: boolean } = {}): Promise<void> {
  const key = await axeKey(page, options.scripts !== false);
  if (passed.has(key)) return;
  if (options.scripts === false) await expectNoAxeViolationsWithoutScripts(page);
  else await runAxe(page);
  passed.add(key);
}

async function runAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy refuses foreign scripts.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: { run(context: unknown): Promise<AxeResults> } };
    const result = await axe.run({ include: [['.doorway']] }, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, 'axe-core violations').toEqual([]);
}

/** The page that checks scripts-off pages' markup, and what it serves: one per browser (per worker). */
const checkers = new WeakMap<Browser, Promise<{ page: Page; served: { url: string; html: string } }>>();

function checkerOf(browser: Browser) {
  let checker = checkers.get(browser);
  if (checker === undefined) {
    checker = (async () => {
      // Scripts explicitly on: a test's `use` options (scripts off) also apply to the contexts it creates.
      // The context lives as long as the browser: closing it while the next test starts races its tracing.
      const context = await browser.newContext({ javaScriptEnabled: true });
      const page = await context.newPage();
      const served = { url: '', html: '' };
      await page.route(
        (target) => target.href === served.url,
        (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: served.html }),
      );
      return { page, served };
    })();
    checkers.set(browser, checker);
  }
  return checker;
}

/**
 * axe-core on a page whose scripts are off: axe needs timers, which such a page never runs. The page's
 * markup as it is now is served at its own URL to a page that runs scripts, with the same stylesheets and
 * viewport and colour scheme, and checked there: its scripts removed and its `<noscript>` content shown, as a browser with
 * scripts off shows it.
 */
async function expectNoAxeViolationsWithoutScripts(page: Page): Promise<void> {
  const browser = page.context().browser();
  expect(browser, 'the browser of the page').not.toBeNull();
  const { page: copy, served } = await checkerOf(browser as Browser);
  const viewport = page.viewportSize();
  if (viewport) await copy.setViewportSize(viewport);
  // The same colour scheme too (Playwright's own evaluation runs with the page's scripts off).
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  await copy.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  served.url = page.url();
  served.html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
    .replace(/<\/?noscript>/gi, '');
  await copy.goto(served.url);
  await runAxe(copy);
}

/**
 * The account card of passkeys (`<Passkeys>`) on a page (the playground, under the widget; the host's
 * /account), by its heading: its name field, buttons and the list of passkeys.
 */
export function passkeysCardOf(page: Page, within: Page | Locator = page) {
  const root = within
    .locator('.doorway-account')
    .filter({ has: page.getByRole('heading', { name: 'Passkeys', exact: true }) });
  return {
    root,
    field: (label: string) => root.getByLabel(label, { exact: true }),
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    list: root.getByRole('list', { name: 'Your passkeys' }),
  };
}

/**
 * Waits for the widget to show `card`. When another card stays instead, the failure also says what that
 * card reads (an error card's message names its cause).
 */
export async function expectCard(root: Locator, card: string): Promise<void> {
  try {
    await expect(root).toHaveAttribute('data-card', card);
  } catch (error) {
    const text = await root.textContent({ timeout: 1_000 }).catch(() => null);
    const said = text === null ? '(not readable)' : text.replace(/\s+/g, ' ').trim();
    if (error instanceof Error) error.message += `\nThe widget reads: ${said}`;
    throw error;
  }
}

/**
 * The widget, by roles and labels. Its waits are for what a person sees (the card and its heading): a
 * person acts as soon as a control shows, so do the specs. `scripts: false` for a page whose scripts are
 * off (axe-core then checks a copy of its markup).
 */
export function widgetOf(page: Page, options: { scripts?: boolean } = {}) {
  // The sign-in widget, not the account page's second-factor card (`.doorway.doorway-account`) beside it.
  const root = page.locator('.doorway:not(.doorway-account)');
  const self = {
    root,
    heading: root.getByRole('heading', { level: 1 }),
    field: (label: string) => root.getByLabel(label, { exact: true }),
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    link: (name: string) => root.getByRole('link', { name, exact: true }),
    /** Waits until a card shows: the widget and its heading are visible. */
    async ready() {
      await expect(root).toBeVisible();
      await expect(self.heading).toBeVisible();
    },
    /** Waits for a card to show (with `heading`, when given) and checks it with axe-core. */
    async card(card: string, heading?: string | RegExp) {
      await expectCard(root, card);
      await self.ready();
      if (heading !== undefined) await expect(self.heading).toHaveText(heading);
      await expectNoAxeViolations(page, options);
    },
    /** The card's error (inline and announced). */
    /** The message is shown with the field in error (as its description) or on the card's error line. */
    async expectError(message: string) {
      await expect(root.locator('.doorway-error').filter({ hasText: message })).toHaveText(message);
    },
  };
  return self;
}

/**
 * Presses a button of the fake IdP's popup that answers it ("Continue", "Cancel"); the widget's page then
 * closes the popup. Playwright may report such a click as failed when the window closes under it
 * (microsoft/playwright#26900): it counts once the popup has closed.
 */
export async function answerPopup(popup: Page, name: string): Promise<void> {
  const closed = popup.waitForEvent('close', { timeout: 10_000 });
  try {
    await popup.getByRole('button', { name, exact: true }).click();
  } catch (error) {
    await closed.catch(() => {
      throw error;
    });
  }
  await closed;
}

/** The playground's side panel. */
export function panelOf(page: Page) {
  const panel = page.getByRole('complementary', { name: 'Playground controls' });
  const emails = panel.getByRole('list', { name: 'Emails' });
  return {
    panel,
    check: (label: string) => panel.getByLabel(label, { exact: true }).check(),
    uncheck: (label: string) => panel.getByLabel(label, { exact: true }).uncheck(),
    button: (name: string) => panel.getByRole('button', { name, exact: true }),
    /** The passkeys the backend keeps (the section, with "No passkeys yet." or the list). */
    passkeys: panel.getByRole('region', { name: 'Passkeys', exact: true }),
    /** The "Open link" of the latest email of a kind to an address. */
    emailLink: (kind: string, to: string): Locator =>
      emails.getByRole('link', { name: `Open ${kind} link for ${to}` }).first(),
    anotherDevice: (kind: string, to: string): Locator =>
      emails.getByRole('button', { name: `Open ${kind} link for ${to} as another device` }).first(),
    async smsCode(to: string): Promise<string> {
      const item = panel
        .getByRole('list', { name: 'Text messages' })
        .getByRole('listitem')
        .filter({ hasText: to })
        .first();
      return (await item.locator('code').textContent()) ?? '';
    },
    async adminEmail(email: string) {
      await panel.getByLabel('Account email', { exact: true }).fill(email);
    },
  };
}

interface Fixtures {
  /** This test's world id (its own fake backend on the preview server). */
  world: string;
  /** The playground URL for this world. */
  home: string;
  widget: ReturnType<typeof widgetOf>;
  panel: ReturnType<typeof panelOf>;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies as a destructured object
  world: async ({}, use, info) => {
    await use(`w${info.testId.replace(/[^\w-]/g, '')}${info.retry}`);
  },
  home: async ({ world }, use) => {
    await use(`/?world=${world}`);
  },
  widget: async ({ page }, use) => {
    await use(widgetOf(page));
  },
  panel: async ({ page }, use) => {
    await use(panelOf(page));
  },
});

export { expect };

/** Seeded accounts of every world (apps/playground/src/world.ts). */
export const ADA = { email: 'ada@example.com', password: 'secret123' };

/**
 * The widget page object of the host specs: `scripts: false` for a page whose scripts are off. The signed-in card shows only until the host has set the session and
 * the page goes on, so it is checked by what it says, not by an axe run it could navigate away from.
 */
export function hostWidgetOf(page: Page, options: { scripts?: boolean } = {}) {
  const widget = widgetOf(page, options);
  return {
    ...widget,
    async card(card: string, heading?: string | RegExp) {
      // "Signed in!" / "Verified!" shows only until the host has set the session and the page goes on, which
      // can be during an axe run; it is checked by what it says here (axe checks it on the playground).
      if (card === 'signedIn') {
        await expectCard(widget.root, card);
        if (heading !== undefined) await expect(widget.heading).toHaveText(heading);
        return;
      }
      await widget.card(card, heading);
    },
  };
}
