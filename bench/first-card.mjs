#!/usr/bin/env node
// "First usable card": how soon a visitor of the Remix host's `/login` can use the sign-in widget's first
// card, beside FirebaseUI 6.1.0's `uiShown` on the same Firebase Auth emulator. Cold loads (a new browser
// context each, cache empty) in Debian's Chromium, interleaved (Doorway, FirebaseUI, Doorway, …), LOADS of
// each per condition: unthrottled, and DevTools' Fast 3G with 4× CPU slowdown.
//
// Doorway: the time from navigation start to the frame in which the chooser's "Sign in with email" button
// is in the DOM and visible (a requestAnimationFrame probe added before the page's own scripts), and not
// before the first contentful paint. The server renders that card as a real `<form method="post">`, so a
// click is honoured from then on: before hydration it posts the form and the server answers with the
// email card; after, the hydrated widget shows it. Every load proves it: the probe's report is followed at
// once by a real (CDP) mouse click on the button, and the email card must appear (a lost click is counted).
// FirebaseUI: `performance.now()` in its `uiShown` callback (its first card rendered and interactive).
// Both: first contentful paint (the paint timing entry).
//
// Its servers, browser and conditions are bench/harness.mjs's: the Auth emulator on 9299, the host on 4340
// (its own production build in .cache/bench-first-card), the FirebaseUI page on 4341. Everything it starts
// is stopped at the end, on failure and on Ctrl+C.
//
//   node bench/first-card.mjs [--strict] [--loads=N]   (also run by `npm run bench`, unless --size-only)
import { budgetVerdict, conditionTable, ratio, summarize } from './first-card-stats.mjs';
import { CONDITIONS, FIREBASEUI_PORT, HOST_PORT, openPage, STEP_TIMEOUT, startBench } from './harness.mjs';

// `--loads=N` (1 to 25) only to try the bench quickly or to sample more; the figures quoted use 7.
const loadsFlag = process.argv.find((arg) => arg.startsWith('--loads='));
const LOADS = Math.min(25, Math.max(1, Number.parseInt(loadsFlag?.slice(8) ?? '7', 10) || 7));
/** The budget: Doorway's first usable card at most this share of FirebaseUI's uiShown (Fast 3G + 4× CPU). */
export const BUDGET_FACTOR = 0.5;
const EMAIL_BUTTON = 'button[name="providerId"][value="email"]';
const EMAIL_CARD = '[data-card="emailEntry"]';

// ─── one load ───────────────────────────────────────────────────────────────────────────────────────────

/** One cold load of `/login`: first usable card, FCP, and the click on "Sign in with email" honoured or lost. */
async function loadDoorway(browser, condition) {
  const { context, page, report } = await openPage(browser, condition, {
    watches: [['visible', EMAIL_BUTTON]],
  });
  try {
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/login') posted = true;
    });
    await page.goto(`http://127.0.0.1:${HOST_PORT}/login`, { waitUntil: 'commit', timeout: STEP_TIMEOUT });
    const visible = await report('visible');
    if (visible === null) return { usable: null, fcp: null, click: 'lost', error: 'button never visible' };
    let click = 'lost';
    let error = null;
    try {
      await page.locator(EMAIL_BUTTON).click({ timeout: STEP_TIMEOUT });
      await page.locator(EMAIL_CARD).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      click = posted ? 'form post' : 'widget';
    } catch (e) {
      error = e instanceof Error ? e.message.split('\n')[0] : String(e);
    }
    const fcp = await report('fcp', 5000);
    const clickedAt = await report('click', 1000);
    return { usable: fcp === null ? visible : Math.max(visible, fcp), visible, fcp, clickedAt, click, error };
  } finally {
    await context.close();
  }
}

/** One cold load of the FirebaseUI page: uiShown and FCP. */
async function loadFirebaseui(browser, condition) {
  const { context, page, report } = await openPage(browser, condition);
  try {
    await page.goto(`http://127.0.0.1:${FIREBASEUI_PORT}/`, { waitUntil: 'commit', timeout: STEP_TIMEOUT });
    const uiShown = await report('uiShown');
    const fcp = await report('fcp', 5000);
    return { uiShown, fcp, error: uiShown === null ? 'uiShown never called' : null };
  } finally {
    await context.close();
  }
}

// ─── the run ────────────────────────────────────────────────────────────────────────────────────────────

