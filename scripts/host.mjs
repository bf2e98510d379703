// The Remix host's moving parts for `npm start`, the e2e web server and the bench: the Firebase Auth
// emulator, the production build and its server (apps/remix-host/server.mjs). Builtins only (it runs right after `npm ci`).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HOST_APP = join(ROOT, 'apps', 'remix-host');
export const PROJECT_ID = 'demo-doorway';

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** `host:port` of the Auth emulator as firebase.json configures it. */
export function emulatorAddress() {
  const config = JSON.parse(readFileSync(join(ROOT, 'firebase.json'), 'utf8'));
  const auth = config.emulators?.auth ?? {};
  return `${auth.host ?? '127.0.0.1'}:${auth.port ?? 9099}`;
}

/** Whether `url` answers (any HTTP status) within `ms`. */
export async function answers(url, ms = 1500) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(ms) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Calls `check` every `every` ms until it resolves true; rejects with "`what` within N s" after `ms`, or
 * with what `check` throws.
 */
export async function until(check, what, { ms = 20_000, every = 100 } = {}) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
  throw new Error(`${what} within ${ms / 1000} s`);
}

/** Polls `url` until it answers; rejects after `ms` or when `child` exits first. */
export async function waitFor(url, { ms = 60_000, child = null, name = url } = {}) {
  let exited = null;
  child?.once('exit', (code) => {
    exited = code;
  });
  const answered = () => {
    if (exited !== null) throw new Error(`${name} exited (code ${exited}) before answering at ${url}`);
    return answers(url);
  };
  await until(answered, `${name} did not answer at ${url}`, { ms, every: 250 });
}

/**
 * Starts the Auth emulator (`node scripts/emulator.mjs start`) unless one already answers. Resolves
 * `{ address, child }`; `child` is null when an existing emulator is reused.
 */
export async function startEmulator({ stdio = 'inherit' } = {}) {
  const address = emulatorAddress();
  if (await answers(`http://${address}/`)) {
    console.log(`Reusing the Auth emulator at ${address}.`);
    return { address, child: null };
  }
  const child = spawn(
    process.execPath,
    [join(ROOT, 'scripts', 'emulator.mjs'), 'start', '--project', PROJECT_ID],
    {
      cwd: ROOT,
      stdio,
    },
  );
  await waitFor(`http://${address}/`, { child, name: 'the Auth emulator', ms: 120_000 });
  return { address, child };
}

/** The production build of apps/remix-host (client and server bundles in apps/remix-host/build). */
export function buildHost({ stdio = 'inherit' } = {}) {
  const result = spawnSync(bin('remix'), ['vite:build'], { cwd: HOST_APP, stdio });
  if (result.status !== 0) throw new Error(`building apps/remix-host failed (exit ${result.status})`);
}

/**
 * Serves the build with apps/remix-host/server.mjs (remix-serve's setup with a redacting access log) on
 * 127.0.0.1:`port` and resolves the child once `/bench/bare`
 * answers. `env` adds to the environment (e.g. `DOORWAY_SIGN_IN_OPTIONS`); `onSpawn(child)` runs at once
 * (e.g. to read piped output from the start).
 */
export async function serveHost({
  port,
  env = {},
  stdio = 'inherit',
  emulator = emulatorAddress(),
  onSpawn = null,
}) {
  const child = spawn(process.execPath, ['server.mjs', './build/server/index.js'], {
    cwd: HOST_APP,
    stdio,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      FIREBASE_PROJECT_ID: process.env.FIREBASE_PROJECT_ID ?? PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? emulator,
      ...env,
    },
  });
  onSpawn?.(child);
  await waitFor(`http://127.0.0.1:${port}/bench/bare`, { child, name: `the host on port ${port}` });
  return child;
}

/**
 * Stops `children` on Ctrl+C / SIGTERM (and when this process exits), then exits. Returns a function
 * telling whether a stop was asked for (so an expected child exit is not reported as a failure).
 */
export function stopOnSignal(children) {
  let stopping = false;
  const stop = (signal) => {
    stopping = true;
    for (const child of children) if (child && child.exitCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stop(signal);
      setTimeout(() => process.exit(0), 300).unref();
    });
  }
  process.on('exit', () => stop('SIGTERM'));
  return () => stopping;
}
