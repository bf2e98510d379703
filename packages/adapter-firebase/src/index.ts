/**
 * Doorway's provider over the modular Firebase Auth SDK (v12): `createFirebaseProvider(options)` maps every
 * {@link AuthProvider} method to one or two SDK calls and every failure to a catalogue {@link AuthError}.
 * The factory only assembles: each operation is a named function of its flow's module (`browser/*.ts`)
 * over one {@link BrowserContext}.
 * @module
 */
import type { AuthProvider, ProviderCapabilities, SecondFactorOperations } from '@doorway/auth-core';
import type { Auth } from 'firebase/auth';
import { browserAccount, FIREBASE_ACCOUNT_OPERATIONS } from './browser/account.ts';
import {
  applyCode,
  checkCode,
  confirmReset,
  sendPasswordReset,
  verifyResetCode,
} from './browser/actionCodes.ts';
import { anonymousSignIn } from './browser/anonymous.ts';
import { type BrowserContext, createBrowserContext } from './browser/context.ts';
import { emailLinkSignIn, isSignInLink, sendSignInLink } from './browser/emailLink.ts';
import { credentialLink, credentialSignIn, federatedSignIn, redirectResult } from './browser/federated.ts';
import type { FirebaseProviderOptions } from './browser/options.ts';
import { passkeyOperations } from './browser/passkeys.ts';
import { createUser, passwordSignIn, signInMethods } from './browser/password.ts';
import { confirmPhoneCode, createCaptchaVerifier, startPhoneSignIn } from './browser/phone.ts';
import {
  cancelSecondFactorSignIn,
  finishPhoneEnrollment,
  finishSecondFactorSignIn,
  finishTotpEnrollment,
  listSecondFactors,
  startPhoneEnrollment,
  startSecondFactorSignIn,
  startTotpEnrollment,
  unenrollSecondFactor,
} from './browser/secondFactors.ts';
import { currentUser, setTenant, signOutUser } from './browser/session.ts';
import { firebaseCapabilities } from './shared/common.ts';

export type {
  FirebasePasskeySettings,
  FirebaseProviderOptions,
  FirebaseProviderSettings,
  FirebaseProviderSource,
  RecaptchaOptions,
} from './browser/options.ts';
export { toAuthUser } from './browser/results.ts';
export { createNativeWebAuthnClient } from './browser/webauthn.ts';
export { toActionCodeInfo } from './shared/actionCodes.ts';
export { fromFirebaseCredential, toFirebaseCredential } from './shared/credentials.ts';
export {
  type AttemptedSignIn,
  catalogueCodeFor,
  FIREBASE_CONTEXT_ERRORS,
  FIREBASE_ERRORS,
  type FirebaseErrorContext,
  toAuthError,
} from './shared/errors.ts';

/** A Firebase-backed {@link AuthProvider}, with the Auth instance it drives. */
export interface FirebaseProvider extends AuthProvider {
  /** The underlying Auth instance (for the host's own calls, e.g. `getIdToken` after sign-in). */
  readonly auth: Auth;
}

/**
 * Creates the Firebase provider.
 *
 * - Popups: `signInWithPopup` / `linkWithPopup`; the SDK opens them at 500×600 itself, which is the spec's
 *   popup size (`POPUP_WIDTH` × `POPUP_HEIGHT`).
 * - Redirects: `signInWithRedirect` / `linkWithRedirect` navigate away (the SDK's promise does not settle
 *   once the page unloads); the result comes from {@link AuthProvider.getRedirectResult}.
 * - Phone: `signInWithPhoneNumber` with the reCAPTCHA from {@link AuthProvider.createCaptchaVerifier}; the
 *   `ConfirmationResult` is kept by verification id for {@link AuthProvider.confirmPhoneCode}.
 * - Second factors: a sign-in whose account has one rejects `second-factor-required` with a plain-JSON
 *   challenge (the SDK's resolver waits in memory under the random id it carries); `secondFactors`
 *   finishes it and manages the signed-in user's enrolments through `multiFactor(user)`.
 * - Passkeys: with `passkeys: { endpoint }`, through the app's passkey server (`createPasskeyServer` of
 *   the server entry), which verifies the ceremony and mints a custom token the SDK signs in with.
 * - Capabilities: everything Firebase Auth offers; `reliableSignInMethodLookup` is the inverse of
 *   `emailEnumerationProtection` (default protected, so `false`); `secondFactors` as the host declares
 *   (default SMS and TOTP).
 *
 * Nothing here touches `window` or `document` at import or creation time.
 * @example
 * const provider = createFirebaseProvider({
 *   config: { apiKey, authDomain, projectId },
 *   emulatorUrl: import.meta.env.DEV ? 'http://127.0.0.1:9099' : undefined,
 *   federatedProviders: ['google.com'],
 * });
 */
