/**
 * Conversions between Doorway's plain {@link AuthCredential} and Firebase credentials.
 * @module
 */
import type { AuthCredential } from '@doorway/auth-core';
import type { FirebaseError } from 'firebase/app';
import {
  EmailAuthProvider,
  FacebookAuthProvider,
  type AuthProvider as FirebaseAuthProvider,
  type AuthCredential as FirebaseCredential,
  GithubAuthProvider,
  GoogleAuthProvider,
  OAuthCredential,
  OAuthProvider,
  PhoneAuthProvider,
  SAMLAuthProvider,
  TwitterAuthProvider,
  type UserCredential,
} from 'firebase/auth';

/** A federated credential in our plain form. */
export type FederatedCredential = Extract<AuthCredential, { kind: 'federated' }>;

const isSaml = (providerId: string): boolean => providerId.startsWith('saml.');

/**
 * The Firebase `AuthProvider` for a provider id, with scopes and custom parameters. `loginHint` goes in
 * the parameter the IdP reads (`login` for GitHub, none for Facebook/Twitter, `login_hint` elsewhere).
 */
export function federatedProviderFor(
  providerId: string,
  options: {
    scopes?: readonly string[];
    customParameters?: Readonly<Record<string, string>>;
    loginHint?: string;
  } = {},
): FirebaseAuthProvider {
  if (isSaml(providerId)) return new SAMLAuthProvider(providerId);
  const provider =
    providerId === GoogleAuthProvider.PROVIDER_ID
      ? new GoogleAuthProvider()
      : providerId === FacebookAuthProvider.PROVIDER_ID
        ? new FacebookAuthProvider()
        : providerId === GithubAuthProvider.PROVIDER_ID
          ? new GithubAuthProvider()
          : providerId === TwitterAuthProvider.PROVIDER_ID
            ? new TwitterAuthProvider()
            : new OAuthProvider(providerId);
  for (const scope of options.scopes ?? []) provider.addScope(scope);
  const parameters: Record<string, string> = { ...options.customParameters };
  if (options.loginHint !== undefined && options.loginHint !== '') {
    const key =
      providerId === GithubAuthProvider.PROVIDER_ID
        ? 'login'
        : providerId === FacebookAuthProvider.PROVIDER_ID || providerId === TwitterAuthProvider.PROVIDER_ID
          ? null
          : 'login_hint';
    if (key !== null) parameters[key] = options.loginHint;
  }
  if (Object.keys(parameters).length > 0) provider.setCustomParameters(parameters);
  return provider;
}

function federatedFromJson(raw: string): FirebaseCredential | null {
  try {
    const json: unknown = JSON.parse(raw);
    if (typeof json !== 'object' || json === null) return null;
    const providerId = (json as { providerId?: unknown }).providerId;
    if (typeof providerId === 'string' && isSaml(providerId))
      return SAMLAuthProvider.credentialFromJSON(json);
    return OAuthCredential.fromJSON(json as object);
  } catch {
    return null;
  }
}

/**
 * Builds the Firebase credential for a federated credential: from `raw` (the JSON of a Firebase
 * `OAuthCredential`, which keeps secrets, nonces and pending tokens) when present, else from the
 * `idToken`/`accessToken` with the provider's own factory.
 */
export function toFirebaseFederatedCredential(credential: FederatedCredential): FirebaseCredential {
  const { providerId, idToken, accessToken, raw } = credential;
  if (raw !== undefined) {
    const fromRaw = federatedFromJson(raw);
    if (fromRaw !== null && fromRaw.providerId === providerId) return fromRaw;
  }
  switch (providerId) {
    case GoogleAuthProvider.PROVIDER_ID:
      return GoogleAuthProvider.credential(idToken ?? null, accessToken ?? null);
    case FacebookAuthProvider.PROVIDER_ID:
      return FacebookAuthProvider.credential(accessToken ?? '');
    case GithubAuthProvider.PROVIDER_ID:
      return GithubAuthProvider.credential(accessToken ?? '');
    default: {
      const params: { idToken?: string; accessToken?: string } = {};
      if (idToken !== undefined) params.idToken = idToken;
      if (accessToken !== undefined) params.accessToken = accessToken;
      return new OAuthProvider(providerId).credential(params);
    }
  }
}

/**
 * Builds the Firebase credential for any of our credentials. Throws (a Firebase `auth/argument-error`)
 * for an email link that is not a sign-in link.
 */
export function toFirebaseCredential(credential: AuthCredential): FirebaseCredential {
  switch (credential.kind) {
    case 'password':
      return EmailAuthProvider.credential(credential.email, credential.password);
    case 'emailLink':
      return EmailAuthProvider.credentialWithLink(credential.email, credential.link);
    case 'phone':
      return PhoneAuthProvider.credential(credential.verificationId, credential.code);
    case 'federated':
      return toFirebaseFederatedCredential(credential);
  }
}

/** Our plain form of a Firebase OAuth/SAML credential. */
export function fromFirebaseCredential(
  credential: FirebaseCredential | null,
): FederatedCredential | undefined {
  if (credential === null) return undefined;
  const plain: FederatedCredential = { kind: 'federated', providerId: credential.providerId };
  if (credential instanceof OAuthCredential) {
    if (credential.idToken !== undefined) plain.idToken = credential.idToken;
    if (credential.accessToken !== undefined) plain.accessToken = credential.accessToken;
  }
  plain.raw = JSON.stringify(credential.toJSON());
  return plain;
}

/** The federated credential Firebase attached to an error (account exists, credential in use), if any. */
export function credentialFromFirebaseError(error: unknown): FederatedCredential | undefined {
  if (typeof error !== 'object' || error === null || !('customData' in error)) return undefined;
  const firebaseError = error as FirebaseError;
  const providerId = (firebaseError.customData as { _tokenResponse?: { providerId?: unknown } } | undefined)
    ?._tokenResponse?.providerId;
  try {
    const credential =
      typeof providerId === 'string' && isSaml(providerId)
        ? SAMLAuthProvider.credentialFromError(firebaseError)
        : OAuthProvider.credentialFromError(firebaseError);
    return fromFirebaseCredential(credential);
  } catch {
    return undefined;
  }
}

/** The federated credential a sign-in used, if it was a federated one. */
export function credentialFromUserCredential(result: UserCredential): FederatedCredential | undefined {
  const providerId = result.providerId;
  if (providerId === null || providerId === 'password' || providerId === 'phone') return undefined;
  try {
    const credential = isSaml(providerId)
      ? SAMLAuthProvider.credentialFromResult(result)
      : OAuthProvider.credentialFromResult(result);
    return fromFirebaseCredential(credential);
  } catch {
    return undefined;
  }
}
