#!/usr/bin/env node
// `npm start`: the product on a fresh clone, no cloud account: installs what is missing, starts the
// Firebase Auth emulator (project demo-doorway), builds the Remix host for production and serves it with
// the host's server on the loopback interface, as http://localhost:${PORT:-3000}/. Ctrl+C stops both.
// The address shown is `localhost`, not 127.0.0.1: WebAuthn refuses an IP address as relying party, so on
// 127.0.0.1 the host offers no passkeys, and on localhost (its development relying party, see
// apps/remix-host/app/passkeys.server.ts) it does. Email links follow the address the page was opened on.
import { ensureDependencies } from './ensure.mjs';

ensureDependencies();
// Imported after the install: host.mjs only needs builtins, but the build needs node_modules.
const { buildHost, serveHost, startEmulator, stopOnSignal } = await import('./host.mjs');

const port = Number(process.env.PORT ?? '3000');
const children = [];
const stopping = stopOnSignal(children);
try {
  const emulator = await startEmulator();
  children.push(emulator.child);
  buildHost();
  const server = await serveHost({ port, emulator: emulator.address });
  children.push(server);
  console.log(
    `\nDoorway: http://localhost:${port}/  (sign in at /login; Auth emulator at http://${emulator.address}/)` +
      '\nCtrl+C to stop.\n',
  );
  server.on('exit', (code) => {
    if (stopping()) return;
    console.error(`the host's server exited unexpectedly (code ${code}).`);
    process.exit(code ?? 1);
  });
} catch (error) {
  console.error(`npm start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
