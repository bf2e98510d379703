/**
 * The account page's passkeys, in the browser only (a lazy chunk of `routes/account.tsx`): `<Passkeys>`,
 * and above it, once after a password sign-in, `<PasskeyOffer>`. On Firebase the browser's SDK is signed in
 * as the session's user (`signInFirebaseAs`, as for second factors) and its provider calls the host's
 * passkey server (`/passkeys`) with the user's ID token; signing in again is the same token sign-in. On
 * Supabase each operation runs on the server (`POST /account/passkeys`, `account-passkeys.client.ts`).
 *
 * Signing in again: on Firebase the SDK gets a token only within a few minutes of the session's sign-in;
 * past them the card offers "Sign in again", which leads to the sign-in page (`signInFirebaseAs`). Removing
 * a passkey ends every session of the user, this one included: the page then goes to `/account`, which
 * sends a visitor whose session ended to the sign-in page.
 *
 * "Once": the offer shows when the session was started with a password and this browser has no answer
 * for this user yet (`localStorage`, {@link offerKey}); "Add a passkey", "Not now", a passkey added in the
 * card below, or a user who already has one, each record the answer.
 * @module
 */
import { AuthError, messageFor } from '@doorway/auth-core';
import { accountText, PasskeyOffer, type PasskeyProvider, Passkeys } from '@doorway/ui-cards/account';
import accountCss from '@doorway/ui-cards/account.css?inline';
import { useCallback, useEffect, useState } from 'react';
import type { PublicConfig } from '../public-config.ts';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; provider: PasskeyProvider }
  | { state: 'failed' }
  /** The session's sign-in is too old to sign the browser's SDK in: sign in again first. */
  | { state: 'stale' };

/** Where "Sign in again" leads from a card that could not load: the sign-in page, then back here. */
const SIGN_IN_AGAIN = '/login?signInSuccessUrl=%2Faccount';

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

/**
 * `provider` whose removal, once done, leaves the page: the server ended every session of the user (this
 * one too), so the browser's SDK signs out and `/account` sends the visitor on to the sign-in page.
 */
function signedOutAfterRemoval(provider: PasskeyProvider, signOut: () => Promise<void>): PasskeyProvider {
  const operations = provider.passkeys;
  if (operations === undefined) return provider;
  return {
    ...provider,
    passkeys: {
      ...operations,
      async remove(id) {
        await operations.remove(id);
        void signOut()
          .catch(() => undefined)
          .then(() => window.location.assign('/account'));
      },
    },
  };
}

async function openProvider(config: PublicConfig, uid: string): Promise<PasskeyProvider> {
  if (config.provider === 'firebase') {
    const m = await import('../firebase.client.ts');
    const provider = await m.signInFirebaseAs(config, uid);
    return signedOutAfterRemoval(provider, () => provider.signOut());
  }
  const m = await import('../account-passkeys.client.ts');
  return signedOutAfterRemoval(m.serverPasskeyProvider, async () => undefined);
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
      (error: unknown) => {
        if (!live) return;
        const stale = error instanceof AuthError && error.code === 'requires-recent-login';
        setLoaded({ state: stale ? 'stale' : 'failed' });
      },
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
  if (loaded.state === 'stale') {
    return (
      <div className="host-notice" role="alert">
        <p className="doorway-error">{messageFor('requires-recent-login')}</p>
        <a className="doorway-button host-button" href={SIGN_IN_AGAIN}>
          {accountText.signInAgain}
        </a>
      </div>
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
