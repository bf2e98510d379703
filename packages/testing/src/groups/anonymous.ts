/**
 * Anonymous users and their upgrades to permanent accounts.
 * @module
 */
import type { AuthCredential } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail, uniquePhone, uniqueSub } from '../fixtures.ts';
import { federatedCredential, sendSignInLink, smsSignInStart } from '../steps.ts';

/** Registers the anonymous users group (capability: anonymous), or the operation-not-allowed check without it. */
export function anonymousTests(h: ContractContext): void {
  const { caps } = h;
  describe.skipIf(!caps.anonymous)('anonymous users (capability: anonymous)', () => {
    it('signInAnonymously - should sign in a new anonymous user', async () => {
      const result = await h.provider.signInAnonymously();
      expect(result).toMatchObject({ isNewUser: true, providerId: 'anonymous' });
      expect(result.user).toMatchObject({ isAnonymous: true, email: null, providerIds: [] });
      expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
    });

    upgradeWithPasswordTests(h);
    upgradeWithEmailLinkTests(h);
    upgradeWithPhoneTests(h);
    upgradeWithFederatedTests(h);
  });

  // A provider that cannot do anonymous sign-in must say so with a catalogue code.
  it.runIf(!caps.anonymous)('signInAnonymously - should reject operation-not-allowed', async () => {
    await expectAuthError(h.provider.signInAnonymously(), 'operation-not-allowed');
  });
}

function upgradeWithPasswordTests(h: ContractContext): void {
  const { caps } = h;
  // Upgrading to a password account needs password accounts.
  describe.skipIf(!caps.password)('upgrade with a password (capability: password)', () => {
    it('linkWithCredential - should upgrade the anonymous user to a password account, keeping the uid', async () => {
      const anonymous = await h.provider.signInAnonymously();
      const email = uniqueEmail('upgrade');
      const result = await h.provider.linkWithCredential({ kind: 'password', email, password: PASSWORD });
      expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
      expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
      expect(result.user.providerIds).toContain('password');
      expect(h.provider.getCurrentUser()?.uid).toBe(anonymous.user.uid);
      await h.provider.signOut();
      const again = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
      expect(again.user.uid).toBe(anonymous.user.uid);
    });

    it('linkWithCredential - should reject, carrying the credential, when the email already has an account', async () => {
      const email = uniqueEmail('conflict');
      await h.inspect.createUser({ email, password: PASSWORD });
      await h.provider.signInAnonymously();
      const credential: AuthCredential = { kind: 'password', email, password: PASSWORD };
      const error = await expectAuthError(h.provider.linkWithCredential(credential), [
        'email-already-in-use',
        'credential-already-in-use',
      ]);
      expect(error.credential).toMatchObject({ kind: 'password', email });
    });
  });
}

function upgradeWithEmailLinkTests(h: ContractContext): void {
  const { caps } = h;
  // Upgrading by email link needs email links.
  describe.skipIf(!caps.emailLink)('upgrade with an email link (capability: emailLink)', () => {
    it('linkWithCredential - should upgrade the anonymous user with an emailLink credential', async () => {
      const anonymous = await h.provider.signInAnonymously();
      const email = uniqueEmail('anonlink');
      const link = await sendSignInLink(h, email);
      const result = await h.provider.linkWithCredential({ kind: 'emailLink', email, link });
      expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
      // Firebase records an email-link account under the `password` provider; both name the email method.
      expect(result.user.providerIds.some((id) => id === 'emailLink' || id === 'password')).toBe(true);
    });

    it('signInWithEmailLink - should upgrade the anonymous user when link is true', async () => {
      const anonymous = await h.provider.signInAnonymously();
      const email = uniqueEmail('anonlink2');
      const link = await sendSignInLink(h, email);
      const result = await h.provider.signInWithEmailLink(email, link, { link: true });
      expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
    });
  });
}

function upgradeWithPhoneTests(h: ContractContext): void {
  const { caps } = h;
  // Upgrading by phone needs phone sign-in.
  describe.skipIf(!caps.phone)('upgrade with a phone number (capability: phone)', () => {
    it('confirmPhoneCode - should upgrade the anonymous user when link is true', async () => {
      const anonymous = await h.provider.signInAnonymously();
      const phoneNumber = uniquePhone();
      const { verificationId, code } = await smsSignInStart(h, phoneNumber);
      const result = await h.provider.confirmPhoneCode(verificationId, code, { link: true });
      expect(result.user).toMatchObject({ uid: anonymous.user.uid, phoneNumber, isAnonymous: false });
      expect(result.user.providerIds).toContain('phone');
    });

    it('confirmPhoneCode - should reject credential-already-in-use, carrying the credential, for a number of another account', async () => {
      const phoneNumber = uniquePhone();
      await h.inspect.createUser({ phoneNumber });
      await h.provider.signInAnonymously();
      const { verificationId, code } = await smsSignInStart(h, phoneNumber);
      const error = await expectAuthError(
        h.provider.confirmPhoneCode(verificationId, code, { link: true }),
        'credential-already-in-use',
      );
      expect(error.credential).toMatchObject({ kind: 'phone', verificationId });
    });
  });
}

function upgradeWithFederatedTests(h: ContractContext): void {
  const { hooks, federatedId } = h;
  // Needs a federated provider and a harness that can mint credentials for it.
  describe.skipIf(federatedId === undefined || !hooks.federatedCredential)(
    'upgrade with a federated credential (capability: federated, hook: federatedCredential)',
    () => {
      it('linkWithCredential - should upgrade the anonymous user with a federated credential', async () => {
        const providerId = requireValue(federatedId, 'a federated provider id');
        const anonymous = await h.provider.signInAnonymously();
        const email = uniqueEmail('anonfed');
        const result = await h.provider.linkWithCredential(
          federatedCredential(h, providerId, { sub: uniqueSub('anon'), email }),
        );
        expect(result.providerId).toBe(providerId);
        expect(result.user).toMatchObject({ uid: anonymous.user.uid, isAnonymous: false });
        expect(result.user.providerIds).toContain(providerId);
      });
    },
  );
}
