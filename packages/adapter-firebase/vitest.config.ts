import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The browser ESM build of `@firebase/auth`. Its Node build replaces phone sign-in, RecaptchaVerifier,
 * PhoneAuthProvider, popups and redirects with stubs that throw `operation-not-supported-in-this-environment`;
 * the browser build runs in Node 20 (fetch, in-memory persistence) and is what the widget ships to
 * browsers, so the tests exercise the same code, phone sign-in included.
 */
function firebaseAuthBrowserBuild(): string {
  const root = createRequire(import.meta.url);
  const fromFirebase = createRequire(root.resolve('firebase/package.json'));
  let dir = dirname(fromFirebase.resolve('@firebase/auth'));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        exports?: { '.': { browser: { import: string } } };
      };
      if (pkg.name === '@firebase/auth' && pkg.exports) return join(dir, pkg.exports['.'].browser.import);
    } catch {
      // No package.json at this level: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('vitest.config: cannot find the @firebase/auth package');
    dir = parent;
  }
}

// A root config, not a workspace project: these tests share one emulator and must run one file at a time.
export default defineConfig({
  resolve: {
    conditions: ['@doorway/source'],
    alias: [{ find: /^firebase\/auth$/, replacement: firebaseAuthBrowserBuild() }],
  },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: {
    name: 'adapter-firebase',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Every file shares one emulator (and clears its accounts): one file at a time.
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
