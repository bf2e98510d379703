#!/usr/bin/env node
// Checks every publishable package the way a consumer would meet it on npm: builds it, then runs
// publint --strict (package.json against the files that ship), arethetypeswrong on the packed tarball
// (types resolve for ESM consumers under node16/bundler resolution) and an import audit (every package the
// built JavaScript or types import is a declared dependency or peer, and every runtime dependency is
// imported). Exits 1 if any package fails.
//
//   node scripts/check-packages.mjs               all packages under packages/
//   node scripts/check-packages.mjs ui-cards      only these (directory names)
//   node scripts/check-packages.mjs --no-build    check the dist already there
//   node scripts/check-packages.mjs --root <dir> --no-build
//                                                 check the packages of a built clean copy of the repository
//                                                 (`scripts/consumer.mjs --clone <dir>` leaves one)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : repo;
const build = !args.includes('--no-build');
const only = args.filter((a, i) => !a.startsWith('--') && (rootAt < 0 || i !== rootAt + 1));

/** The publishable packages: every packages/* with a package.json that is not private. */
function packages() {
  return readdirSync(join(root, 'packages'))
    .filter((dir) => only.length === 0 || only.includes(dir))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .filter((dir) => !readJson(join(dir, 'package.json')).private);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Runs a command in a package, its output shown; true when it exits 0. */
function run(dir, command, commandArgs) {
  console.log(`\n$ ${[command, ...commandArgs].join(' ')}   (in ${dir.slice(root.length + 1)})`);
  const result = spawnSync(command, commandArgs, { cwd: dir, stdio: 'inherit' });
  return result.status === 0;
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// import x from 'p', export … from 'p', import 'p', import('p') (types too), require('p').
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** The package names the built files import (bare specifiers only, Node built-ins left out). */
function importedPackages(files) {
  const names = new Set();
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    for (const [, specifier] of text.matchAll(SPECIFIER)) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (!builtinModules.includes(name)) names.add(name);
    }
  }
  return names;
}

/** Import audit of a built package; prints each problem, true when there is none. */
function auditImports(dir) {
  const pkg = readJson(join(dir, 'package.json'));
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  const built = filesUnder(join(dir, 'dist')).filter((f) => /\.(js|d\.ts)$/.test(f));
  const imported = importedPackages(built);
  const problems = [
    ...[...imported].filter((name) => !declared.has(name)).map((n) => `dist imports ${n}, not a dependency`),
    ...Object.keys(pkg.dependencies ?? {})
      .filter((name) => !imported.has(name))
      .map((name) => `dependency ${name} is never imported by dist (a devDependency?)`),
  ];
  console.log(`\nimport audit of ${pkg.name}: ${problems.length === 0 ? 'ok' : 'FAILED'}`);
  for (const problem of problems) console.log(`  ${problem}`);
  return problems.length === 0;
}

/** attw's arguments: entry points that are not modules (a stylesheet) are left out, types cannot describe them. */
function attwArgs(dir, tarball) {
  const exports = readJson(join(dir, 'package.json')).exports ?? {};
  const assets = Object.entries(exports)
    .filter(([, target]) => typeof target === 'string' && !/\.(js|json)$/.test(target))
    .map(([entry]) => entry);
  return [tarball, '--profile', 'esm-only', ...(assets.length ? ['--exclude-entrypoints', ...assets] : [])];
}

/**
 * attw on the tarball `npm pack` makes of the package as built (`--ignore-scripts`: the build step above,
 * or the caller's, made `dist`; the package's `prepack` would build it again).
 */
function attw(dir) {
  const into = mkdtempSync(join(tmpdir(), 'doorway-attw-'));
  try {
    const out = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', into], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (out.status !== 0) {
      console.log(`${dir}: npm pack failed\n${out.stderr}`);
      return false;
    }
    return run(dir, bin('attw'), attwArgs(dir, join(into, JSON.parse(out.stdout)[0].filename)));
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}

// What no tarball may ship: tests, test types, test folders, and the test doubles of other packages.
const NOT_SHIPPED = /(\.test\.|\.test-d\.|\.spec\.|(^|\/)test\/|(^|\/)__tests__\/|gotrue-double)/;

/** The files `npm pack` would put in the tarball; prints each that should not ship, true when none. */
function auditTarball(dir) {
  const name = readJson(join(dir, 'package.json')).name;
  const out = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (out.status !== 0) {
    console.log(`${name}: npm pack --dry-run failed\n${out.stderr}`);
    return false;
  }
  const files = JSON.parse(out.stdout)[0].files.map((f) => f.path);
  // The double's own package ships the double; every other package ships none of it.
  const own = name === '@doorway/gotrue-double' ? /gotrue-double/g : null;
  const wrong = files.filter((f) => NOT_SHIPPED.test(own ? f.replace(own, '') : f));
  for (const file of wrong) console.log(`${name}: the tarball would ship ${file}`);
  return wrong.length === 0;
}

/** Every check of one package; the names of those that failed. */
function checkPackage(dir) {
  const name = readJson(join(dir, 'package.json')).name;
  const checks = [
    ['build', () => !build || run(root, 'npm', ['run', 'build', '-w', name])],
    ['publint', () => run(dir, bin('publint'), ['--strict'])],
    ['attw', () => attw(dir)],
    ['imports', () => auditImports(dir)],
    ['tarball', () => auditTarball(dir)],
  ];
  const failed = [];
  for (const [check, pass] of checks) {
    if (!pass()) failed.push(check);
    if (check === 'build' && failed.length > 0) break;
  }
  return { name, failed };
}

const results = packages().map(checkPackage);
console.log('\npackage checks:');
for (const { name, failed } of results) {
  console.log(
    `  ${failed.length === 0 ? 'ok    ' : 'FAILED'} ${name}${failed.length ? ` (${failed.join(', ')})` : ''}`,
  );
}
process.exit(results.every((r) => r.failed.length === 0) ? 0 : 1);
