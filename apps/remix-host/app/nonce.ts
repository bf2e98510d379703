import { createContext, useContext } from 'react';

/**
 * The CSP nonce of the document being rendered on the server (entry.server.tsx); undefined in the browser,
 * where the scripts are already running.
 */
export const NonceContext = createContext<string | undefined>(undefined);

/** This render's CSP nonce, for `<Scripts>` and `<ScrollRestoration>`. */
export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
