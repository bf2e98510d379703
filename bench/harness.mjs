// What the browser benches (bench/first-card.mjs, bench/journey.mjs) share: their own Auth emulator, the
// Remix host's production build served on it, a FirebaseUI 6.1.0 page on the same emulator, Debian's
// Chromium, the two network/CPU conditions, and cold pages with a `requestAnimationFrame` probe that reports
// what it sees.
//
// Its own ports, so it never meets the test servers: the Auth emulator on 9299 (a temporary firebase.json),
// the host on 4340 (its own production build in .cache/bench-first-card), the FirebaseUI page on 4341, and
// for the email-link journey the same build with email-link sign-in on 4342. `startBench` starts them and
// resolves a `stop` that stops everything it started; it also stops them on Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/ensure.mjs';
import { answers, HOST_APP, PROJECT_ID, ROOT, stopOnSignal, waitFor } from '../scripts/host.mjs';
import { ensureFirebaseui, FIREBASEUI_DIR } from './firebaseui-install.mjs';

export const EMULATOR_PORT = 9299;
export const HOST_PORT = 4340;
export const FIREBASEUI_PORT = 4341;
/** The host's build once more, its email option signing in by email link (a widget has one email method). */
export const EMAIL_LINK_HOST_PORT = 4342;
export const STEP_TIMEOUT = 60_000;
const BUILD_DIR = join(ROOT, '.cache', 'bench-first-card', 'build');
const PAGE_DIR = join(ROOT, 'bench', '.out', 'firebaseui-page');

/** DevTools' "Fast 3G" preset (bytes/s, ms) with its CPU slowdown, as DevTools sends them over CDP. */
export const FAST_3G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
export const CONDITIONS = [
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
  // Up to 4 minutes: on a busy machine the emulator's JVM starts slowly.
  await answering(child, `http://127.0.0.1:${EMULATOR_PORT}/`, 'the Auth emulator', 240_000);
  return child;
}

