/**
 * The playground on a freshly started dev server (`npm run playground` right after a clone: Vite has no
 * dependency cache yet, and transforms every module on its first request). A person clicks "Sign in with
 * email" the moment it shows, types an address at once and presses Next: what they typed must reach the
 * flow, so the password card comes. Nothing may disturb the page meanwhile: no reload (the optimizer
 * finding a dependency late), no failed request (an import that raced the optimizer), no error on the email
 * card taking the focus from the field.
 *
 * Each test starts its own Vite dev server on apps/playground's config, with a new, empty cache directory
 * (so a developer's running `npm run playground` and its cache are left alone), on a free port of
 * `localhost` (the name the dev server prints, and the one passkeys work on).
 * @see issue 33
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADA, expect, expectCard, test } from '../fixtures.ts';

const PLAYGROUND = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'playground');

/** A port nobody listens on now (the system's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, 'localhost', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Vite's dev server on apps/playground's config, with an empty cache directory of its own. */
async function startColdDevServer() {
  const cacheDir = mkdtempSync(join(tmpdir(), 'doorway-playground-vite-'));
  const port = await freePort();
  const script = `
    const { createServer } = await import('vite');
    const server = await createServer({
      cacheDir: process.env.COLD_CACHE_DIR,
      clearScreen: false,
      server: { host: 'localhost', port: Number(process.env.COLD_PORT), strictPort: true },
    });
    await server.listen();
    server.printUrls();
  `;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PLAYGROUND,
    env: { ...process.env, COLD_CACHE_DIR: cacheDir, COLD_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://localhost:${port}/`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(cacheDir, { recursive: true, force: true });
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the dev server exited (code ${child.exitCode}):\n${log}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) break;
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error(`the dev server did not answer at ${url} within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop, log: () => log };
}

test('a cold dev server keeps the email typed at once on the first card', async ({ page, world, widget }) => {
  // A cold start bundles the dependencies and transforms every module on first request: tens of seconds on
  // a busy machine.
  test.setTimeout(240_000);
  const server = await startColdDevServer();
  try {
    const loads: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) loads.push(frame.url());
    });
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.url()}`));

    await page.goto(`${server.url}?world=${world}`);
    // As a person does: the click as soon as the button shows, the address typed the moment the field
    // shows, then Next. No wait for the dev server, the optimizer or the cards chunk.
    await widget.button('Sign in with email').click({ timeout: 120_000 });
    await widget.field('Email').pressSequentially(ADA.email, { timeout: 120_000 });
    await widget.button('Next').click();

    await expectCard(widget.root, 'passwordSignIn');
    await expect(widget.field('Email')).toHaveValue(ADA.email);
    expect(loads, 'the page loaded once, never reloaded').toEqual([expect.stringContaining(server.url)]);
    expect(failed, 'failed requests').toEqual([]);
    expect(server.log(), "the dev server's log").not.toMatch(/new dependencies optimized|reloading/);
  } finally {
    await server.stop();
  }
});
