import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { loadActionPage } from '../action.server.ts';
import { ActionCard } from '../components/ActionCard.tsx';
import { HostWidget } from '../components/HostWidget.tsx';
import { loginAction, loginLoader } from '../login-route.server.ts';
import { usePublicConfig } from '../root.tsx';
import { ACTION_PAGE_HEADERS } from '../security-headers.ts';
import { actionDeps } from '../services.server.ts';

export const meta: MetaFunction = () => [{ title: 'Doorway' }, { name: 'robots', content: 'noindex' }];

export const headers = () => ACTION_PAGE_HEADERS;

/**
 * `GET /action?mode=…&oobCode=…&continueUrl=…`: every mode handled here, on the server. An email sign-in
 * link (and any mode the action cards do not show) opens the sign-in flow, run on the server too.
 */
export const loader = async ({ request, context }: LoaderFunctionArgs) => {
  const page = await loadActionPage(request, actionDeps());
  const query = new URL(request.url).search;
  if (page.view.card !== 'widget')
    return data({ view: page.view, query, login: null }, { status: page.status });
  const login = await loginLoader(request, context);
  return data(
    { view: page.view, query, login: login.data },
    { status: login.init?.status ?? 200, headers: login.init?.headers },
  );
};

/** `POST /action?…`: a card of the sign-in flow opened here (e.g. the email-link confirmation). */
export const action = ({ request, context }: ActionFunctionArgs) => loginAction(request, context);

export default function ActionRoute() {
  const { view, query, login: loaded } = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const config = usePublicConfig();
  const login = acted ?? loaded;
  if (view.card !== 'widget') return <ActionCard view={view} query={query} />;
  if (login === null) return null;
  return (
    <HostWidget
      key={login.state.pageUrl}
      config={config}
      successUrl={login.successUrl}
      origin={login.origin}
      initialState={login.state}
    />
  );
}
