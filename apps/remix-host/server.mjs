#!/usr/bin/env node
// The host's production server: what remix-serve does (compression, immutable build assets, public files,
// the Remix request handler), with an access log that never writes an action link's codes or tokens
// (./access-log.mjs) and a gate in front of Remix (./request-gate.mjs: request targets, methods, cross-origin
// writes, body size; `Strict-Transport-Security` on a public host; each request's client address, trusting
// `X-Forwarded-For` only from DOORWAY_TRUSTED_PROXIES), assembled by ./host-app.mjs.
// Usage: `node server.mjs [build/server/index.js]`; PORT (3000), HOST and DOORWAY_TRUSTED_PROXIES from env.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, installGlobals } from '@remix-run/node';
import { parseTrustedProxies } from './client-address.mjs';
import { createHostApp } from './host-app.mjs';
import { refuseTunnels } from './request-gate.mjs';

process.env.NODE_ENV = process.env.NODE_ENV ?? 'production';
let build;
let trustedProxies;
try {
  trustedProxies = parseTrustedProxies(process.env.DOORWAY_TRUSTED_PROXIES);
  build = await import(pathToFileURL(resolve(process.argv[2] ?? 'build/server/index.js')).href);
} catch (error) {
  // A configuration error names the variable, never its value; anything else is a broken build.
  console.error(`doorway host: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = createHostApp({
  handle: createRequestHandler(build, process.env.NODE_ENV),
  publicPath: build.publicPath,
  assetsBuildDirectory: build.assetsBuildDirectory,
  trustedProxies,
});

const port = Number(process.env.PORT ?? '3000');
const host = process.env.HOST;
// A loopback address is shown as `localhost`, the name passkeys work on (WebAuthn refuses IP addresses).
const shown = !host || host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
const onListen = () => console.log(`[doorway host] http://${shown}:${port}`);
const server = refuseTunnels(host ? app.listen(port, host, onListen) : app.listen(port, onListen));
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => server.close((error) => error && console.error(error.message)));
}
