import { describe, expect, it } from 'vitest';
import { expectAuthError } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, uniqueEmail } from '../fixtures.ts';

/** Registers the tenants group (capabilities: tenants, password). */
export function tenantTests(h: ContractContext): void {
  const { caps, reliable } = h;
  const [tenantA, tenantB] = h.tenantIds;
  // Tenant isolation is checked with password accounts.
  describe.skipIf(!caps.tenants || !caps.password)('tenants (capability: tenants, password)', () => {
    it('setTenant - should keep the users of one tenant invisible in another', async () => {
      const email = uniqueEmail('tenant');
      await h.provider.setTenant(tenantA);
      const inA = await h.provider.createUser(email, PASSWORD);
      expect(inA.user.tenantId).toBe(tenantA);
      await h.provider.signOut();

      await h.provider.setTenant(tenantB);
      if (reliable) await expect(h.provider.fetchSignInMethodsForEmail(email)).resolves.toEqual([]);
      await expectAuthError(
        h.provider.signInWithEmailAndPassword(email, PASSWORD),
        reliable ? 'user-not-found' : 'wrong-password',
      );
      const inB = await h.provider.createUser(email, PASSWORD);
      expect(inB.user.tenantId).toBe(tenantB);
      expect(inB.user.uid).not.toBe(inA.user.uid);
      await h.provider.signOut();

      await h.provider.setTenant(tenantA);
      const again = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
      expect(again.user.uid).toBe(inA.user.uid);
    });

    it('setTenant - should return to the default tenant with null', async () => {
      await h.provider.setTenant(tenantA);
      await h.provider.setTenant(null);
      const result = await h.provider.createUser(uniqueEmail('default'), PASSWORD);
      expect(result.user.tenantId).toBeNull();
    });
  });
}
