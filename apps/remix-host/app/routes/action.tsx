import { cardTitle } from '@doorway/auth-core';
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ACTION_PAGE } from '../action.server.ts';
import { isStaticCard } from '../action-cards.ts';
import { FlowPage } from '../components/FlowPage.tsx';
import { formAction, formLoader, type LoginView } from '../form-path.server.ts';
import { type PageHandle, pageTitle } from '../root.tsx';
import { ACTION_PAGE_HEADERS } from '../security-headers.ts';
import { pageHeaders } from '../throttle.server.ts';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? pageTitle(cardTitle((data as LoginView).state)) : 'Doorway' },
  { name: 'robots', content: 'noindex' },
];

// Set-Cookie (the flow cookie) is kept by Remix on top of these; a throttled card keeps its Retry-After.
export const headers: HeadersFunction = (answered) => pageHeaders(ACTION_PAGE_HEADERS, answered);

// The error card (a refused POST's 403) from this route, so that its answer keeps the headers above.
export { ErrorBoundary } from '../root.tsx';

// The cards of an action code are static pages: their forms post to the server with or without scripts.
export const handle: PageHandle = {
  scripts: (data) => !isStaticCard((data as LoginView | undefined)?.state),
};

/**
 * `GET /action?mode=…&oobCode=…&continueUrl=…`: the sign-in flow started on the server on the action URL,
 * which handles the code (every mode) or an email sign-in link, and renders the card it comes to.
 */
export const loader = ({ request, context }: LoaderFunctionArgs) => formLoader(request, context, ACTION_PAGE);

/** `POST /action?…`: a card's form (new password, "Change password", Continue, Retry…), run on the server. */
export const action = ({ request, context }: ActionFunctionArgs) => formAction(request, context, ACTION_PAGE);

export default function ActionRoute() {
  return <FlowPage />;
}
