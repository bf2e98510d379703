import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@doorway/source'] },
  ssr: { resolve: { conditions: ['@doorway/source'] } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
  },
});
