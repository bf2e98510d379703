import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: { environment: 'node', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
});
