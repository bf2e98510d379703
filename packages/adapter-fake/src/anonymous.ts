/**
 * Anonymous users: signing one up. Its upgrade is linking a credential (see `credentials.ts`), which makes
 * it permanent and keeps its uid.
 * @module
 */
import type { SignInResult } from '@doorway/auth-core';
import { signInAs, signUp } from './users.ts';
import { type FakeContext, requireCapability, type Session } from './world.ts';

/** `signInAnonymously`: a new anonymous account in the session's tenant (subject to `signUpDisabled`). */
export function signInAnonymously(ctx: FakeContext, s: Session): SignInResult {
  requireCapability(ctx.world.capabilities.anonymous);
  return signInAs(s, signUp(ctx, { isAnonymous: true }, s.tenantId), 'anonymous', true);
}
