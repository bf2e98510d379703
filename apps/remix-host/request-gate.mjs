// The host's gate in front of Remix: what every request must satisfy before any route code runs, each refusal
// a plain answer with one access-log line and no stack trace in the log.
//   400: a request target that is not a path (`*`, absolute-form `http://other/x`), a Host that makes no URL,
//        a path with a malformed percent-escape (`/login%zz`), a `?_data=` probe (single fetch is on: the
//        browser's own data requests use the `.data` suffix, and Remix would answer `_data` with a stack);
//   403: a state-changing request whose Origin is another host (Remix's own guard would throw a 500);
//   405: a method the host does not answer (TRACE, CONNECT, PROPFIND…: undici refuses some with an exception)
//        or a write to a path without an action (`WRITE_ROUTES`), with `Allow`; OPTIONS answers 204 with `Allow`;
//   413: a body over MAX_BODY_BYTES, counted while it is read (chunked too), answered with `Connection: close`.
// The body is read here, into memory, once it is known to be small; the Remix request is built from it, so no
// route reads more than MAX_BODY_BYTES and no unread body is left on a kept-alive connection. Each request's
// load context is a fresh `{ clientAddress }` (./client-address.mjs).
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { clientAddress, NO_TRUSTED_PROXIES } from './client-address.mjs';

/** The largest body the host reads: its largest form (sign-up: name, email, password) is well under 1 kB. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * A refused body is read to its end and dropped before the 413 is sent (a "lingering close", as nginx does),
 * so a client still sending reads the answer instead of a reset; past these bounds the answer goes at once
 * and the socket is destroyed after it. Nothing dropped is kept: memory stays flat however large the body.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The methods the host answers; any other gets 405 before a web `Request` is built. */
export const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The paths that take writes (the routes of `app/routes` with an `action`, checked against those files by
 * the tests) and the write methods each answers; `/*` is a splat. A write anywhere else is a 405 from the
 * gate, not Remix's "no action" error with its stack.
 */
export const WRITE_ROUTES = Object.freeze([
  { path: '/login', methods: ['POST'] },
  { path: '/action', methods: ['POST'] },
  { path: '/session', methods: ['POST'] },
  { path: '/logout', methods: ['POST'] },
  // The account page's own forms (display name, password, other devices, deletion).
  { path: '/account', methods: ['POST'] },
  { path: '/account/browser-sign-in', methods: ['POST'] },
  { path: '/account/passkeys', methods: ['POST'] },
  { path: '/account/second-factors', methods: ['POST'] },
  // The Firebase passkey server: `DELETE credentials/<id>` removes a passkey.
  { path: '/passkeys/*', methods: ['POST', 'DELETE'] },
]);

/**
 * The route path Remix matches for a request path, or null when a segment is no valid percent-encoding:
 * single fetch's `.data` suffix taken off (`/_root.data` is `/`), each segment decoded (an encoded `/`
 * stays `%2F`, as Remix keeps it), lower-case (Remix matches without case) and without trailing slashes.
 */
export function routePath(pathname) {
  const path = pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/');
  let decoded;
  try {
    decoded = path
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return null;
  }
  return decoded.toLowerCase().replace(/\/+$/, '') || '/';
}

/** The methods a request path answers: reads everywhere, and the writes of its entry in {@link WRITE_ROUTES}. */
export function allowedMethods(pathname) {
  const path = routePath(pathname);
  const route = WRITE_ROUTES.find(({ path: pattern }) =>
    pattern.endsWith('/*')
      ? path === pattern.slice(0, -2) || path?.startsWith(pattern.slice(0, -1))
      : path === pattern,
  );
  return ['GET', 'HEAD', 'OPTIONS', ...(route?.methods ?? [])];
}

/**
 * The gate's own answer to a request whose target is a valid URL, by method and query, or null when it goes
 * on to Remix: 400 for a `_data` probe, 405 with `Allow` for a method the path does not take, 204 with
 * `Allow` for OPTIONS.
 */
