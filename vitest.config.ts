import { defineConfig } from 'vitest/config';

// One vitest run over every package, resolving workspace packages to their TypeScript source.
export default defineConfig({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: {
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      'packages/auth-core',
      'packages/adapter-fake',
      'packages/ui-cards',
      'packages/adapter-supabase',
      // The provider contract suite's own helpers (the adapters' test files run the suite itself).
      'packages/testing',
      // The GoTrue test double the Supabase adapter is checked against.
      'packages/gotrue-double',
      // The Remix host's server modules (no emulator; the emulator-backed checks run in e2e/host).
      'apps/remix-host',
      // The bench's pure helpers (median, the printed table, the budget verdict).
      'bench',
    ],
  },
});
