/**
 * Anonymous sign-in. An anonymous user is upgraded by linking a credential to it (`linkWithCredential`,
 * or `link: true` on the email-link, phone and federated operations).
 * @module
 */
import type { SignInResult } from '@doorway/auth-core';
import { signInAnonymously } from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import type { BrowserContext } from './context.ts';
import { signInResult } from './results.ts';

export function anonymousSignIn(ctx: BrowserContext): Promise<SignInResult> {
  return withAuthErrors('anonymous', async () =>
    signInResult(await signInAnonymously(ctx.auth), 'anonymous'),
  );
}
