import { flatRoutes } from '@remix-run/fs-routes';
import type { RouteConfig } from '@remix-run/route-config';

/**
 * The host's routes: the files of `app/routes` by Remix's flat-routes convention, as before
 * `v3_routeConfig`. Declaring them here is the shape React Router 7 reads (`app/routes.ts`), so the move
 * to it (apps/remix-host/README.md) keeps this file and changes only the imports.
 */
export default flatRoutes() satisfies RouteConfig;
