import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { HostWidget } from '../components/HostWidget.tsx';
import { NoScript } from '../components/NoScript.tsx';
import { hostConfig } from '../config.server.ts';
import { loginPage } from '../pages.server.ts';
import { usePublicConfig } from '../root.tsx';

export const meta: MetaFunction = () => [{ title: 'Sign in – Doorway' }];

export const loader = ({ request }: LoaderFunctionArgs) => loginPage(request, hostConfig());

export default function Login() {
  const page = useLoaderData<typeof loader>();
  const config = usePublicConfig();
  return (
    <>
      <HostWidget
        key={page.signedOut ? 'signed-out' : 'sign-in'}
        config={config}
        successUrl={page.successUrl}
        origin={page.origin}
        signOut={page.signedOut}
      />
      <NoScript signedOut={page.signedOut} />
    </>
  );
}
