// FirebaseUI 6.1.0 for the bench. Its peer is firebase ^9/^10, which conflicts with the repo's firebase 12,
// so it lives in its own folder (bench/firebaseui) with its own lockfile and is installed on demand.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** bench/firebaseui: the isolated install (firebaseui 6.1.0, firebase 10). */
export const FIREBASEUI_DIR = join(root, 'bench', 'firebaseui');

/** Installs bench/firebaseui from its lockfile unless it is there; throws when npm fails. */
export function ensureFirebaseui() {
  if (existsSync(join(FIREBASEUI_DIR, 'node_modules', 'firebaseui', 'package.json'))) return;
  console.log('Installing FirebaseUI 6.1.0 into bench/firebaseui (npm ci, isolated lockfile)…');
  const res = spawnSync(
    'npm',
    ['ci', '--prefix', FIREBASEUI_DIR, '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: root, stdio: 'inherit' },
  );
  if (res.status !== 0) throw new Error('npm ci --prefix bench/firebaseui failed');
}
