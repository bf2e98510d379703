/**
 * The widget on the card the server's loader or action came to: the page of `/login` and `/action` alike.
 * @module
 */
import { useActionData, useLoaderData } from '@remix-run/react';
import type { LoginView } from '../form-path.server.ts';
import { usePublicConfig } from '../root.tsx';
import { HostWidget } from './HostWidget.tsx';

/** The route's view: what its action answered to a form, else what its loader rendered. */
export function FlowPage({ signOutCard = false }: { signOutCard?: boolean }) {
  const loaded = useLoaderData() as LoginView;
  const acted = useActionData() as LoginView | undefined;
  const view = acted ?? loaded;
  const config = usePublicConfig();
  return (
    <HostWidget
      key={view.state.pageUrl}
      config={config}
      successUrl={view.successUrl}
      origin={view.origin}
      initialState={view.state}
      lastUsed={view.lastUsed}
      signOut={signOutCard && view.state.card === 'signOut'}
    />
  );
}
