/**
 * Plain results from the SDK's: the {@link AuthUser} of a Firebase `User` and the {@link SignInResult} of a
 * `UserCredential`.
 * @module
 */
import type { AuthUser, SignInResult } from '@doorway/auth-core';
import { getAdditionalUserInfo, type User, type UserCredential } from 'firebase/auth';
import { plainUser } from '../shared/common.ts';
import { credentialFromUserCredential } from '../shared/credentials.ts';

/**
 * A plain {@link AuthUser} from a Firebase `User`. `providerIds` are the user's `providerData` ids
 * (`password` — Firebase also reports email-link users as `password` — `phone`, `google.com`, …);
 * anonymous users have none and `isAnonymous: true`.
 */
export function toAuthUser(user: User): AuthUser {
  return plainUser(user, user.isAnonymous);
}

/**
 * The result of a sign-in or link. `federated`: also report the OAuth/SAML credential used, so it can be
 * linked to another account later.
 */
export function signInResult(
  credential: UserCredential,
  providerId: string,
  federated = false,
): SignInResult {
  const result: SignInResult = {
    user: toAuthUser(credential.user),
    // Linking never creates an account (Firebase reports the sign-up endpoint's isNewUser for it).
    isNewUser:
      credential.operationType === 'link' ? false : (getAdditionalUserInfo(credential)?.isNewUser ?? false),
    providerId,
  };
  if (federated) {
    const used = credentialFromUserCredential(credential);
    if (used !== undefined) result.credential = used;
  }
  return result;
}