/** Waits until `child` answers at `url`; stops it when it does not (it was never handed to the caller). */
async function answering(child, url, name, ms = 60_000) {
  try {
    await waitFor(url, { child, name, ms });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

let hostBuilt = false;

/**
 * The production build of apps/remix-host into BUILD_DIR (the default build a running server uses is not
 * touched), once per process: the benches of one `npm run bench` share it.
 */
function buildBenchHost() {
  if (hostBuilt) return;
  const result = spawnSync(bin('remix'), ['vite:build', '--emptyOutDir'], {
    cwd: HOST_APP,
    encoding: 'utf8',
    env: { ...process.env, DOORWAY_HOST_BUILD_DIR: BUILD_DIR },
  });
  if (result.status !== 0) {
    throw new Error(`building apps/remix-host failed (exit ${result.status})\n${result.stderr.slice(-2000)}`);
  }
  hostBuilt = true;
}

/** The host's server on `port` with `signInOptions`, on the bench's emulator. */
async function serveBenchHost(port, signInOptions) {
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
      PORT: String(port),
      FIREBASE_PROJECT_ID: PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${EMULATOR_PORT}`,
      DOORWAY_SIGN_IN_OPTIONS: signInOptions,
    },
  });
  await answering(child, `http://127.0.0.1:${port}/bench/bare`, `the host on port ${port}`);
  return child;
}

/**
 * FirebaseUI 6.1.0 configured as the host's widget (email, phone, Google, guest; popup flow; no credential
 * helper) on the bench's emulator: firebaseui and firebase compat (app + auth) bundled into one minified
 * script, its CSS, and a page that loads both. `/?emailLink` configures its email option to sign in by
 * link, as the email-link host does. It reports `uiShown` and `signedIn` (its signInSuccessWithAuthResult
 * callback, which stays on the page). Returns the gzip sizes.
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
const report = (name, value = performance.now()) =>
  globalThis.__benchReport?.(name, value, performance.timeOrigin)?.catch(() => undefined);
const email = new URLSearchParams(location.search).has('emailLink')
  ? { provider: firebase.auth.EmailAuthProvider.PROVIDER_ID, signInMethod: firebase.auth.EmailAuthProvider.EMAIL_LINK_SIGN_IN_METHOD }
  : firebase.auth.EmailAuthProvider.PROVIDER_ID;
new firebaseui.AuthUI(auth).start('#firebaseui-auth-container', {
  signInFlow: 'popup',
  credentialHelper: firebaseui.CredentialHelper.NONE,
  signInSuccessUrl: '/account',
  signInOptions: [
    email,
    firebase.auth.PhoneAuthProvider.PROVIDER_ID,
    firebase.auth.GoogleAuthProvider.PROVIDER_ID,
    firebaseui.AnonymousAuthProvider.PROVIDER_ID,
  ],
  callbacks: {
    uiShown() {
      window.__uiShown = performance.now();
      report('uiShown', window.__uiShown);
    },
    signInSuccessWithAuthResult() {
      report('signedIn');
      return false;
    },
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

/**
 * Builds and serves both pages on a fresh emulator, and launches Chromium. `emailLink` adds the email-link
 * host. Resolves `{ browser, sizes, stop }`; `stop()` closes and stops everything started, whatever failed.
 * `name` says which bench in the error of a port already in use.
 */
export async function startBench({ name, emailLink = false, log = console.log }) {
  const ports = [EMULATOR_PORT, HOST_PORT, FIREBASEUI_PORT, ...(emailLink ? [EMAIL_LINK_HOST_PORT] : [])];
  for (const port of ports) {
    if (await answers(`http://127.0.0.1:${port}/`, 500)) {
      throw new Error(`port ${port} is in use; the ${name} bench needs ${ports.join(', ')} free`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'doorway-bench-'));
  const children = [];
  stopOnSignal(children);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  let browser = null;
  let staticServer = null;
  const stop = async () => {
    await browser?.close();
    if (staticServer) {
      staticServer.closeAllConnections();
      await new Promise((resolve) => staticServer.close(resolve));
    }
    for (const child of children.reverse()) await stopChild(child);
    removeDir();
    process.off('exit', removeDir);
  };
  try {
    log(`\n${name}: building apps/remix-host and the FirebaseUI page, starting the Auth emulator…`);
    const sizes = await buildFirebaseuiPage();
    buildBenchHost();
    children.push(await startBenchEmulator(dir));
    children.push(await serveBenchHost(HOST_PORT, 'email,phone,google.com,anonymous'));
    if (emailLink) children.push(await serveBenchHost(EMAIL_LINK_HOST_PORT, 'emailLink,phone,google.com'));
    staticServer = await serveFirebaseuiPage();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    return { browser, sizes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// ─── pages ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Runs in every document before its own scripts: reports the first contentful paint, the first click,
 * and for each `[name, selector, text]` of `watches` the first animation frame in which an element of
 * `selector` (holding `text`, when given) is in the DOM and visible in the viewport. Each report carries
 * the document's time origin.
 */
function probe({ watches }) {
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
  const shows = (selector, text) => {
    const element = document.querySelector(selector);
    const box = element?.getBoundingClientRect();
    return (
      element?.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
      box.width > 0 &&
      box.height > 0 &&
      box.bottom > 0 &&
      box.top < innerHeight &&
      (!text || element.textContent.includes(text))
    );
  };
  const pending = [...watches];
  const frame = () => {
    for (const watch of [...pending]) {
      if (!shows(watch[1], watch[2])) continue;
      report(watch[0], performance.now());
      pending.splice(pending.indexOf(watch), 1);
    }
    if (pending.length > 0) requestAnimationFrame(frame);
  };
  if (pending.length > 0) requestAnimationFrame(frame);
}

/**
 * A new context and page, with the condition's throttling and the probe. `report(name, ms)` resolves the
 * first report of `name` (null after `ms`); `arrival(name)` is when it reached this process
 * (`performance.now()` here), the clock the journey bench measures its steps with. `firstDocument`: only
 * the first document's reports count (so the page a click posts to cannot stand in for the first one).
 */
export async function openPage(browser, condition, { watches = [], firstDocument = true } = {}) {
  const context = await browser.newContext();
  const reports = {};
  const arrivals = {};
  const waiting = new Map();
  let origin = null;
  await context.exposeBinding('__benchReport', (_source, name, value, timeOrigin) => {
    const at = performance.now();
    origin ??= timeOrigin;
    if ((firstDocument && timeOrigin !== origin) || name in reports) return;
    reports[name] = value;
    arrivals[name] = at;
    waiting.get(name)?.();
  });
  await context.addInitScript(probe, { watches });
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
  return { context, page, report, arrival: (name) => arrivals[name] ?? null };
}
