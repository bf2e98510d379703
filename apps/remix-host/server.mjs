#!/usr/bin/env node
// The host's production server: what remix-serve does (compression, immutable build assets, public files,
// the Remix request handler), with an access log that never writes an action link's codes or tokens
// (./access-log.mjs) and a gate in front of Remix (./request-gate.mjs: request targets, cross-origin
// writes, body size). Usage: `node server.mjs [build/server/index.js]`; PORT (3000) and HOST from env.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, installGlobals } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { accessLog } from './access-log.mjs';
import { badRequestTargets, gatedRemixHandler } from './request-gate.mjs';

process.env.NODE_ENV = process.env.NODE_ENV ?? 'production';
let build;
try {
  build = await import(pathToFileURL(resolve(process.argv[2] ?? 'build/server/index.js')).href);
} catch (error) {
  // A configuration error names the variable, never its value; anything else is a broken build.
  console.error(`doorway host: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
installGlobals({ nativeFetch: build.future.v3_singleFetch });

const app = express();
app.disable('x-powered-by');
app.use(accessLog());
app.use(badRequestTargets());
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: '1y' }));
app.use(express.static('public', { maxAge: '1h' }));
app.all('*', gatedRemixHandler(createRequestHandler(build, process.env.NODE_ENV)));

const port = Number(process.env.PORT ?? '3000');
const host = process.env.HOST;
const onListen = () => console.log(`[doorway host] http://${host ?? 'localhost'}:${port}`);
const server = host ? app.listen(port, host, onListen) : app.listen(port, onListen);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => server.close((error) => error && console.error(error.message)));
}
