/**
 * The gate in front of Remix, on a real HTTP server over loopback: odd request targets, cross-origin
 * writes and oversized bodies (chunked too) are refused before any route runs, without a 500; odd methods,
 * writes to routes without an action, `_data` probes and malformed paths are answered by the gate with one
 * log line and no stack; `Strict-Transport-Security` on public hosts; each request's client address.
 * @see issue 12
 * @see issue 24
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  clientAddress,
  NO_TRUSTED_PROXIES,
  normalizeAddress,
  parseTrustedProxies,
} from '../client-address.mjs';
import { createHostApp } from '../host-app.mjs';
import {
  allowedMethods,
  badRequestTargets,
  type GateLoadContext,
  gatedRemixHandler,
  isLocalHostname,
  MAX_BODY_BYTES,
  quietErrors,
  refuseTunnels,
  routePath,
  WRITE_ROUTES,
} from '../request-gate.mjs';

let port = 0;
let close: () => Promise<void>;
const handled: { method: string; url: string; body: string }[] = [];

beforeAll(async () => {
  const targets = badRequestTargets();
  const remix = gatedRemixHandler(async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    handled.push({ method: request.method, url: request.url, body });
    return new Response(`ok ${body.length}`, { status: 200 });
  });
  // What server.mjs does with Express: the target check first, then the gated handler.
  const server = createServer((req, res) => {
    const fail = (error?: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    };
    targets(req, res, () => void remix(req, res, fail));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(() => close());

/** Sends raw bytes on a new connection; resolves with everything the server wrote before it closed. */
function raw(head: string, body: (socket: Socket) => void = () => undefined): Promise<string> {
  return rawTo(port, head, body);
}

/** {@link raw} to the server on `target`. */
function rawTo(
  target: number,
  head: string,
  body: (socket: Socket) => void = () => undefined,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(target, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // A reset after the answer arrived still counts as an answer.
      answer ? resolve(answer) : reject(error),
    );
    socket.on('close', () => resolve(answer));
    socket.write(head);
    body(socket);
  });
}

const status = (answer: string) => Number(answer.split(' ')[1]);

