/**
 * The browser provider's current user, sign-out and tenant.
 * @module
 */
import type { AuthUser } from '@doorway/auth-core';
import { signOut } from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import type { BrowserContext } from './context.ts';
import { toAuthUser } from './results.ts';

/** The signed-in user, or `null`. */
export function currentUser(ctx: BrowserContext): AuthUser | null {
  const user = ctx.auth.currentUser;
  return user === null ? null : toAuthUser(user);
}

/** Signs out of Firebase (this browser only). */
export function signOutUser(ctx: BrowserContext): Promise<void> {
  return withAuthErrors('other', () => signOut(ctx.auth));
}

/** The tenant every later call acts in; `null` is the project's default tenant. */
export async function setTenant(ctx: BrowserContext, tenantId: string | null): Promise<void> {
  ctx.auth.tenantId = tenantId;
}
