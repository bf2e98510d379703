/**
 * Credentials: signing in with, and linking, a credential of any kind; each kind goes to its flow.
 * Linking to an anonymous user is its upgrade (any added sign-in method makes it permanent).
 * @module
 */
import type { AuthCredential, SignInResult } from '@doorway/auth-core';
import { emailLinkSignIn } from './emailLink.ts';
import { federatedCredentialSignIn } from './federated.ts';
import { passwordLink, passwordSignIn } from './password.ts';
import { phoneSignIn } from './phone.ts';
import type { FakeContext, Session } from './world.ts';

/** `signInWithCredential`. */
export function signInWithCredential(ctx: FakeContext, s: Session, credential: AuthCredential): SignInResult {
  switch (credential.kind) {
    case 'password':
      return passwordSignIn(ctx, s, credential.email, credential.password);
    case 'emailLink':
      return emailLinkSignIn(ctx, s, credential.email, credential.link, false);
    case 'phone':
      return phoneSignIn(ctx, s, credential.verificationId, credential.code, false);
    case 'federated':
      return federatedCredentialSignIn(ctx, s, credential, false);
  }
}

/** `linkWithCredential`: adds the credential's sign-in method to the signed-in user. */
export function linkWithCredential(ctx: FakeContext, s: Session, credential: AuthCredential): SignInResult {
  switch (credential.kind) {
    case 'password':
      return passwordLink(ctx, s, credential.email, credential.password);
    case 'emailLink':
      return emailLinkSignIn(ctx, s, credential.email, credential.link, true);
    case 'phone':
      return phoneSignIn(ctx, s, credential.verificationId, credential.code, true);
    case 'federated':
      return federatedCredentialSignIn(ctx, s, credential, true);
  }
}
