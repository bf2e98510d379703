/**
 * `@doorway/gotrue-double/http` (Node only): the GoTrue TEST DOUBLE served over HTTP on the
 * loopback address, for running an app (the Remix host, `npm run start:supabase`) and end-to-end tests
 * against it where no Supabase Auth server can run. It is not Supabase: see the README's "Checked against the
 * double only". Never expose it beyond 127.0.0.1.
 *
 * A plain `node:http` server around the double's `fetch`, plus what sits in front of GoTrue in Supabase:
 * CORS as GoTrue's own handler answers it (`rs/cors`: the request's origin reflected with credentials
 * allowed, the API-version header exposed so supabase-js can read the error shape), and the Kong gateway's
 * `apikey` header allowed.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createGoTrueDouble } from './gotrue-double.ts';
import { PEER_HEADER } from './limits.ts';
import type { GoTrueDouble, GoTrueDoubleOptions } from './types.ts';

/** Headers browsers may send (GoTrue's `AllowedHeaders` plus Kong's `apikey`). */
const ALLOWED_HEADERS = [
  'accept',
  'authorization',
  'content-type',
  'x-client-ip',
  'x-client-info',
  'x-jwt-aud',
  'x-supabase-api-version',
  'apikey',
].join(', ');

/**
 * `GET <url>/__double/outbox`: the emails the double "sent" (`{ emails: [{ to, type, link, sentAt }] }`), for
 * end-to-end tests. A double-only route, like the Firebase emulator's `oobCodes`; GoTrue has none.
 */
export const OUTBOX_PATH = '/__double/outbox';

/** Options of {@link serveGoTrueDouble}. */
export interface ServeGoTrueDoubleOptions extends Omit<GoTrueDoubleOptions, 'projectUrl'> {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
}

/** A double served over HTTP. */
export interface ServedGoTrueDouble {
  /** The project URL to configure (`http://127.0.0.1:<port>`); the auth API is at `<url>/auth/v1`. */
  readonly url: string;
  /** The double behind it (outbox, admin side, faults). */
  readonly double: GoTrueDouble;
  readonly server: Server;
  /** Stops listening. */
  close(): Promise<void>;
}

function corsHeaders(request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin;
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'X-Total-Count, Link, X-Supabase-Api-Version',
    vary: 'Origin',
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 1024 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A `node:http` request listener answering with `double` (whose project URL must be this server's origin).
 * Preflights are answered here; everything else goes to `double.fetch`.
 */
export function goTrueDoubleListener(double: GoTrueDouble) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const cors = corsHeaders(request);
    try {
      if (request.method === 'GET' && (request.url ?? '').split('?')[0] === OUTBOX_PATH) {
        // The double's own mailbox (as Inbucket is the Supabase CLI's): not part of GoTrue's API.
        const emails = double.outbox.emails.map(({ to, type, link, sentAt }) => ({ to, type, link, sentAt }));
        response.writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify({ emails }));
        return;
      }
      if (request.method === 'OPTIONS') {
        response.writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '300',
        });
        response.end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) headers.set(name, value.join(', '));
      }
      // The peer's address, which the rate limits count by unless RATE_LIMIT_HEADER names another header.
      headers.set(PEER_HEADER, request.socket.remoteAddress ?? 'unknown');
      const body =
        request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request);
      const answer = await double.fetch(new URL(request.url ?? '/', double.projectUrl), {
        method: request.method ?? 'GET',
        headers,
        ...(body === undefined || body.length === 0 ? {} : { body: new Uint8Array(body) }),
        redirect: 'manual',
      });
      const out: Record<string, string> = { ...cors };
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding') out[name] = value;
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
      response.end(bytes);
    } catch {
      // A network fault of the double (or a route it does not serve): the connection fails, as fetch would.
      if (!response.headersSent) response.writeHead(502, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'unexpected_failure', message: 'GoTrue double: no answer' }));
    }
  };
}

/**
 * Starts a GoTrue double on `http://127.0.0.1:<port>`.
 * @example
 * const { url, double, close } = await serveGoTrueDouble({ port: 54321, mailerAutoconfirm: true });
 * // DOORWAY_SUPABASE_URL=url DOORWAY_SUPABASE_ANON_KEY=double.anonKey
 */
export async function serveGoTrueDouble(options: ServeGoTrueDoubleOptions = {}): Promise<ServedGoTrueDouble> {
  const { port = 0, ...doubleOptions } = options;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  const url = `http://127.0.0.1:${actual}`;
  // Served to a real app, the double keeps real time: a simulated clock that moved a second per request
  // would mint tokens whose `exp` runs ahead of the app's clock by one second per request served.
  const double = createGoTrueDouble({
    ...doubleOptions,
    clock: { wall: true, ...doubleOptions.clock },
    projectUrl: url,
  });
  const listener = goTrueDoubleListener(double);
  server.on('request', (request, response) => void listener(request, response));
  return {
    url,
    double,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
