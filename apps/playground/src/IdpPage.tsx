import { providerName } from '@doorway/auth-core';
import { useState } from 'react';
import { IDP_RESULT_KEY, type IdpAnswer } from './world.ts';

function sameOrigin(url: string | null): string {
  try {
    const parsed = new URL(url ?? '/', location.origin);
    return parsed.origin === location.origin ? parsed.href : '/';
  } catch {
    return '/';
  }
}

/**
 * The fake identity provider's page, opened in a 500×600 popup or reached by redirect. The person picks the
 * identity the IdP returns; the answer goes back by `postMessage` (popup) or sessionStorage (redirect).
 */
export function IdpPage() {
  const query = new URLSearchParams(location.search);
  const providerId = query.get('providerId') ?? 'idp';
  const mode = query.get('mode') === 'redirect' ? 'redirect' : 'popup';
  const [email, setEmail] = useState(query.get('login_hint') ?? '');
  const [name, setName] = useState('');

  const answer = (identity: IdpAnswer['identity']) => {
    const message: IdpAnswer = { type: 'doorway-idp', identity };
    if (mode === 'popup') {
      window.opener?.postMessage(message, location.origin);
      return;
    }
    sessionStorage.setItem(IDP_RESULT_KEY, JSON.stringify(message));
    location.assign(sameOrigin(query.get('return')));
  };

  return (
    <main className="playground-idp">
      <h1>{providerName(providerId)}</h1>
      <p>Fake identity provider ({mode}). Choose the account it signs you in with.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const address = email.trim();
          answer({
            sub: `${providerId}:${address.toLowerCase()}`,
            email: address,
            emailVerified: true,
            ...(name.trim() ? { displayName: name.trim() } : {}),
          });
        }}
      >
        <label className="playground-field">
          Account email
          <input
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="playground-field">
          Display name
          <input type="text" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <div className="playground-row">
          <button type="button" onClick={() => answer(null)}>
            Cancel
          </button>
          <button type="submit">Continue</button>
        </div>
      </form>
    </main>
  );
}
