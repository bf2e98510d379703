// Several host processes behind a real load balancer (Debian's nginx), sharing state through Redis: what
// `npm run start:cluster` serves, and what the `remix-host-cluster` e2e project and `npm run bench:load`
// start for themselves. Builtins only, like host.mjs.
//
// nginx passes each request to the next process in turn (round robin), skips a process that refuses the
// connection (a killed one) for the same request, and names the process that answered in an
// `X-Doorway-Upstream` response header (the load balancer's header, not the host's), so tests can see that
// a journey's requests were spread. Every process gets the same flow secret, the same Redis, the load
// balancer's origin as its public origin, and trusts the load balancer's `X-Forwarded-For`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHost, until, waitFor } from './host.mjs';

export const NGINX = '/usr/sbin/nginx';
export const REDIS_SERVER = '/usr/bin/redis-server';

/** Why a cluster cannot start on this machine (one line), or null when it can. */
export function clusterUnavailable() {
  if (!existsSync(NGINX)) return `nginx is not installed (${NGINX}): apt-get install -y nginx-light`;
  return null;
}

/** Whether a TCP server accepts connections on 127.0.0.1:`port`. */
export function listening(port, ms = 1000) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port, timeout: ms });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * A Redis server of the cluster's own on `port` (nothing kept on disk), which `stop()` and `start()` can
 * take away and bring back mid-run without touching any other Redis on the machine.
 */
export async function ownRedis(port) {
  let child = null;
  const redis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (!existsSync(REDIS_SERVER)) throw new Error(`redis-server is not installed (${REDIS_SERVER})`);
      child = spawn(
        REDIS_SERVER,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await until(() => listening(port), `redis-server did not answer on port ${port}`);
    },
    async stop() {
      if (child === null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = null;
    },
  };
  await redis.start();
  return redis;
}

function nginxConfig({ dir, port, upstreams }) {
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`);
  return `user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream doorway {
${servers.join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    listen [::1]:${port};
    location / {
      proxy_pass http://doorway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      add_header X-Doorway-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Whether IPv6 loopback is there (nginx refuses to start on a `listen [::1]` it cannot bind). */
function hasIpv6Loopback() {
  try {
    return readFileSync('/proc/net/if_inet6', 'utf8').includes('lo');
  } catch {
    return false;
  }
}

/** Starts nginx in front of `upstreams` on `port`; resolves `{ child, stop() }`. */
export async function startNginx({ port, upstreams }) {
  const unavailable = clusterUnavailable();
  if (unavailable) throw new Error(unavailable);
  const dir = mkdtempSync(join(tmpdir(), 'doorway-nginx-'));
  let config = nginxConfig({ dir, port, upstreams });
  if (!hasIpv6Loopback()) config = config.replace(/\n {4}listen \[::1\]:\d+;/, '');
  writeFileSync(join(dir, 'nginx.conf'), config);
  const test = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')], {
    encoding: 'utf8',
  });
  if (test.status !== 0) throw new Error(`nginx refused its configuration: ${test.stderr.trim()}`);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  await until(() => listening(port), `nginx did not answer on port ${port}`);
  return {
    child,
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `size` host processes (the production build of apps/remix-host, on the Firebase Auth emulator at
 * `emulator`) on ports `port + 1 …`, behind nginx on `port`, sharing `redisUrl` and one flow secret.
 * `env` adds to every process's environment. Resolves `{ url, ports, kill(i), restart(i), stop() }`:
 * `kill(i)` ends process i at once (SIGKILL, as a crash would), `restart(i)` serves it again.
 */
export async function startCluster({
  size = 3,
  port = 3000,
  emulator,
  redisUrl,
  env = {},
  host = 'localhost',
  stdio = 'ignore',
}) {
  const url = `http://${host}:${port}`;
  const processEnv = {
    DOORWAY_FLOW_SECRET: randomBytes(48).toString('base64url'),
    DOORWAY_REDIS_URL: redisUrl,
    DOORWAY_PUBLIC_ORIGIN: url,
    DOORWAY_TRUSTED_PROXIES: '127.0.0.1,::1',
    ...env,
  };
  const ports = Array.from({ length: size }, (_, i) => port + 1 + i);
  const children = [];
  const serve = async (i) => {
    children[i] = await serveHost({ port: ports[i], env: processEnv, emulator, stdio });
  };
  const stopAll = () => {
    for (const child of children) if (child && child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    for (let i = 0; i < size; i++) await serve(i);
    const nginx = await startNginx({ port, upstreams: ports });
    await waitFor(`http://127.0.0.1:${port}/bench/bare`, { name: 'the load balancer' });
    return {
      url,
      ports,
      async kill(i) {
        const child = children[i];
        if (!child || child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
      restart: serve,
      stop() {
        nginx.stop();
        stopAll();
      },
    };
  } catch (error) {
    stopAll();
    throw error;
  }
}

/** The Redis `npm run start:cluster` uses: DOORWAY_REDIS_URL, else one answering on 127.0.0.1:6379. */
export async function defaultRedisUrl() {
  if (process.env.DOORWAY_REDIS_URL) return process.env.DOORWAY_REDIS_URL;
  if (await listening(6379)) return 'redis://127.0.0.1:6379';
  return null;
}
