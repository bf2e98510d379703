#!/usr/bin/env node
// Runs the Firebase Auth emulator (firebase-tools, Node only, offline) for tests and local development.
//
//   node scripts/emulator.mjs exec [--project <id>] -- <command...>   emulator around one command
//   node scripts/emulator.mjs start [--project <id>]                  long-running, Ctrl+C to stop
//
// `exec` runs `firebase emulators:exec --only auth`, which sets FIREBASE_AUTH_EMULATOR_HOST (and
// GCLOUD_PROJECT) for the command and exits with its exit code. When FIREBASE_AUTH_EMULATOR_HOST is
// already set and an emulator answers there (e.g. `npm test` started one), the command runs directly
// against it instead of starting a second one. The project is a `demo-` project: no login, no cloud.
// Builtins only.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = join(ROOT, 'firebase.json');
const DEFAULT_PROJECT = 'demo-doorway';

function usage(message) {
  if (message) console.error(`emulator: ${message}`);
  console.error(
    'Usage:\n  node scripts/emulator.mjs exec [--project <id>] -- <command...>\n  node scripts/emulator.mjs start [--project <id>]',
  );
  process.exit(2);
}

function firebaseBin() {
  const require = createRequire(join(ROOT, 'package.json'));
  let pkgPath;
  try {
    pkgPath = require.resolve('firebase-tools/package.json');
  } catch {
    console.error(
      'emulator: firebase-tools is not installed (it is a devDependency of @doorway/adapter-firebase).',
    );
    process.exit(1);
  }
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.firebase;
  return join(dirname(pkgPath), bin);
}

function authAddress() {
  const config = JSON.parse(readFileSync(CONFIG, 'utf8'));
  const auth = config.emulators?.auth ?? {};
  return `${auth.host ?? '127.0.0.1'}:${auth.port ?? 9099}`;
}

async function emulatorAnswers(hostPort) {
  try {
    const response = await fetch(`http://${hostPort}/`, { signal: AbortSignal.timeout(1500) });
    const body = await response.json();
    return typeof body === 'object' && body !== null && 'authEmulator' in body;
  } catch {
    return false;
  }
}

// The repo's bins (vitest, playwright…) on PATH even when not started by npm.
const PATH = [join(ROOT, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(':');
// Quiet and offline: no update-notifier check (usage reporting stays off unless a person opted in).
// firebase-tools still tries to fetch its message of the day once; offline that only logs a warning.
const cliEnv = { ...process.env, PATH, NO_UPDATE_NOTIFIER: '1' };

function run(command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 1 : 0));
  });
}

function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

const [mode, ...rest] = process.argv.slice(2);
let project = DEFAULT_PROJECT;
const separator = rest.indexOf('--');
const flags = separator === -1 ? rest : rest.slice(0, separator);
const command = separator === -1 ? [] : rest.slice(separator + 1);
for (let i = 0; i < flags.length; i++) {
  if (flags[i] === '--project' && flags[i + 1]) project = flags[++i];
  else usage(`unknown option ${flags[i]}`);
}

const base = ['--only', 'auth', '--project', project, '--config', CONFIG];

if (mode === 'exec') {
  if (command.length === 0) usage('exec needs a command after --');
  const existing = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (existing && (await emulatorAnswers(existing))) {
    console.error(`emulator: reusing the Auth emulator at ${existing}`);
    run(command[0], command.slice(1), {
      ...process.env,
      PATH,
      GCLOUD_PROJECT: process.env.GCLOUD_PROJECT ?? project,
    });
  } else {
    const address = authAddress();
    if (await emulatorAnswers(address)) {
      console.error(
        `emulator: an Auth emulator is already running at ${address}. Stop it, or reuse it with\n` +
          `  FIREBASE_AUTH_EMULATOR_HOST=${address} node scripts/emulator.mjs exec -- ${command.join(' ')}`,
      );
      process.exit(1);
    }
    run(
      process.execPath,
      [firebaseBin(), 'emulators:exec', ...base, command.map(shellQuote).join(' ')],
      cliEnv,
    );
  }
} else if (mode === 'start') {
  if (command.length > 0) usage('start takes no command');
  run(process.execPath, [firebaseBin(), 'emulators:start', ...base], cliEnv);
} else {
  usage(mode ? `unknown mode ${mode}` : 'missing mode');
}
