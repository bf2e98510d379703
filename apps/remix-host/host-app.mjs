// The host's Express app, as server.mjs serves it and the gate's tests drive it: remix-serve's setup
// (compression, immutable build assets, public files, the Remix handler) with the redacting access log
// (./access-log.mjs) first, `Strict-Transport-Security` on a public host, the gate in front of Remix
// (./request-gate.mjs) and an error handler that logs one line instead of Express's stack.
import compression from 'compression';
import express from 'express';
import { accessLog } from './access-log.mjs';
import { NO_TRUSTED_PROXIES } from './client-address.mjs';
import {
  badRequestTargets,
  gatedRemixHandler,
  quietErrors,
  strictTransportSecurity,
} from './request-gate.mjs';

/**
 * The Express app around `handle` (`createRequestHandler(build, mode)` of `@remix-run/node`): the build's
 * client assets under `publicPath` from `assetsBuildDirectory`, `publicDirectory`'s files, then Remix behind
 * the gate. `trustedProxies` is `parseTrustedProxies(DOORWAY_TRUSTED_PROXIES)`; `log` and `errorLog` write
 * the access log's lines and the error handler's (stdout and stderr by default).
 */
export function createHostApp({
  handle,
  publicPath,
  assetsBuildDirectory,
  publicDirectory = 'public',
  trustedProxies = NO_TRUSTED_PROXIES,
  log = (line) => console.log(line),
  errorLog = (line) => console.error(line),
}) {
  const app = express();
  app.disable('x-powered-by');
  app.use(accessLog(log));
  app.use(strictTransportSecurity());
  app.use(badRequestTargets());
  app.use(compression());
  app.use(publicPath, express.static(assetsBuildDirectory, { immutable: true, maxAge: '1y' }));
  app.use(express.static(publicDirectory, { maxAge: '1h' }));
  app.all('*', gatedRemixHandler(handle, { trustedProxies }));
  app.use(quietErrors(errorLog));
  return app;
}
