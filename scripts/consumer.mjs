#!/usr/bin/env node
// `npm run consumer`: the packages as an app gets them from the registry. Packs every package with
// `npm pack` from a clean copy of the repository's packages (the files git has, no dist/: what a fresh
// clone holds), so each package's `prepack` builds it, and checks that every file its `exports` names is in
// the tarball. Then for each fixture app in consumer/ (copied to a temp dir) installs the TARBALLS — not
// workspace links — plus the fixture's own dependencies from the registry, then runs its scripts
// (`typecheck` once; `build`, `test` and, for browser fixtures, a drive in Chromium, on every Node version
// checked). One line per fixture and Node: "consumer <fixture> (node vX): ok" or the failure.
//
//   node scripts/consumer.mjs [--node 20,22,24] [--only <fixture>] [--no-build] [--keep] [--json <file>]
//                             [--clone <dir>]
//
// `--no-build` packs the packages as they are in the repository (their dist/ as built, no `prepack`).
// `--clone <dir>` makes the clean copy there and leaves it, built, for `scripts/check-packages.mjs --root`.
//
// A fixture is a directory of consumer/ with a package.json; its "consumer" field says
//   browser: true          served by consumer/app/server.mjs (dist/, server-rendered when the build made
//                          dist-server/entry-server.js), driven to the email-entry card with no console error
//   serverRendered: true   the served HTML must already hold the chooser (the browser then hydrates it)
//   allPackages: true      every package is installed, not only those it names
//   minNode: 22            skipped on older Node (its dependencies need it); installed with that Node
//   emulator: true         its `test` script runs inside the Firebase Auth emulator (scripts/emulator.mjs exec,
//                          which sets FIREBASE_AUTH_EMULATOR_HOST and GCLOUD_PROJECT)
// Browser fixtures also get consumer/app/ (index.html, src/, tsconfig.json, server.mjs) under their own files.
import { execFile, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CHROMIUM, CHROMIUM_ARGS } from './ensure.mjs';
import { EXTRA_NODE_MAJORS, envForNode, nodeBinary, nodeVersion } from './node-versions.mjs';

const execFileAsync = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = join(root, 'consumer');
const machineMajor = Number(process.versions.node.split('.')[0]);
const STEP_TIMEOUT_MS = 5 * 60_000;
// Packing builds every package (prepack) on a clean copy.
const PACK_TIMEOUT_MS = 15 * 60_000;

function parseArgs(argv) {
  const value = (flag) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const nodes = value('--node')?.split(',').map(Number) ?? [machineMajor, ...EXTRA_NODE_MAJORS];
  return {
    nodes: [...new Set(nodes)],
    only: value('--only'),
    build: !argv.includes('--no-build'),
    keep: argv.includes('--keep'),
    clone: value('--clone'),
    json: value('--json'),
    verbose: argv.includes('--verbose'),
  };
}

