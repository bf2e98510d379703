/**
 * The Remix side of the sign-in form path (`runLogin`): a route's loader and action. After a POST, Remix
 * runs the page's loaders in the same request to render it; the loader then shows what the action got
 * to (kept on the request's own load context) instead of starting the flow over.
 * @module
 */
import { loadCards } from '@doorway/ui-cards';
import { data } from '@remix-run/node';
import { hostConfig } from './config.server.ts';
import { type FormPage, type LoginView, runLogin } from './login.server.ts';
import { formProvider, sessionBackend } from './services.server.ts';
import { hostThrottle, requestThrottle } from './throttle.server.ts';

// A bad DOORWAY_THROTTLE_* stops the server at start-up (this module loads with the build), not a visitor.
hostThrottle();

/**
 * Where the action leaves its view for the loaders of the same request. Remix hands an action and the
 * loaders that render after it one and the same load context object (its `requestContext`), and nothing
 * else they share: the host's server makes a fresh one per request (`server.mjs`), as Remix does by
 * default. So the view lives on that object, under a key no other code knows, and dies with the request:
 * no module-level map holds any visitor's data (one keyed by the context would, and would hand one
 * visitor's card to another the day a deployment shared a context object). The loader also takes it only
 * for the action's own request (same URL and cookies: Remix copies the action's headers to its loaders),
 * and takes it once.
 */
const ACTION_VIEW = Symbol('doorway.actionView');

interface ActionView {
  url: string;
  cookie: string | null;
  view: LoginView;
}

type WithActionView = { [ACTION_VIEW]?: ActionView };

const isObject = (context: unknown): context is WithActionView =>
  typeof context === 'object' && context !== null;

function keepView(context: unknown, request: Request, view: LoginView): void {
  if (!isObject(context)) return;
  context[ACTION_VIEW] = { url: request.url, cookie: request.headers.get('cookie'), view };
}

function takeView(context: unknown, request: Request): LoginView | undefined {
  if (!isObject(context)) return undefined;
  const kept = context[ACTION_VIEW];
  delete context[ACTION_VIEW];
  if (kept === undefined || kept.url !== request.url) return undefined;
  return kept.cookie === request.headers.get('cookie') ? kept.view : undefined;
}

async function run(request: Request, context: unknown, page: FormPage | undefined, keep: boolean) {
  // The server renders any card, so the later cards (a chunk of their own in the browser) are loaded here.
  await loadCards();
  const out = await runLogin(request, {
    config: hostConfig(),
    provider: formProvider,
    sessions: sessionBackend,
    throttle: requestThrottle(context),
    ...(page ? { page } : {}),
  });
  if (out instanceof Response) {
    // A refusal (403) is thrown: Remix renders the error card with its status, not a page from its body.
    if (out.status < 300 || out.status >= 400) throw out;
    return out;
  }
  if (keep) keepView(context, request, out.view);
  return data(out.view, { status: out.status, headers: out.headers });
}

/**
 * The sign-in page's loader: the card the server renders first, or the one its action just got to.
 * `page`: another page of the form path (the action route).
 */
export async function loginLoader(request: Request, context: unknown, page?: FormPage) {
  const earlier = takeView(context, request);
  if (earlier !== undefined) return data(earlier);
  const out = await run(request, context, page, false);
  if (out instanceof Response) throw out;
  return out;
}

/** The sign-in page's action: one card's form. `page`: another page of the form path (the action route). */
export function loginAction(request: Request, context: unknown, page?: FormPage) {
  return run(request, context, page, true);
}
