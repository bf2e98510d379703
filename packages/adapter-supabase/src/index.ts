/**
 * `@doorway/adapter-supabase`: Doorway's {@link AuthProvider} on supabase-js v2 (`client.auth`, i.e. Supabase
 * Auth / GoTrue). What Supabase cannot do is declared in `capabilities`, not faked. See the README for the
 * email templates the project needs, the error table and the decisions behind each method.
 * @module
 */
import type { LazyProvider } from '@doorway/auth-core';
import { browserAccount } from './browser/account.ts';
import {
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  sendPasswordResetEmail,
  verifyPasswordResetCode,
} from './browser/actionCodes.ts';
import { signInAnonymously } from './browser/anonymous.ts';
import { createCaptchaVerifier } from './browser/captcha.ts';
import { createContext, followSession } from './browser/context.ts';
import { linkWithCredential, signInWithCredential, signOut } from './browser/credentials.ts';
import { sendSignInLink, signInWithEmailLink } from './browser/emailLink.ts';
import { getRedirectResult, signInWithFederated } from './browser/federated.ts';
import { browserPasskeys } from './browser/passkeys.ts';
import { createUser, signInWithPassword } from './browser/password.ts';
import { confirmPhoneCode, startPhoneSignIn } from './browser/phone.ts';
import { browserSecondFactors } from './browser/secondFactors.ts';
import type { SupabaseProvider, SupabaseProviderOptions, SupabaseProviderSettings } from './browser/types.ts';
import { clientFrom } from './browser/window.ts';
import { lookupSignInMethods, refuseTenant } from './shared/common.ts';
import { isSignInLink } from './shared/emailLink.ts';

/** The catalogue code a WebAuthn ceremony's rejection means (auth-core's, for the app's own ceremonies). */
export { passkeyCeremonyCode } from '@doorway/auth-core';
export type {
  SupabaseAuthOptions,
  SupabaseAuthSource,
  SupabaseBrowser,
  SupabaseCaptcha,
  SupabasePopup,
  SupabaseProvider,
  SupabaseProviderOptions,
  SupabaseProviderSettings,
} from './browser/types.ts';
export { createBrowserWebAuthnClient } from './browser/webauthn.ts';
export {
  mapSupabaseErrorCode,
  SUPABASE_ERROR_TABLE,
  type SupabaseErrorContext,
  type SupabaseErrorMapping,
  toAuthError,
} from './shared/errors.ts';
export {
  actionRedirectUrl,
  EMAIL_TOKEN_TYPES,
  type EmailTokenType,
  emailHash,
  formatActionCode,
  LINK_PARAMS,
  type OAuthLanding,
  type ParsedEmailLink,
  parseActionCode,
  parseEmailLink,
  parseOAuthLanding,
  SUPABASE_EMAIL_TEMPLATES,
  type SupabaseActionCode,
} from './shared/links.ts';
export {
  looksNew,
  SUPABASE_PROVIDER_NAMES,
  toAuthUser,
  toDoorwayProvider,
  toSupabaseProvider,
} from './shared/user.ts';

/**
 * Creates Doorway's provider on Supabase Auth.
 *
 * @param options an existing client, or the project URL and anon key
 * @param settings federated providers, landing URLs, captcha, sign-up switches
 * @example
 * const provider = createSupabaseProvider(
 *   { url: import.meta.env.VITE_SUPABASE_URL, anonKey: import.meta.env.VITE_SUPABASE_ANON_KEY },
 *   { federatedProviders: ['google.com'], actionUrl: `${location.origin}/auth/action` },
 * );
 * await provider.ready;
 */
export function createSupabaseProvider(
  options: SupabaseProviderOptions,
  settings: SupabaseProviderSettings = {},
): SupabaseProvider {
  const client = clientFrom(options);
  const ctx = createContext(client.auth, settings);
  const session = followSession(ctx);
  return {
    client,
    ready: session.ready,
    capabilities: ctx.capabilities,
    dispose: session.stop,
    getCurrentUser: () => ctx.current,
    setTenant: refuseTenant,
    fetchSignInMethodsForEmail: lookupSignInMethods,
    signInWithEmailAndPassword: (email, password) => signInWithPassword(ctx, email, password),
    createUser: (email, password, displayName) => createUser(ctx, email, password, displayName),
    signInWithCredential: (credential) => signInWithCredential(ctx, credential),
    signInWithFederated: (providerId, federated) => signInWithFederated(ctx, providerId, federated),
    getRedirectResult: () => getRedirectResult(ctx),
    signInAnonymously: () => signInAnonymously(ctx),
    createCaptchaVerifier: (container) => createCaptchaVerifier(settings.captcha, container),
    startPhoneSignIn: (phoneNumber, verifier) => startPhoneSignIn(ctx, phoneNumber, verifier),
    confirmPhoneCode: (verificationId, code, options) => confirmPhoneCode(ctx, verificationId, code, options),
    sendSignInLinkToEmail: (email, linkSettings) => sendSignInLink(ctx, email, linkSettings.url),
    isSignInWithEmailLink: isSignInLink,
    signInWithEmailLink: (email, link, options) => signInWithEmailLink(ctx, email, link, options),
    sendPasswordResetEmail: (email, linkSettings) => sendPasswordResetEmail(ctx, email, linkSettings),
    verifyPasswordResetCode: (code) => verifyPasswordResetCode(ctx, code),
    confirmPasswordReset: (code, newPassword) => confirmPasswordReset(ctx, code, newPassword),
    checkActionCode: (code) => checkActionCode(ctx, code),
    applyActionCode: (code) => applyActionCode(ctx, code),
    linkWithCredential: (credential) => linkWithCredential(ctx, credential),
    signOut: () => signOut(ctx),
    ...(ctx.capabilities.secondFactors ? { secondFactors: browserSecondFactors(ctx) } : {}),
    ...(ctx.capabilities.passkeys ? { passkeys: browserPasskeys(ctx) } : {}),
    account: browserAccount(ctx),
  };
}

/**
 * The provider as a {@link LazyProvider}, so the widget waits (within its load limits) until a persisted
 * session has been read.
 * @example createFlow({ provider: lazySupabaseProvider({ url, anonKey }), config, url: location.href })
 */
export function lazySupabaseProvider(
  options: SupabaseProviderOptions,
  settings: SupabaseProviderSettings = {},
): LazyProvider {
  let provider: SupabaseProvider | null = null;
  let loaded = false;
  return {
    async loadScript() {
      provider ??= createSupabaseProvider(options, settings);
      await provider.ready;
      loaded = true;
    },
    getProvider: () => (loaded ? provider : null),
  };
}