describe('request targets', () => {
  it.each([
    'GET * HTTP/1.1',
    'GET http://evil.example/login HTTP/1.1',
    'GET https://127.0.0.1/login HTTP/1.1',
    'OPTIONS * HTTP/1.1',
  ])('%s answers 400 and closes', async (line) => {
    const before = handled.length;
    const answer = await raw(`${line}\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(status(answer)).toBe(400);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(handled.length).toBe(before);
  });

  it.each(['a/b', 'a@b', 'a?b', ''])('a Host of %j answers 400', async (host) => {
    const answer = await raw(`GET /login HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(status(answer)).toBe(400);
  });

  it('a path that starts with // is a path of this host', async () => {
    const answer = await raw(`GET //evil.example/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(status(answer)).toBe(200);
    expect(handled.at(-1)?.url).toBe('http://127.0.0.1//evil.example/x');
  });
});

describe('cross-origin writes', () => {
  const post = (headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}/login`, { method: 'POST', body: 'a=1', headers });

  it.each(['http://evil.example', 'null', 'http://127.0.0.1:1', 'not a url'])(
    'a POST with Origin %j answers 403 without reaching Remix',
    async (origin) => {
      const before = handled.length;
      const response = await post({ origin });
      expect(response.status).toBe(403);
      expect(await response.text()).toBe('Forbidden: cross-origin request');
      expect(handled.length).toBe(before);
    },
  );

  it('a same-host POST, or one without Origin, goes on with its body', async () => {
    expect(await (await post({ origin: `http://127.0.0.1:${port}` })).text()).toBe('ok 3');
    expect(await (await post({})).text()).toBe('ok 3');
    expect(handled.at(-1)).toMatchObject({ method: 'POST', body: 'a=1' });
  });

  it('a cross-origin GET is a read and goes on', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/login`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(response.status).toBe(200);
  });
});

describe('body size', () => {
  it('a body of exactly the limit is read whole, chunked or not', async () => {
    const body = 'x'.repeat(MAX_BODY_BYTES);
    expect(await (await fetch(`http://127.0.0.1:${port}/login`, { method: 'POST', body })).text()).toBe(
      `ok ${MAX_BODY_BYTES}`,
    );
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 1000)));
        controller.enqueue(new TextEncoder().encode(body.slice(1000)));
        controller.close();
      },
    });
    const chunked = await fetch(`http://127.0.0.1:${port}/login`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await chunked.text()).toBe(`ok ${MAX_BODY_BYTES}`);
  });

  it('a declared Content-Length over the limit answers 413 and closes, unread', async () => {
    const before = handled.length;
    const answer = await raw(
      `POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
      (socket) => socket.write('x'.repeat(1000)),
    );
    expect(status(answer)).toBe(413);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(handled.length).toBe(before);
  });

  it('a chunked body over the limit is drained, answered 413, and the connection closed', async () => {
    const before = handled.length;
    const chunk = 'x'.repeat(4096);
    const answer = await raw(
      'POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        for (let i = 0; i < 256; i++) socket.write(`1000\r\n${chunk}\r\n`);
        socket.write('0\r\n\r\n');
      },
    );
    expect(status(answer)).toBe(413);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(handled.length).toBe(before);
  });

  it('20 concurrent 10 MB posts: each read to its end and dropped, answered 413, none reaching Remix', async () => {
    const before = handled.length;
    const big = new Uint8Array(10 * 1024 * 1024);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${port}/action`, { method: 'POST', body: big }).then(
          (r) => r.status,
          () => 'reset',
        ),
      ),
    );
    expect(answers).toEqual(Array(20).fill(413));
    expect(handled.length).toBe(before);
  });

  it('after a refused 2 MB post, the next request of the same client is answered', async () => {
    const refused = await fetch(`http://127.0.0.1:${port}/login`, {
      method: 'POST',
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(refused.status).toBe(413);
    const next = await fetch(`http://127.0.0.1:${port}/login`);
    expect(next.status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Odd requests, the write routes, HSTS and the client address, on the host's own Express app (issue 24).
// ---------------------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request with any method and any `Host` (fetch can set neither TRACE nor Host). */
function send(
  target: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target,
        method,
        path,
        // Node sends a DELETE's body unframed unless its length is given.
        headers:
          body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The host app on a loopback port, with a stand-in for Remix that records what reaches it. */
async function hostApp(trustedProxies = NO_TRUSTED_PROXIES) {
  const reached: { method: string; url: string; context: GateLoadContext }[] = [];
  const accessLines: string[] = [];
  const errorLines: string[] = [];
  const files = mkdtempSync(join(tmpdir(), 'doorway-gate-'));
  writeFileSync(join(files, 'robots.txt'), 'User-agent: *\n');
  const app = createHostApp({
    handle: async (request, context) => {
      reached.push({ method: request.method, url: request.url, context });
      if (new URL(request.url).pathname === '/boom') throw new Error('at the secret place');
      return new Response('ok', { status: 200 });
    },
    publicPath: '/assets/',
    assetsBuildDirectory: files,
    publicDirectory: files,
    trustedProxies,
    log: (line) => accessLines.push(line),
    errorLog: (line) => errorLines.push(line),
  });
  const server = refuseTunnels(createServer(app), (line) => accessLines.push(line));
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    reached,
    accessLines,
    errorLines,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Everything written to the console while `run` runs (nothing should be: refusals are quiet). */
async function consoleDuring(run: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  const spies = (['error', 'warn', 'log', 'info'] as const).map((name) =>
    vi.spyOn(console, name).mockImplementation((...args: unknown[]) => {
      written.push(args.map((arg) => (arg instanceof Error ? (arg.stack ?? '') : String(arg))).join(' '));
    }),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written;
}

describe('odd requests are answered by the gate, one log line each, no stack (issue 24)', () => {
  let host: Awaited<ReturnType<typeof hostApp>>;
  beforeAll(async () => {
    host = await hostApp();
  });
  afterAll(() => host.close());

  /** Sends one request and checks it never reached Remix and left one access-log line and no stack. */
  async function refused(method: string, path: string, body?: string): Promise<Answer> {
    const reachedBefore = host.reached.length;
    const linesBefore = host.accessLines.length;
    let answer: Answer | undefined;
    const written = await consoleDuring(async () => {
      answer = await send(
        host.port,
        method,
        path,
        body === undefined ? {} : { 'content-type': 'text/plain' },
        body,
      );
    });
    expect(host.reached.length, `${method} ${path} reached Remix`).toBe(reachedBefore);
    const lines = host.accessLines.slice(linesBefore);
    expect(lines, `${method} ${path}`).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${method} \\S+ ${answer?.status} `));
    expect(written).toEqual([]);
    expect(host.errorLines).toEqual([]);
    return answer as Answer;
  }

  it.each(['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH'])(
    '%s /login answers 405 with Allow, without building a Request (TRACE would throw)',
    async (method) => {
      const answer = await refused(method, '/login');
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
      expect(answer.body).toBe('Method not allowed');
    },
  );

  it('CONNECT answers 405 and closes, with one log line', async () => {
    const answer = await rawTo(
      host.port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(status(answer)).toBe(405);
    expect(answer.toLowerCase()).toContain('connection: close');
    await vi.waitFor(() =>
      expect(host.accessLines.at(-1)).toMatch(/^CONNECT example\.com:443 405 \d+\.\d ms$/),
    );
  });

  it('OPTIONS answers 204 with the path’s Allow', async () => {
    expect(await refused('OPTIONS', '/login')).toMatchObject({
      status: 204,
      headers: { allow: 'GET, HEAD, OPTIONS, POST' },
      body: '',
    });
    expect((await refused('OPTIONS', '/account')).headers.allow).toBe('GET, HEAD, OPTIONS, POST');
    expect((await refused('OPTIONS', '/account/deleted')).headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await refused('OPTIONS', '/passkeys/credentials/x')).headers.allow).toBe(
      'GET, HEAD, OPTIONS, POST, DELETE',
    );
  });

  it.each([
    ['POST', '/'],
    ['POST', '/account/deleted'],
    ['PUT', '/account'],
    ['POST', '/bench/bare'],
    ['POST', '/no/such/page'],
    ['POST', '/_root.data'],
    ['POST', '/account/deleted.data'],
    ['PUT', '/login'],
    ['PATCH', '/login'],
    ['DELETE', '/login'],
    ['DELETE', '/session'],
    ['PUT', '/passkeys/credentials/x'],
  ])('%s %s (no such action) answers 405 with Allow', async (method, path) => {
    const answer = await refused(method, path, 'a=1');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toMatch(/^GET, HEAD, OPTIONS/);
    expect(answer.headers.allow?.split(', ')).not.toContain(method);
  });

  it.each([
    '/login?_data=x',
    '/login?_data=routes/login',
    '/login?_data=root',
    '/?_data',
    '/action?mode=verifyEmail&_data=routes%2Faction',
  ])('a `_data` probe (%s) answers 400', async (path) => {
    expect((await refused('GET', path)).status).toBe(400);
  });

  it.each(['/login%zz', '/%E0%A4%A', '/assets/%', '/robots.txt%', '/login/%C0'])(
    'a malformed percent-escape in the path (%s) answers 400 and closes, no URIError',
    async (path) => {
      const answer = await refused('GET', path);
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
    },
  );

  it.each([
    ['POST', '/login'],
    ['POST', '/login.data'],
    ['POST', '/LOGIN/'],
    ['POST', '/log%69n'],
    ['POST', '/action?mode=resetPassword&oobCode=x'],
    ['POST', '/action.data?mode=resetPassword'],
    ['POST', '/session'],
    ['POST', '/logout'],
    ['POST', '/account'],
    ['POST', '/account.data'],
    ['POST', '/account/browser-sign-in'],
    ['POST', '/account/passkeys'],
    ['POST', '/account/second-factors'],
    ['POST', '/passkeys/authentication/options'],
    ['DELETE', '/passkeys/credentials/abc'],
    ['GET', '/login.data'],
    ['GET', '/_root.data?_routes=root'],
    ['GET', '/account'],
    ['HEAD', '/login'],
  ])('%s %s goes on to Remix', async (method, path) => {
    const before = host.reached.length;
    const answer = await send(
      host.port,
      method,
      path,
      {},
      method === 'GET' || method === 'HEAD' ? undefined : '{}',
    );
    expect(answer.status).toBe(200);
    expect(host.reached.length).toBe(before + 1);
    expect(host.reached.at(-1)?.method).toBe(method);
  });

  it('the files are still served (no Allow logic in front of them)', async () => {
    expect((await send(host.port, 'GET', '/robots.txt')).body).toBe('User-agent: *\n');
  });

  it('an error that reaches Express logs one line, without its stack or message, and answers 500', async () => {
    const written = await consoleDuring(async () => {
      const answer = await send(host.port, 'GET', '/boom?oobCode=SECRET');
      expect(answer.status).toBe(500);
      expect(answer.body).toBe('Internal Server Error');
    });
    expect(written).toEqual([]);
    expect(host.errorLines).toEqual(['doorway host: GET /boom failed: Error']);
    host.errorLines.length = 0;
    expect(host.accessLines.at(-1)).toMatch(/^GET \/boom\?oobCode=\[redacted\] 500 /);
  });
});

describe('quietErrors (issue 24)', () => {
  const res = () => {
    const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
    return {
      written,
      headersSent: false,
      writeHead(statusCode: number, headers: Record<string, string>) {
        written.status = statusCode;
        written.headers = headers;
      },
      end(body: string) {
        written.body = body;
      },
    };
  };

  it('answers a client error (a URIError Express marked 400) without logging it', () => {
    const lines: string[] = [];
    const answer = res();
    const error = Object.assign(new URIError("Failed to decode param '/x%zz'"), { status: 400 });
    quietErrors((line) => lines.push(line))(
      error,
      { method: 'GET', url: '/x%zz' } as never,
      answer as never,
      () => undefined,
    );
    expect(answer.written).toMatchObject({
      status: 400,
      body: 'Bad Request',
      headers: { connection: 'close' },
    });
    expect(lines).toEqual([]);
  });

  it('names a server fault’s class and code, never its message', () => {
    const lines: string[] = [];
    const error = Object.assign(new Error('token=abc'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    quietErrors((line) => lines.push(line))(
      error,
      { method: 'POST', url: '/session?x=1' } as never,
      res() as never,
      () => undefined,
    );
    expect(lines).toEqual(['doorway host: POST /session failed: Error (ERR_STREAM_PREMATURE_CLOSE)']);
  });

  it('cuts off a response already under way instead of writing to it', () => {
    let destroyed = false;
    const answer = { ...res(), headersSent: true };
    quietErrors(() => undefined)(
      new Error('x'),
      {
        method: 'GET',
        url: '/',
        socket: {
          destroy: () => {
            destroyed = true;
          },
        },
      } as never,
      answer as never,
      () => undefined,
    );
    expect(destroyed).toBe(true);
    expect(answer.written).toEqual({});
  });
});

describe('the write routes are the routes with an action (issue 24)', () => {
  /** The URL path of a flat-routes file name: `account_.passkeys.ts` → `/account/passkeys`, `$` → `*`. */
  const pathOf = (file: string) => {
    const name = file.replace(/\.(tsx?|jsx?)$/, '');
    if (name === '_index') return '/';
    return `/${name
      .split('.')
      .map((segment) => (segment === '$' ? '*' : segment.replace(/_$/, '')))
      .join('/')}`;
  };

  it('WRITE_ROUTES lists exactly the route files that export an action', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'app', 'routes');
    const withAction = readdirSync(dir)
      .filter((file) =>
        /^export (const|async function|function) action\b/m.test(readFileSync(join(dir, file), 'utf8')),
      )
      .map(pathOf)
      .sort();
    expect(withAction.length).toBeGreaterThan(0);
    expect(WRITE_ROUTES.map((route) => route.path).sort()).toEqual(withAction);
  });

  it('routePath matches as Remix does: decoded, without case, trailing slashes or `.data`', () => {
    expect(routePath('/Login/')).toBe('/login');
    expect(routePath('/log%69n')).toBe('/login');
    expect(routePath('/login.data')).toBe('/login');
    expect(routePath('/_root.data')).toBe('/');
    expect(routePath('/account%2Fpasskeys')).toBe('/account%2fpasskeys');
    expect(routePath('/login%zz')).toBeNull();
    expect(allowedMethods('/account%2Fpasskeys')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(allowedMethods('/passkeys')).toContain('DELETE');
    expect(allowedMethods('/passkeysx')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});

describe('Strict-Transport-Security (issue 24)', () => {
  let host: Awaited<ReturnType<typeof hostApp>>;
  beforeAll(async () => {
    host = await hostApp();
  });
  afterAll(() => host.close());

  it.each(['doorway.example', 'doorway.example:8443', 'localhost.example', '10.0.0.5:3000', '[2001:db8::1]'])(
    'every answer for Host %s carries it: pages, files, refusals',
    async (name) => {
      const requests: [string, string][] = [
        ['GET', '/login'],
        ['GET', '/robots.txt'],
        ['TRACE', '/login'],
        ['GET', '/login%zz'],
        ['GET', '/login?_data=x'],
      ];
      for (const [method, path] of requests) {
        const answer = await send(host.port, method, path, { host: name });
        expect(answer.headers['strict-transport-security'], `${method} ${path}`).toBe(
          'max-age=31536000; includeSubDomains',
        );
      }
    },
  );

  it.each(['localhost', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'app.localhost', 'LOCALHOST.'])(
    'no answer for Host %s carries it',
    async (name) => {
      for (const path of ['/login', '/robots.txt', '/login%zz']) {
        const answer = await send(host.port, 'GET', path, { host: name });
        expect(answer.headers['strict-transport-security'], path).toBeUndefined();
      }
    },
  );

  it('isLocalHostname', () => {
    expect(['localhost', 'a.b.localhost', '127.0.0.1', '127.1.2.3', '[::1]'].map(isLocalHostname)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['localhost.evil.example', 'evil-localhost', '128.0.0.1', '[::2]'].map(isLocalHostname)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the client address of each request (issue 24)', () => {
  const req = (remoteAddress: string | undefined, forwarded?: string | string[]) => ({
    socket: { remoteAddress },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  });
  const proxies = parseTrustedProxies('10.0.0.1, 10.1.0.0/16, fd00::/8');

  it('is the socket’s peer without trusted proxies, whatever X-Forwarded-For says', () => {
    expect(clientAddress(req('203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddress(req('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
    expect(clientAddress(req('2001:db8::7', '198.51.100.1'))).toBe('2001:db8::7');
  });

  it('ignores a forged X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress(req('203.0.113.9', '10.0.0.1'), proxies)).toBe('203.0.113.9');
    expect(clientAddress(req('203.0.113.9', '198.51.100.1, 10.0.0.1'), proxies)).toBe('203.0.113.9');
  });

  it('from a trusted proxy, is the right-most X-Forwarded-For entry that is not a trusted proxy', () => {
    expect(clientAddress(req('10.0.0.1', '198.51.100.1'), proxies)).toBe('198.51.100.1');
    // The client forged the first entry; the proxies appended the rest.
    expect(clientAddress(req('10.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3'), proxies)).toBe('198.51.100.1');
    expect(clientAddress(req('10.1.9.9', ['6.6.6.6, 198.51.100.1', '10.0.0.1']), proxies)).toBe(
      '198.51.100.1',
    );
    expect(clientAddress(req('fd00::1', '2001:db8::5')), 'without the list').toBe('fd00::1');
    expect(clientAddress(req('fd00::1', '2001:db8::5, fd00::2'), proxies)).toBe('2001:db8::5');
  });

  it('from a trusted proxy without a usable entry, is the nearest trusted hop', () => {
    expect(clientAddress(req('10.0.0.1'), proxies)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1', ''), proxies)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1', 'unknown, 10.1.0.5'), proxies)).toBe('10.1.0.5');
    expect(clientAddress(req('10.0.0.1', '10.1.0.7, 10.1.0.5'), proxies)).toBe('10.1.0.7');
  });

  it('normalises IPv4-mapped IPv6, ports, brackets and IPv6 spelling', () => {
    expect(clientAddress(req('::ffff:127.0.0.1'))).toBe('127.0.0.1');
    expect(clientAddress(req('::FFFF:7f00:1'))).toBe('127.0.0.1');
    expect(clientAddress(req('::ffff:10.0.0.1', '::ffff:198.51.100.1'), proxies)).toBe('198.51.100.1');
    expect(clientAddress(req('10.0.0.1', '198.51.100.1:4711'), proxies)).toBe('198.51.100.1');
    expect(clientAddress(req('10.0.0.1', '[2001:DB8:0:0::9]:4711'), proxies)).toBe('2001:db8::9');
    expect(normalizeAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(normalizeAddress('not an address')).toBeNull();
  });

  it('is "unknown" when the socket has no address left', () => {
    expect(clientAddress(req(undefined))).toBe('unknown');
    expect(clientAddress({ socket: null, headers: {} })).toBe('unknown');
  });

  it('DOORWAY_TRUSTED_PROXIES: addresses and CIDR ranges, anything else refused naming the variable only', () => {
    expect(parseTrustedProxies(undefined).size).toBe(0);
    expect(parseTrustedProxies(' , ').size).toBe(0);
    expect(parseTrustedProxies('::ffff:10.0.0.1').has('10.0.0.1')).toBe(true);
    expect(proxies.has('10.1.255.255')).toBe(true);
    expect(proxies.has('10.2.0.0')).toBe(false);
    for (const bad of [
      'nonsense',
      '10.0.0.1:80',
      '[::1]',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/x',
      '10.0.0.0/8/8',
      '*',
    ]) {
      expect(() => parseTrustedProxies(`10.0.0.1, ${bad}`), bad).toThrow(
        /^DOORWAY_TRUSTED_PROXIES: entry 2 is not an IP address or a CIDR range/,
      );
      try {
        parseTrustedProxies(`10.0.0.1, ${bad}`);
      } catch (error) {
        if (bad.length > 1) expect((error as Error).message).not.toContain(bad);
      }
    }
  });

  it('the server refuses to start on a bad DOORWAY_TRUSTED_PROXIES, with one line naming it', () => {
    const server = join(dirname(fileURLToPath(import.meta.url)), '..', 'server.mjs');
    const run = spawnSync(process.execPath, [server, '/nonexistent/build.js'], {
      env: { ...process.env, DOORWAY_TRUSTED_PROXIES: '10.0.0.1,proxy.internal' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'doorway host: DOORWAY_TRUSTED_PROXIES: entry 2 is not an IP address or a CIDR range (e.g. 10.0.0.1, 10.0.0.0/8, fd00::/8)',
    ]);
  });

  it('each request’s loaders get a fresh { clientAddress }: the peer, a forged header changing nothing', async () => {
    const host = await hostApp();
    try {
      await send(host.port, 'GET', '/login', { 'x-forwarded-for': '198.51.100.1' });
      await send(host.port, 'GET', '/login');
      const [first, second] = host.reached.map((entry) => entry.context);
      expect(first).toEqual({ clientAddress: '127.0.0.1' });
      expect(second).toEqual({ clientAddress: '127.0.0.1' });
      expect(first).not.toBe(second);
    } finally {
      await host.close();
    }
  });

  it('behind a trusted proxy (the loopback peer), the address the proxy forwarded', async () => {
    const host = await hostApp(parseTrustedProxies('127.0.0.1, 10.0.0.0/8'));
    try {
      await send(
        host.port,
        'POST',
        '/login',
        { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.2' },
        'a=1',
      );
      await send(host.port, 'GET', '/login');
      expect(host.reached.map((entry) => entry.context.clientAddress)).toEqual(['198.51.100.1', '127.0.0.1']);
    } finally {
      await host.close();
    }
  });
});
