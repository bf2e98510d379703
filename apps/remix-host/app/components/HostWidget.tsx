import { type LazyProvider, messageFor, type WidgetConfigInput } from '@doorway/auth-core';
import { SignInWidget } from '@doorway/ui-cards';
import { useState } from 'react';
import { type HostAuth, loadHostAuth, startServerSession } from '../host-auth.ts';
import { type PublicConfig, widgetConfigInput } from '../public-config.ts';

/** Props of {@link HostWidget}. */
export interface HostWidgetProps {
  config: PublicConfig;
  /** Where to go after sign-in: already checked by the server (`safeRedirect`). */
  successUrl: string;
  /** The request's origin, for the server render (the browser uses its own location). */
  origin: string;
  /** Start by signing the browser's SDK out and showing the sign-out card. */
  signOut?: boolean;
}

/**
 * The sign-in widget on the configured provider (Firebase or Supabase). The SDK arrives as a lazy chunk
 * (the widget shows its spinner card, on the server too); after sign-in the user's token is exchanged for
 * the session cookie before the widget redirects to the success URL.
 */
export function HostWidget(props: HostWidgetProps) {
  const [sessionFailed, setSessionFailed] = useState(false);
  const [setup] = useState(() => {
    let auth: HostAuth | null = null;
    const startSession = async (): Promise<boolean> => {
      const ok = await startServerSession(auth);
      setSessionFailed(!ok);
      return ok;
    };
    const lazy: LazyProvider = {
      async loadScript() {
        auth = await loadHostAuth(props.config);
      },
      getProvider: () => auth?.provider ?? null,
    };
    const config: WidgetConfigInput = {
      ...widgetConfigInput(props.config, props.successUrl),
      callbacks: {
        // The widget redirects to the success URL only once the server session exists.
        signInSuccess: startSession,
        // An anonymous visitor signing in to an existing account: their guest data is dropped and
        // they continue as that account (FirebaseUI's documented way to resolve the conflict).
        async signInFailure(error) {
          if (error.code !== 'anonymous-upgrade-merge-conflict' || !error.credential || !auth) return;
          await auth.provider.signInWithCredential(error.credential);
          if (await startSession()) window.location.assign(props.successUrl);
        },
      },
    };
    return { lazy, config };
  });
  const url = typeof window === 'undefined' ? `${props.origin}/` : window.location.href;
  return (
    <>
      <SignInWidget provider={setup.lazy} config={setup.config} url={url} signOut={props.signOut} />
      {sessionFailed ? (
        <p className="doorway-error host-notice" role="alert">
          {messageFor('generic')}
        </p>
      ) : null}
    </>
  );
}
