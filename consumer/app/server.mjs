// Serves the built app (dist/) on 127.0.0.1 at PORT (0: any free port) and prints its URL. When the app
// has a server entry (dist-server/entry-server.js, from `vite build --ssr`), the page's `<!--app-->` is
// what that entry renders, so the browser hydrates the server's HTML.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const dist = join(import.meta.dirname, 'dist');
const serverEntry = join(import.meta.dirname, 'dist-server', 'entry-server.js');
const render = existsSync(serverEntry) ? (await import(serverEntry)).render : () => '';
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

function page() {
  return readFileSync(join(dist, 'index.html'), 'utf8').replace('<!--app-->', render());
}

const server = createServer((req, res) => {
  const path = normalize(new URL(req.url ?? '/', 'http://x').pathname);
  // The widget's forms post to the page before hydration; this check wants the hydrated widget.
  if (req.method !== 'GET') return res.writeHead(405).end('only GET: the page must be hydrated');
  const file = join(dist, path);
  if (path !== '/' && file.startsWith(dist) && existsSync(file)) {
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    return res.end(readFileSync(file));
  }
  res.writeHead(200, { 'content-type': 'text/html' }).end(page());
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`);
});
