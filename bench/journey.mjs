#!/usr/bin/env node
// The whole sign-in journey of an existing email + password account, Doorway on the Remix host beside
// FirebaseUI 6.1.0 on the same Firebase Auth emulator (servers, browser, throttling and the probe:
// bench/harness.mjs). Each journey opens the sign-in page cold (a new browser context, cache empty), then
// clicks "Sign in with email", enters the email, clicks Next, enters the password and clicks Sign in, each
// the moment its control is visible (the probe's first animation frame showing it): never waiting for
// hydration, the network or a busy state. Doorway's journey ends when the host's signed-in page (`/account`)
// shows the email; FirebaseUI's at its signInSuccessWithAuthResult callback. That favours FirebaseUI: its
// end comes before any page a site would show next, while Doorway's includes the session cookie being set
// and the account page loaded and painted.
//
// Four conditions, interleaved (Doorway, FirebaseUI, Doorway, …) RUNS of each after one uncounted journey
// of each: unthrottled and Fast 3G + 4× CPU, with the email and password pasted (`fill`) or typed at
// 100 ms a key. Then the email-link journey up to "check your email" (Doorway's "Sign-in email sent" card,
// FirebaseUI's "Sign-in email sent" page) for a new address, unthrottled and Fast 3G + 4× CPU, pasted.
// Steps are timed in this process: from the action (or the navigation's start) to the report of the
// next control's frame reaching it, the same way for both. Typing is Playwright's `pressSequentially` with
// a 100 ms delay; each key also costs a round trip to the browser, so a typed total holds a little more
// than 100 ms a character, for both alike.
//
//   node bench/journey.mjs [--runs N]   (also `npm run bench`, or alone: `npm run bench -- --journey-only`)
import { performance } from 'node:perf_hooks';
import {
  CONDITIONS,
  EMAIL_LINK_HOST_PORT,
  EMULATOR_PORT,
  FIREBASEUI_PORT,
  HOST_PORT,
  openPage,
  STEP_TIMEOUT,
  startBench,
} from './harness.mjs';
import { journeyTable, stepTimes } from './journey-stats.mjs';

/** `--runs N` or `--runs=N` (1 to 25): journeys of each product per condition; 3 keeps `npm run bench` short. */
function runsFlag(argv) {
  const at = argv.findIndex((arg) => arg === '--runs' || arg.startsWith('--runs='));
  const raw = at < 0 ? '3' : argv[at].includes('=') ? argv[at].slice(7) : argv[at + 1];
  return Math.min(25, Math.max(1, Number.parseInt(raw ?? '3', 10) || 3));
}
const RUNS = runsFlag(process.argv);
const PASSWORD = 'journey-secret-123';
const INPUTS = [
  { id: 'fill', label: 'pasted (fill)' },
  { id: 'typed', label: 'typed, 100 ms a key' },
];

/** Each product's controls (CSS, for the probe and the actions) and where its journeys start. */
const PRODUCTS = {
  doorway: {
    name: 'Doorway',
    url: {
      password: `http://127.0.0.1:${HOST_PORT}/login`,
      emailLink: `http://127.0.0.1:${EMAIL_LINK_HOST_PORT}/login`,
    },
    chooser: 'button[name="providerId"][value^="email"]',
    email: '.doorway[data-card="emailEntry"] input[name="email"]',
    // The card's buttons by their names (the email card has more than one submit button).
    next: ['.doorway[data-card="emailEntry"]', 'Next'],
    password: '.doorway[data-card="passwordSignIn"] input[name="password"]',
    signIn: ['.doorway[data-card="passwordSignIn"]', 'Sign in'],
    // The account page with this person's email.
    signedIn: (email) => ['signedIn', '.host-account', email],
    sent: '.doorway[data-card="emailLinkSent"]',
  },
  firebaseui: {
    name: 'FirebaseUI',
    url: {
      password: `http://127.0.0.1:${FIREBASEUI_PORT}/`,
      emailLink: `http://127.0.0.1:${FIREBASEUI_PORT}/?emailLink`,
    },
    chooser: 'button.firebaseui-idp-password',
    email: '.firebaseui-id-page-sign-in input.firebaseui-id-email',
    next: '.firebaseui-id-page-sign-in button.firebaseui-id-submit',
    password: '.firebaseui-id-page-password-sign-in input.firebaseui-id-password',
    signIn: '.firebaseui-id-page-password-sign-in button.firebaseui-id-submit',
    // Its signInSuccessWithAuthResult callback reports `signedIn` (bench/harness.mjs).
    signedIn: () => null,
    sent: '.firebaseui-id-page-email-link-sign-in-sent',
  },
};