export function methodAnswer(method, url) {
  if (url.searchParams.has('_data')) return { status: 400, text: 'Bad request' };
  const allow = allowedMethods(url.pathname);
  const headers = { allow: allow.join(', ') };
  if (method === 'OPTIONS') return { status: 204, text: '', headers };
  if (!KNOWN_METHODS.has(method) || !allow.includes(method)) {
    return { status: 405, text: 'Method not allowed', headers };
  }
  return null;
}

/** The host a request names: `X-Forwarded-Host` (first value) as Remix reads it, else `Host`. */
function requestHost(headers) {
  const forwarded = headers['x-forwarded-host'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || headers.host || null;
}

/** The origin `http(s)://host` a request's `Host` names, or null when it makes no plain origin. */
function hostOrigin(req) {
  const host = req.headers.host;
  if (!host) return null;
  try {
    const base = new URL(`${req.protocol ?? 'http'}://${host}`);
    return base.href === `${base.origin}/` ? base : null;
  } catch {
    return null;
  }
}

/**
 * The request's absolute URL (from its `Host`, as the Express adapter of Remix builds it), or null when its
 * target is not a path (`*`, absolute-form), its path holds a malformed percent-escape (`/login%zz`: Express
 * and Remix would throw a URIError), or its Host makes no plain origin (`a/b`, `a@b`, empty).
 */
export function requestUrl(req) {
  const target = req.originalUrl ?? req.url ?? '';
  const base = hostOrigin(req);
  if (!target.startsWith('/') || base === null) return null;
  try {
    const url = new URL(`${base.origin}${target}`);
    return routePath(url.pathname) === null ? null : url;
  } catch {
    return null;
  }
}

/** `Strict-Transport-Security` of a secure host: a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** Whether `hostname` (a URL's, `[::1]` bracketed) is this machine: localhost, `*.localhost`, loopback. */
export function isLocalHostname(hostname) {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * Express middleware, first of all: `Strict-Transport-Security` on every answer (pages, assets, refusals)
 * of a host named other than localhost, so that after one visit a browser never talks plain HTTP to it (a
 * network attacker could plant cookies over it). Never on a local name: a developer's browser would then
 * refuse plain http://localhost for a year. Browsers ignore the header on plain HTTP answers.
 */
export function strictTransportSecurity() {
  return (req, res, next) => {
    const base = hostOrigin(req);
    if (base !== null && !isLocalHostname(base.hostname)) {
      res.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    }
    next();
  };
}

/**
 * Whether a state-changing request comes from another host: the rule of Remix's own CSRF guard (Origin's
 * host against X-Forwarded-Host or Host), checked first so the answer is a 403 instead of its 500. A request
 * without Origin passes here; the routes' own checks decide on it.
 */
export function isCrossOrigin(req) {
  if (SAFE_METHODS.has(req.method)) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  return originHost !== requestHost(req.headers);
}

function refuse(res, status, text, close = false, headers = {}) {
  res.writeHead(status, {
    ...(text === '' ? {} : { 'content-type': 'text/plain; charset=utf-8' }),
    'cache-control': 'no-store',
    ...headers,
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Answers 413 with `Connection: close` once the refused body is drained (within bounds). */
function tooLarge(req, res) {
  let drained = 0;
  let answered = false;
  const answer = (destroy) => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    if (destroy) res.once('finish', () => req.socket?.destroy());
    refuse(res, 413, 'Payload too large', true);
  };
  const timer = setTimeout(() => answer(true), DRAIN_MS);
  timer.unref?.();
  req.on('data', (chunk) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) answer(true);
  });
  req.on('end', () => answer(false));
  req.on('error', () => answer(true));
  req.resume();
}

/**
 * Reads a request's body into a Buffer, at most `limit` bytes. Resolves `null` (having answered 413) when the
 * body is larger, as declared by Content-Length or as counted while it arrives.
 */
export function readLimitedBody(req, res, limit = MAX_BODY_BYTES) {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (!Number.isFinite(declared) || declared > limit) {
    tooLarge(req, res);
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        tooLarge(req, res);
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error) => {
      cleanup();
      reject(error);
    };
    function cleanup() {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Express middleware, before any other route: a request whose target, path or Host makes no URL gets 400
 * (never a 500 or a URIError stack later).
 */
export function badRequestTargets() {
  return (req, res, next) => (requestUrl(req) === null ? refuse(res, 400, 'Bad request', true) : next());
}

/** A Node request's headers as web `Headers` (repeated headers appended in order). */
function webHeaders(nodeHeaders) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Writes a web `Response` to a Node response (each `Set-Cookie` its own header line). */
async function sendResponse(res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  if (response.body === null) res.end();
  else await pipeline(Readable.fromWeb(response.body), res);
}

/**
 * The Remix request handler behind the gate: `handle` is `createRequestHandler(build, mode)` of
 * `@remix-run/node`, called with the request and a fresh load context `{ clientAddress }` (the socket's
 * peer, or what `trustedProxies` reported: ./client-address.mjs). Express middleware; what passes is handed
 * to Remix with its (small, fully read) body.
 */
export function gatedRemixHandler(
  handle,
  { maxBodyBytes = MAX_BODY_BYTES, trustedProxies = NO_TRUSTED_PROXIES } = {},
) {
  return async (req, res, next) => {
    try {
      const url = requestUrl(req);
      if (url === null) return refuse(res, 400, 'Bad request', true);
      if (isCrossOrigin(req)) return refuse(res, 403, 'Forbidden: cross-origin request');
      // Read first, also for a refusal below: its answer leaves no unread body on the connection.
      const body = await readLimitedBody(req, res, maxBodyBytes);
      if (body === null) return;
      const answer = methodAnswer(req.method, url);
      if (answer !== null) return refuse(res, answer.status, answer.text, false, answer.headers);
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const init = { method: req.method, headers: webHeaders(req.headers), signal: controller.signal };
      if (req.method !== 'GET' && req.method !== 'HEAD') init.body = body;
      const context = { clientAddress: clientAddress(req, trustedProxies) };
      await sendResponse(res, await handle(new Request(url.href, init), context));
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Answers the `CONNECT` requests of `server` (a tunnel: the HTTP server hands them to a `connect` listener
 * instead of the app, and without one drops the connection unanswered) with 405 and `Connection: close`,
 * and one line of `log` as the access log writes it (the target is an authority, `host:port`, clipped).
 */
export function refuseTunnels(server, log = (line) => console.log(line)) {
  server.on('connect', (req, socket) => {
    const started = process.hrtime.bigint();
    socket.on('error', () => socket.destroy());
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, OPTIONS\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log(`CONNECT ${String(req.url ?? '').slice(0, 200)} 405 ${ms.toFixed(1)} ms`);
      },
    );
  });
  return server;
}

/** What an error handler logs of an error: its name and code, never its message (it may quote a request). */
function errorSummary(error) {
  if (!(error instanceof Error)) return typeof error;
  const code = /** @type {{ code?: unknown }} */ (error).code;
  return typeof code === 'string' ? `${error.name} (${code})` : error.name;
}

/**
 * Express error handler, last of all: an error that reached Express (a body that failed mid-read, a
 * response that broke while streaming) gets one log line for a server fault (5xx) and none for a client's
 * (4xx, already in the access log), never a stack (Express's default handler prints one), and a plain
 * answer that closes the connection; a response already under way is cut off instead.
 */
export function quietErrors(write = (line) => console.error(line)) {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      req.socket?.destroy();
      return;
    }
    const declared = Number(error?.status ?? error?.statusCode);
    const status = Number.isInteger(declared) && declared >= 400 && declared < 600 ? declared : 500;
    if (status >= 500) {
      const path = (req.originalUrl ?? req.url ?? '').split('?')[0].slice(0, 200);
      write(`doorway host: ${req.method} ${path} failed: ${errorSummary(error)}`);
    }
    refuse(res, status, STATUS_CODES[status] ?? 'Error', true);
  };
}
