#!/usr/bin/env node
// `npm run bench:load`: sign-up and sign-in under load through the Remix host on the Firebase Auth emulator.
// Builds the host, starts the emulator unless one answers, serves the build on 127.0.0.1 and runs
// LOAD_FLOWS virtual users (default 200), at most LOAD_CONCURRENCY at a time (default 200: all at once).
// Each one does what the browser does with the widget:
//
//   signUp     accounts:signUp on the emulator (the Firebase SDK's REST call)
//   session    POST /session {"idToken"} with the widget's headers (Origin, content type, Sec-Fetch-*)
//   account    GET /account with the cookie: 200, and it must show this user's email and uid
//   signOut    POST /logout with the cookie: 303 to the sign-out card, cookie cleared
//   signIn     accounts:signInWithPassword on the emulator
//   session2   POST /session with the new token
//   account2   GET /account with the new cookie, again this user's email and uid
//
// It runs the flows twice: on one host process, then on LOAD_PROCESSES host processes (default 3) behind
// nginx sharing Redis (scripts/cluster.mjs; skipped with its reason where nginx is missing), and prints the
// ratio of the two. On two cores expect little gain: the point is no errors and no lost state over several
// processes; capacity grows with cores and machines, with Redis and the identity provider sized to match.
// It reports errors (a failed request or an unexpected answer), leaked sessions (an account page showing
// another user than the cookie's), and p50/p99 per step and per flow. 127.0.0.1 only; bounded by the flow
// count, the concurrency, a 30 s limit per request and LOAD_TIME_LIMIT_S (default 180 s) over all. The last
// line reads `load: N flows, errors E, leaked sessions L, p50 … ms, p99 … ms`; the exit code is 1 when E or L
// is not 0 (or flows did not finish in time).
import { performance } from 'node:perf_hooks';
import { clusterUnavailable, ownRedis, startCluster } from '../scripts/cluster.mjs';
import { buildHost, serveHost, startEmulator, stopOnSignal } from '../scripts/host.mjs';

const FLOWS = boundedInt('LOAD_FLOWS', 200, 1, 2000);
const CONCURRENCY = boundedInt('LOAD_CONCURRENCY', 200, 1, 500);
const TIME_LIMIT_MS = boundedInt('LOAD_TIME_LIMIT_S', 180, 10, 900) * 1000;
const REQUEST_TIMEOUT_MS = 30_000;
const PROCESSES = boundedInt('LOAD_PROCESSES', 3, 2, 16);
const PORT = boundedInt('BENCH_LOAD_PORT', 4340, 1024, 65000);
const STEPS = ['signUp', 'session', 'account', 'signOut', 'signIn', 'session2', 'account2'];

function boundedInt(name, fallback, min, max) {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`bench:load: ${name} must be an integer from ${min} to ${max}`);
    process.exit(2);
  }
  return n;
}

class FlowError extends Error {
  constructor(step, message) {
    super(`${step}: ${message}`);
    this.step = step;
  }
}

