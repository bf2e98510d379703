import { defineProject } from 'vitest/config';

// Unit tests of the host's server modules: plain Node, no emulator, no browser.
export default defineProject({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  // `@doorway/ui-cards/styles.css?url` lives in the workspace, outside this project's root.
  server: { fs: { allow: ['../..'] } },
  test: {
    name: '@doorway/remix-host',
    environment: 'node',
    // A hang guard for loaded CI machines (2 cores), not a timing assertion.
    testTimeout: 30_000,
    include: ['test/**/*.test.{ts,tsx}'],
  },
});
