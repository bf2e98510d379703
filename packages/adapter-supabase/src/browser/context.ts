/**
 * What every operation of the browser provider works on: the auth client, the settings, the browser bits,
 * the clock, and the little state the provider keeps (the signed-in user, verified action codes, OAuth
 * returns already completed).
 * @module
 */
import {
  type ActionCodeInfo,
  type AuthCredential,
  type AuthUser,
  type Clock,
  type ProviderCapabilities,
  type SignInResult,
  systemClock,
  type WebAuthnClient,
} from '@doorway/auth-core';
import type { GoTrueClient, Session, User } from '@supabase/supabase-js';
import { supabaseCapabilities } from '../shared/common.ts';
import { awaitsSecondFactor } from '../shared/secondFactors.ts';
import { toAuthUser } from '../shared/user.ts';
import type { SupabaseBrowser, SupabaseProviderSettings } from './types.ts';
import { createBrowserWebAuthnClient, passkeyFlagOn } from './webauthn.ts';
import { defaultActionUrl, windowBrowser } from './window.ts';

/** An emailed code already verified, waiting for the step that uses it (see `./actionCodes.ts`). */
export interface VerifiedCode {
  info: ActionCodeInfo;
  uid: string | null;
}

/** The browser provider's context. */
export interface ProviderContext {
  readonly auth: GoTrueClient;
  readonly settings: SupabaseProviderSettings;
  readonly browser: SupabaseBrowser;
  readonly clock: Clock;
  /** Where emailed links land when the flow gives no continue URL. */
  readonly actionUrl: string | undefined;
  readonly capabilities: ProviderCapabilities;
  /** The client passkey ceremonies run on (the browser's unless `settings.webAuthn.client`). */
  readonly webAuthn: () => WebAuthnClient;
  /** The signed-in user, as the client last reported it. */
  current: AuthUser | null;
  /**
   * Emailed codes that checkActionCode / verifyPasswordResetCode already verified: Supabase cannot look at
   * a token without using it, so the outcome waits here for applyActionCode / confirmPasswordReset.
   */
  readonly verified: Map<string, VerifiedCode>;
  /** Page URLs whose OAuth return was already completed (a reload must not complete it twice). */
  readonly redirectsSeen: Set<string>;
  /**
   * New passwords waiting for the second factor of their recovery session (an account with a verified
   * factor: GoTrue changes its password only at aal2), by that session's id. See `./actionCodes.ts`.
   */
  readonly resets: Map<string, PendingReset>;
}

/** A password reset waiting for its second factor: the recovery code and the new password (memory only). */
export interface PendingReset {
  code: string;
  password: string;
}

/** The context of a new provider on `auth`, with the settings' defaults filled in. */
export function createContext(auth: GoTrueClient, settings: SupabaseProviderSettings): ProviderContext {
  let webAuthn = settings.webAuthn?.client;
  return {
    auth,
    settings,
    browser: { ...windowBrowser(), ...settings.browser },
    clock: settings.clock ?? systemClock,
    actionUrl: settings.actionUrl ?? defaultActionUrl(),
    capabilities: supabaseCapabilities({
      federated: settings.federatedProviders,
      phone: settings.phone ?? true,
      browser: true,
      captcha: settings.captcha !== undefined,
      secondFactors: settings.secondFactors ?? ['totp', 'phone'],
      passkeys: settings.passkeys === true && passkeyFlagOn(auth),
      account: true,
    }),
    webAuthn: () => {
      webAuthn ??= createBrowserWebAuthnClient();
      return webAuthn;
    },
    current: null,
    verified: new Map(),
    redirectsSeen: new Set(),
    resets: new Map(),
  };
}

/** A Supabase user as Doorway's user. */
export const userOf = (ctx: ProviderContext, user: User): AuthUser =>
  toAuthUser(user, { emailLink: ctx.capabilities.emailLink });

/** A token of the configured captcha for the next request, if any. */
export const captchaToken = (ctx: ProviderContext): string | undefined =>
  ctx.settings.captcha?.getToken() ?? undefined;

/**
 * The user a session signs in, or `null` while it waits for its second factor: a first factor's aal1
 * session of an account with a verified factor signs nobody in, as far as the app is concerned.
 */
function userOfSession(ctx: ProviderContext, session: Session): AuthUser | null {
  return awaitsSecondFactor(session.access_token, session.user) ? null : userOf(ctx, session.user);
}

/** Keeps getCurrentUser in step with the client's session: refreshes, other tabs, sign-outs. */
export function followSession(ctx: ProviderContext): { ready: Promise<void>; stop(): void } {
  const {
    data: { subscription },
  } = ctx.auth.onAuthStateChange((event, session) => {
    // No awaits in here: supabase-js runs these callbacks inside its own calls.
    if (event === 'SIGNED_OUT') ctx.current = null;
    else if (session?.user) ctx.current = userOfSession(ctx, session);
  });
  const ready = ctx.auth.getSession().then(
    ({ data }) => {
      if (data.session?.user && ctx.current === null) ctx.current = userOfSession(ctx, data.session);
    },
    () => undefined,
  );
  return { ready, stop: () => subscription.unsubscribe() };
}

/** Records a sign-in and answers it. */
export function signedIn(
  ctx: ProviderContext,
  user: User,
  providerId: string,
  isNewUser: boolean,
  credential?: AuthCredential,
): SignInResult {
  const current = userOf(ctx, user);
  ctx.current = current;
  return credential
    ? { user: current, isNewUser, providerId, credential }
    : { user: current, isNewUser, providerId };
}
