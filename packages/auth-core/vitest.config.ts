import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
