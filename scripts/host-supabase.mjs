#!/usr/bin/env node
// `npm run start:supabase`: the Remix host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (an
// in-memory stand-in for Supabase Auth's REST API from @doorway/gotrue-double, NOT Supabase: no
// Supabase Auth server can run here). The double is served over HTTP on 127.0.0.1 (its state lives in this
// process and is gone on exit); the host is built for production and served with apps/remix-host/server.mjs.
//   PORT (default 3000): the host.  DOORWAY_GOTRUE_DOUBLE_PORT (default 54321): the double.
//   --no-build: serve the existing build.
// For a real Supabase project, do not use this: set DOORWAY_PROVIDER=supabase, DOORWAY_SUPABASE_URL and
// DOORWAY_SUPABASE_ANON_KEY and serve the host (apps/remix-host/README.md).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadGoTrueDouble } from './gotrue-double-bundle.mjs';
import { HOST_APP, ROOT, stopOnSignal, waitFor } from './host.mjs';

const CACHE = join(ROOT, '.cache', 'gotrue-double');
/** This configuration's own production build (the default build in apps/remix-host/build is not touched). */
export const SUPABASE_BUILD = join(ROOT, '.cache', 'remix-host-supabase');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

/** The production build of apps/remix-host into {@link SUPABASE_BUILD}. */
export function buildSupabaseHost() {
  const result = spawnSync(bin('remix'), ['vite:build', '--emptyOutDir'], {
    cwd: HOST_APP,
    stdio: 'inherit',
    env: { ...process.env, DOORWAY_HOST_BUILD_DIR: SUPABASE_BUILD },
  });
  if (result.status !== 0) throw new Error(`building apps/remix-host failed (exit ${result.status})`);
}

/**
 * The host's server (apps/remix-host/server.mjs) on 127.0.0.1:`port` with the Supabase build and `env`; resolves the child once `/bench/bare`
 * answers.
 */
export async function serveSupabaseHost({ port, env }) {
  const child = spawn(process.execPath, ['server.mjs', join(SUPABASE_BUILD, 'server', 'index.js')], {
    cwd: HOST_APP,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  await waitFor(`http://127.0.0.1:${port}/bench/bare`, { child, name: `the host on port ${port}` });
  return child;
}

/**
 * The host's origins: `hostOrigin`, and the same port on `localhost` when it is on 127.0.0.1. WebAuthn refuses
 * IP addresses as RP id, so passkeys work on the `localhost` one only (the relying party of the double).
 */
export function hostOrigins(hostOrigin) {
  const url = new URL(hostOrigin);
  if (url.hostname !== '127.0.0.1') return [url.origin];
  return [url.origin, `${url.protocol}//localhost:${url.port}`];
}

/**
 * Starts the GoTrue TEST DOUBLE on http://127.0.0.1:`port`, configured for a host at `hostOrigin`: "Confirm
 * email" off (sign-up signs in), Doorway's email templates, the host's URLs allowed as redirect targets,
 * anonymous sign-ins on, passkeys for the RP id `localhost` (or the host's name when it is not on an IP
 * address) from the host's origins ({@link hostOrigins}; the double's CORS answers any origin, as GoTrue's).
 * Resolves `{ url, anonKey, serviceRoleKey, double, close }`.
 */
export async function startGoTrueDouble({ port, hostOrigin }) {
  const { serveGoTrueDouble, SUPABASE_EMAIL_TEMPLATES } = await loadGoTrueDouble(join(CACHE, 'double.mjs'));
  const origins = hostOrigins(hostOrigin);
  const hostname = new URL(hostOrigin).hostname;
  const served = await serveGoTrueDouble({
    port,
    siteUrl: hostOrigin,
    uriAllowList: origins.map((origin) => `${origin}/**`),
    mailerAutoconfirm: true,
    anonymousUsers: true,
    templates: SUPABASE_EMAIL_TEMPLATES,
    passkey: {
      rpId: hostname === '127.0.0.1' ? 'localhost' : hostname,
      rpDisplayName: 'Doorway',
      rpOrigins: origins,
    },
  });
  return {
    url: served.url,
    anonKey: served.double.anonKey,
    serviceRoleKey: served.double.serviceRoleKey,
    double: served.double,
    close: served.close,
  };
}

async function main() {
  const port = Number(process.env.PORT ?? '3000');
  const doublePort = Number(process.env.DOORWAY_GOTRUE_DOUBLE_PORT ?? '54321');
  const skipBuild = process.argv.includes('--no-build');
  const children = [];
  const stopping = stopOnSignal(children);
  const hostOrigin = `http://127.0.0.1:${port}`;
  const double = await startGoTrueDouble({ port: doublePort, hostOrigin });
  console.log(`GoTrue TEST DOUBLE (not Supabase) at ${double.url}/auth/v1`);
  if (!skipBuild) buildSupabaseHost();
  const server = await serveSupabaseHost({
    port,
    env: {
      DOORWAY_PROVIDER: 'supabase',
      DOORWAY_SUPABASE_URL: double.url,
      // The double's own anon key: passed through the environment, never printed.
      DOORWAY_SUPABASE_ANON_KEY: double.anonKey,
      // The account page deletes accounts with it (GoTrue's admin API); it stays on the server.
      DOORWAY_SUPABASE_SERVICE_ROLE_KEY: double.serviceRoleKey,
      // The double has GoTrue's passkeys on (not a default of Supabase projects): offer them.
      DOORWAY_SIGN_IN_OPTIONS: process.env.DOORWAY_SIGN_IN_OPTIONS ?? 'email,passkey',
    },
  });
  children.push(server);
  console.log(
    // Shown on localhost, where passkeys work (WebAuthn refuses an IP address); the double trusts both.
    `\nDoorway on the GoTrue test double: ${hostOrigins(hostOrigin).at(-1)}/  (sign in at /login)` +
      '\nAccounts live in this process only. Ctrl+C to stop.\n',
  );
  server.on('exit', (code) => {
    if (stopping()) return;
    console.error(`the host's server exited unexpectedly (code ${code}).`);
    process.exit(code ?? 1);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`host-supabase: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
