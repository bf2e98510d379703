/**
 * What the browser provider (SDK) and the server's form provider (REST) do alike, written once: reject
 * through the one error table, declare capabilities, choose the email language, check an address before
 * sending it an email, shape a reset email's link settings and build a plain user.
 * @module
 */
import {
  ACTION_MODES,
  type ActionLinkSettings,
  type AuthUser,
  type ProviderCapabilities,
  requireEmail,
  type SecondFactorKind,
  WIDGET_LANGUAGE,
} from '@doorway/auth-core';
import { type AttemptedSignIn, type FirebaseErrorContext, toAuthError } from './errors.ts';

/** Runs one call; whatever it throws rejects as the catalogue {@link AuthError} for `context`. */
export async function withAuthErrors<T>(
  context: FirebaseErrorContext,
  call: () => Promise<T>,
  attempted: AttemptedSignIn = {},
): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw toAuthError(e, context, attempted);
  }
}

/** The settings both providers declare their capabilities from. */
export interface CapabilitySettings {
  emailEnumerationProtection?: boolean;
  federatedProviders?: readonly string[];
  /** The second factors the project has enabled; default both. */
  secondFactors?: readonly SecondFactorKind[];
}

/** Both kinds Firebase offers: SMS and authenticator apps (TOTP). */
export const FIREBASE_SECOND_FACTORS: readonly SecondFactorKind[] = ['phone', 'totp'];

/**
 * Everything Firebase Auth offers; `inBrowser: false` (the form path) turns off what needs a page: phone
 * (captcha), popups and redirects. `reliableSignInMethodLookup` is the inverse of email enumeration
 * protection, which is on unless the host says otherwise. `secondFactors` are the kinds accounts may have
 * (absent when the host declares none), the same on both paths: the form path meets the same challenges.
 */
export function firebaseCapabilities(settings: CapabilitySettings, inBrowser: boolean): ProviderCapabilities {
  const secondFactors = [...(settings.secondFactors ?? FIREBASE_SECOND_FACTORS)];
  return {
    password: true,
    emailLink: true,
    phone: inBrowser,
    anonymous: true,
    federated: [...(settings.federatedProviders ?? [])],
    popup: inBrowser,
    redirect: inBrowser,
    tenants: true,
    reliableSignInMethodLookup: !(settings.emailEnumerationProtection ?? true),
    actionCodes: [...ACTION_MODES],
    captcha: inBrowser,
    ...(secondFactors.length > 0 && { secondFactors }),
  };
}

/** The language of Firebase's emails: the widget's (English, spec §1) unless the host names one or `null`. */
export function emailLanguage(languageCode: string | null | undefined): string | null {
  return languageCode === undefined ? WIDGET_LANGUAGE : languageCode;
}

/**
 * The address to send an email to, or `invalid-email` before anything is sent. Only the two sending calls
 * check: the Auth emulator does not check addresses there, Firebase does (`INVALID_EMAIL`).
 */
export function sendableEmail(email: string): string {
  return requireEmail(email);
}

/** A reset email's link settings as the SDK sends them (the code is handled in the app only when asked). */
export function resetLinkSettings(
  settings: ActionLinkSettings | undefined,
): { url: string; handleCodeInApp: boolean } | undefined {
  return settings === undefined
    ? undefined
    : { url: settings.url, handleCodeInApp: settings.handleCodeInApp ?? false };
}

/** The fields every Firebase account has, whichever API reports it; absent or empty is `null`. */
export interface AccountFields {
  uid: string;
  email?: string | null | undefined;
  displayName?: string | null | undefined;
  phoneNumber?: string | null | undefined;
  emailVerified?: boolean | undefined;
  tenantId?: string | null | undefined;
  providerData: readonly { providerId: string }[];
}

/** A plain {@link AuthUser}: `providerIds` are the account's linked providers, each once. */
export function plainUser(account: AccountFields, isAnonymous: boolean): AuthUser {
  return {
    uid: account.uid,
    email: account.email || null,
    displayName: account.displayName || null,
    phoneNumber: account.phoneNumber || null,
    emailVerified: account.emailVerified ?? false,
    isAnonymous,
    providerIds: [...new Set(account.providerData.map((p) => p.providerId))],
    tenantId: account.tenantId || null,
  };
}
