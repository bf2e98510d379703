#!/usr/bin/env node
// Installs what `npm start` / `npm test` need on a fresh clone: node_modules (npm ci) and, with
// --browser, Debian's Chromium for Playwright; with --nginx, Debian's nginx for the multi-process tests. Node builtins only: this runs before anything is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = process.env.DOORWAY_CHROMIUM ?? '/usr/bin/chromium';
/** Its flags for a headless run as root on a closed network (no sandbox, GPU or background fetches). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
}

/** npm ci when node_modules is missing or older than the lockfile. */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Installs Debian's `pkg` with apt-get when `path` is missing and we are root; else says how. */
function ensureDebianPackage(path, pkg, why) {
  if (existsSync(path)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) throw new Error(`${why} not found at ${path}. Install it (sudo apt-get install -y ${pkg}).`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', pkg], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Debian's Chromium (no browser download works here); set DOORWAY_CHROMIUM for another. */
export function ensureChromium() {
  ensureDebianPackage(CHROMIUM, 'chromium', 'Chromium (or set DOORWAY_CHROMIUM)');
}

/** Debian's nginx, the load balancer of the host's multi-process tests (scripts/cluster.mjs). */
export function ensureNginx() {
  ensureDebianPackage('/usr/sbin/nginx', 'nginx-light', 'nginx');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDependencies();
  if (process.argv.includes('--browser')) ensureChromium();
  if (process.argv.includes('--nginx')) ensureNginx();
}
