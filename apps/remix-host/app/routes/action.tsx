import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { data } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { loadActionPage } from '../action.server.ts';
import { ActionCard } from '../components/ActionCard.tsx';
import { HostWidget } from '../components/HostWidget.tsx';
import { NoScript } from '../components/NoScript.tsx';
import { hostConfig } from '../config.server.ts';
import { loginPage } from '../pages.server.ts';
import { usePublicConfig } from '../root.tsx';
import { ACTION_PAGE_HEADERS } from '../security-headers.ts';
import { actionDeps } from '../services.server.ts';

export const meta: MetaFunction = () => [{ title: 'Doorway' }, { name: 'robots', content: 'noindex' }];

export const headers = () => ACTION_PAGE_HEADERS;

/** `GET /action?mode=…&oobCode=…&continueUrl=…`: every mode handled here, on the server. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const page = await loadActionPage(request, actionDeps());
  const query = new URL(request.url).search;
  return data({ view: page.view, query, login: loginPage(request, hostConfig()) }, { status: page.status });
};

export default function ActionRoute() {
  const { view, query, login } = useLoaderData<typeof loader>();
  const config = usePublicConfig();
  if (view.card !== 'widget') return <ActionCard view={view} query={query} />;
  return (
    <>
      <HostWidget config={config} successUrl={login.successUrl} origin={login.origin} />
      <NoScript signedOut={false} />
    </>
  );
}
