/**
 * The Remix side of the sign-in form path (`runLogin`): a route's loader and action. After a POST, Remix
 * runs the page's loaders in the same request to render it; the loader then shows what the action got
 * to (kept per request) instead of starting the flow over.
 * @module
 */
import { loadCards } from '@doorway/ui-cards';
import { data } from '@remix-run/node';
import { hostConfig } from './config.server.ts';
import { type FormPage, type LoginView, runLogin } from './login.server.ts';
import { formProvider, sessionBackend } from './services.server.ts';

// The action's view of a request, for that request's loaders (keyed by its load context).
const renderedByAction = new WeakMap<object, LoginView>();

async function run(request: Request, context: unknown, page: FormPage | undefined) {
  // The server renders any card, so the later cards (a chunk of their own in the browser) are loaded here.
  await loadCards();
  const out = await runLogin(request, {
    config: hostConfig(),
    provider: formProvider,
    sessions: sessionBackend,
    ...(page ? { page } : {}),
  });
  if (out instanceof Response) {
    // A refusal (403) is thrown: Remix renders the error card with its status, not a page from its body.
    if (out.status < 300 || out.status >= 400) throw out;
    return out;
  }
  if (typeof context === 'object' && context !== null) renderedByAction.set(context, out.view);
  return data(out.view, { status: out.status, headers: out.headers });
}

/**
 * The sign-in page's loader: the card the server renders first, or the one its action just got to.
 * `page`: another page of the form path (the action route).
 */
export async function loginLoader(request: Request, context: unknown, page?: FormPage) {
  const earlier = typeof context === 'object' && context !== null ? renderedByAction.get(context) : undefined;
  if (earlier !== undefined) return data(earlier);
  const out = await run(request, null, page);
  if (out instanceof Response) throw out;
  return out;
}

/** The sign-in page's action: one card's form. `page`: another page of the form path (the action route). */
export function loginAction(request: Request, context: unknown, page?: FormPage) {
  return run(request, context, page);
}
