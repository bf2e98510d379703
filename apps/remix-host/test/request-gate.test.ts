/**
 * The gate in front of Remix, on a real HTTP server over loopback: odd request targets, cross-origin
 * writes and oversized bodies (chunked too) are refused before any route runs, without a 500.
 * @see issue 12
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequestTargets, gatedRemixHandler, MAX_BODY_BYTES } from '../request-gate.mjs';

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
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
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
    expect(await (await fetch(`http://127.0.0.1:${port}/a`, { method: 'POST', body })).text()).toBe(
      `ok ${MAX_BODY_BYTES}`,
    );
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body.slice(0, 1000)));
        controller.enqueue(new TextEncoder().encode(body.slice(1000)));
        controller.close();
      },
    });
    const chunked = await fetch(`http://127.0.0.1:${port}/a`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await chunked.text()).toBe(`ok ${MAX_BODY_BYTES}`);
  });

  it('a declared Content-Length over the limit answers 413 and closes, unread', async () => {
    const before = handled.length;
    const answer = await raw(
      `POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
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
    const refused = await fetch(`http://127.0.0.1:${port}/a`, {
      method: 'POST',
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(refused.status).toBe(413);
    const next = await fetch(`http://127.0.0.1:${port}/a`);
    expect(next.status).toBe(200);
  });
});
