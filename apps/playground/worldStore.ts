/**
 * A tiny in-memory store for playground worlds, mounted on the Vite dev and preview servers at
 * `/__world/<id>`: GET the log, POST one entry, PUT a document that replaces the log (`[document]`: the
 * Supabase mode's saved GoTrue double), DELETE the world. Shared by every browser context that
 * talks to the server, which is what lets an emailed link be opened on "another device".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

const MAX_ENTRIES = 10_000;
const MAX_BODY = 64 * 1024;
const MAX_DOCUMENT = 4 * 1024 * 1024;

export function worldStore(): Plugin {
  const worlds = new Map<string, unknown[]>();

  function handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const match = /^\/__world\/([\w.-]{1,64})$/.exec((req.url ?? '').split('?')[0] ?? '');
    const id = match?.[1];
    if (id === undefined) {
      next();
      return;
    }
    const log = worlds.get(id) ?? [];
    if (req.method === 'GET') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('cache-control', 'no-store');
      res.end(JSON.stringify(log));
      return;
    }
    if (req.method === 'DELETE') {
      worlds.delete(id);
      res.statusCode = 204;
      res.end();
      return;
    }
    if (req.method !== 'POST' && req.method !== 'PUT') {
      res.statusCode = 405;
      res.end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > (req.method === 'PUT' ? MAX_DOCUMENT : MAX_BODY)) req.destroy();
    });
    req.on('end', () => {
      try {
        if (req.method === 'PUT') worlds.set(id, [JSON.parse(body)]);
        else {
          if (log.length >= MAX_ENTRIES) throw new Error('world full');
          log.push(JSON.parse(body));
          worlds.set(id, log);
        }
        res.statusCode = 204;
      } catch {
        res.statusCode = 400;
      }
      res.end();
    });
  }

  return {
    name: 'playground-world-store',
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
