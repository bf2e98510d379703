import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: {
    environment: 'node',
    // A hang guard for loaded CI machines (2 cores), not a timing assertion.
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
