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
// Its own ports, so it never meets the test servers: the Auth emulator on 9299 (a temporary firebase.json),
// the host on 4340 (its own production build in .cache/bench-first-card), the FirebaseUI page on 4341.
// Everything it starts is stopped at the end, on failure and on Ctrl+C.
//
//   node bench/first-card.mjs [--strict] [--loads=N]   (also run by `npm run bench`, unless --size-only)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { answers, HOST_APP, PROJECT_ID, ROOT, stopOnSignal, waitFor } from '../scripts/host.mjs';
import { ensureFirebaseui, FIREBASEUI_DIR } from './firebaseui-install.mjs';
import { budgetVerdict, conditionTable, ratio, summarize } from './first-card-stats.mjs';

const EMULATOR_PORT = 9299;
const HOST_PORT = 4340;
const FIREBASEUI_PORT = 4341;
// `--loads=N` (1 to 25) only to try the bench quickly or to sample more; the figures quoted use 7.
const loadsFlag = process.argv.find((arg) => arg.startsWith('--loads='));
const LOADS = Math.min(25, Math.max(1, Number.parseInt(loadsFlag?.slice(8) ?? '7', 10) || 7));
/** The budget: Doorway's first usable card at most this share of FirebaseUI's uiShown (Fast 3G + 4× CPU). */
export const BUDGET_FACTOR = 0.5;
const BUILD_DIR = join(ROOT, '.cache', 'bench-first-card', 'build');
const PAGE_DIR = join(ROOT, 'bench', '.out', 'firebaseui-page');
const EMAIL_BUTTON = 'button[name="providerId"][value="email"]';
const EMAIL_CARD = '[data-card="emailEntry"]';
const STEP_TIMEOUT = 60_000;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** DevTools' "Fast 3G" preset (bytes/s, ms) with its CPU slowdown, as DevTools sends them over CDP. */
export const FAST_3G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CONDITIONS = [
  { id: 'unthrottled', label: 'Unthrottled (127.0.0.1, no CPU slowdown)', network: null, cpu: 1 },
  {
    id: 'fast3g',
    label: 'Fast 3G (562.5 ms, 1.44 Mbit/s down, 675 kbit/s up) + 4× CPU slowdown',
    network: FAST_3G,
    cpu: 4,
  },
];

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

// ─── servers ────────────────────────────────────────────────────────────────────────────────────────────

function firebaseBin() {
  const pkgPath = createRequire(join(ROOT, 'package.json')).resolve('firebase-tools/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  return join(dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.firebase);
}

/** The Auth emulator on EMULATOR_PORT, configured by a firebase.json in `dir` (its logs stay there too). */
async function startBenchEmulator(dir) {
  const config = join(dir, 'firebase.json');
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { port: EMULATOR_PORT, host: '127.0.0.1' },
        singleProjectMode: true,
        ui: { enabled: false },
      },
    }),
  );
  const child = spawn(
    process.execPath,
    [firebaseBin(), 'emulators:start', '--only', 'auth', '--project', PROJECT_ID, '--config', config],
    {
      cwd: dir,
      stdio: 'ignore',
      // TMPDIR: the emulator hub's locator file goes to this run's folder, not beside another emulator's.
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', TMPDIR: dir },
    },
  );
  await waitFor(`http://127.0.0.1:${EMULATOR_PORT}/`, { child, name: 'the Auth emulator', ms: 120_000 });
  return child;
}

/** The production build of apps/remix-host into BUILD_DIR (the default build a running server uses is not touched). */
function buildBenchHost() {
  const result = spawnSync(bin('remix'), ['vite:build', '--emptyOutDir'], {
    cwd: HOST_APP,
    encoding: 'utf8',
    env: { ...process.env, DOORWAY_HOST_BUILD_DIR: BUILD_DIR },
  });
  if (result.status !== 0) {
    throw new Error(`building apps/remix-host failed (exit ${result.status})\n${result.stderr.slice(-2000)}`);
  }
}

