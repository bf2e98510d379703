#!/usr/bin/env node
// `npm run bench`: bundle sizes of the Doorway widget (auth-core + ui-cards) next to FirebaseUI 6.1.0,
// both bundled the same way with esbuild (ESM, minified, code splitting; React, react-dom and provider
// SDKs external), gzip level 9. Checks the budgets of DESIGN.md §7 and prints PASS/FAIL for each. Then the
// Remix host's server figures (bench/server.mjs) and the first usable card of `/login` beside FirebaseUI's
// uiShown in Chromium (bench/first-card.mjs), and the whole sign-in journey beside FirebaseUI's
// (bench/journey.mjs); `--size-only` skips those three; `--journey-only` runs the journey alone (`--runs N`:
// journeys of each per condition); `--bytes` prints sizes in bytes.
//
// FirebaseUI's peer is firebase ^9/^10, which conflicts with the repo's firebase 12, so it lives in its own
// folder (bench/firebaseui) with its own lockfile and is installed on demand (bench/firebaseui-install.mjs).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ensureFirebaseui, FIREBASEUI_DIR as firebaseuiDir } from './firebaseui-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'bench', '.out');

const BUDGETS = { first: 12 * 1024, all: 36 * 1024, css: 4 * 1024 };
const EXTERNAL = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'firebase',
  'firebase/*',
  '@firebase/*',
  '@supabase/*',
];

const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
// `--bytes`: exact byte counts instead of kB with one decimal (to see how much room a budget has left).
const kb = process.argv.includes('--bytes') ? (n) => `${n} B` : (n) => `${(n / 1024).toFixed(1)} kB`;

/** Bundles `entry` with splitting; returns min+gzip sizes of the initial load (entry + static imports) and of all chunks. */
async function bundleJs(name, options) {
  const outdir = join(out, name);
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    ...options,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    target: 'es2022',
    external: EXTERNAL,
    outdir,
    metafile: true,
    write: true,
    logLevel: 'error',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const outputs = result.metafile.outputs;
  const chunks = Object.entries(outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, meta]) => ({ file, meta, gzip: gz(readFileSync(join(root, file))) }));
  const entry = chunks.find((c) => c.meta.entryPoint);
  if (!entry) throw new Error(`${name}: no entry chunk`);
  // The first chunk is what the page loads before the first card renders: the entry and its static imports.
  const initial = new Set();
  const visit = (file) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const imp of outputs[file]?.imports ?? [])
      if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
  };
  visit(entry.file);
  const sum = (list) => list.reduce((n, c) => n + c.gzip, 0);
  return {
    first: sum(chunks.filter((c) => initial.has(c.file))),
    all: sum(chunks),
    chunks: chunks.map((c) => ({
      file: relative(out, join(root, c.file)),
      gzip: c.gzip,
      initial: initial.has(c.file),
    })),
  };
}

async function cssSize(file, name) {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    write: false,
    logLevel: 'error',
    loader: { '.css': 'css' },
    outfile: join(out, `${name}.css`),
  });
  return gz(result.outputFiles[0].contents);
}

