import { describe, expect, it } from 'vitest';
import { expectAuthError } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail, uniqueSub } from '../fixtures.ts';
import { federatedCredential } from '../steps.ts';

/** Registers the federated credentials group (capability: federated, hook: federatedCredential). */
export function federatedCredentialTests(h: ContractContext): void {
  const { hooks, federatedId } = h;
  // Needs a federated provider and a harness that can mint credentials the backend accepts.
  describe.skipIf(federatedId === undefined || !hooks.federatedCredential)(
    'federated credentials (capability: federated, hook: federatedCredential)',
    () => {
      federatedSignInTests(h);
      federatedLinkTests(h);
    },
  );
}

/** Signing in with a federated credential, and the account-exists rejection. */
function federatedSignInTests(h: ContractContext): void {
  const { caps, accountExistsError } = h;
  const providerId = h.federatedId ?? '';
  it('signInWithCredential - should create an account for a new federated identity', async () => {
    const email = uniqueEmail('fednew');
    const result = await h.provider.signInWithCredential(
      federatedCredential(h, providerId, { sub: uniqueSub('new'), email }),
    );
    expect(result).toMatchObject({ isNewUser: true, providerId });
    expect(result.user).toMatchObject({ email, isAnonymous: false });
    expect(result.user.providerIds).toContain(providerId);
    expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
  });

  it('signInWithCredential - should sign in again with the same federated identity', async () => {
    const identity = { sub: uniqueSub('again'), email: uniqueEmail('fedagain') };
    const first = await h.provider.signInWithCredential(federatedCredential(h, providerId, identity));
    await h.provider.signOut();
    const second = await h.provider.signInWithCredential(federatedCredential(h, providerId, identity));
    expect(second).toMatchObject({ isNewUser: false, providerId });
    expect(second.user.uid).toBe(first.user.uid);
  });

  // Some backends link a federated identity to a same-email account themselves; they opt out.
  it.runIf(caps.password && accountExistsError)(
    'signInWithCredential - should reject account-exists-with-different-credential for an email with a password account',
    async () => {
      const email = uniqueEmail('fedexists');
      await h.inspect.createUser({ email, password: PASSWORD });
      const error = await expectAuthError(
        h.provider.signInWithCredential(
          federatedCredential(h, providerId, { sub: uniqueSub('exists'), email }),
        ),
        'account-exists-with-different-credential',
      );
      expect(error.email).toBe(email);
      expect(error.credential).toMatchObject({ kind: 'federated', providerId });
      expect(h.provider.getCurrentUser()).toBeNull();
    },
  );
}

/** Linking a federated identity to a password account, and one owned by another account. */
function federatedLinkTests(h: ContractContext): void {
  const { caps } = h;
  const providerId = h.federatedId ?? '';
  // Linking to a password account needs password accounts.
  it.runIf(caps.password)(
    'linkWithCredential - should link a federated identity to the signed-in user',
    async () => {
      const email = uniqueEmail('fedlink');
      const user = await h.provider.createUser(email, PASSWORD);
      const result = await h.provider.linkWithCredential(
        federatedCredential(h, providerId, { sub: uniqueSub('link'), email }),
      );
      expect(result.providerId).toBe(providerId);
      expect(result.user.uid).toBe(user.user.uid);
      expect(result.user.providerIds).toEqual(expect.arrayContaining(['password', providerId]));
    },
  );

  // The second account is a password account.
  it.runIf(caps.password)(
    'linkWithCredential - should reject credential-already-in-use, carrying the credential, for an identity of another account',
    async () => {
      const credential = federatedCredential(h, providerId, {
        sub: uniqueSub('owned'),
        email: uniqueEmail('owner'),
      });
      await h.provider.signInWithCredential(credential);
      await h.provider.signOut();
      await h.provider.createUser(uniqueEmail('second'), PASSWORD);
      const error = await expectAuthError(
        h.provider.linkWithCredential(credential),
        'credential-already-in-use',
      );
      expect(error.credential).toMatchObject({ kind: 'federated', providerId });
    },
  );
}
