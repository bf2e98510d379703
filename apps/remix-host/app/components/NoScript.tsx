import { uiText } from '@doorway/auth-core';

/**
 * Without JavaScript the widget cannot sign anyone in (the provider SDK runs in the browser): hide its
 * spinner and say so. After sign-out the server has already ended the session, so that card is static.
 */
export function NoScript({ signedOut }: { signedOut: boolean }) {
  return (
    <noscript>
      <style>{'.doorway[aria-busy] { display: none; }'}</style>
      <div className="doorway" data-card={signedOut ? 'signOut' : 'noScript'}>
        <section className="doorway-card">
          <h1 className="doorway-title">{signedOut ? uiText.signOutTitle : uiText.providerChooserTitle}</h1>
          <p className="doorway-text">
            {signedOut ? uiText.signOutText : 'Signing in needs JavaScript. Turn it on and reload this page.'}
          </p>
        </section>
      </div>
    </noscript>
  );
}
