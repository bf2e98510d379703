/**
 * What the host's server (`server.mjs`, through `gatedRemixHandler` of `request-gate.mjs`) hands every
 * request's loaders and actions: a fresh object per request, so nothing one visitor's request puts there
 * is seen by another's.
 * @module
 */

/** The load context the host's server builds for one request. */
export interface HostLoadContext {
  /**
   * The client's address: the socket's peer, or the address a configured trusted proxy
   * (`DOORWAY_TRUSTED_PROXIES`) put in `X-Forwarded-For`. Never a header a client could forge.
   */
  clientAddress: string;
}

/** The address throttles and audit lines use where the server gave none (the Vite dev server). */
export const UNKNOWN_CLIENT = 'unknown';

/** The client address of a request's load context, or {@link UNKNOWN_CLIENT} where there is none. */
export function clientAddressOf(context: unknown): string {
  if (typeof context !== 'object' || context === null) return UNKNOWN_CLIENT;
  const address = (context as Partial<HostLoadContext>).clientAddress;
  return typeof address === 'string' && address !== '' ? address : UNKNOWN_CLIENT;
}
