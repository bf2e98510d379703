/**
 * The one table from Firebase Auth error codes (`auth/*`, client SDK and firebase-admin) to Doorway's
 * catalogue codes, and {@link toAuthError}, which every method of the adapter rejects through.
 * @module
 */
import { type AuthCredential, AuthError, type AuthErrorDetails, type ErrorCode } from '@doorway/auth-core';
import { credentialFromFirebaseError } from './credentials.ts';

/**
 * What the adapter was doing when Firebase failed. A few Firebase codes mean different things per
 * operation (a rate limit on sign-up is not a wrong-password lockout), so the table has per-context rows.
 */
export type FirebaseErrorContext =
  /** Email/password sign-in (also a `password` credential). */
  | 'password'
  /** Creating an email/password account. */
  | 'createUser'
  /** Federated sign-in: popup, redirect, redirect result or a `federated` credential. */
  | 'federated'
  | 'anonymous'
  /** Sending or confirming an SMS code (also a `phone` credential). */
  | 'phone'
  | 'emailLinkSend'
  /** Completing email-link sign-in (also an `emailLink` credential). */
  | 'emailLinkSignIn'
  | 'passwordReset'
  /** checkActionCode / applyActionCode / verifyPasswordResetCode / confirmPasswordReset. */
  | 'actionCode'
  | 'lookup'
  /** Enrolling, listing or removing a second factor. */
  | 'enrollment'
  /** Server: session cookies (firebase-admin). */
  | 'session'
  | 'other';

/**
 * Every Firebase Auth code the adapter's operations can raise, mapped to a catalogue code. Codes not
 * listed here (and anything that is not a Firebase error) become `generic`. Per-context exceptions are in
 * {@link FIREBASE_CONTEXT_ERRORS}.
 */