/** One virtual user's flow; resolves `{ times: { step: ms }, leaks: string[] }` or rejects with a FlowError. */
async function flow(index, { emulator, runId, signal, host: HOST }) {
  const email = `load-${runId}-${index}@example.com`;
  const password = `pw-${runId}-${index}`;
  const times = {};
  const leaks = [];
  const timed = async (step, run) => {
    const started = performance.now();
    try {
      return await run();
    } catch (error) {
      if (error instanceof FlowError) throw error;
      throw new FlowError(step, error instanceof Error ? error.message : String(error));
    } finally {
      times[step] = performance.now() - started;
    }
  };
  const request = (url, init = {}) =>
    fetch(url, {
      redirect: 'manual',
      ...init,
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });

  const identityToolkit = (step, method) =>
    timed(step, async () => {
      const response = await request(
        `http://${emulator}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        },
      );
      const body = await response.json();
      if (response.status !== 200 || typeof body.idToken !== 'string') {
        throw new FlowError(step, `status ${response.status} ${JSON.stringify(body.error?.message ?? '')}`);
      }
      return { idToken: body.idToken, uid: body.localId };
    });

  // What the widget's fetch sends (app/firebase.client.ts: startServerSession), with the browser's headers.
  const startSession = (step, idToken) =>
    timed(step, async () => {
      const response = await request(`${HOST}/session`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: HOST,
          referer: `${HOST}/login`,
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': 'cors',
          'sec-fetch-dest': 'empty',
        },
        body: JSON.stringify({ idToken }),
      });
      await response.arrayBuffer();
      const cookie = /^doorway_session=([^;]+);/.exec(response.headers.get('set-cookie') ?? '')?.[1];
      if (response.status !== 204 || cookie === undefined) {
        throw new FlowError(step, `status ${response.status}${cookie === undefined ? ', no cookie' : ''}`);
      }
      return cookie;
    });

  const readAccount = (step, cookie, uid) =>
    timed(step, async () => {
      const response = await request(`${HOST}/account`, { headers: { cookie: `doorway_session=${cookie}` } });
      const html = await response.text();
      if (response.status !== 200) throw new FlowError(step, `status ${response.status}`);
      const shown = (term) => new RegExp(`<dt>${term}</dt><dd>([^<]*)</dd>`).exec(html)?.[1];
      const [shownEmail, shownUid] = [shown('Email'), shown('User ID')];
      if (shownEmail === undefined || shownUid === undefined) throw new FlowError(step, 'no account shown');
      if (shownEmail !== email || shownUid !== uid) {
        leaks.push(`${step}: ${email} (${uid}) was shown ${shownEmail} (${shownUid})`);
      }
    });

  const signUp = await identityToolkit('signUp', 'signUp');
  const first = await startSession('session', signUp.idToken);
  await readAccount('account', first, signUp.uid);
  await timed('signOut', async () => {
    const response = await request(`${HOST}/logout`, {
      method: 'POST',
      headers: {
        origin: HOST,
        referer: `${HOST}/account`,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
        cookie: `doorway_session=${first}`,
      },
      body: '',
    });
    await response.arrayBuffer();
    const cleared = /^doorway_session=; Max-Age=0;/.test(response.headers.get('set-cookie') ?? '');
    if (response.status !== 303 || response.headers.get('location') !== '/login?signedOut=1' || !cleared) {
      throw new FlowError('signOut', `status ${response.status}${cleared ? '' : ', cookie not cleared'}`);
    }
  });
  const signIn = await identityToolkit('signIn', 'signInWithPassword');
  if (signIn.uid !== signUp.uid) throw new FlowError('signIn', 'another uid than at sign-up');
  const second = await startSession('session2', signIn.idToken);
  await readAccount('account2', second, signUp.uid);
  return { times, leaks };
}

/** Nearest-rank percentile of sorted numbers. */
function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs every flow against `host`; resolves what `report` prints. */
async function runFlows({ host, emulator, label }) {
  const runId = Date.now().toString(36);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('time limit')), TIME_LIMIT_MS);
  const results = new Array(FLOWS);
  let next = 0;
  console.log(
    `bench:load: ${label}: ${FLOWS} sign-up + sign-in flows, ${CONCURRENCY} at a time, limit ${TIME_LIMIT_MS / 1000} s…`,
  );
  const started = performance.now();
  try {
    const worker = async () => {
      while (next < FLOWS) {
        const index = next++;
        const flowStarted = performance.now();
        try {
          const { times, leaks } = await flow(index, { emulator, runId, signal: deadline.signal, host });
          results[index] = { ok: true, times, leaks, total: performance.now() - flowStarted };
        } catch (error) {
          const message = deadline.signal.aborted ? 'time limit' : error.message;
          results[index] = { ok: false, error: message, step: error.step ?? 'flow' };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, FLOWS) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return report(results, performance.now() - started, label);
}

async function run() {
  console.log('bench:load: building apps/remix-host and starting the Auth emulator…');
  buildHost({ stdio: 'ignore' });
  const emulator = await startEmulator({ stdio: 'ignore' });
  const children = [emulator.child];
  stopOnSignal(children);
  try {
    const server = await serveHost({
      port: PORT,
      stdio: ['ignore', 'ignore', 'inherit'],
      emulator: emulator.address,
    });
    children.push(server);
    const one = await runFlows({
      host: `http://127.0.0.1:${PORT}`,
      emulator: emulator.address,
      label: '1 process',
    });
    server.kill('SIGTERM');
    const unavailable = clusterUnavailable();
    if (unavailable) {
      console.log(`\nload: ${PROCESSES} processes not run: ${unavailable}`);
      return;
    }
    const redis = await ownRedis(PORT + 50);
    const cluster = await startCluster({
      size: PROCESSES,
      port: PORT + 10,
      host: '127.0.0.1',
      emulator: emulator.address,
      redisUrl: redis.url,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let many;
    try {
      many = await runFlows({
        host: cluster.url,
        emulator: emulator.address,
        label: `${PROCESSES} processes`,
      });
    } finally {
      cluster.stop();
      await redis.stop();
    }
    const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : '–');
    console.log(
      `\nload ratio, ${PROCESSES} processes behind nginx / 1 process: throughput ${ratio(many.perSecond, one.perSecond)}×, ` +
        `p50 ${ratio(many.p50, one.p50)}×, errors ${one.errors} and ${many.errors}`,
    );
  } finally {
    emulator.child?.kill('SIGTERM');
  }
}

function report(results, wall, label) {
  const done = results.filter((r) => r?.ok);
  const failed = results.filter((r) => r !== undefined && !r.ok);
  const errors = failed.length + results.filter((r) => r === undefined).length;
  const leaks = done.flatMap((r) => r.leaks);
  const pad = (s, n) => String(s).padEnd(n);
  const padl = (s, n) => String(s).padStart(n);
  const ms = (n) => (Number.isNaN(n) ? '–' : n.toFixed(0));

  console.log(
    `\nLoad, ${label} (127.0.0.1, production build, Auth emulator): ${results.length} flows in ${(wall / 1000).toFixed(1)} s\n`,
  );
  console.log(`${pad('step', 12)}${padl('p50 ms', 9)}${padl('p99 ms', 9)}${padl('max ms', 9)}`);
  const row = (label, values) => {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `${pad(label, 12)}${padl(ms(percentile(sorted, 50)), 9)}${padl(ms(percentile(sorted, 99)), 9)}${padl(ms(sorted.at(-1) ?? Number.NaN), 9)}`,
    );
    return sorted;
  };
  for (const step of STEPS)
    row(
      step,
      done.map((r) => r.times[step]),
    );
  const flows = row(
    'flow',
    done.map((r) => r.total),
  );

  if (failed.length > 0) {
    const byReason = new Map();
    for (const r of failed) byReason.set(r.error, (byReason.get(r.error) ?? 0) + 1);
    console.log('\nErrors:');
    for (const [reason, count] of byReason) console.log(`  ${count} × ${reason}`);
  }
  if (leaks.length > 0) {
    console.log('\nLeaked sessions:');
    for (const leak of leaks.slice(0, 10)) console.log(`  ${leak}`);
  }
  console.log(
    `\nload (${label}): ${results.length} flows, errors ${errors}, leaked sessions ${leaks.length}, ` +
      `p50 ${ms(percentile(flows, 50))} ms, p99 ${ms(percentile(flows, 99))} ms`,
  );
  if (errors > 0 || leaks.length > 0) process.exitCode = 1;
  return { errors, perSecond: done.length / (wall / 1000), p50: percentile(flows, 50) };
}

try {
  await run();
} catch (error) {
  console.error(`bench:load: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
// Child processes are stopped; nothing else should keep the process alive.
setTimeout(() => process.exit(), 2000).unref();
