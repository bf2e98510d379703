import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import type { BackendOptions } from './backends.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PORT = 4317;
/** The Remix host on the Auth emulator (scripts/e2e-host.mjs); HOST_PORT + 1 runs the email-link config. */
export const HOST_PORT = 4320;
/** The Remix host with DOORWAY_PROVIDER=supabase on the GoTrue test double (scripts/host-supabase.mjs). */
export const SUPABASE_HOST_PORT = 4330;
/** The GoTrue test double that host talks to (HTTP on 127.0.0.1). */
export const GOTRUE_DOUBLE_PORT = 4331;

// Start only the servers of the projects asked for (`--project playground` needs no emulator).
const asked = process.argv.flatMap((arg, i, all) =>
  arg === '--project'
    ? [all[i + 1] ?? '']
    : arg.startsWith('--project=')
      ? [arg.slice('--project='.length)]
      : [],
);
const wanted = (projects: readonly string[]) =>
  asked.length === 0 || projects.some((project) => asked.includes(project));
/** The projects each web server is for. */
const serves: Record<string, readonly string[]> = {
  playground: ['playground'],
  'remix-host': ['remix-host', 'remix-host-fast3g', 'remix-host-cluster'],
  'remix-host-supabase': ['remix-host-supabase'],
};
type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, readonly unknown[]>[number];

const servers: Record<string, WebServer> = {
  playground: {
    command: `npm run build -w @doorway/playground && npm run preview -w @doorway/playground -- --host 127.0.0.1 --port ${PORT} --strictPort`,
    cwd: root,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
  'remix-host': {
    command: 'node scripts/e2e-host.mjs',
    cwd: root,
    env: { E2E_HOST_PORT: String(HOST_PORT) },
    // The second instance starts last: once it answers, both do.
    url: `http://127.0.0.1:${HOST_PORT + 1}/bench/bare`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  'remix-host-supabase': {
    command: 'node scripts/host-supabase.mjs',
    cwd: root,
    env: {
      PORT: String(SUPABASE_HOST_PORT),
      DOORWAY_GOTRUE_DOUBLE_PORT: String(GOTRUE_DOUBLE_PORT),
    },
    url: `http://127.0.0.1:${SUPABASE_HOST_PORT}/bench/bare`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
};

/**
 * Playwright in Debian's Chromium (no browser download), five projects:
 * - `playground`: the built playground on the fake backend (every spec in e2e/*.spec.ts; the card pictures of
 *   e2e/visual.spec.ts are compared with docs/cards);
 * - `remix-host`: the production build of apps/remix-host on the Firebase Auth emulator (e2e/host/, and the
 *   journeys of both backends in e2e/journeys/ with the `firebase` backend of e2e/backends.ts);
 * - `remix-host-fast3g`: the same host loaded cold on Fast 3G with 4× CPU throttling, clicked as soon as
 *   the first card shows (e2e/host-fast3g/);
 * - `remix-host-supabase`: the host with DOORWAY_PROVIDER=supabase on the GoTrue TEST DOUBLE served over
 *   HTTP (its own build in .cache/remix-host-supabase; e2e/host-supabase/, and e2e/journeys/ with the
 *   `supabase` backend);
 * - `remix-host-cluster`: the same build as three processes behind nginx with Redis (e2e/cluster/): journeys
 *   spread over the processes, a process killed mid-journey, Redis stopped and back, one throttle.
 */
export default defineConfig<BackendOptions>({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: join(root, 'test-results'),
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by scripts/test.mjs to collect results; not a turbo input
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    viewport: { width: 400, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'playground',
      testIgnore: ['host/**', 'host-supabase/**', 'host-fast3g/**', 'journeys/**', 'cluster/**'],
      use: { baseURL: `http://127.0.0.1:${PORT}` },
      // The cards' pictures (e2e/visual.spec.ts) are docs/cards' images: `<card>-<theme>.png`, 320/….
      snapshotPathTemplate: join(root, 'docs', 'cards', '{arg}{ext}'),
    },
    {
      name: 'remix-host',
      testMatch: ['host/*.spec.ts', 'journeys/*.spec.ts'],
      use: { baseURL: `http://127.0.0.1:${HOST_PORT}`, backendName: 'firebase' },
      // Each host test makes its own accounts (unique emails, numbers, federated ids) on the shared
      // emulator and reads only their codes: the tests run side by side.
    },
    {
      // The first click on a slow phone (e2e/host-fast3g/): 20 cold loads on Fast 3G with 4× CPU throttling.
      name: 'remix-host-fast3g',
      testDir: './host-fast3g',
      use: { baseURL: `http://127.0.0.1:${HOST_PORT}` },
      timeout: 300_000,
      workers: 1,
    },
    {
      // Three host processes behind nginx sharing a Redis of their own (scripts/cluster.mjs, e2e/cluster/),
      // on the emulator and the build of the remix-host server: one cluster per worker, so one worker.
      name: 'remix-host-cluster',
      testDir: './cluster',
      use: { backendName: 'firebase' },
      timeout: 120_000,
      workers: 1,
    },
    {
      // The host on Supabase: the GoTrue TEST DOUBLE, not Supabase (e2e/host-supabase/).
      name: 'remix-host-supabase',
      testMatch: ['host-supabase/*.spec.ts', 'journeys/*.spec.ts'],
      use: { baseURL: `http://127.0.0.1:${SUPABASE_HOST_PORT}`, backendName: 'supabase' },
      // Its journeys (sign-up, sign-out, sign-in, recovery in one test) are 8–13 page loads and as many
      // axe-checked cards, the scripts-off ones re-served to a second page: 25–65 s on two CPUs as the
      // load varies, ~95 s at a load of 25. Each step keeps its own 10 s expect timeout.
      timeout: 120_000,
    },
  ],
  webServer: Object.entries(servers)
    .filter(([server]) => wanted(serves[server] ?? [server]))
    .map(([, server]) => server),
});
