import { cardTitle } from '@doorway/auth-core';
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { FlowPage } from '../components/FlowPage.tsx';
import { formAction, formLoader, LOGIN_PAGE, type LoginView } from '../form-path.server.ts';
import { pageTitle } from '../root.tsx';
import { pageHeaders } from '../throttle.server.ts';

// The card the server rendered names the page ("Error: " first when it shows one); the widget then keeps
// the title in step (`onTitle`).
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? pageTitle(cardTitle((data as LoginView).state)) : 'Sign in – Doorway' },
];

// A sign-in page shows a visitor's own flow (the card, the email typed): never cached. A throttled card
// keeps its Retry-After.
export const headers: HeadersFunction = (answered) => pageHeaders({ 'cache-control': 'no-store' }, answered);

/**
 * `GET /login`: the first card (or the sign-out card with `?signedOut=1`), rendered by the server; a
 * code-mode URL (`?mode=resetPassword&oobCode=…`) goes to `/action` first (`LOGIN_PAGE`), its code never in
 * this page. Both run the form path (`form-path.server.ts`).
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => formLoader(request, context, LOGIN_PAGE);

/** `POST /login`: a card's form, run on the server; the next card, or the session and a redirect. */
export const action = ({ request, context }: ActionFunctionArgs) => formAction(request, context, LOGIN_PAGE);

export default function Login() {
  return <FlowPage signOutCard />;
}
