import { ACTION_MODES } from '@doorway/auth-core';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from '../context.ts';
import { signInSomeone } from '../steps.ts';

/** Registers the basics group: capability types, getCurrentUser and signOut. */
export function basicsTests(h: ContractContext): void {
  describe('basics', () => {
    it('capabilities - should declare every capability with the right types', () => {
      const c = h.provider.capabilities;
      for (const key of [
        'password',
        'emailLink',
        'phone',
        'anonymous',
        'popup',
        'redirect',
        'tenants',
      ] as const) {
        expect(typeof c[key]).toBe('boolean');
      }
      expect(typeof c.reliableSignInMethodLookup).toBe('boolean');
      expect(typeof c.captcha).toBe('boolean');
      expect(c.federated.every((id) => typeof id === 'string' && id !== '')).toBe(true);
      expect(c.actionCodes.every((mode) => ACTION_MODES.includes(mode))).toBe(true);
      expect(['undefined', 'boolean']).toContain(typeof c.passkeys);
      if (c.passkeys === true) expect(h.provider.passkeys).toBeDefined();
    });

    it('getCurrentUser - should be null before anyone signs in', () => {
      expect(h.provider.getCurrentUser()).toBeNull();
    });

    it('getCurrentUser - should return the signed-in user', async () => {
      const result = await signInSomeone(h);
      expect(h.provider.getCurrentUser()).toEqual(result.user);
    });

    it('signOut - should clear the current user', async () => {
      await signInSomeone(h);
      await h.provider.signOut();
      expect(h.provider.getCurrentUser()).toBeNull();
    });

    it('signOut - should resolve when nobody is signed in', async () => {
      await expect(h.provider.signOut()).resolves.toBeUndefined();
      expect(h.provider.getCurrentUser()).toBeNull();
    });
  });
}
