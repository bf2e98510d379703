/**
 * The server's form provider on Supabase: a {@link ServerAuthProvider} for one request, over GoTrue's REST
 * API (`./rest.ts`), for the host's HTML-form path. It takes the same steps as the browser provider
 * (`./index.ts`) with the same requests and the same catalogue codes, minus what needs a browser.
 *
 * What differs from the browser provider, and why:
 * - **No session survives the request.** The provider knows only the sign-in it made itself; the host turns
 *   {@link ServerAuthProvider.sessionToken} (the access token) into its session. So an anonymous user cannot
 *   be upgraded here (linking needs that user's session, which only the browser holds).
 * - **No PKCE.** A PKCE link's code verifier stays in the browser that asked for it; the server sends
 *   token-hash links (Doorway's templates) and refuses a PKCE return with `session-expired`, as supabase-js
 *   does without its verifier.
 * - **Browser-only methods** (captcha, phone, OAuth, credentials, linking) reject `operation-not-allowed`.
 * @module
 */
import {
  type AuthCredential,
  AuthError,
  type AuthErrorDetails,
  type AuthProvider,
  type AuthUser,
  type ProviderCapabilities,
  type SignInResult,
} from '@doorway/auth-core';
import { BROWSER_ONLY, type ServerAuthProvider } from '@doorway/auth-core/server';
import { mapSupabaseErrorCode, type SupabaseErrorContext } from './errors.ts';
import { requireEmail, requireUrl, sameEmail } from './input.ts';
import { actionRedirectUrl, emailHash, LINK_PARAMS, parseEmailLink, SUPABASE_ACTION_MODES } from './links.ts';
import {
  type GoTrueApi,
  type GoTrueResult,
  type GoTrueSession,
  logout,
  passwordGrant,
  sendEmailOtp,
  sendRecovery,
  sessionOf,
  signUpAnonymously,
  signUpWithPassword,
  userOf,
  verifyTokenHash,
} from './rest.ts';
import { toAuthUser } from './user.ts';

/** What the form provider honours of the browser provider's settings (`SupabaseProviderSettings`). */
export interface SupabaseFormSettings {
  /**
   * Doorway ids of the OAuth providers enabled in the project, as the browser provider is given them
   * (`capabilities.federated`: the chooser lists them; signing in with one needs the browser). Default none.
   */
  federatedProviders?: readonly string[];
  /**
   * Where emailed links land when the flow gives no continue URL (sign-up confirmation, password reset
   * without settings): the host's action route, e.g. `new URL('/action', request.url).href`. Default none:
   * GoTrue's Site URL.
   */
  actionUrl?: string;
  /** Whether email-link sign-in may create accounts. Default `true`. */
  emailLinkSignUp?: boolean;
}

/** The action-code methods the form provider takes from the server's action-code provider. */
export type FormActionCodes = Pick<
  AuthProvider,
  'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'confirmPasswordReset'
>;

/** GoTrue's refusal as the catalogue code the browser provider gives for it in the same step. */
function refusal(
  result: Extract<GoTrueResult, { ok: false }>,
  context: SupabaseErrorContext,
  details: AuthErrorDetails = {},
): AuthError {
  return new AuthError(mapSupabaseErrorCode(result.code, context), details);
}

/** The session GoTrue opened, else `generic` (an answer without one where one is promised). */
function requireSession(result: Extract<GoTrueResult, { ok: true }>): GoTrueSession {
  const session = sessionOf(result.data);
  if (session === null) throw new AuthError('generic');
  return session;
}

/**
 * Creates the form provider of one request (`SupabaseServer.formProvider` calls this).
 * @param api where GoTrue is
 * @param actions the server's action-code provider (reset, verify-email and change-email links)
 * @param settings what the browser provider is configured with, where it matters on the server
 */