/** A password account on the bench's emulator, over its REST API (the Firebase SDK's sign-up call). */
async function createAccount(email, password) {
  const res = await fetch(
    `http://127.0.0.1:${EMULATOR_PORT}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  if (!res.ok) throw new Error(`creating ${email} on the emulator failed: ${res.status} ${await res.text()}`);
}

/**
 * One cold journey of `product`: `kind` 'password' (to signed in) or 'emailLink' (to the email sent card),
 * `input` 'fill' or 'typed'. Resolves `{ times, posts, error }`: the timestamps it reached (ms from the
 * navigation's start, by this process's clock), the clicks that posted a form, and why it stopped early.
 */
async function journey(browser, condition, product, { kind, input, email }) {
  const watches = [
    ['chooserShown', product.chooser],
    ['emailShown', product.email],
    kind === 'password' ? ['passwordShown', product.password] : ['sentShown', product.sent],
    kind === 'password' ? product.signedIn(email) : null,
  ].filter(Boolean);
  const { context, page, report, arrival } = await openPage(browser, condition, {
    watches,
    firstDocument: false,
  });
  // Clicks that posted a card's form to the server (before the page's scripts took over) rather than going
  // to the widget in the browser; FirebaseUI never posts.
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.isNavigationRequest()) posts++;
  });
  const times = {};
  const start = performance.now();
  const shown = async (name) => {
    if ((await report(name)) === null) throw new Error(`${name.replace('Shown', '')} never showed`);
    times[name] = arrival(name) - start;
  };
  // A selector, or a card's selector and a button's name.
  const act = async (name, selector, value) => {
    const control = Array.isArray(selector)
      ? page.locator(selector[0]).getByRole('button', { name: selector[1], exact: true })
      : page.locator(selector);
    if (value === undefined) {
      times[name] = performance.now() - start;
      await control.click({ timeout: STEP_TIMEOUT });
    } else if (input === 'fill') await control.fill(value, { timeout: STEP_TIMEOUT });
    else await control.pressSequentially(value, { delay: 100, timeout: STEP_TIMEOUT });
  };
  try {
    times.start = 0;
    await page.goto(product.url[kind], { waitUntil: 'commit', timeout: STEP_TIMEOUT });
    await shown('chooserShown');
    await act('chooserClick', product.chooser);
    await shown('emailShown');
    await act('email', product.email, email);
    await act('nextClick', product.next);
    if (kind === 'emailLink') {
      await shown('sentShown');
      return { times, posts, error: null };
    }
    await shown('passwordShown');
    await act('password', product.password, PASSWORD);
    await act('signInClick', product.signIn);
    await shown('signedIn');
    return { times, posts, error: null };
  } catch (error) {
    return { times, posts, error: error instanceof Error ? error.message.split('\n')[0] : String(error) };
  } finally {
    await context.close();
  }
}

/**
 * RUNS interleaved journeys of each product in one condition; resolves the step times of each, the
 * journeys that stopped early, and how many of Doorway's clicks posted a form.
 */
async function runCondition(browser, { condition, kind, input, email, log }) {
  const ours = [];
  const theirs = [];
  const errors = [];
  let posts = 0;
  for (let i = 0; i < RUNS; i++) {
    const address = email ?? `link-${condition.id}-${i}-${Date.now().toString(36)}@example.com`;
    const o = await journey(browser, condition, PRODUCTS.doorway, { kind, input, email: address });
    const t = await journey(browser, condition, PRODUCTS.firebaseui, { kind, input, email: address });
    posts += o.posts;
    ours.push(stepTimes(o.times, kind));
    theirs.push(stepTimes(t.times, kind));
    for (const [product, r] of [
      [PRODUCTS.doorway, o],
      [PRODUCTS.firebaseui, t],
    ]) {
      if (r.error) errors.push(`${product.name}, journey ${i + 1}: ${r.error}`);
    }
    log(
      `  ${kind} ${condition.id} ${input} ${i + 1}/${RUNS}: Doorway ${ours.at(-1).total?.toFixed(0) ?? '–'} ms` +
        `${o.error ? ` (${o.error})` : ''}, FirebaseUI ${theirs.at(-1).total?.toFixed(0) ?? '–'} ms${t.error ? ` (${t.error})` : ''}`,
    );
  }
  return { ours, theirs, errors, posts };
}

/**
 * Starts the servers (with the email-link host), creates the account, runs every condition and stops
 * everything. Resolves `{ conditions: [{ id, kind, label, ours, theirs, errors }], sizes, chromium, seconds }`.
 */
export async function benchJourney({ log = console.log } = {}) {
  const { browser, sizes, stop } = await startBench({ name: 'Sign-in journey', emailLink: true, log });
  try {
    const email = 'journey@example.com';
    await createAccount(email, PASSWORD);
    const started = Date.now();
    // One journey of each first, not counted: the servers' first requests (module loading, JIT) are not a visitor's.
    await journey(browser, CONDITIONS[0], PRODUCTS.doorway, { kind: 'password', input: 'fill', email });
    await journey(browser, CONDITIONS[0], PRODUCTS.firebaseui, { kind: 'password', input: 'fill', email });
    const conditions = [];
    for (const condition of CONDITIONS) {
      for (const input of INPUTS) {
        const result = await runCondition(browser, {
          condition,
          kind: 'password',
          input: input.id,
          email,
          log,
        });
        conditions.push({
          id: `${condition.id}-${input.id}`,
          kind: 'password',
          label: `${condition.label}, ${input.label}`,
          ...result,
        });
      }
    }
    for (const condition of CONDITIONS) {
      const result = await runCondition(browser, {
        condition,
        kind: 'emailLink',
        input: 'fill',
        email: null,
        log,
      });
      conditions.push({
        id: `${condition.id}-link`,
        kind: 'emailLink',
        label: `Email link: ${condition.label}, pasted (fill)`,
        ...result,
      });
    }
    return { conditions, sizes, chromium: browser.version(), seconds: (Date.now() - started) / 1000 };
  } finally {
    await stop();
  }
}

/** Prints a table per condition and the journeys that stopped early; returns whether every journey finished. */
export function printJourney(result, log = console.log) {
  log(
    `\nSign-in journey of an existing email + password account, cold loads in Chromium ${result.chromium},` +
      `\ninterleaved, ${RUNS} of each per condition, each control used the moment it shows. Doorway: /login of the` +
      `\nhost's production build until /account shows the email; FirebaseUI 6.1.0 (one bundle of` +
      ` ${(result.sizes.js / 1024).toFixed(1)} kB gzip)` +
      `\nuntil its signInSuccessWithAuthResult callback, which favours FirebaseUI: it stops before any next page,` +
      `\nDoorway's time includes the session cookie and the account page. Same Auth emulator, 127.0.0.1.` +
      `\nRatio: Doorway / FirebaseUI of the medians (below 1: Doorway is faster).\n`,
  );
  let errors = 0;
  for (const condition of result.conditions) {
    for (const line of journeyTable(condition)) log(line);
    const clicks = RUNS * (condition.kind === 'password' ? 3 : 2);
    log(`  Doorway's clicks taken by a form post before its scripts ran: ${condition.posts} of ${clicks}`);
    for (const error of condition.errors) log(`  stopped early: ${error}`);
    errors += condition.errors.length;
    log('');
  }
  log(`Journeys that stopped early: ${errors}   (journeys took ${result.seconds.toFixed(0)} s)`);
  return errors === 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const ok = printJourney(await benchJourney());
    if (process.argv.includes('--strict') && !ok) process.exitCode = 1;
  } catch (error) {
    console.error(`journey bench: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
