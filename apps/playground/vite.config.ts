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
//
// A cold dev server (no `node_modules/.vite` yet) must not disturb the first page. Every dependency the
// browser code imports, also those it imports lazily (the fake's passkey server and client, the TOTP and
// QR-code libraries, supabase-js for the Supabase mode), is named here, so the optimizer bundles them all in
// its first run whatever its scan finds, and none is discovered once the page runs (a late discovery
// re-bundles and reloads the page, or fails the import that raced it: a passkey autofill failing while the
// person types puts its error, and the focus, on the email card). The first card's modules and the cards
// chunk are transformed as the server starts, so the flow's engine is there by the first click
// (e2e/playground/cold-start.spec.ts).
const BROWSER_DEPENDENCIES = [
  'react',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  '@simplewebauthn/browser',
  '@simplewebauthn/server',
  'otpauth',
  'lean-qr/nano',
  '@supabase/supabase-js',
];

export default defineConfig({
  plugins: [react(), worldStore(), gotrueDouble()],
  resolve: { conditions: ['@doorway/source', ...defaultClientConditions] },
  optimizeDeps: { include: BROWSER_DEPENDENCIES },
  build: { rollupOptions: { input: { main: page('index.html'), gallery: page('gallery.html') } } },
  server: {
    port: 5173,
    warmup: {
      clientFiles: ['./src/main.tsx', './src/App.tsx', '../../packages/ui-cards/src/cardsChunk.tsx'],
    },
  },
  preview: { port: 4173 },
});
