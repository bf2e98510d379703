/**
 * The Remix side of the sign-in form path (`runLogin`): a route's loader and action. After a POST, Remix
 * runs the page's loaders in the same request to render it; the loader then shows what the action got
 * to (kept per request) instead of starting the flow over.
 * @module
 */
import { loadCards } from '@doorway/ui-cards';
import { data } from '@remix-run/node';
import { hostConfig } from './config.server.ts';
import { type LoginView, runLogin } from './login.server.ts';
import { formProvider, sessionBackend } from './services.server.ts';

// The action's view of a request, for that request's loaders (keyed by its load context).
const renderedByAction = new WeakMap<object, LoginView>();

async function run(request: Request, context: unknown) {
  // The server renders any card, so the later cards (a chunk of their own in the browser) are loaded here.
  await loadCards();
  const out = await runLogin(request, {
    config: hostConfig(),
    provider: formProvider,
    sessions: sessionBackend,
  });
  if (out instanceof Response) return out;
  if (typeof context === 'object' && context !== null) renderedByAction.set(context, out.view);
  return data(out.view, { status: out.status, headers: out.headers });
}

/** The sign-in page's loader: the card the server renders first, or the one its action just got to. */
export async function loginLoader(request: Request, context: unknown) {
  const earlier = typeof context === 'object' && context !== null ? renderedByAction.get(context) : undefined;
  if (earlier !== undefined) return data(earlier);
  const out = await run(request, null);
  if (out instanceof Response) throw out;
  return out;
}

/** The sign-in page's action: one card's form. */
export function loginAction(request: Request, context: unknown) {
  return run(request, context);
}
