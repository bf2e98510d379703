/**
 * The account page's second factors, in the browser only (a lazy chunk of `routes/account.tsx`): the
 * browser's Firebase signed in as the session's user (`signInFirebaseAs`: a custom token from
 * `POST /account/browser-sign-in` when the SDK has nobody or another user, as after a sign-in on the
 * server path), then `<SecondFactors>`. Signing in again (`reauthenticate`) is the same token sign-in.
 * Supabase has no such token: a note instead.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';
import { SecondFactors } from '@doorway/ui-cards/account';
import accountCss from '@doorway/ui-cards/account.css?inline';
import { useEffect, useState } from 'react';
import type { PublicConfig } from '../public-config.ts';

type Loaded = { state: 'loading' } | { state: 'ready'; provider: AuthProvider } | { state: 'failed' };

export default function AccountSecondFactors(props: { config: PublicConfig; uid: string }) {
  const { config, uid } = props;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    if (config.provider !== 'firebase') return;
    let live = true;
    import('../firebase.client.ts')
      .then((m) => m.signInFirebaseAs(config, uid))
      .then(
        (provider) => live && setLoaded({ state: 'ready', provider }),
        () => live && setLoaded({ state: 'failed' }),
      );
    return () => {
      live = false;
    };
  }, [config, uid]);
  if (config.provider !== 'firebase') {
    return <p className="host-notice">Second factors are managed with Firebase only on this host.</p>;
  }
  if (loaded.state === 'failed') {
    return (
      <p className="doorway-error host-notice" role="alert">
        Second factors could not be loaded. Reload the page to try again.
      </p>
    );
  }
  if (loaded.state === 'loading') return <p className="host-notice">Loading…</p>;
  const reauthenticate = async () => {
    const m = await import('../firebase.client.ts');
    await m.signInFirebaseAs(config, uid, true);
  };
  return (
    <>
      {/* Rendered in the browser only: the text is set as the element's content, never parsed as HTML. */}
      <style>{accountCss}</style>
      <SecondFactors provider={loaded.provider} reauthenticate={reauthenticate} />
    </>
  );
}
