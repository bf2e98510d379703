import { defineProject } from 'vitest/config';

// The bench's pure helpers (no browser, no servers); the bench itself is `npm run bench`.
export default defineProject({
  test: {
    name: 'bench',
    environment: 'node',
    include: ['*.test.ts'],
  },
});
