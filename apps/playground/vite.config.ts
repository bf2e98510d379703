import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { worldStore } from './worldStore.ts';

// Workspace packages resolve to their TypeScript source (the `@doorway/source` export condition).
export default defineConfig({
  plugins: [react(), worldStore()],
  resolve: { conditions: ['@doorway/source', ...defaultClientConditions] },
  server: { port: 5173 },
  preview: { port: 4173 },
});