/** The host's server on HOST_PORT in its default configuration, on the bench's emulator. */
async function serveBenchHost() {
  // The host's own variables come from here only, so a shell's settings cannot change what is measured.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(DOORWAY_|FIREBASE_)/.test(key)),
  );
  const child = spawn(process.execPath, ['server.mjs', join(BUILD_DIR, 'server', 'index.js')], {
    cwd: HOST_APP,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(HOST_PORT),
      FIREBASE_PROJECT_ID: PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${EMULATOR_PORT}`,
      DOORWAY_SIGN_IN_OPTIONS: 'email,phone,google.com,anonymous',
    },
  });
  await waitFor(`http://127.0.0.1:${HOST_PORT}/bench/bare`, { child, name: `the host on port ${HOST_PORT}` });
  return child;
}

/**
 * FirebaseUI 6.1.0 configured as the host's widget (email, phone, Google, guest; popup flow; no credential
 * helper) on the bench's emulator: firebaseui and firebase compat (app + auth) bundled into one minified
 * script, its CSS, and a page that loads both. Returns the gzip sizes.
 */
async function buildFirebaseuiPage() {
  ensureFirebaseui();
  rmSync(PAGE_DIR, { recursive: true, force: true });
  mkdirSync(PAGE_DIR, { recursive: true });
  const entry = `
import firebase from 'firebase/compat/app';
import 'firebase/compat/auth';
import { auth as firebaseui } from 'firebaseui';

firebase.initializeApp({ apiKey: 'demo-api-key', authDomain: '${PROJECT_ID}.firebaseapp.com', projectId: '${PROJECT_ID}' });
const auth = firebase.auth();
auth.useEmulator('http://127.0.0.1:${EMULATOR_PORT}', { disableWarnings: true });
new firebaseui.AuthUI(auth).start('#firebaseui-auth-container', {
  signInFlow: 'popup',
  credentialHelper: firebaseui.CredentialHelper.NONE,
  signInSuccessUrl: '/account',
  signInOptions: [
    firebase.auth.EmailAuthProvider.PROVIDER_ID,
    firebase.auth.PhoneAuthProvider.PROVIDER_ID,
    firebase.auth.GoogleAuthProvider.PROVIDER_ID,
    firebaseui.AnonymousAuthProvider.PROVIDER_ID,
  ],
  callbacks: {
    uiShown() {
      window.__uiShown = performance.now();
      globalThis.__benchReport?.('uiShown', window.__uiShown, performance.timeOrigin)?.catch(() => undefined);
    },
    signInSuccessWithAuthResult: () => false,
  },
});
`;
  await build({
    stdin: { contents: entry, resolveDir: FIREBASEUI_DIR, loader: 'js', sourcefile: 'firebaseui-page.js' },
    bundle: true,
    format: 'iife',
    minify: true,
    platform: 'browser',
    target: 'es2017',
    outfile: join(PAGE_DIR, 'app.js'),
    logLevel: 'error',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await build({
    entryPoints: [join(FIREBASEUI_DIR, 'node_modules', 'firebaseui', 'dist', 'firebaseui.css')],
    bundle: true,
    minify: true,
    outfile: join(PAGE_DIR, 'firebaseui.css'),
    logLevel: 'error',
  });
  writeFileSync(
    join(PAGE_DIR, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in – FirebaseUI 6.1.0</title>' +
      '<link rel="icon" href="data:,"><link rel="stylesheet" href="/firebaseui.css">' +
      '<script src="/app.js" defer></script></head><body><div id="firebaseui-auth-container"></div></body></html>',
  );
  const gz = (file) => gzipSync(readFileSync(join(PAGE_DIR, file)), { level: 9 }).length;
  return { js: gz('app.js'), css: gz('firebaseui.css') };
}

/** A static server of PAGE_DIR on FIREBASEUI_PORT, gzip like the host's (compression), assets immutable like its. */
async function serveFirebaseuiPage() {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const files = new Map(
    [
      ['/', 'index.html'],
      ['/app.js', 'app.js'],
      ['/firebaseui.css', 'firebaseui.css'],
    ].map(([path, file]) => {
      const body = readFileSync(join(PAGE_DIR, file));
      return [path, { body, gzip: gzipSync(body), type: types[file.slice(file.lastIndexOf('.'))] }];
    }),
  );
  const server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'content-type': file.type,
      'cache-control': file.type.startsWith('text/html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(gzip ? file.gzip : file.body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(FIREBASEUI_PORT, '127.0.0.1', resolve);
  });
  return server;
}

/** Sends SIGTERM and waits for the exit (SIGKILL after `ms`). */
async function stopChild(child, ms = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

// ─── one load ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * Runs in every document before its own scripts: reports the first contentful paint and, for Doorway, the
 * first animation frame in which the email button is in the DOM and visible. Each report carries the
 * document's time origin, so the page a click posts to cannot stand in for the first one.
 */
function probe({ selector }) {
  const origin = performance.timeOrigin;
  const report = (name, value) => globalThis.__benchReport?.(name, value, origin)?.catch(() => undefined);
  const paintReport = () => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    if (fcp) report('fcp', fcp.startTime);
    return Boolean(fcp);
  };
  new PerformanceObserver(paintReport).observe({ type: 'paint', buffered: true });
  // A click may unload the page before the observer's callback: read the entry once more on the way out.
  addEventListener('pagehide', paintReport);
  addEventListener('click', () => report('click', performance.now()), { capture: true, once: true });
  if (!selector) return;
  const frame = () => {
    const button = document.querySelector(selector);
    const box = button?.getBoundingClientRect();
    if (
      button?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
      box.width > 0 &&
      box.height > 0 &&
      box.bottom > 0 &&
      box.top < innerHeight
    ) {
      report('visible', performance.now());
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** A new context and page, with the condition's throttling and the probe; `reports` fills as they come. */
async function openPage(browser, condition, selector) {
  const context = await browser.newContext();
  const reports = {};
  const waiting = new Map();
  let origin = null;
  await context.exposeBinding('__benchReport', (_source, name, value, timeOrigin) => {
    origin ??= timeOrigin;
    if (timeOrigin !== origin || name in reports) return;
    reports[name] = value;
    waiting.get(name)?.();
  });
  await context.addInitScript(probe, { selector });
  const page = await context.newPage();
  if (condition.network || condition.cpu !== 1) {
    const cdp = await context.newCDPSession(page);
    if (condition.network) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', condition.network);
    }
    if (condition.cpu !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
  }
  /** Resolves once `name` is reported, or null after `ms`. */
  const report = (name, ms = STEP_TIMEOUT) =>
    name in reports
      ? Promise.resolve(reports[name])
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve(null), ms);
          waiting.set(name, () => {
            clearTimeout(timer);
            resolve(reports[name]);
          });
        });
  return { context, page, report };
}

/** One cold load of `/login`: first usable card, FCP, and the click on "Sign in with email" honoured or lost. */
async function loadDoorway(browser, condition) {
  const { context, page, report } = await openPage(browser, condition, EMAIL_BUTTON);
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
  const { context, page, report } = await openPage(browser, condition, null);
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
  for (const port of [EMULATOR_PORT, HOST_PORT, FIREBASEUI_PORT]) {
    if (await answers(`http://127.0.0.1:${port}/`, 500)) {
      throw new Error(`port ${port} is in use; the first-card bench needs 9299, 4340 and 4341 free`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'doorway-first-card-'));
  const children = [];
  stopOnSignal(children);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  let browser = null;
  let staticServer = null;
  try {
    log('\nFirst usable card: building apps/remix-host and the FirebaseUI page, starting the Auth emulator…');
    const sizes = await buildFirebaseuiPage();
    buildBenchHost();
    children.push(await startBenchEmulator(dir));
    children.push(await serveBenchHost());
    staticServer = await serveFirebaseuiPage();
    const serverForm = await serverRendersChooser();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
    await browser?.close();
    if (staticServer) {
      staticServer.closeAllConnections();
      await new Promise((resolve) => staticServer.close(resolve));
    }
    for (const child of children.reverse()) await stopChild(child);
    removeDir();
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
