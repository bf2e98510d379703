import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { gotrueDouble } from './gotrueDouble.ts';
import { worldStore } from './worldStore.ts';

const page = (name: string) => fileURLToPath(new URL(name, import.meta.url));

// Workspace packages resolve to their TypeScript source (the `@doorway/source` export condition).
// Two pages: the playground (index.html) and the card gallery (gallery.html, for the visual tests).
// The dev and preview servers also keep the fake's worlds (worldStore.ts) and serve the Supabase mode's
// GoTrue test double (gotrueDouble.ts).
export default defineConfig({
  plugins: [react(), worldStore(), gotrueDouble()],
  resolve: { conditions: ['@doorway/source', ...defaultClientConditions] },
  build: { rollupOptions: { input: { main: page('index.html'), gallery: page('gallery.html') } } },
  server: { port: 5173 },
  preview: { port: 4173 },
});
