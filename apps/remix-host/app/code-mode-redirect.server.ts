/**
 * A code-mode URL on the sign-in page (`/login?mode=resetPassword&oobCode=…`: a hand-edited or mangled
 * action link) goes to the action route, which handles the code without writing it into the page and with
 * the action pages' headers. Rendered on `/login`, the code would sit in the page data and its scripts, and
 * leave through a `Referer`. Sign-in links (`mode=signIn`) and `mode=select` stay on `/login`.
 * @see issue 24
 * @module
 */
import { codeModeOf } from './action.server.ts';
import { ACTION_PATH } from './public-config.ts';
import { ACTION_PAGE_HEADERS } from './security-headers.ts';

/**
 * `303 /action?<the same query>` with the action pages' headers (`no-store`, `Referrer-Policy:
 * same-origin`, `noindex`) when `request` is a code-mode URL, else `null`.
 */
export function codeModeRedirect(request: Request): Response | null {
  const url = new URL(request.url);
  if (codeModeOf(url) === null) return null;
  return new Response(null, {
    status: 303,
    headers: { ...ACTION_PAGE_HEADERS, location: `${ACTION_PATH}${url.search}` },
  });
}
