import { describe, expect, it } from 'vitest';
import { expectAuthError, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail, uniqueSub } from '../fixtures.ts';

/** Registers the fetchSignInMethodsForEmail group (capability: password). */
export function signInMethodLookupTests(h: ContractContext): void {
  const { caps, reliable, federatedId } = h;
  describe.skipIf(!caps.password)('fetchSignInMethodsForEmail (capability: password)', () => {
    // With enumeration protection the lookup answers [] for everyone; these need truthful lookups.
    describe.skipIf(!reliable)('reliable lookups (capability: reliableSignInMethodLookup)', () => {
      it('fetchSignInMethodsForEmail - should list password for a password account', async () => {
        const email = uniqueEmail('methods');
        await h.inspect.createUser({ email, password: PASSWORD });
        await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual(['password']);
      });

      it('fetchSignInMethodsForEmail - should return [] for an unknown email', async () => {
        await expect(h.provider.fetchSignInMethodsForEmail(uniqueEmail('unknown'))).resolves.toEqual([]);
      });

      // Needs a federated provider to create the account with.
      it.runIf(federatedId !== undefined)(
        'fetchSignInMethodsForEmail - should list the provider id for a federated account',
        async () => {
          const providerId = requireValue(federatedId, 'a federated provider id');
          const email = uniqueEmail('fedmethods');
          await h.inspect.createUser({ email, federated: { providerId, sub: uniqueSub('fed') } });
          await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([providerId]);
        },
      );
    });

    // Only meaningful under enumeration protection.
    it.runIf(!reliable)(
      'fetchSignInMethodsForEmail - should return [] even for an existing account',
      async () => {
        const email = uniqueEmail('hidden');
        await h.inspect.createUser({ email, password: PASSWORD });
        await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([]);
      },
    );

    it('fetchSignInMethodsForEmail - should reject invalid-email for a malformed address', async () => {
      await expectAuthError(h.provider.fetchSignInMethodsForEmail('not-an-email'), 'invalid-email');
    });
  });
}
