// The host's gate in front of Remix: what every request must satisfy before any route code runs, each refusal
// a plain answer with no stack trace in the log.
//   400: a request target that is not a path (`*`, absolute-form `http://other/x`) or a Host that makes no URL;
//   403: a state-changing request whose Origin is another host (Remix's own guard would throw a 500);
//   413: a body over MAX_BODY_BYTES, counted while it is read (chunked too), answered with `Connection: close`.
// The body is read here, into memory, once it is known to be small; the Remix request is built from it, so no
// route reads more than MAX_BODY_BYTES and no unread body is left on a kept-alive connection.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

/** The host a request names: `X-Forwarded-Host` (first value) as Remix reads it, else `Host`. */
function requestHost(headers) {
  const forwarded = headers['x-forwarded-host'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || headers.host || null;
}

/**
 * The request's absolute URL (from its `Host`, as the Express adapter of Remix builds it), or null when its
 * target is not a path (`*`, absolute-form) or its Host makes no plain origin (`a/b`, `a@b`, empty).
 */
export function requestUrl(req) {
  const target = req.originalUrl ?? req.url ?? '';
  const host = req.headers.host;
  if (!target.startsWith('/') || !host) return null;
  try {
    const base = new URL(`${req.protocol ?? 'http'}://${host}`);
    if (base.href !== `${base.origin}/`) return null;
    return new URL(`${base.origin}${target}`);
  } catch {
    return null;
  }
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

function refuse(res, status, text, close = false) {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
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

/** Express middleware, first of all: a request whose target or Host makes no URL gets 400 (never a 500 later). */
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
 * `@remix-run/node`. Express middleware; what passes is handed to Remix with its (small, fully read) body.
 */
export function gatedRemixHandler(handle, { maxBodyBytes = MAX_BODY_BYTES } = {}) {
  return async (req, res, next) => {
    try {
      const url = requestUrl(req);
      if (url === null) return refuse(res, 400, 'Bad request', true);
      if (isCrossOrigin(req)) return refuse(res, 403, 'Forbidden: cross-origin request');
      const body = await readLimitedBody(req, res, maxBodyBytes);
      if (body === null) return;
      const controller = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      const init = { method: req.method, headers: webHeaders(req.headers), signal: controller.signal };
      if (req.method !== 'GET' && req.method !== 'HEAD') init.body = body;
      await sendResponse(res, await handle(new Request(url.href, init)));
    } catch (error) {
      next(error);
    }
  };
}
