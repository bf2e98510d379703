import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { FlowPage } from '../components/FlowPage.tsx';
import { loginAction, loginLoader } from '../login-route.server.ts';

export const meta: MetaFunction = () => [{ title: 'Sign in – Doorway' }];

// A sign-in page shows a visitor's own flow (the card, the email typed): never cached.
export const headers = () => ({ 'cache-control': 'no-store' });

/** `GET /login`: the first card (or the sign-out card with `?signedOut=1`), rendered by the server. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loginLoader(request, context);

/** `POST /login`: a card's form, run on the server; the next card, or the session and a redirect. */
export const action = ({ request, context }: ActionFunctionArgs) => loginAction(request, context);

export default function Login() {
  return <FlowPage signOutCard />;
}