export function createFirebaseProvider(options: FirebaseProviderOptions): FirebaseProvider {
  const ctx = createBrowserContext(options);
  const capabilities: ProviderCapabilities = {
    ...firebaseCapabilities(options, true),
    ...(options.passkeys !== undefined && { passkeys: true }),
    account: FIREBASE_ACCOUNT_OPERATIONS,
  };
  return {
    auth: ctx.auth,
    capabilities,
    getCurrentUser: () => currentUser(ctx),
    setTenant: (tenantId) => setTenant(ctx, tenantId),
    fetchSignInMethodsForEmail: (email) => signInMethods(ctx, email),
    signInWithEmailAndPassword: (email, password) => passwordSignIn(ctx, email, password),
    createUser: (email, password, displayName) => createUser(ctx, email, password, displayName),
    signInWithCredential: (credential) => credentialSignIn(ctx, credential),
    signInWithFederated: (providerId, federatedOptions) => federatedSignIn(ctx, providerId, federatedOptions),
    getRedirectResult: () => redirectResult(ctx),
    signInAnonymously: () => anonymousSignIn(ctx),
    createCaptchaVerifier: (container) => createCaptchaVerifier(ctx, container),
    startPhoneSignIn: (phoneNumber, verifier) => startPhoneSignIn(ctx, phoneNumber, verifier),
    confirmPhoneCode: (verificationId, code, confirmOptions) =>
      confirmPhoneCode(ctx, verificationId, code, confirmOptions?.link ?? false),
    sendSignInLinkToEmail: (email, settings) => sendSignInLink(ctx, email, settings),
    isSignInWithEmailLink: (link) => isSignInLink(ctx, link),
    signInWithEmailLink: (email, link, linkOptions) =>
      emailLinkSignIn(ctx, email, link, linkOptions?.link ?? false),
    sendPasswordResetEmail: (email, settings) => sendPasswordReset(ctx, email, settings),
    verifyPasswordResetCode: (code) => verifyResetCode(ctx, code),
    confirmPasswordReset: (code, newPassword) => confirmReset(ctx, code, newPassword),
    checkActionCode: (code) => checkCode(ctx, code),
    applyActionCode: (code) => applyCode(ctx, code),
    linkWithCredential: (credential) => credentialLink(ctx, credential),
    signOut: () => signOutUser(ctx),
    ...(capabilities.secondFactors !== undefined && { secondFactors: secondFactorOperations(ctx) }),
    account: browserAccount(ctx),
    ...(options.passkeys !== undefined && { passkeys: passkeyOperations(ctx, options.passkeys) }),
  };
}

/** The second-factor operations of {@link createFirebaseProvider}, each one a function of `browser/secondFactors.ts`. */
function secondFactorOperations(ctx: BrowserContext): SecondFactorOperations {
  return {
    startSignIn: (challenge, factorUid, verifier) =>
      startSecondFactorSignIn(ctx, challenge, factorUid, verifier),
    finishSignIn: (challenge, verificationId, code) =>
      finishSecondFactorSignIn(ctx, challenge, verificationId, code),
    cancelSignIn: (challenge) => cancelSecondFactorSignIn(ctx, challenge),
    list: () => listSecondFactors(ctx),
    startPhoneEnrollment: (phoneNumber, verifier) => startPhoneEnrollment(ctx, phoneNumber, verifier),
    finishPhoneEnrollment: (verificationId, code, displayName) =>
      finishPhoneEnrollment(ctx, verificationId, code, displayName),
    startTotpEnrollment: () => startTotpEnrollment(ctx),
    finishTotpEnrollment: (enrollmentId, code, displayName) =>
      finishTotpEnrollment(ctx, enrollmentId, code, displayName),
    unenroll: (factorUid) => unenrollSecondFactor(ctx, factorUid),
  };
}
