import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { codeModeRedirect } from '../code-mode-redirect.server.ts';
import { FlowPage } from '../components/FlowPage.tsx';
import { loginAction, loginLoader } from '../login-route.server.ts';
import { pageHeaders } from '../throttle.server.ts';

export const meta: MetaFunction = () => [{ title: 'Sign in – Doorway' }];

// A sign-in page shows a visitor's own flow (the card, the email typed): never cached. A throttled card
// keeps its Retry-After.
export const headers: HeadersFunction = (answered) => pageHeaders({ 'cache-control': 'no-store' }, answered);

/**
 * `GET /login`: the first card (or the sign-out card with `?signedOut=1`), rendered by the server; a
 * code-mode URL (`?mode=resetPassword&oobCode=…`) goes to `/action` first, its code never in this page.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) =>
  codeModeRedirect(request) ?? loginLoader(request, context);

/** `POST /login`: a card's form, run on the server; the next card, or the session and a redirect. */
export const action = ({ request, context }: ActionFunctionArgs) => loginAction(request, context);

export default function Login() {
  return <FlowPage signOutCard />;
}
