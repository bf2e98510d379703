/**
 * The server's form provider on Supabase: a {@link ServerAuthProvider} for one request, over GoTrue's REST
 * API (`./rest.ts`), for the host's HTML-form path. It takes the same steps as the browser provider
 * (`../index.ts`) with the same requests and the same catalogue codes, minus what needs a browser.
 *
 * What differs from the browser provider, and why:
 * - **No session survives the request.** The provider knows only the sign-in it made itself; the host turns
 *   {@link ServerAuthProvider.sessionToken} (the access token) into its session. So an anonymous user cannot
 *   be upgraded here (linking needs that user's session, which only the browser holds).
 * - **No PKCE.** A PKCE link's code verifier stays in the browser that asked for it; the server sends
 *   token-hash links (Doorway's templates) and refuses a PKCE return with `session-expired`, as supabase-js
 *   does without its verifier.
 * - **Browser-only methods** (captcha, phone, OAuth, credentials, linking) reject `operation-not-allowed`.
 * - **Second factors: authenticator apps only** (`capabilities.secondFactors: ['totp']`). A password or
 *   email-link sign-in of an account with a verified factor rejects `second-factor-required`; its challenge
 *   keeps the aal1 access token (the flow seals it in its cookie) and the TOTP code finishes it over REST.
 *   A phone factor's SMS rejects `javascript-required` (see `./server/formFactors.ts`).
 * @module
 */
import type { AuthProvider, AuthUser } from '@doorway/auth-core';
import { BROWSER_ONLY, type ServerAuthProvider } from '@doorway/auth-core/server';
import { lookupSignInMethods, refuseTenant, supabaseCapabilities } from '../shared/common.ts';
import { isSignInLink } from '../shared/emailLink.ts';
import { type ServerAccountSettings, serverAccount, serverAccountOperations } from './account.ts';
import { createUser, signInAnonymously, signInWithPassword, signOut } from './formAccounts.ts';
import type { FormContext } from './formContext.ts';
import { sendPasswordResetEmail, sendSignInLink, signInWithEmailLink } from './formEmail.ts';
import { FORM_SECOND_FACTORS, formSecondFactors, type PasswordResetEnd } from './formFactors.ts';
import type { GoTrueApi } from './rest.ts';
import type { SupabaseFormSettings } from './types.ts';

export type { SupabaseFormSettings } from './types.ts';

/** The action-code methods the form provider takes from the server's action-code provider. */
export type FormActionCodes = Pick<
  AuthProvider,
  'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'confirmPasswordReset'
> &
  PasswordResetEnd;

/**
 * Creates the form provider of one request (`SupabaseServer.formProvider` calls this).
 * @param api where GoTrue is
 * @param actions the server's action-code provider (reset, verify-email and change-email links)
 * @param settings what the browser provider is configured with, where it matters on the server
 * @param signedIn the session the request already has (verified by the caller), for account operations
 * @param account given: the provider has `account` (the account page's operations) and lists them in
 *   `capabilities.account`
 */
export function createSupabaseFormProvider(
  api: GoTrueApi,
  actions: FormActionCodes,
  settings: SupabaseFormSettings = {},
  signedIn: { user: AuthUser; accessToken: string } | null = null,
  account?: ServerAccountSettings,
): ServerAuthProvider {
  const ctx: FormContext = { api, settings, current: signedIn };
  const capabilities = supabaseCapabilities({
    federated: settings.federatedProviders,
    phone: false,
    browser: false,
    captcha: false,
    secondFactors: FORM_SECOND_FACTORS,
  });
  return {
    ...BROWSER_ONLY,
    ...(account === undefined
      ? { capabilities }
      : {
          capabilities: Object.freeze({ ...capabilities, account: serverAccountOperations(account) }),
          account: serverAccount(ctx, account),
        }),
    getCurrentUser: () => ctx.current?.user ?? null,
    sessionToken: () => ctx.current?.accessToken ?? null,
    setTenant: refuseTenant,
    fetchSignInMethodsForEmail: lookupSignInMethods,
    signInWithEmailAndPassword: (email, password) => signInWithPassword(ctx, email, password),
    createUser: (email, password, displayName) => createUser(ctx, email, password, displayName),
    signInAnonymously: () => signInAnonymously(ctx),
    sendSignInLinkToEmail: (email, linkSettings) => sendSignInLink(ctx, email, linkSettings.url),
    isSignInWithEmailLink: isSignInLink,
    signInWithEmailLink: (email, link, options) => signInWithEmailLink(ctx, email, link, options),
    sendPasswordResetEmail: (email, linkSettings) => sendPasswordResetEmail(ctx, email, linkSettings),
    verifyPasswordResetCode: (code) => actions.verifyPasswordResetCode(code),
    confirmPasswordReset: (code, newPassword) => actions.confirmPasswordReset(code, newPassword),
    checkActionCode: (code) => actions.checkActionCode(code),
    applyActionCode: (code) => actions.applyActionCode(code),
    signOut: () => signOut(ctx),
    secondFactors: formSecondFactors(ctx, actions),
  };
}
