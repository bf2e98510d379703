import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { EntryContext, HandleErrorFunction } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToPipeableStream } from 'react-dom/server';
import { hostConfig } from './config.server.ts';
import { NonceContext } from './nonce.ts';
import { documentCsp, SECURITY_HEADERS } from './security-headers.ts';
import { logServerError } from './server-errors.ts';

// The environment is checked when the server loads the build: a bad value stops it at start-up with a
// message naming the variable, rather than failing the first request.
hostConfig();

/** Errors Remix caught: logged, but not an unknown URL's 404 or an aborted request (server-errors.ts). */
export const handleError: HandleErrorFunction = (error, { request }) => logServerError(error, request);

/** Rendering gives up after this long (no route streams deferred data). */
export const streamTimeout = 5_000;

/** Renders a document: the whole page at once (nothing here streams), with the security headers (a route's
 * own value wins, e.g. the action pages' referrer policy). */
export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let responseStatus = status;
    const nonce = randomBytes(16).toString('base64');
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          const body = new PassThrough();
          headers.set('content-type', 'text/html; charset=utf-8');
          for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
            if (!headers.has(name)) headers.set(name, value);
          }
          headers.set('content-security-policy', documentCsp(nonce));
          resolve(new Response(createReadableStreamFromReadable(body), { headers, status: responseStatus }));
          pipe(body);
          clearTimeout(timer);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatus = 500;
          console.error(error);
        },
      },
    );
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}