export const FIREBASE_ERRORS: Readonly<Record<string, ErrorCode>> = {
  // Email/password.
  'auth/wrong-password': 'wrong-password',
  // Firebase reports both a wrong password and an unknown email as this under email enumeration protection.
  'auth/invalid-credential': 'wrong-password',
  'auth/invalid-login-credentials': 'wrong-password',
  'auth/user-not-found': 'user-not-found',
  'auth/email-already-in-use': 'email-already-in-use',
  'auth/weak-password': 'weak-password',
  'auth/password-does-not-meet-requirements': 'weak-password',
  'auth/missing-password': 'missing-password',
  'auth/invalid-email': 'invalid-email',
  'auth/user-disabled': 'user-disabled',
  'auth/too-many-requests': 'too-many-requests',
  'auth/operation-not-allowed': 'operation-not-allowed',
  'auth/admin-restricted-operation': 'sign-up-disabled',
  'auth/unsupported-tenant-operation': 'operation-not-allowed',
  // Re-authentication.
  'auth/requires-recent-login': 'requires-recent-login',
  'auth/user-token-expired': 'requires-recent-login',
  'auth/invalid-user-token': 'requires-recent-login',
  'auth/user-signed-out': 'requires-recent-login',
  'auth/null-user': 'requires-recent-login',
  // Federated.
  'auth/popup-closed-by-user': 'user-cancelled',
  'auth/cancelled-popup-request': 'user-cancelled',
  'auth/user-cancelled': 'user-cancelled',
  'auth/redirect-cancelled-by-user': 'user-cancelled',
  'auth/popup-blocked': 'popup-blocked',
  'auth/account-exists-with-different-credential': 'account-exists-with-different-credential',
  'auth/credential-already-in-use': 'credential-already-in-use',
  // Phone.
  'auth/invalid-verification-code': 'invalid-verification-code',
  'auth/missing-verification-code': 'invalid-verification-code',
  'auth/code-expired': 'code-expired',
  // The verification id is unknown or gone (e.g. a reload lost it): start the phone flow again.
  'auth/invalid-verification-id': 'code-expired',
  'auth/missing-verification-id': 'code-expired',
  'auth/invalid-phone-number': 'invalid-phone-number',
  'auth/missing-phone-number': 'invalid-phone-number',
  'auth/quota-exceeded': 'phone-too-many-requests',
  'auth/captcha-check-failed': 'captcha-check-failed',
  'auth/invalid-app-credential': 'captcha-check-failed',
  'auth/missing-app-credential': 'captcha-check-failed',
  'auth/invalid-recaptcha-token': 'captcha-check-failed',
  'auth/missing-recaptcha-token': 'captcha-check-failed',
  'auth/invalid-recaptcha-action': 'captcha-check-failed',
  'auth/recaptcha-not-enabled': 'captcha-check-failed',
  // Second factors. The pending sign-in (its MFA session) is unknown, expired or used: start over.
  'auth/missing-multi-factor-session': 'code-expired',
  'auth/invalid-multi-factor-session': 'code-expired',
  // The factor a challenge named is no longer on the account.
  'auth/multi-factor-info-not-found': 'code-expired',
  'auth/second-factor-already-in-use': 'credential-already-in-use',
  // Firebase enrols second factors only on accounts whose email is verified: the app must have the email
  // verified first (no catalogue text says so; this one says the operation is not open to the account).
  'auth/unverified-email': 'operation-not-allowed',
  // Phone sign-in on an account with a second factor (Firebase refuses SMS as its first factor).
  'auth/unsupported-first-factor': 'operation-not-allowed',
  // Action codes and links.
  'auth/expired-action-code': 'expired-action-code',
  'auth/invalid-action-code': 'invalid-action-code',
  'auth/invalid-continue-uri': 'invalid-continue-uri',
  'auth/unauthorized-continue-uri': 'invalid-continue-uri',
  'auth/missing-continue-uri': 'invalid-continue-uri',
  'auth/invalid-dynamic-link-domain': 'invalid-continue-uri',
  'auth/invalid-hosting-link-domain': 'invalid-continue-uri',
  // Environment.
  'auth/network-request-failed': 'network-request-failed',
  'auth/timeout': 'network-request-failed',
  'auth/web-storage-unsupported': 'web-storage-unsupported',
  // firebase-admin (server): ID tokens and session cookies.
  'auth/id-token-expired': 'session-expired',
  'auth/id-token-revoked': 'session-expired',
  'auth/invalid-id-token': 'session-expired',
  'auth/session-cookie-expired': 'session-expired',
  'auth/session-cookie-revoked': 'session-expired',
  'auth/invalid-session-cookie-duration': 'generic',
  // Listed so the table is explicit about them: nothing better than the generic message fits.
  'auth/internal-error': 'generic',
  'auth/argument-error': 'generic',
  'auth/operation-not-supported-in-this-environment': 'generic',
  'auth/unauthorized-domain': 'generic',
  'auth/invalid-api-key': 'generic',
  'auth/app-deleted': 'generic',
  'auth/provider-already-linked': 'generic',
  // Every sign-in turns it into `second-factor-required` with its challenge (`browser/challenge.ts`, and
  // the form provider's sign-ins); alone, without the resolver, there is nothing to challenge with.
  'auth/multi-factor-auth-required': 'generic',
  'auth/maximum-second-factor-count-exceeded': 'generic',
  'auth/tenant-id-mismatch': 'generic',
  'auth/invalid-tenant-id': 'generic',
};

/** Per-operation exceptions to {@link FIREBASE_ERRORS}. */
export const FIREBASE_CONTEXT_ERRORS: Readonly<
  Partial<Record<FirebaseErrorContext, Readonly<Record<string, ErrorCode>>>>
