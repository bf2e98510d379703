#!/usr/bin/env node
// The web server of the `remix-host` Playwright project: the Auth emulator, one production build of the
// host, and two remix-serve instances on it: the default configuration (password, phone with the visible
// reCAPTCHA, Google, guest) and one whose email option signs in by email link (a widget has one email
// method at a time) and whose phone sign-in uses the invisible reCAPTCHA.
//   E2E_HOST_PORT (default 4320) and E2E_HOST_PORT + 1.
import { buildHost, serveHost, startEmulator, stopOnSignal } from './host.mjs';

const port = Number(process.env.E2E_HOST_PORT ?? '4320');
const children = [];
stopOnSignal(children);
try {
  const emulator = await startEmulator();
  children.push(emulator.child);
  buildHost();
  const common = {
    emulator: emulator.address,
    env: { DOORWAY_TOS_URL: '/terms', DOORWAY_PRIVACY_URL: '/privacy' },
  };
  children.push(await serveHost({ ...common, port }));
  children.push(
    await serveHost({
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