export function createSupabaseFormProvider(
  api: GoTrueApi,
  actions: FormActionCodes,
  settings: SupabaseFormSettings = {},
): ServerAuthProvider {
  const capabilities: ProviderCapabilities = Object.freeze({
    password: true,
    emailLink: true,
    phone: false,
    anonymous: true,
    federated: Object.freeze([...(settings.federatedProviders ?? [])]),
    popup: false,
    redirect: false,
    tenants: false,
    // Supabase has no lookup: the flow takes the combined, enumeration-safe path.
    reliableSignInMethodLookup: false,
    actionCodes: SUPABASE_ACTION_MODES,
    captcha: false,
  });

  /** The sign-in this provider made during the request. */
  let current: { user: AuthUser; accessToken: string } | null = null;

  function signedIn(session: GoTrueSession, providerId: string, isNewUser: boolean): SignInResult {
    const user = toAuthUser(session.user, { emailLink: capabilities.emailLink });
    current = { user, accessToken: session.accessToken };
    return { user, isNewUser, providerId };
  }

  async function sendMagicLink(email: string, base: string, extra: Record<string, string>): Promise<void> {
    const existing = await sendEmailOtp(api, {
      email,
      createUser: false,
      redirectTo: actionRedirectUrl(base, 'signIn', extra),
    });
    if (existing.ok) return;
    // GoTrue refuses `create_user: false` for an unknown email with otp_disabled: the account is new.
    if (existing.code !== 'otp_disabled') throw refusal(existing, 'email');
    if (settings.emailLinkSignUp === false) return; // send nothing, and say nothing about the account
    const created = await sendEmailOtp(api, {
      email,
      createUser: true,
      redirectTo: actionRedirectUrl(base, 'signIn', { ...extra, [LINK_PARAMS.isNew]: '1' }),
    });
    if (!created.ok) throw refusal(created, 'email');
  }

  const provider: ServerAuthProvider = {
    ...BROWSER_ONLY,
    capabilities,

    getCurrentUser: () => current?.user ?? null,

    sessionToken: () => current?.accessToken ?? null,

    async setTenant(tenantId) {
      // Supabase Auth has no tenants: only the project itself.
      if (tenantId !== null) throw new AuthError('operation-not-allowed');
    },

    async fetchSignInMethodsForEmail(email) {
      requireEmail(email);
      // Supabase has no such lookup (and would be enumerable if it had): always "unknown".
      return [];
    },

    async signInWithEmailAndPassword(email, password) {
      requireEmail(email);
      const result = await passwordGrant(api, email, password);
      if (!result.ok) throw refusal(result, 'password');
      return signedIn(requireSession(result), 'password', false);
    },

    async createUser(email, password, displayName) {
      const result = await signUpWithPassword(api, {
        email,
        password,
        data: displayName ? { full_name: displayName } : {},
        ...(settings.actionUrl
          ? { redirectTo: actionRedirectUrl(requireUrl(settings.actionUrl), 'verifyEmail') }
          : {}),
      });
      if (!result.ok) throw refusal(result, 'signUp');
      const session = sessionOf(result.data);
      if (session === null) {
        // "Confirm email" is on: no session. An existing account comes back as a decoy user without
        // identities (Supabase's documented signal); otherwise the account waits for its confirmation link.
        if (!userOf(result.data)?.identities?.length) throw new AuthError('email-already-in-use', { email });
        throw new AuthError('operation-not-allowed', { email });
      }
      return signedIn(session, 'password', true);
    },

    async signInAnonymously() {
      const result = await signUpAnonymously(api);
      if (!result.ok) throw refusal(result, 'anonymous');
      return signedIn(requireSession(result), 'anonymous', true);
    },

    async sendSignInLinkToEmail(email, linkSettings) {
      requireEmail(email);
      const base = requireUrl(linkSettings.url);
      const hash = await emailHash(email);
      await sendMagicLink(email, base, hash ? { [LINK_PARAMS.emailHash]: hash } : {});
    },

    isSignInWithEmailLink: (link) => parseEmailLink(link) !== null,

    async signInWithEmailLink(email, link, options) {
      const parsed = parseEmailLink(link);
      if (!parsed) throw new AuthError('invalid-action-code');
      const credential: AuthCredential = { kind: 'emailLink', email, link };
      if (parsed.emailHash !== null) {
        const hash = await emailHash(email);
        if (hash !== null && hash !== parsed.emailHash) throw new AuthError('email-mismatch', { email });
      }
      if (options?.link) {
        const me = current?.user ?? null;
        if (!me) throw new AuthError('requires-recent-login', { credential });
        const sameAccount =
          parsed.kind === 'token' &&
          (parsed.type === 'email_change' || (me.email !== null && sameEmail(me.email, email)));
        // A sign-in link of another account would sign that account in instead: refuse before using it.
        if (!sameAccount) throw new AuthError('email-already-in-use', { email, credential });
      }
      if (parsed.kind === 'pkce') throw new AuthError('session-expired');
      const result = await verifyTokenHash(api, parsed.type, parsed.tokenHash);
      if (!result.ok) throw refusal(result, 'link');
      const session = requireSession(result);
      if (!session.user.email || !sameEmail(session.user.email, email)) {
        // A link without Doorway's email hash, used with another email: the session it opened must end.
        await logout(api, session.accessToken, 'local').catch(() => undefined);
        throw new AuthError('email-mismatch', { email });
      }
      const isNew =
        parsed.isNew || (parsed.kind === 'token' && (parsed.type === 'signup' || parsed.type === 'invite'));
      return signedIn(session, 'emailLink', !options?.link && isNew);
    },

    async sendPasswordResetEmail(email, linkSettings) {
      requireEmail(email);
      const base = linkSettings?.url ?? settings.actionUrl;
      const result = await sendRecovery(
        api,
        email,
        base === undefined ? undefined : actionRedirectUrl(requireUrl(base), 'resetPassword'),
      );
      // An unknown email succeeds without a mail: Supabase does not reveal accounts here.
      if (!result.ok) throw refusal(result, 'email');
    },

    verifyPasswordResetCode: (code) => actions.verifyPasswordResetCode(code),
    confirmPasswordReset: (code, newPassword) => actions.confirmPasswordReset(code, newPassword),
    checkActionCode: (code) => actions.checkActionCode(code),
    applyActionCode: (code) => actions.applyActionCode(code),

    async signOut() {
      const me = current;
      if (me === null) return;
      const result = await logout(api, me.accessToken, 'local');
      // 401/403/404: the session (or its user) is already gone, which is what was asked.
      if (!result.ok && result.status !== 401 && result.status !== 403 && result.status !== 404) {
        throw refusal(result, 'other');
      }
      current = null;
    },
  };
  return provider;
}
