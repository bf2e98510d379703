import { vitePlugin as remix } from '@remix-run/dev';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

// Workspace packages run from their TypeScript source (the `@doorway/source` export condition), in the
// browser bundle and in the server bundle alike; they are bundled into the server build (noExternal)
// because Node cannot load their .ts sources.
export default defineConfig({
  plugins: [
    remix({
      // A second build (the Supabase e2e server, scripts/host-supabase.mjs) goes elsewhere, so building it
      // never replaces the files a running server of the default build is serving.
      buildDirectory: process.env.DOORWAY_HOST_BUILD_DIR ?? 'build',
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        // Routes come from app/routes.ts (flatRoutes over app/routes, as before), React Router 7's way.
        v3_routeConfig: true,
      },
    }),
  ],
  resolve: { conditions: ['@doorway/source', ...defaultClientConditions] },
  ssr: {
    noExternal: [/^@doorway\//],
    resolve: {
      conditions: ['@doorway/source', ...defaultServerConditions],
    },
  },
  server: { host: '127.0.0.1', port: 5174 },
});