/** Bundles both widgets, prints their sizes and the budgets; returns whether every budget is met. */
async function benchSizes() {
  mkdirSync(out, { recursive: true });

  const doorway = await bundleJs('doorway', {
    entryPoints: { doorway: join(root, 'packages', 'ui-cards', 'src', 'index.ts') },
    conditions: ['@doorway/source'],
    absWorkingDir: root,
  });
  // The account page's second-factor cards (`@doorway/ui-cards/account`): an entry of its own that the widget
  // never loads, measured apart (with what it shares with the widget counted again).
  const account = await bundleJs('doorway-account', {
    entryPoints: { account: join(root, 'packages', 'ui-cards', 'src', 'account', 'index.ts') },
    conditions: ['@doorway/source'],
    absWorkingDir: root,
  });
  const doorwayCss = await cssSize(join(root, 'packages', 'ui-cards', 'src', 'styles.css'), 'doorway');

  let firebaseui = null;
  try {
    ensureFirebaseui();
    firebaseui = await bundleJs('firebaseui', {
      stdin: {
        contents: "export * from 'firebaseui';",
        resolveDir: firebaseuiDir,
        loader: 'js',
        sourcefile: 'firebaseui-entry.js',
      },
      absWorkingDir: root,
    });
    firebaseui.css = await cssSize(
      join(firebaseuiDir, 'node_modules', 'firebaseui', 'dist', 'firebaseui.css'),
      'firebaseui',
    );
  } catch (error) {
    console.log(`FirebaseUI comparison skipped: ${error instanceof Error ? error.message : error}`);
  }

  const pad = (s, n) => String(s).padEnd(n);
  const padl = (s, n) => String(s).padStart(n);
  console.log('\nBundle sizes, min+gzip (React, react-dom and provider SDKs external)\n');
  console.log(`${pad('', 26)}${padl('Doorway', 10)}${padl('FirebaseUI 6.1.0', 18)}${padl('ratio', 8)}`);
  const row = (label, mine, theirs) =>
    console.log(
      `${pad(label, 26)}${padl(kb(mine), 10)}${padl(theirs == null ? '–' : kb(theirs), 18)}${padl(theirs ? (mine / theirs).toFixed(2) : '–', 8)}`,
    );
  row('JS, first chunk', doorway.first, firebaseui?.first);
  row('JS, all chunks', doorway.all, firebaseui?.all);
  row('CSS', doorwayCss, firebaseui?.css);

  console.log(
    `\nAccount entry (@doorway/ui-cards/account, not loaded by the widget): ${kb(account.first)} first, ${kb(account.all)} with its lazy QR chunk`,
  );

  console.log('\nDoorway chunks:');
  for (const c of doorway.chunks)
    console.log(`  ${pad(c.file, 44)}${padl(kb(c.gzip), 10)}${c.initial ? '  (first chunk)' : ''}`);

  console.log('\nBudgets (DESIGN.md §7):');
  const verdicts = [
    ['first chunk', doorway.first, BUDGETS.first],
    ['all chunks', doorway.all, BUDGETS.all],
    ['CSS', doorwayCss, BUDGETS.css],
  ].map(([label, size, budget]) => {
    const pass = size <= budget;
    console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${pad(label, 12)} ${padl(kb(size), 9)} ≤ ${kb(budget)}`);
    return pass;
  });
  console.log(
    verdicts.every(Boolean) ? '\nAll budgets met.' : '\nSome budgets are not met (see FAIL above).',
  );
  return verdicts.every(Boolean);
}

const sizeOnly = process.argv.includes('--size-only');
const journeyOnly = process.argv.includes('--journey-only');
// `npm run bench -- --strict` makes a missed budget fail the command (for CI gates).
const strict = process.argv.includes('--strict');
if (!journeyOnly && !(await benchSizes()) && strict) process.exitCode = 1;
// Server figures (bench/server.mjs) and the first usable card (bench/first-card.mjs): they build the Remix
// host, start the Auth emulator and (the second) Chromium, so `npm run bench -- --size-only` leaves them out.
if (!sizeOnly && !journeyOnly) {
  const { benchServer, printServer } = await import('./server.mjs');
  printServer(await benchServer());
  const { benchFirstCard, printFirstCard } = await import('./first-card.mjs');
  const firstCardMet = printFirstCard(await benchFirstCard());
  if (strict && !firstCardMet) process.exitCode = 1;
}
// The sign-in journey (bench/journey.mjs): its own servers and Chromium again, so `--size-only` leaves it out.
if (!sizeOnly) {
  const { benchJourney, printJourney } = await import('./journey.mjs');
  const finished = printJourney(await benchJourney());
  if (strict && !finished) process.exitCode = 1;
}
