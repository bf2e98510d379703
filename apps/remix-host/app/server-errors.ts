import { isRouteErrorResponse } from '@remix-run/react';

/**
 * What the server logs of an error Remix caught (the entry's `handleError`). An unknown URL is the
 * visitor's, not a fault: Remix would log "No route matches URL" with a stack for every stray
 * `/favicon.ico` or probe, burying the errors that matter. A request the visitor aborted is not logged
 * either (Remix's own rule). Everything else is logged.
 */
export function logServerError(
  error: unknown,
  request: Request,
  log: (error: unknown) => void = console.error,
): void {
  if (request.signal.aborted) return;
  if (!isRouteErrorResponse(error)) {
    log(error);
  } else if (error.status !== 404) {
    // Remix wraps a thrown Error in a route error response (`error.error`, not public): log the Error.
    log((error as { error?: unknown }).error ?? error);
  }
}
