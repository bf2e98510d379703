import {
  type ErrorCode,
  type FlowState,
  type LazyProvider,
  messageFor,
  type SignInResult,
  type WidgetConfigInput,
} from '@doorway/auth-core';
import { SignInWidget } from '@doorway/ui-cards';
import { type FormEvent, useEffect, useState } from 'react';
import { type HostAuth, loadHostAuth, startServerSession } from '../host-auth.ts';
import { type PublicConfig, widgetConfigInput } from '../public-config.ts';
import { pageTitle } from '../root.tsx';

/** Props of {@link HostWidget}. */
export interface HostWidgetProps {
  config: PublicConfig;
  /** Where to go after sign-in: already checked by the server (`safeRedirect`). */
  successUrl: string;
  /** The request's origin, for the server render (the browser uses its own location). */
  origin: string;
  /** The card the server rendered (the widget hydrates it and takes over from there). */
  initialState?: FlowState;
  /** The server ended the session: sign the browser's SDK out too (in the background). */
  signOut?: boolean;
  /**
   * The sign-in option this browser last used, from the server's "Last used" cookie, which the chooser
   * marks in the server's HTML and after hydration alike. `null` or absent: the widget's own memory of it.
   */
  lastUsed?: string | null;
}

/**
 * Whether `state` is a second-factor card of a challenge only the server can finish: the server runner
 * hands the page such a challenge with `serverSession: null` (a Supabase form sign-in's aal1 token stays in
 * the sealed cookie; issue 24), so the browser's SDK has nothing to take the pending sign-in over with.
 */
function finishedOnServer(state: FlowState | undefined): boolean {
  return state !== undefined && 'challenge' in state && state.challenge.serverSession !== undefined;
}

/**
 * Lets a card's form go to the server as it would without scripts: stopped here, in the capture phase, the
 * submit never reaches the card's own handler, which would hand it to the browser's flow instead.
 */
function postToServer(event: FormEvent<HTMLDivElement>): void {
  event.stopPropagation();
}

/**
 * The sign-in widget on the configured provider (Firebase or Supabase). The server renders the card it got
 * to (`initialState`), which works as a plain form before and without scripts; the widget hydrates it and
 * takes over (but a second-factor challenge the server met stays the server's: its cards keep posting
 * there). The SDK arrives as a lazy chunk, waited for only by a provider call; after sign-in in the
 * browser the user's token is exchanged for the session cookie before the widget redirects.
 */
export function HostWidget(props: HostWidgetProps) {
  // Why the server refused the session (its throttle's `too-many-requests`…), shown under the card.
  const [sessionFailed, setSessionFailed] = useState<ErrorCode | null>(null);
  const [setup] = useState(() => {
    let auth: HostAuth | null = null;
    // The session, and the "Last used" cookie for the option of the sign-in (its provider id).
    const startSession = async (result: SignInResult): Promise<boolean> => {
      const refused = await startServerSession(auth, result.providerId);
      setSessionFailed(refused);
      return refused === null;
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
          const result = await auth.provider.signInWithCredential(error.credential);
          if (await startSession(result)) window.location.assign(props.successUrl);
        },
      },
    };
    return { lazy, config };
  });
  useEffect(() => {
    // The session cookie is gone already; a user the SDK keeps in the browser must not outlive it.
    if (props.signOut)
      setup.lazy.loadScript().then(
        () => setup.lazy.getProvider()?.signOut(),
        () => undefined,
      );
  }, [props.signOut, setup]);
  const url = typeof window === 'undefined' ? `${props.origin}/` : window.location.href;
  const widget = (
    <SignInWidget
      provider={setup.lazy}
      config={setup.config}
      url={url}
      {...(props.initialState ? { initialState: props.initialState } : { signOut: props.signOut })}
      {...(props.lastUsed ? { lastUsed: props.lastUsed } : {})}
      onTitle={(title) => {
        document.title = pageTitle(title);
      }}
    />
  );
  return (
    <>
      {finishedOnServer(props.initialState) ? (
        // Every step from this card (the code, another factor, Cancel) is a page of the server's.
        <div className="host-server-step" onSubmitCapture={postToServer}>
          {widget}
        </div>
      ) : (
        widget
      )}
      {sessionFailed !== null ? (
        <p className="doorway-error host-notice" role="alert">
          {messageFor(sessionFailed)}
        </p>
      ) : null}
    </>
  );
}
