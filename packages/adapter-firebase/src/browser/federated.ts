/**
 * Federated sign-in (popup and redirect), and signing in or linking with a credential of any kind.
 * @module
 */
import type { AuthCredential, FederatedOptions, SignInResult } from '@doorway/auth-core';
import {
  getRedirectResult,
  linkWithCredential,
  linkWithPopup,
  linkWithRedirect,
  signInWithCredential,
  signInWithPopup,
  signInWithRedirect,
} from 'firebase/auth';
import { federatedProviderFor } from '../shared/credentials.ts';
import type { FirebaseErrorContext } from '../shared/errors.ts';
import { signInError, withSignInErrors } from './challenge.ts';
import { type BrowserContext, firebaseCredential, requireUser } from './context.ts';
import { signInResult } from './results.ts';

/**
 * Signs in (or with `link`, links the signed-in user) with a federated provider. A popup resolves the
 * result; a redirect navigates away, and its result comes from {@link redirectResult} on the next page.
 * An account with a second factor rejects `second-factor-required` with its challenge (also for a
 * redirect result and a credential).
 */
export function federatedSignIn(
  ctx: BrowserContext,
  providerId: string,
  options: FederatedOptions,
): Promise<SignInResult | null> {
  const { mode, link, scopes, customParameters, loginHint } = options;
  return withSignInErrors(ctx, 'federated', { providerId, federated: true }, async () => {
    const idp = federatedProviderFor(providerId, {
      ...(scopes !== undefined && { scopes }),
      ...(customParameters !== undefined && { customParameters }),
      ...(loginHint !== undefined && { loginHint }),
    });
    if (mode === 'popup') {
      const credential = link
        ? await linkWithPopup(requireUser(ctx), idp)
        : await signInWithPopup(ctx.auth, idp);
      return signInResult(credential, providerId, true);
    }
    // Typed Promise<never>: in a browser the page navigates away before it settles.
    const navigation: Promise<unknown> = link
      ? linkWithRedirect(requireUser(ctx), idp)
      : signInWithRedirect(ctx.auth, idp);
    await navigation;
    return null;
  });
}

/** The result of a redirect sign-in this page returns from, or `null` when there was none. */
export async function redirectResult(ctx: BrowserContext): Promise<SignInResult | null> {
  try {
    const credential = await getRedirectResult(ctx.auth);
    return credential === null ? null : signInResult(credential, credential.providerId ?? 'unknown', true);
  } catch (e) {
    // The SDK's Node build has no redirect support: there is no redirect result to report there.
    if (e instanceof Error && 'code' in e && e.code === 'auth/operation-not-supported-in-this-environment') {
      return null;
    }
    throw signInError(ctx, e, 'federated', { providerId: null, federated: true });
  }
}

function providerIdOf(credential: AuthCredential): string {
  return credential.kind === 'federated' ? credential.providerId : credential.kind;
}

function contextOf(credential: AuthCredential): FirebaseErrorContext {
  switch (credential.kind) {
    case 'password':
      return 'password';
    case 'emailLink':
      return 'emailLinkSignIn';
    case 'phone':
      return 'phone';
    case 'federated':
      return 'federated';
  }
}

/**
 * Signs in with a credential of any kind (e.g. the one a merge conflict reported) or, with `link`, links it
 * to the signed-in user (an anonymous upgrade, or adding a method).
 */
function withCredential(
  ctx: BrowserContext,
  credential: AuthCredential,
  link: boolean,
): Promise<SignInResult> {
  const federated = credential.kind === 'federated';
  return withSignInErrors(
    ctx,
    contextOf(credential),
    { providerId: providerIdOf(credential), federated },
    async () => {
      const user = link ? requireUser(ctx) : null;
      const firebase = firebaseCredential(ctx, credential);
      const used =
        user === null
          ? await signInWithCredential(ctx.auth, firebase)
          : await linkWithCredential(user, firebase);
      return signInResult(used, providerIdOf(credential), federated);
    },
    { credential },
  );
}

/** Signs in with a credential of any kind (e.g. the one a merge conflict reported). */
export function credentialSignIn(ctx: BrowserContext, credential: AuthCredential): Promise<SignInResult> {
  return withCredential(ctx, credential, false);
}

/** Links a credential of any kind to the signed-in user (an anonymous upgrade, or adding a method). */
export function credentialLink(ctx: BrowserContext, credential: AuthCredential): Promise<SignInResult> {
  return withCredential(ctx, credential, true);
}
