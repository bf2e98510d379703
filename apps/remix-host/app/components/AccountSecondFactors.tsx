/**
 * The account page's second factors, in the browser only (a lazy chunk of `routes/account.tsx`): the
 * browser's Firebase signed in as the session's user (`signInFirebaseAs`: a custom token from
 * `POST /account/browser-sign-in` when the SDK has nobody or another user, as after a sign-in on the
 * server path), then `<SecondFactors>`. Signing in again (`reauthenticate`) is the same token sign-in.
 * On Supabase the host's session is an access token that supabase-js cannot take over (it needs the
 * refresh token too): the card's operations run on the server (`POST /account/second-factors`), with
 * authenticator apps; GoTrue asks no recent sign-in for them.
 * @module
 */
import { type AccountProvider, SecondFactors } from '@doorway/ui-cards/account';
import accountCss from '@doorway/ui-cards/account.css?inline';
import { useEffect, useState } from 'react';
import type { PublicConfig } from '../public-config.ts';

type Loaded = { state: 'loading' } | { state: 'ready'; provider: AccountProvider } | { state: 'failed' };

export default function AccountSecondFactors(props: { config: PublicConfig; uid: string }) {
  const { config, uid } = props;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    const opened: Promise<AccountProvider> =
      config.provider === 'firebase'
        ? import('../firebase.client.ts').then((m) => m.signInFirebaseAs(config, uid))
        : import('../account-factors.client.ts').then((m) => m.serverAccountProvider);
    opened.then(
      (provider) => live && setLoaded({ state: 'ready', provider }),
      () => live && setLoaded({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [config, uid]);
  if (loaded.state === 'failed') {
    return (
      <p className="doorway-error host-notice" role="alert">
        Second factors could not be loaded. Reload the page to try again.
      </p>
    );
  }
  if (loaded.state === 'loading') return <p className="host-notice">Loading…</p>;
  const reauthenticate =
    config.provider === 'firebase'
      ? async () => {
          const m = await import('../firebase.client.ts');
          await m.signInFirebaseAs(config, uid, true);
        }
      : undefined;
  return (
    <>
      {/* Rendered in the browser only: the text is set as the element's content, never parsed as HTML. */}
      <style>{accountCss}</style>
      <SecondFactors provider={loaded.provider} reauthenticate={reauthenticate} />
    </>
  );
}