> = {
  createUser: {
    'auth/too-many-requests': 'sign-up-too-many-requests',
    'auth/quota-exceeded': 'sign-up-too-many-requests',
  },
  phone: {
    'auth/too-many-requests': 'phone-too-many-requests',
    'auth/invalid-credential': 'invalid-verification-code',
    // Linking a number another account has: Firebase answers with a temporary proof (NEED_CONFIRMATION).
    'auth/account-exists-with-different-credential': 'credential-already-in-use',
  },
  anonymous: {
    // A project or tenant with anonymous sign-in off answers ADMIN_ONLY_OPERATION.
    'auth/admin-restricted-operation': 'operation-not-allowed',
  },
  federated: {
    // An IdP credential Firebase rejects is not a password mismatch.
    'auth/invalid-credential': 'generic',
  },
  emailLinkSignIn: {
    // Firebase answers INVALID_EMAIL when the email is not the one the link was sent to.
    'auth/invalid-email': 'email-mismatch',
    // Not an email sign-in link at all (EmailAuthProvider.credentialWithLink).
    'auth/argument-error': 'invalid-action-code',
    'auth/tenant-id-mismatch': 'invalid-action-code',
  },
  enrollment: {
    // Removing a factor the account does not have (no challenge to start over).
    'auth/multi-factor-info-not-found': 'generic',
  },
  actionCode: {
    // The account the code was for is gone.
    'auth/user-not-found': 'invalid-action-code',
    'auth/user-token-expired': 'invalid-action-code',
    'auth/user-disabled': 'invalid-action-code',
  },
};

/** What the adapter tried, so an error can carry the credential the flow may link later. */
export interface AttemptedSignIn {
  /** The credential that was used (our plain form), when there was one. */
  credential?: AuthCredential;
}

/**
 * The Firebase Auth code (`auth/…`) of an error thrown by the client SDK or firebase-admin, or `null` for
 * anything else (Firebase could not be asked, or something else failed).
 */
export function firebaseCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && code.startsWith('auth/') ? code : null;
}

function customEmail(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('customData' in error)) return undefined;
  const data = (error as { customData: unknown }).customData;
  if (typeof data !== 'object' || data === null || !('email' in data)) return undefined;
  const email = (data as { email: unknown }).email;
  return typeof email === 'string' && email !== '' ? email : undefined;
}

/** The catalogue code for a Firebase error code in a context (`generic` when unknown). */
export function catalogueCodeFor(code: string, context: FirebaseErrorContext = 'other'): ErrorCode {
  const specific = FIREBASE_CONTEXT_ERRORS[context];
  if (specific !== undefined && Object.hasOwn(specific, code)) return specific[code] as ErrorCode;
  if (Object.hasOwn(FIREBASE_ERRORS, code)) return FIREBASE_ERRORS[code] as ErrorCode;
  return 'generic';
}

/**
 * Maps anything a Firebase call threw to an {@link AuthError} with a catalogue code. Never copies a raw
 * Firebase message. For `account-exists-with-different-credential`, `credential-already-in-use` and
 * `email-already-in-use` it carries the email (from `customData.email`) and the credential: the federated
 * credential Firebase returned with the error, else the one that was attempted. An `AuthError` passes
 * through unchanged; anything that is not a Firebase Auth error becomes `generic`.
 * @example
 * try { await signInWithEmailAndPassword(auth, email, password); }
 * catch (e) { throw toAuthError(e, 'password'); } // AuthError { code: 'wrong-password' }
 */
export function toAuthError(
  error: unknown,
  context: FirebaseErrorContext = 'other',
  attempted: AttemptedSignIn = {},
): AuthError {
  if (error instanceof AuthError) return error;
  const code = firebaseCode(error);
  if (code === null) return new AuthError('generic');
  const mapped = catalogueCodeFor(code, context);
  const details: AuthErrorDetails = {};
  if (
    mapped === 'account-exists-with-different-credential' ||
    mapped === 'credential-already-in-use' ||
    mapped === 'email-already-in-use'
  ) {
    const email = customEmail(error);
    if (email !== undefined) details.email = email;
    const credential = credentialFromFirebaseError(error) ?? attempted.credential;
    if (credential !== undefined) details.credential = credential;
  }
  return new AuthError(mapped, details);
}
