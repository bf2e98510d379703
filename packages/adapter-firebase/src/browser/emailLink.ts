/**
 * Email-link sign-in: sending the link, recognising it, and completing (or linking) with it.
 * @module
 */
import type { ActionLinkSettings, SignInResult } from '@doorway/auth-core';
import {
  EmailAuthProvider,
  isSignInWithEmailLink,
  linkWithCredential,
  sendSignInLinkToEmail,
  signInWithEmailLink,
} from 'firebase/auth';
import { sendableEmail, withAuthErrors } from '../shared/common.ts';
import { withSignInErrors } from './challenge.ts';
import { type BrowserContext, requireUser } from './context.ts';
import { signInResult } from './results.ts';

/** Emails a sign-in link that opens `settings.url` in the app. */
export async function sendSignInLink(
  ctx: BrowserContext,
  email: string,
  settings: ActionLinkSettings,
): Promise<void> {
  const address = sendableEmail(email);
  return withAuthErrors('emailLinkSend', () =>
    sendSignInLinkToEmail(ctx.auth, address, { url: settings.url, handleCodeInApp: true }),
  );
}

/** Whether a URL is a Firebase sign-in link; a URL the SDK cannot read is none. */
export function isSignInLink(ctx: BrowserContext, link: string): boolean {
  try {
    return isSignInWithEmailLink(ctx.auth, link);
  } catch {
    return false;
  }
}

/**
 * Completes email-link sign-in; with `linkToCurrent`, adds the email to the signed-in user instead. An
 * account with a second factor rejects `second-factor-required` with its challenge.
 */
export function emailLinkSignIn(
  ctx: BrowserContext,
  email: string,
  link: string,
  linkToCurrent: boolean,
): Promise<SignInResult> {
  return withSignInErrors(ctx, 'emailLinkSignIn', { providerId: 'emailLink' }, async () => {
    const credential = linkToCurrent
      ? await linkWithCredential(requireUser(ctx), EmailAuthProvider.credentialWithLink(email, link))
      : await signInWithEmailLink(ctx.auth, email, link);
    return signInResult(credential, 'emailLink');
  });
}
