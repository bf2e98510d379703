#!/usr/bin/env node
// Server figures of the Remix host: requests/s and p99 latency of `/login` (the widget's SSR) and of
// `/action?mode=verifyEmail&oobCode=invalid` (an action code checked against the Auth emulator) beside a
// bare Remix route (`/bench/bare`, a tiny page through the same root and document render), measured in the
// same run with autocannon and printed as ratios. Bounded local load: 127.0.0.1 only, 10 connections for
// 5 s per route after a 2 s warm-up of each. Builds the host, starts the emulator unless one answers, and stops
// what it started.
//
//   node bench/server.mjs            (also run by `npm run bench`)
import autocannon from 'autocannon';
import { buildHost, serveHost, startEmulator } from '../scripts/host.mjs';

const PORT = Number(process.env.BENCH_PORT ?? '4330');
const CONNECTIONS = 10;
const SECONDS = 5;
const ROUTES = [
  ['bare Remix route', '/bench/bare'],
  ['/login (widget SSR)', '/login'],
  ['/action verifyEmail, invalid code', '/action?mode=verifyEmail&oobCode=invalid'],
];

function load(url, duration) {
  return autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
}

/** Measures each route; returns `{ label, path, rps, p99, non2xx, errors }`. */
export async function benchServer({ log = console.log } = {}) {
  log('\nServer: building apps/remix-host and starting it on the Auth emulator…');
  buildHost({ stdio: 'ignore' });
  const emulator = await startEmulator({ stdio: 'ignore' });
  const server = await serveHost({ port: PORT, stdio: 'ignore', emulator: emulator.address });
  const results = [];
  try {
    // Warm every route up first (JIT, connection pools, the emulator), so the order does not bias them.
    for (const [, path] of ROUTES) await load(`http://127.0.0.1:${PORT}${path}`, 2);
    for (const [label, path] of ROUTES) {
      const r = await load(`http://127.0.0.1:${PORT}${path}`, SECONDS);
      results.push({
        label,
        path,
        rps: r.requests.average,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
      });
    }
  } finally {
    server.kill('SIGTERM');
    emulator.child?.kill('SIGTERM');
  }
  return results;
}

/** Prints the figures with their ratios to the bare route. */
export function printServer(results, log = console.log) {
  const pad = (s, n) => String(s).padEnd(n);
  const padl = (s, n) => String(s).padStart(n);
  const bare = results[0];
  log(
    `\nServer throughput (autocannon, ${CONNECTIONS} connections × ${SECONDS} s, 127.0.0.1, production build)\n`,
  );
  log(
    `${pad('', 36)}${padl('req/s', 9)}${padl('p99 ms', 9)}${padl('req/s vs bare', 15)}${padl('p99 vs bare', 13)}`,
  );
  for (const r of results) {
    log(
      `${pad(r.label, 36)}${padl(r.rps.toFixed(0), 9)}${padl(r.p99.toFixed(0), 9)}` +
        `${padl((r.rps / bare.rps).toFixed(2), 15)}${padl((r.p99 / Math.max(bare.p99, 1)).toFixed(2), 13)}` +
        `${r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : ''}`,
    );
  }
  log(
    '\nThe action route makes one Auth emulator call per request (applyActionCode); /login renders the widget’s' +
      '\nfirst card on the server without calling the provider.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printServer(await benchServer());
}