/** Runs a command to completion; its output is kept (and shown only on failure, or with --verbose). */
function run(cmd, args, { cwd = root, env = process.env, verbose = false } = {}) {
  const res = spawnSync(cmd, args, {
    cwd,
    env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1', TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: STEP_TIMEOUT_MS,
    stdio: verbose ? 'inherit' : 'pipe',
  });
  const output = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  if (res.status !== 0) {
    const why = res.error ? res.error.message : `exit ${res.status ?? res.signal}`;
    const tail = output.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${[cmd, ...args].join(' ')}: ${why}\n${tail}`);
  }
  return output;
}

/** `run`, without blocking: the fixtures' installs and checks go two at a time (one per core). */
function runAsync(cmd, args, { cwd = root, env = process.env, verbose = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1', TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
      stdio: verbose ? 'inherit' : 'pipe',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${[cmd, ...args].join(' ')}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(output);
      const tail = output.trim().split('\n').slice(-40).join('\n');
      reject(new Error(`${[cmd, ...args].join(' ')}: exit ${code ?? signal}\n${tail}`));
    });
  });
}

/** Runs `work` on each item, `width` at a time; resolves when all have finished. */
async function pool(items, width, work) {
  const queue = [...items];
  const lane = async () => {
    while (queue.length > 0) await work(queue.shift());
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, lane));
}

/** Runs `fn` after every earlier call has finished (the Auth emulator's port allows one at a time). */
let emulatorTurn = Promise.resolve();
function oneAtATime(fn) {
  const turn = emulatorTurn.then(fn);
  emulatorTurn = turn.catch(() => {});
  return turn;
}

/** The workspace packages: directory, name, and the @doorway packages each depends on. */
function workspacePackages() {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const doorway = Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@doorway/'));
      return { dir, name: pkg.name, doorway };
    });
}

/**
 * A copy of the workspace as a fresh clone has it: the root package.json and tsconfig.base.json and, under
 * packages/, the files git tracks or would track (no dist/, nothing ignored). `node_modules` links to the
 * repository's installed one (a fresh clone runs `npm ci` first). Returns the copy's root.
 */
function cleanCopy(dest) {
  const listed = run('git', [
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
    '--',
    'package.json',
    'tsconfig.base.json',
    'packages',
  ]);
  for (const file of new Set(listed.split('\0').filter(Boolean))) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(root, file), join(dest, file));
  }
  symlinkSync(join(root, 'node_modules'), join(dest, 'node_modules'), 'dir');
  return dest;
}

/** Every file a package's `exports` points at (the source condition aside), as paths in its tarball. */
function exportedFiles(exports) {
  const targets = [];
  const visit = (value, condition) => {
    if (typeof value === 'string') {
      if (condition !== '@doorway/source') targets.push(value.replace(/^\.\//, ''));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) visit(inner, key.startsWith('.') ? condition : key);
    }
  };
  visit(exports, undefined);
  return targets.filter((t) => !t.includes('*'));
}

/**
 * Packs every package into `dest`; a map from package name to its tarball. `fresh`: from a clean copy (made
 * at `clone`), where each package's `prepack` builds it. Fails when a tarball lacks a file its `exports` names (the
 * tarball a fresh clone made without a build would lack dist/).
 */
async function pack(packages, dest, fresh, verbose, clone = join(dest, '..', 'clone')) {
  mkdirSync(dest, { recursive: true });
  if (fresh) rmSync(clone, { recursive: true, force: true });
  const from = fresh ? cleanCopy(clone) : root;
  // Two `npm pack` runs side by side (one per core): each prepack is a build.
  const halves = [0, 1].map((half) => packages.filter((_, i) => i % 2 === half));
  const outs = await Promise.all(
    halves.map(async (half) => {
      const args = [
        'pack',
        ...half.flatMap((p) => ['-w', join(from, 'packages', basename(p.dir))]),
        '--pack-destination',
        dest,
        '--json',
        '--loglevel=error',
        ...(fresh ? [] : ['--ignore-scripts']),
      ];
      try {
        // Only stdout is the JSON; the prepack builds write to stderr too.
        const { stdout } = await execFileAsync('npm', args, {
          cwd: from,
          maxBuffer: 64 * 1024 * 1024,
          timeout: PACK_TIMEOUT_MS,
        });
        return stdout;
      } catch (error) {
        const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
        throw new Error(`npm ${args.join(' ')}: ${error.message.split('\n')[0]}\n${output}`);
      }
    }),
  );
  if (verbose) console.log(outs.join('\n'));
  const packed = outs.flatMap((out) => JSON.parse(out.slice(out.indexOf('['))));
  const dirOf = new Map(packages.map((p) => [p.name, basename(p.dir)]));
  for (const p of packed) {
    const { exports } = JSON.parse(
      readFileSync(join(from, 'packages', dirOf.get(p.name), 'package.json'), 'utf8'),
    );
    const files = new Set(p.files.map((f) => f.path));
    const missing = exportedFiles(exports).filter((f) => !files.has(f));
    if (missing.length > 0)
      throw new Error(`${p.filename} lacks what its exports name: ${missing.join(', ')}`);
  }
  return new Map(packed.map((p) => [p.name, join(dest, p.filename)]));
}

/** The @doorway packages `names` need, themselves included (they are not on the registry). */
function closure(names, packages) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !byName.has(name)) return;
    seen.add(name);
    for (const dep of byName.get(name).doorway) visit(dep);
  };
  for (const name of names) visit(name);
  return seen;
}

/** The fixtures to check: each directory of consumer/ with a package.json (consumer/app is shared). */
function fixtures(only) {
  return readdirSync(fixturesDir)
    .filter((name) => name !== 'app' && existsSync(join(fixturesDir, name, 'package.json')))
    .filter((name) => !only || name === only)
    .map((name) => {
      const pkg = JSON.parse(readFileSync(join(fixturesDir, name, 'package.json'), 'utf8'));
      return { name, pkg, options: pkg.consumer ?? {} };
    });
}

/**
 * Copies a test of the repo (packages/<dir>/…) into `<fixture>/<dir>/`, importing its package by name
 * (`./index.ts` or `../src/index.ts` becomes e.g. `@doorway/adapter-fake`): the test as an app runs it.
 */
function copyFromRepo(file, dir) {
  const packageDir = join(root, ...file.split('/').slice(0, 2));
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const text = readFileSync(join(root, file), 'utf8').replace(/'(\.|\.\.\/src)\/index\.ts'/g, `'${name}'`);
  mkdirSync(join(dir, basename(packageDir)), { recursive: true });
  writeFileSync(join(dir, basename(packageDir), basename(file)), text);
}

/**
 * The version `latest` names now. npm would otherwise settle a `latest` dependency on an older version that
 * satisfies a peer range, which hides exactly what this checks.
 */
async function latest(name) {
  const { stdout } = await execFileAsync('npm', ['view', `${name}@latest`, 'version', '--loglevel=error']);
  return stdout.trim();
}

/** Pins each `latest` dependency of `pkg` to the version it names (looked up in parallel). */
async function pinLatest(pkg) {
  const lookups = [pkg.dependencies, pkg.devDependencies].flatMap((deps) =>
    Object.entries(deps ?? {})
      .filter(([, spec]) => spec === 'latest')
      .map(async ([name]) => {
        deps[name] = await latest(name);
      }),
  );
  await Promise.all(lookups);
}

/** Copies a fixture into `work` with its @doorway dependencies pointing at the tarballs. */
async function prepare(fixture, work, tarballs, packages) {
  const dir = join(work, fixture.name);
  if (fixture.options.browser) cpSync(join(fixturesDir, 'app'), dir, { recursive: true });
  cpSync(join(fixturesDir, fixture.name), dir, { recursive: true });
  for (const file of fixture.options.fromRepo ?? []) copyFromRepo(file, dir);
  const pkg = structuredClone(fixture.pkg);
  await pinLatest(pkg);
  const named = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((d) =>
    d.startsWith('@doorway/'),
  );
  const wanted = closure(fixture.options.allPackages ? [...tarballs.keys()] : named, packages);
  for (const name of wanted) {
    if (pkg.devDependencies?.[name]) delete pkg.devDependencies[name];
    pkg.dependencies = { ...pkg.dependencies, [name]: `file:${tarballs.get(name)}` };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

/**
 * `npm install` as an app would: peer conflicts are errors, never ignored. The user's npm cache answers
 * without revalidating what it holds (`latest` dependencies are pinned to exact versions before this).
 */
function install(dir, node) {
  const flags = [
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--legacy-peer-deps=false',
    '--loglevel=error',
  ];
  return runAsync('npm', ['install', ...flags], { cwd: dir, env: envForNode(node) });
}

/** Starts the fixture's server under `node`; resolves with its URL and a stop function. */
function serve(dir, node) {
  const child = spawn(node, ['server.mjs'], { cwd: dir, env: { ...process.env, PORT: '0' } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, stop: () => child.kill() });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

/** Loads the app in Chromium and goes from the chooser to the email-entry card; console errors fail. */
async function drive(browser, url, serverRendered) {
  if (serverRendered) {
    const html = await (await fetch(url)).text();
    if (!html.includes('Sign in with email'))
      throw new Error('the served HTML has no server-rendered chooser');
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in with email' }).click({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Sign in with email' }).waitFor({ timeout: 15_000 });
    await page.getByLabel('Email', { exact: true }).waitFor({ timeout: 15_000 });
    if (errors.length > 0) throw new Error(`console errors:\n${errors.join('\n')}`);
  } finally {
    await context.close();
  }
}

/** One fixture on one Node: its build and test scripts, then the browser drive. */
async function check(fixture, dir, node, browser, verbose) {
  const env = envForNode(node);
  if (fixture.pkg.scripts?.build) await runAsync('npm', ['run', 'build'], { cwd: dir, env, verbose });
  if (fixture.pkg.scripts?.test) {
    // Inside the Auth emulator for fixtures that sign in on it (a second emulator would clash on its port).
    const emulator = fixture.options.emulator ? [join(root, 'scripts', 'emulator.mjs'), 'exec', '--'] : [];
    const [cmd, ...args] =
      emulator.length > 0 ? [process.execPath, ...emulator, 'npm', 'run', 'test'] : ['npm', 'run', 'test'];
    const test = () => runAsync(cmd, args, { cwd: dir, env, verbose });
    await (emulator.length > 0 ? oneAtATime(test) : test());
  }
  if (!fixture.options.browser) return;
  const server = await serve(dir, node);
  try {
    await drive(browser, server.url, Boolean(fixture.options.serverRendered));
  } finally {
    server.stop();
  }
}

/** The results in the shape of vitest's JSON reporter (what scripts/test.mjs counts). */
function report(results) {
  const count = (status) => results.filter((r) => r.status === status).length;
  const byFixture = new Map();
  for (const r of results) byFixture.set(r.fixture, [...(byFixture.get(r.fixture) ?? []), r]);
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('pending'),
    numTodoTests: 0,
    testResults: [...byFixture].map(([fixture, rs]) => ({
      name: join(fixturesDir, fixture),
      assertionResults: rs.map((r) => ({
        title: r.title,
        fullName: r.title,
        status: r.status,
        failureMessages: r.error ? [r.error] : [],
      })),
    })),
  };
}

/** Records and prints one check's outcome (and how long it took). */
function record(results, fixture, title, status, error, started = Date.now()) {
  results.push({ fixture, title, status, error });
  const says = { passed: 'ok', pending: 'skipped', failed: 'FAILED' }[status];
  const took = status === 'pending' ? '' : ` (${Math.round((Date.now() - started) / 1000)} s)`;
  console.log(`${title}: ${says}${took}${error ? `\n${error}` : ''}`);
}

/** Runs `fn`, recording "passed" or the error it threw. */
async function attempt(results, fixture, title, fn) {
  const started = Date.now();
  try {
    await fn();
    record(results, fixture, title, 'passed', undefined, started);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    record(results, fixture, title, 'failed', message, started);
  }
}

/** Installs each fixture (with the lowest checked Node it supports) and typechecks it once. */
async function setUp(list, work, tarballs, packages, opts, results) {
  const ready = new Map();
  await pool(list, 2, async (fixture) => {
    const major = opts.nodes.find((n) => n >= (fixture.options.minNode ?? 0));
    if (major === undefined) return;
    const node = nodeBinary(major);
    await attempt(results, fixture.name, `consumer ${fixture.name}: install + typecheck`, async () => {
      const dir = await prepare(fixture, work, tarballs, packages);
      await install(dir, node);
      if (fixture.pkg.scripts?.typecheck)
        await runAsync('npm', ['run', 'typecheck'], { cwd: dir, env: envForNode(node) });
      ready.set(fixture.name, dir);
    });
  });
  return ready;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'doorway-consumer-'));
  const results = [];
  const packages = workspacePackages();
  let tarballs = new Map();
  await attempt(
    results,
    'packages',
    'consumer packages: pack from a clean copy (prepack builds)',
    async () => {
      tarballs = await pack(packages, join(work, 'tarballs'), opts.build, opts.verbose, opts.clone);
    },
  );
  const list = tarballs.size > 0 ? fixtures(opts.only) : [];
  const ready = await setUp(list, work, tarballs, packages, opts, results);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const nodes = opts.nodes.map((major) => ({ major, node: nodeBinary(major) }));
    for (const n of nodes) n.version = nodeVersion(n.node);
    // Two fixtures at a time, each on every Node in turn (a fixture's builds share its directory).
    await pool(list, 2, async (fixture) => {
      for (const { major, node, version } of nodes) {
        const title = `consumer ${fixture.name} (node ${version})`;
        const dir = ready.get(fixture.name);
        if (major < (fixture.options.minNode ?? 0)) record(results, fixture.name, title, 'pending');
        else if (dir)
          await attempt(results, fixture.name, title, () => check(fixture, dir, node, browser, opts.verbose));
      }
    });
  } finally {
    await browser.close();
  }
  const out = report(results);
  if (opts.json) writeFileSync(opts.json, JSON.stringify(out, null, 2));
  if (!opts.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
  console.log(
    `consumer: ${out.numPassedTests} passed, ${out.numFailedTests} failed, ${out.numPendingTests} skipped (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  process.exit(out.numFailedTests > 0 ? 1 : 0);
}

await main();
