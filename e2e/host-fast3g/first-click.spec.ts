/**
 * The first click on a slow phone: `/login` loaded cold on Chrome DevTools' Fast 3G with 4× CPU
 * throttling, 20 times (a new browser context each), and "Sign in with email" clicked the moment it is
 * visible, as a person does: no wait for scripts, hydration or the network. Before the scripts have run the
 * click posts the card's form to the server; after, the widget takes it; either way the email card must
 * come, every time. Then an email is typed and Enter pressed as soon as the field shows, and the next card
 * must come. The times are reported (annotations), never asserted.
 */
import { type Browser, type CDPSession, expect, type Page, test } from '@playwright/test';
import { uiText } from '../host-pages.ts';

const LOADS = 20;

/** Chrome DevTools' "Fast 3G" preset (its own numbers) and its "4× slowdown" of the CPU. */
async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150 * 3.75,
    downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
    uploadThroughput: ((750 * 1024) / 8) * 0.9,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

interface Load {
  /** From navigation to the click on "Sign in with email" (the button visible and clickable). */
  firstClick: number;
  /** From that click to the email card. */
  toEmailCard: number;
  /** From Enter in the email field to the next card. */
  toNextCard: number;
  /** Whether the click went to the widget in the browser (else it posted the card's form to the server). */
  clickInBrowser: boolean;
  /** Whether Enter went to the widget in the browser. */
  enterInBrowser: boolean;
}

/** A cold load of /login in a new throttled context, and the two steps as a person takes them. */
async function coldLoad(browser: Browser, baseURL: string, n: number): Promise<Load | string> {
  const context = await browser.newContext({ baseURL, viewport: { width: 400, height: 900 } });
  try {
    const page: Page = await context.newPage();
    await throttle(await context.newCDPSession(page));
    // A post of a card's form: the step went to the server, not to the widget in the browser.
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/login') posts++;
    });
    const root = page.locator('.doorway');
    const heading = root.getByRole('heading', { level: 1 });
    const start = Date.now();
    await page.goto('/login', { waitUntil: 'commit' });
    await root.getByRole('button', { name: uiText.signInWithEmail, exact: true }).click();
    const clicked = Date.now();
    try {
      await expect(root).toHaveAttribute('data-card', 'emailEntry', { timeout: 30_000 });
      await expect(heading).toHaveText(uiText.emailEntryTitle);
    } catch {
      return `load ${n}: the click on "${uiText.signInWithEmail}" was lost (the card is ${await root.getAttribute('data-card')})`;
    }
    const emailCard = Date.now();
    const clickPosts = posts;
    const email = root.getByLabel('Email', { exact: true });
    await email.fill(`fast3g-${n}-${Math.random().toString(36).slice(2, 8)}@example.com`);
    await email.press('Enter');
    const entered = Date.now();
    try {
      await expect(root).toHaveAttribute('data-card', 'passwordSignUp', { timeout: 30_000 });
      await expect(heading).toHaveText('Create account');
    } catch {
      return `load ${n}: Enter in the email field was lost (the card is ${await root.getAttribute('data-card')})`;
    }
    return {
      firstClick: clicked - start,
      toEmailCard: emailCard - clicked,
      toNextCard: Date.now() - entered,
      clickInBrowser: clickPosts === 0,
      enterInBrowser: posts === clickPosts,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

test(`Fast 3G, 4× CPU: ${LOADS} cold loads of /login, each click and Enter the moment its control shows, none lost`, async ({
  browser,
  baseURL,
}) => {
  const loads: Load[] = [];
  const lost: string[] = [];
  for (let n = 1; n <= LOADS; n++) {
    const load = await coldLoad(browser, baseURL ?? '', n);
    if (typeof load === 'string') lost.push(load);
    else loads.push(load);
  }
  const summary =
    `${LOADS} loads, ${lost.length} lost; first click after ${median(loads.map((l) => l.firstClick))} ms ` +
    `(median; ${loads.filter((l) => l.clickInBrowser).length} of ${loads.length} taken by the widget in the ` +
    `browser, the others posted to the server), ` +
    `email card ${median(loads.map((l) => l.toEmailCard))} ms after it, ` +
    `next card ${median(loads.map((l) => l.toNextCard))} ms after Enter ` +
    `(${loads.filter((l) => l.enterInBrowser).length} in the browser)`;
  test.info().annotations.push({ type: 'fast-3g', description: summary });
  console.log(summary);
  expect(lost).toEqual([]);
});
