#!/usr/bin/env node
// The web server of the `remix-host` Playwright project: the Auth emulator, one production build of the
// host, and two host servers (apps/remix-host/server.mjs) on it: the default configuration (password, phone with the visible
// reCAPTCHA, Google, guest) and one whose email option signs in by email link (a widget has one email
// method at a time) and whose phone sign-in uses the invisible reCAPTCHA.
//   E2E_HOST_PORT (default 4320) and E2E_HOST_PORT + 1.
// Each server's stdout and stderr also go to .cache/e2e-host/host-<port>.log (truncated at start),
// which e2e/host/session-security.spec.ts reads to prove that no token, cookie or password is logged. The
// folder survives Playwright's clearing of test-results, so a reused server's log is still there.
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildHost, ROOT, serveHost, startEmulator, stopOnSignal } from './host.mjs';

const LOG_DIR = join(ROOT, '.cache', 'e2e-host');

/** Serves the host with its output copied to this process's streams and to its log file. */
async function serveLogged(options) {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `host-${options.port}.log`));
  const serving = serveHost({ ...options, stdio: ['ignore', 'pipe', 'pipe'], onSpawn: tee });
  function tee(child) {
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
  }
  return serving;
}

const port = Number(process.env.E2E_HOST_PORT ?? '4320');
const children = [];
stopOnSignal(children);
try {
  const emulator = await startEmulator();
  children.push(emulator.child);
  buildHost();
  const common = {
    emulator: emulator.address,
    // The tests reach the hosts from 127.0.0.1 as from a proxy: e2e/host/throttle.spec.ts gives each of its
    // browsers its own X-Forwarded-For, so its limits are its own and never slow the other specs.
    env: {
      DOORWAY_TOS_URL: '/terms',
      DOORWAY_PRIVACY_URL: '/privacy',
      DOORWAY_TRUSTED_PROXIES: '127.0.0.1,::1',
    },
  };
  children.push(await serveLogged({ ...common, port }));
  children.push(
    await serveLogged({
      ...common,
      port: port + 1,
      env: {
        ...common.env,
        DOORWAY_SIGN_IN_OPTIONS: 'emailLink,phone,google.com',
        DOORWAY_RECAPTCHA: 'invisible',
      },
    }),
  );
  console.log(`remix-host e2e: http://127.0.0.1:${port}/ and http://127.0.0.1:${port + 1}/ (email link)`);
} catch (error) {
  console.error(`e2e-host: ${error instanceof Error ? error.message : error}`);
  for (const child of children) child?.kill('SIGTERM');
  process.exit(1);
}
