/**
 * The double from a browser's side: a `fetch` that answers its routes and its IdP's in process, and
 * `follow`, which walks a URL through their redirects to where it lands.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { idpAuthorize } from './idp.ts';
import { type LimiterName, limitRequest } from './limits.ts';
import { redirect } from './responses.ts';
import { handle } from './router.ts';
import { authorize, callback } from './routes/external.ts';
import { verifyGet } from './routes/verify.ts';

/** The double as a `fetch`: its own routes and the IdP's, in process. */
export async function doubleFetch(
  ctx: DoubleContext,
  input: RequestInfo | URL,
  init?: RequestInit,
): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  let response: Response;
  if (url.href.startsWith(`${ctx.authUrl}/`)) response = await handle(ctx, request);
  else if (url.origin === ctx.idpUrl) response = redirect(idpAuthorize(ctx, url));
  else throw new TypeError(`gotrue double: no route to ${url.origin}`);
  if (response.type === 'error') throw new TypeError('Failed to fetch');
  return response;
}

/** Whether a browser's request to `url` passes the per-client limit `name`. */
function allowed(ctx: DoubleContext, url: URL, name: LimiterName): boolean {
  try {
    limitRequest(ctx, new Request(url), name);
    return true;
  } catch {
    return false;
  }
}

/** Where one hop from `url` leads, or `null` once it has left the double and its IdP. */
function nextHop(ctx: DoubleContext, url: URL): string | null {
  if (url.origin === ctx.idpUrl) return idpAuthorize(ctx, url);
  if (url.href.startsWith(`${ctx.authUrl}/authorize`)) return authorize(ctx, url.searchParams, null);
  if (url.href.startsWith(`${ctx.authUrl}/callback`)) return callback(ctx, url.searchParams);
  if (url.href.startsWith(`${ctx.authUrl}/verify`)) {
    // Over /verify's rate limit the browser stays on the link, shown GoTrue's 429.
    if (!allowed(ctx, url, 'verify')) return null;
    return verifyGet(ctx, url.searchParams).headers.get('Location') ?? '';
  }
  return null;
}

/**
 * What a browser does with a URL on the double or its IdP: follows the redirects (synchronously, through
 * the same routes) until it leaves them, and returns where it lands.
 */
export function follow(ctx: DoubleContext, start: string): string {
  let current = start;
  for (let hops = 0; hops < 10; hops++) {
    ctx.clock.tick();
    const next = nextHop(ctx, new URL(current));
    if (next === null) return current;
    current = next;
  }
  throw new Error('gotrue double: too many redirects');
}
