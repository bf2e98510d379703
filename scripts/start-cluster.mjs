#!/usr/bin/env node
// `npm run start:cluster`: the host as several processes behind nginx, sharing Redis, on the Firebase Auth
// emulator: DOORWAY_CLUSTER_SIZE processes (default 3) on PORT + 1 …, the load balancer on http://localhost:${PORT:-3000}/.
// Redis: DOORWAY_REDIS_URL, else the one on 127.0.0.1:6379. One flow secret for all processes: set
// DOORWAY_FLOW_SECRET (and DOORWAY_FLOW_SECRET_PREVIOUS while rotating) as a deployment would; unset, one
// random secret is made for this run. Ctrl+C stops everything.
import { ensureDependencies, ensureNginx } from './ensure.mjs';

ensureDependencies();
ensureNginx();
const { buildHost, startEmulator, stopOnSignal } = await import('./host.mjs');
const { clusterUnavailable, defaultRedisUrl, startCluster } = await import('./cluster.mjs');

const port = Number(process.env.PORT ?? '3000');
const size = Number(process.env.DOORWAY_CLUSTER_SIZE ?? '3');
const children = [];
stopOnSignal(children);
try {
  const unavailable = clusterUnavailable();
  if (unavailable) throw new Error(unavailable);
  if (!Number.isInteger(size) || size < 1 || size > 16)
    throw new Error('DOORWAY_CLUSTER_SIZE must be 1 to 16');
  const redisUrl = await defaultRedisUrl();
  if (redisUrl === null)
    throw new Error('no Redis: set DOORWAY_REDIS_URL or start redis-server on 127.0.0.1:6379');
  const emulator = await startEmulator();
  children.push(emulator.child);
  buildHost();
  const env = process.env.DOORWAY_FLOW_SECRET ? { DOORWAY_FLOW_SECRET: process.env.DOORWAY_FLOW_SECRET } : {};
  const cluster = await startCluster({
    size,
    port,
    emulator: emulator.address,
    redisUrl,
    env,
    stdio: 'inherit',
  });
  process.on('exit', () => cluster.stop());
  console.log(
    `\nDoorway: ${cluster.url}/ (nginx, round robin over ${size} host processes on ports ${cluster.ports.join(', ')}; Redis shared)` +
      '\nCtrl+C to stop.\n',
  );
} catch (error) {
  console.error(`npm run start:cluster: ${error instanceof Error ? error.message : error}`);
  for (const child of children) child?.kill('SIGTERM');
  process.exit(1);
}
