#!/usr/bin/env node
// `npm run release`: everything a release does, as a DRY RUN. It builds the packages, checks them as a
// consumer meets them (scripts/check-packages.mjs), shows the pending changesets and the versions they
// lead to (`changeset status`), and runs `npm publish --dry-run` for every package: what each tarball
// would hold. Nothing leaves this machine.
//
// Publishing needs both an explicit flag and an npm token, so no run here or in CI publishes by accident:
//   NPM_TOKEN=… npm run release -- --publish   (with the token line in ~/.npmrc, see realPublish)
// It then runs `changeset publish`, which publishes each package whose version is not on npm yet and tags
// it. Run `npx changeset version` (and commit) first, so versions and CHANGELOGs are what you release.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const publish = process.argv.includes('--publish');

function run(command, args, { mayFail = false } = {}) {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 && !mayFail) {
    console.error(`release: "${command} ${args.join(' ')}" failed`);
    process.exit(result.status ?? 1);
  }
  return result.status === 0;
}

/** The names of the publishable packages (packages/* that are not private). */
function packageNames() {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .filter((pkg) => !pkg.private)
    .map((pkg) => pkg.name);
}

function checkAndShow(names) {
  run('npx', ['turbo', 'run', 'build', ...names.map((name) => `--filter=${name}`)]);
  run('node', ['scripts/check-packages.mjs', '--no-build']);
  // Informational: with no pending changeset it exits 1, and the versions in package.json are the release.
  if (!run('npx', ['changeset', 'status', '--verbose'], { mayFail: true })) {
    console.log('release: no pending changesets; the versions in package.json are what would be published');
  }
}

function dryRun(names) {
  for (const name of names) run('npm', ['publish', '--dry-run', '--workspace', name]);
  console.log('\nrelease: dry run done, nothing was published (publishing: npm run release -- --publish)');
}

// npm reads the token from the publisher's user config, e.g. ~/.npmrc with the line
// `//registry.npmjs.org/:_authToken=${NPM_TOKEN}` (never a file of this repository): `npm whoami` proves
// it works before anything is published.
function realPublish() {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, not by a turbo task
  if (!process.env.NPM_TOKEN) {
    console.error('release: --publish needs an npm token in NPM_TOKEN; nothing was published');
    process.exit(1);
  }
  run('npm', ['whoami']);
  run('npx', ['changeset', 'publish']);
}

const names = packageNames();
checkAndShow(names);
if (publish) realPublish();
else dryRun(names);