/** Whether the server's HTML of `/login` already holds the chooser form with the email button. */
async function serverRendersChooser() {
  const html = await (await fetch(`http://127.0.0.1:${HOST_PORT}/login`)).text();
  return /<form[^>]*method="post"[\s\S]*?name="providerId" value="email"[^>]*>Sign in with email</.test(html);
}

/**
 * Builds and serves both pages, runs the loads and stops everything it started. Resolves
 * `{ conditions: [{ id, label, ours: { usable, fcp }, theirs: { uiShown, fcp }, clicks }], … }`.
 */
export async function benchFirstCard({ log = console.log } = {}) {
  const { browser, sizes, stop } = await startBench({ name: 'First usable card', log });
  try {
    const serverForm = await serverRendersChooser();
    const started = Date.now();
    // One load of each first, not counted: the servers' first requests (module loading, JIT) are not a visitor's.
    await loadDoorway(browser, CONDITIONS[0]);
    await loadFirebaseui(browser, CONDITIONS[0]);
    const conditions = [];
    for (const condition of CONDITIONS) {
      const ours = [];
      const theirs = [];
      for (let i = 0; i < LOADS; i++) {
        ours.push(await loadDoorway(browser, condition));
        theirs.push(await loadFirebaseui(browser, condition));
        const o = ours.at(-1);
        const t = theirs.at(-1);
        log(
          `  ${condition.id} ${i + 1}/${LOADS}: Doorway ${o.usable?.toFixed(0) ?? '–'} ms (click: ${o.click}` +
            `${o.error ? `, ${o.error}` : ''}), FirebaseUI ${t.uiShown?.toFixed(0) ?? '–'} ms${t.error ? ` (${t.error})` : ''}`,
        );
      }
      conditions.push({
        id: condition.id,
        label: condition.label,
        ours: { usable: ours.map((r) => r.usable), fcp: ours.map((r) => r.fcp) },
        theirs: { uiShown: theirs.map((r) => r.uiShown), fcp: theirs.map((r) => r.fcp) },
        clicks: {
          formPost: ours.filter((r) => r.click === 'form post').length,
          widget: ours.filter((r) => r.click === 'widget').length,
          lost: ours.filter((r) => r.click === 'lost').length,
        },
      });
    }
    return {
      conditions,
      serverForm,
      sizes,
      chromium: browser.version(),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await stop();
  }
}

/**
 * Prints the tables, the clicks and the budget line; returns whether the budget is met and no click was
 * lost.
 */
export function printFirstCard(result, log = console.log) {
  log(
    `\nFirst usable card, cold loads in Chromium ${result.chromium}, interleaved, ${LOADS} of each per condition` +
      `\n(Doorway: /login of the production build; FirebaseUI 6.1.0: one bundle of ${(result.sizes.js / 1024).toFixed(1)} kB` +
      ` + ${(result.sizes.css / 1024).toFixed(1)} kB CSS gzip; both on the same Auth emulator, 127.0.0.1)\n`,
  );
  for (const condition of result.conditions) {
    for (const line of conditionTable(condition)) log(line);
    const c = condition.clicks;
    log(
      `  clicks on "Sign in with email" as soon as it showed: ${c.formPost + c.widget} honoured` +
        ` (${c.formPost} by the form post before hydration, ${c.widget} by the hydrated widget), ${c.lost} lost\n`,
    );
  }
  log(
    `Server HTML of /login holds the chooser form with its email button: ${result.serverForm ? 'yes' : 'NO'}`,
  );
  const slow = result.conditions.find((c) => c.id === 'fast3g');
  const ours = summarize(slow.ours.usable).median;
  const theirs = summarize(slow.theirs.uiShown).median;
  const verdict = budgetVerdict(ours, theirs, BUDGET_FACTOR);
  const lost = result.conditions.reduce((n, c) => n + c.clicks.lost, 0);
  log(
    `\nBudget: first usable card ≤ ${BUDGET_FACTOR}× FirebaseUI's uiShown under Fast 3G + 4× CPU: ${verdict}` +
      ` (${ratio(ours, theirs).toFixed(2)}×, medians ${ours.toFixed(0)} / ${theirs.toFixed(0)} ms)` +
      `\nLost clicks: ${lost}${lost === 0 ? '' : ' (FAIL)'}   (loads took ${result.seconds.toFixed(0)} s)`,
  );
  return verdict === 'PASS' && lost === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const ok = printFirstCard(await benchFirstCard());
    if (process.argv.includes('--strict') && !ok) process.exitCode = 1;
  } catch (error) {
    console.error(`first-card bench: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
