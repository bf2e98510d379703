/**
 * The account page's passkeys, in the browser only (a lazy chunk of `routes/account.tsx`): `<Passkeys>`,
 * and above it, once after a password sign-in, `<PasskeyOffer>`. On Firebase the browser's SDK is signed in
 * as the session's user (`signInFirebaseAs`, as for second factors) and its provider calls the host's
 * passkey server (`/passkeys`) with the user's ID token; signing in again is the same token sign-in. On
 * Supabase each operation runs on the server (`POST /account/passkeys`, `account-passkeys.client.ts`).
 *
 * "Once": the offer shows when the session was started with a password and this browser has no answer
 * for this user yet (`localStorage`, {@link offerKey}); "Add a passkey", "Not now", a passkey added in the
 * card below, or a user who already has one, each record the answer.
 * @module
 */
import { PasskeyOffer, type PasskeyProvider, Passkeys } from '@doorway/ui-cards/account';
import accountCss from '@doorway/ui-cards/account.css?inline';
import { useCallback, useEffect, useState } from 'react';
import type { PublicConfig } from '../public-config.ts';

type Loaded = { state: 'loading' } | { state: 'ready'; provider: PasskeyProvider } | { state: 'failed' };

/** Where this browser keeps that the offer was answered for `uid`. */
export const offerKey = (uid: string) => `doorway:passkey-offer:${uid}`;

function answered(uid: string): boolean {
  try {
    return window.localStorage.getItem(offerKey(uid)) !== null;
  } catch {
    return true; // no storage: no way to offer it only once, so not at all
  }
}

function remember(uid: string): void {
  try {
    window.localStorage.setItem(offerKey(uid), 'answered');
  } catch {
    // Storage refused: the offer may come back after the next password sign-in.
  }
}

function openProvider(config: PublicConfig, uid: string): Promise<PasskeyProvider> {
  return config.provider === 'firebase'
    ? import('../firebase.client.ts').then((m) => m.signInFirebaseAs(config, uid))
    : import('../account-passkeys.client.ts').then((m) => m.serverPasskeyProvider);
}

export default function AccountPasskeys(props: {
  config: PublicConfig;
  uid: string;
  signInProvider: string;
}) {
  const { config, uid } = props;
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [offer, setOffer] = useState(() => props.signInProvider === 'password' && !answered(uid));
  // Bumped when the offer adds a passkey: the card lists again.
  const [listed, setListed] = useState(0);
  useEffect(() => {
    let live = true;
    openProvider(config, uid).then(
      (provider) => live && setLoaded({ state: 'ready', provider }),
      () => live && setLoaded({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [config, uid]);
  const reauthenticate = useCallback(async () => {
    const m = await import('../firebase.client.ts');
    await m.signInFirebaseAs(config, uid, true);
  }, [config, uid]);
  if (loaded.state === 'failed') {
    return (
      <p className="doorway-error host-notice" role="alert">
        Passkeys could not be loaded. Reload the page to try again.
      </p>
    );
  }
  if (loaded.state === 'loading') return <p className="host-notice">Loading…</p>;
  const again = config.provider === 'firebase' ? reauthenticate : undefined;
  return (
    <>
      {/* Rendered in the browser only: the text is set as the element's content, never parsed as HTML. */}
      <style>{accountCss}</style>
      {offer ? (
        <PasskeyOffer
          provider={loaded.provider}
          reauthenticate={again}
          onAnswer={(answer) => {
            remember(uid);
            if (answer.kind === 'added') setListed((n) => n + 1);
          }}
        />
      ) : null}
      <Passkeys
        key={listed}
        provider={loaded.provider}
        reauthenticate={again}
        onChange={(passkeys) => {
          if (passkeys.length === 0) return;
          remember(uid);
          setOffer(false);
        }}
      />
    </>
  );
}
