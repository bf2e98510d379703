/**
 * The `remix-host-cluster` project: each worker starts its own cluster (scripts/cluster.mjs): three host
 * processes on the Auth emulator behind nginx (round robin), sharing a Redis server of the worker's own,
 * which a test can stop and start again. `cluster.kill(i)` ends process i as a crash would; every test
 * brings killed processes back before the next. `upstreams` lists the process that answered each of the
 * page's requests (nginx's `X-Doorway-Upstream`), so a test can prove a journey was spread.
 */
import type { Page, Response } from '@playwright/test';
import { ownRedis, startCluster } from '../../scripts/cluster.mjs';
import { test as base, EMULATOR, expect } from '../host/fixtures.ts';

export * from '../host/fixtures.ts';

export const CLUSTER_SIZE = 3;

interface Cluster {
  url: string;
  ports: number[];
  kill(i: number): Promise<void>;
  restart(i: number): Promise<void>;
  /** The index of the process on `port` (`127.0.0.1:<port>` as nginx names it). */
  indexOf(upstream: string): number;
  redis: { stop(): Promise<void>; start(): Promise<void> };
}

export const test = base.extend<
  { upstreams: string[]; clusterKilled: Set<number> },
  { clusterEnv: Record<string, string>; cluster: Cluster }
>({
  clusterEnv: [{}, { option: true, scope: 'worker' }],
  cluster: [
    async ({ clusterEnv }, use, workerInfo) => {
      const slot = workerInfo.workerIndex % 20;
      const redis = await ownRedis(6400 + slot);
      const started = await startCluster({
        size: CLUSTER_SIZE,
        port: 4600 + slot * 10,
        emulator: new URL(EMULATOR).host,
        redisUrl: redis.url,
        env: { DOORWAY_TOS_URL: '/terms', DOORWAY_PRIVACY_URL: '/privacy', ...clusterEnv },
      });
      try {
        await use({
          ...started,
          indexOf: (upstream) => started.ports.indexOf(Number(upstream.split(':').at(-1))),
          redis,
        });
      } finally {
        started.stop();
        await redis.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ cluster }, use) => use(cluster.url),
  clusterKilled: async ({ cluster }, use) => {
    const killed = new Set<number>();
    await use(killed);
    for (const i of killed) await cluster.restart(i);
  },
  upstreams: async ({ page }, use) => {
    const seen: string[] = [];
    recordUpstreams(page, seen);
    await use(seen);
  },
});

export { expect };

/** Expects `upstreams` to name at least two processes. */
export function expectSpread(upstreams: readonly string[]): void {
  expect(new Set(upstreams).size, `processes that answered: ${upstreams.join(' ')}`).toBeGreaterThan(1);
}

/** Kills the process that answered the page's last request; resolves its index. */
export async function killLastUpstream(
  cluster: Cluster,
  upstreams: readonly string[],
  killed: Set<number>,
): Promise<number> {
  const last = upstreams.at(-1);
  expect(last, 'a request answered through the load balancer').toBeDefined();
  const index = cluster.indexOf(last as string);
  await cluster.kill(index);
  killed.add(index);
  return index;
}

/** The process that answered `response` (nginx's `X-Doorway-Upstream`), or '' when none did. */
export function upstreamOf(response: Response): string {
  // A retried request names every process tried; the last one answered.
  return response.headers()['x-doorway-upstream']?.split(', ').at(-1) ?? '';
}

/** Adds to `seen` the process that answered each of `page`'s requests. */
export function recordUpstreams(page: Page, seen: string[]): void {
  page.on('response', (response) => {
    const upstream = upstreamOf(response);
    if (upstream) seen.push(upstream);
  });
}
