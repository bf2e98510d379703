#!/usr/bin/env node
// The npm registry reachable here serves only the Linux builds of packages that ship one optional package
// per platform (biome, rollup, esbuild, …). A lockfile written here therefore lacks the other platforms'
// entries, and `npm ci` refuses it ("Missing: … from lock file"). This adds those entries, marked optional
// with the os/cpu their names state, so `npm ci` accepts the lock and never tries to fetch them.
// Run after any `npm install` that changes package-lock.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'cygwin',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'loong64',
  'mips64el',
  'ppc64',
  'riscv64',
  's390x',
  'x32',
  'wasm32',
];

const OS_ALIAS = { windows: 'win32', win: 'win32', macos: 'darwin', mac: 'darwin' };
const CPU_ALIAS = { 64: 'x64', amd64: 'x64', aarch64: 'arm64', x86: 'ia32', 32: 'ia32' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.map((p) => OS_ALIAS[p] ?? p).find((p) => OS.includes(p));
  const arm = parts.some((p) => ['eabi', 'gnueabihf', 'musleabihf', 'armv7'].includes(p)) ? 'arm' : undefined;
  const cpu = parts.map((p) => CPU_ALIAS[p] ?? p).find((p) => CPU.includes(p)) ?? arm;
  return os && cpu ? { os, cpu } : null;
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    // Where node would find `dep` from `path`: nested first, then each ancestor node_modules.
    const base = path === '' ? '' : `${path}/`;
    const candidates = [];
    let p = base;
    for (;;) {
      candidates.push(`${p}node_modules/${dep}`);
      const i = p.lastIndexOf('node_modules/');
      if (i < 0) break;
      p = p.slice(0, i);
    }
    if (!candidates.includes(`node_modules/${dep}`)) candidates.push(`node_modules/${dep}`);
    if (candidates.some((c) => lock.packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) {
      console.warn(`complete-lock: cannot place optional ${dep}@${spec} (needed by ${path || 'the root'})`);
      continue;
    }
    const target = `node_modules/${dep}`;
    lock.packages[target] = {
      version: spec,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [platform.os],
      cpu: [platform.cpu],
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: added ${added} platform entries`);
