#!/usr/bin/env node
// `npm start`: installs what is missing, builds the product and serves it on 127.0.0.1.
// Until the Remix host exists this is the playground (the widget on the in-memory provider).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensureDependencies();

const port = process.env.PORT ?? '5173';
const app = join(root, 'apps', 'playground');
if (!existsSync(join(app, 'index.html'))) {
  console.error('apps/playground is missing: nothing to start.');
  process.exit(1);
}
const vite = join(root, 'node_modules', '.bin', 'vite');
const build = spawnSync(vite, ['build'], { cwd: app, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`\nDoorway playground: http://127.0.0.1:${port}/  (Ctrl+C to stop)\n`);
const server = spawn(vite, ['preview', '--host', '127.0.0.1', '--port', port, '--strictPort'], {
  cwd: app,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
