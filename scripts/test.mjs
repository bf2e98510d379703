#!/usr/bin/env node
// `npm test`: installs what is missing, then typecheck, lint, the structure rules, the TypeScript blocks of
// the READMEs and docs (doc-test), unit + contract tests on the fake, the
// packages' tests again on Node 22 and 24, the Firebase adapter against the Auth emulator, Playwright in
// Debian's Chromium, and the consumer checks (packed packages in fixture apps, on Node 20, 22 and 24). Runs
// every step, reports each, and ends with one "N passed, N failed" line over all tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureDependencies, ensureNginx } from './ensure.mjs';
import { EXTRA_NODE_MAJORS } from './node-versions.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.cache', 'test');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
ensureDependencies();
ensureChromium();
ensureNginx();

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: '0' };
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** [name, command, args (or a function of none that gives them as the step starts), results file] */
const steps = [
  ['typecheck', bin('turbo'), ['run', 'typecheck', '--concurrency=2', '--output-logs=errors-only']],
  ['lint', bin('biome'), ['check', '.']],
  // No function over 120 lines and no import circle in product source (docs/architecture.md, Layers).
  ['structure', process.execPath, [join(root, 'scripts', 'structure.mjs')]],
  // Every TypeScript block of the READMEs and docs/, compiled under `strict` against the packages' exports.
  [
    'doc-test',
    process.execPath,
    [join(root, 'scripts', 'doc-test.mjs'), '--json', join(out, 'doc-test.json')],
    'doc-test.json',
  ],
  [
    'unit',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile=${join(out, 'unit.json')}`],
    'unit.json',
  ],
];
if (
  existsSync(join(root, 'scripts', 'emulator.mjs')) &&
  existsSync(join(root, 'packages', 'adapter-firebase', 'test'))
) {
  steps.push([
    'firebase-emulator',
    process.execPath,
    [
      join(root, 'scripts', 'emulator.mjs'),
      'exec',
      '--',
      bin('vitest'),
      'run',
      '--root',
      join(root, 'packages', 'adapter-firebase'),
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${join(out, 'firebase.json')}`,
    ],
    'firebase.json',
  ]);
}
// Node 22 and 24 (the machine's Node is the lowest supported, 20.19+): the engine, the provider contract
// suites and the other packages' tests. ui-cards' jsdom tests and the apps' run on the machine's Node only: the
// whole unit suite three times would not fit CI's time, and the consumer checks below render the widget on each.
const vitestConfig = readFileSync(join(root, 'vitest.config.ts'), 'utf8');
const projectOf = (dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')).name;
const vitestProjects = readdirSync(join(root, 'packages'))
  .filter((dir) => dir !== 'ui-cards' && vitestConfig.includes(`'packages/${dir}'`))
  .map((dir) => `--project=${projectOf(dir)}`);
for (const major of EXTRA_NODE_MAJORS)
  steps.push([
    `node${major}`,
    process.execPath,
    [
      join(root, 'scripts', 'node-versions.mjs'),
      String(major),
      '--',
      'node',
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...vitestProjects,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${join(out, `node${major}.json`)}`,
    ],
    `node${major}.json`,
  ]);
if (existsSync(join(root, 'e2e', 'playwright.config.ts'))) {
  steps.push([
    'e2e',
    bin('playwright'),
    ['test', '-c', join(root, 'e2e', 'playwright.config.ts')],
    'e2e.json',
  ]);
  env.PLAYWRIGHT_JSON_OUTPUT_NAME = join(out, 'e2e.json');
}

// The packages as an app installs them (packed tarballs in fixture apps: Vite + React 18 and 19, server
// rendering and hydration, the newest peer majors), on this Node, 22 and 24.
// The consumer step leaves its clean copy, built by the packs, for the packages step.
const clone = join(out, 'clone');
if (existsSync(join(root, 'scripts', 'consumer.mjs')))
  steps.push([
    'consumer',
    process.execPath,
    [join(root, 'scripts', 'consumer.mjs'), '--json', join(out, 'consumer.json'), '--clone', clone],
    'consumer.json',
  ]);

// Every package as npm would publish it: publint --strict, arethetypeswrong (ESM-only), an import audit and
// the tarball's file list (no tests, no test types, no double outside its own package). On the consumer
// step's clean copy, built as a fresh clone builds it (`prepack`); without one, it builds each package here.
if (existsSync(join(root, 'scripts', 'check-packages.mjs')))
  steps.push([
    'packages',
    process.execPath,
    () => [
      join(root, 'scripts', 'check-packages.mjs'),
      ...(existsSync(join(clone, 'packages')) ? ['--root', clone, '--no-build'] : []),
    ],
  ]);

/** A step's JSON results (vitest or Playwright), or null if it wrote none. */
function results(file) {
  const path = file ? join(out, file) : null;
  return path && existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}

function counts(r) {
  if (r.stats)
    return {
      passed: r.stats.expected + (r.stats.flaky ?? 0),
      failed: r.stats.unexpected,
      skipped: r.stats.skipped,
    };
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + (r.numTodoTests ?? 0),
  };
}

/** The failed tests in a step's results, each with the first lines of its error, for the summary. */
function failures(r) {
  const brief = (message = '') =>
    message
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in reporter messages
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      // The first lines, and what the widget read when another card stayed (e2e/fixtures.ts, expectCard).
      .filter((line, i) => i < 4 || line.startsWith('The widget reads:'))
      .map((line) => `      ${line.slice(0, 200)}`)
      .join('\n');
  const found = [];
  if (r.suites) {
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          if (t.status === 'unexpected') {
            const last = t.results?.at(-1);
            found.push(
              `    [${t.projectName}] ${spec.file}:${spec.line} ${[...titles, spec.title].join(' › ')}\n${brief(last?.error?.message)}`,
            );
          }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of r.suites) walk(suite, []);
  } else {
    for (const f of r.testResults ?? [])
      for (const a of f.assertionResults ?? [])
        if (a.status === 'failed')
          found.push(
            `    ${f.name.replace(`${root}/`, '')} ${a.fullName ?? a.title}\n${brief(a.failureMessages?.[0])}`,
          );
  }
  return found;
}

const summary = [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const [name, cmd, args, file] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  const res = spawnSync(cmd, typeof args === 'function' ? args() : args, {
    stdio: 'inherit',
    cwd: root,
    env,
  });
  const ok = res.status === 0;
  const r = results(file);
  const c = r ? counts(r) : null;
  if (c) {
    passed += c.passed;
    failed += c.failed;
    skipped += c.skipped;
  }
  if (!ok && (!c || c.failed === 0)) failed += 1; // a step that failed without failing a test (typecheck, lint, crash)
  const failing = r && !ok ? failures(r) : [];
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${name} (${Math.round((Date.now() - started) / 1000)} s)${r?.summary ? ` ${r.summary}:` : ''}${c ? ` ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : ''}`,
    ...failing.slice(0, 10),
  );
}
console.log(`\n=== summary\n${summary.join('\n')}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || summary.some((s) => s.startsWith('FAIL')) ? 1 : 0);
