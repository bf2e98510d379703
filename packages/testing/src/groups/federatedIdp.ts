import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail, uniqueSub } from '../fixtures.ts';

/** Registers the federated popup group (capability: popup, hook: idp). */
export function federatedPopupTests(h: ContractContext): void {
  const { caps, hooks, federatedId } = h;
  // Popups and redirects need an IdP the harness can drive (a real SDK's popup can't run offline).
  describe.skipIf(federatedId === undefined || !caps.popup || !hooks.idp)(
    'federated popup (capability: popup, hook: idp)',
    () => {
      popupSignInTests(h);
      popupCollisionAndLinkTests(h);
    },
  );
}

/** Registers the federated redirect group (capability: redirect, hook: idp). */
export function federatedRedirectTests(h: ContractContext): void {
  const { caps, hooks, federatedId } = h;
  // See the popup group: the redirect round trip needs an IdP the harness can drive.
  describe.skipIf(federatedId === undefined || !caps.redirect || !hooks.idp)(
    'federated redirect (capability: redirect, hook: idp)',
    () => {
      const providerId = federatedId ?? '';

      it('getRedirectResult - should resolve null when no redirect is pending', async () => {
        await expect(h.provider.getRedirectResult()).resolves.toBeNull();
      });

      it('signInWithFederated - should resolve null on redirect and deliver the result once through getRedirectResult', async () => {
        const email = uniqueEmail('redirect');
        requireValue(h.inspect.idp, 'inspect.idp').queue({ sub: uniqueSub('redirect'), email });
        await expect(h.provider.signInWithFederated(providerId, { mode: 'redirect' })).resolves.toBeNull();
        const result = requireValue(await h.provider.getRedirectResult(), 'a redirect result');
        expect(result).toMatchObject({ isNewUser: true, providerId });
        expect(result.user.email).toBe(email);
        await expect(h.provider.getRedirectResult()).resolves.toBeNull();
      });

      it('getRedirectResult - should reject user-cancelled when the person cancelled at the IdP', async () => {
        requireValue(h.inspect.idp, 'inspect.idp').cancelNext();
        await h.provider.signInWithFederated(providerId, { mode: 'redirect' });
        await expectAuthError(h.provider.getRedirectResult(), 'user-cancelled');
      });
    },
  );
}

/** Signing in through a popup, cancelled or blocked. */
function popupSignInTests(h: ContractContext): void {
  const providerId = h.federatedId ?? '';
  const idp = () => requireValue(h.inspect.idp, 'inspect.idp');
  it('signInWithFederated - should sign in with the identity the IdP returns in a popup', async () => {
    const email = uniqueEmail('popup');
    idp().queue({ sub: uniqueSub('popup'), email, displayName: 'Popup Person' });
    const result = requireValue(
      await h.provider.signInWithFederated(providerId, { mode: 'popup' }),
      'a result',
    );
    expect(result).toMatchObject({ isNewUser: true, providerId });
    expect(result.user).toMatchObject({ email, displayName: 'Popup Person' });
    expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
  });

  it('signInWithFederated - should reject user-cancelled when the person cancels', async () => {
    idp().cancelNext();
    await expectAuthError(h.provider.signInWithFederated(providerId, { mode: 'popup' }), 'user-cancelled');
  });

  it('signInWithFederated - should reject popup-blocked when the browser blocks the popup', async () => {
    idp().blockPopup();
    await expectAuthError(h.provider.signInWithFederated(providerId, { mode: 'popup' }), 'popup-blocked');
  });
}

/** A popup identity colliding with a password account, and linking one to an anonymous user. */
function popupCollisionAndLinkTests(h: ContractContext): void {
  const { caps, accountExistsError } = h;
  const providerId = h.federatedId ?? '';
  const idp = () => requireValue(h.inspect.idp, 'inspect.idp');
  // Same opt-out as for credentials; needs a password account to collide with.
  it.runIf(caps.password && accountExistsError)(
    'signInWithFederated - should reject account-exists-with-different-credential for an email with a password account',
    async () => {
      const email = uniqueEmail('popupexists');
      await h.inspect.createUser({ email, password: PASSWORD });
      idp().queue({ sub: uniqueSub('popupexists'), email });
      const error = await expectAuthError(
        h.provider.signInWithFederated(providerId, { mode: 'popup' }),
        'account-exists-with-different-credential',
      );
      expect(error.email).toBe(email);
      expect(error.credential).toMatchObject({ kind: 'federated', providerId });
    },
  );

  // Linking in a popup starts from an anonymous user.
  it.runIf(caps.anonymous)(
    'signInWithFederated - should link to the current user when link is true',
    async () => {
      const anonymous = await h.provider.signInAnonymously();
      idp().queue({ sub: uniqueSub('popuplink'), email: uniqueEmail('popuplink') });
      const result = await h.provider.signInWithFederated(providerId, { mode: 'popup', link: true });
      expect(result?.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false });
    },
  );
}
