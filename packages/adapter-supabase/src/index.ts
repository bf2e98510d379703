/**
 * `@doorway/adapter-supabase`: Doorway's {@link AuthProvider} on supabase-js v2 (`client.auth`, i.e. Supabase
 * Auth / GoTrue). What Supabase cannot do is declared in `capabilities`, not faked. See the README for the
 * email templates the project needs, the error table and the decisions behind each method.
 * @module
 */
import {
  type ActionCodeInfo,
  type ActionLinkSettings,
  type AuthCredential,
  AuthError,
  type AuthProvider,
  type AuthUser,
  type CaptchaVerifier,
  type Clock,
  type FederatedOptions,
  type LazyProvider,
  POPUP_HEIGHT,
  POPUP_WIDTH,
  type ProviderCapabilities,
  parseEmailLinkParams,
  type SignInMethod,
  type SignInResult,
  systemClock,
} from '@doorway/auth-core';
import {
  GoTrueClient,
  type GoTrueClientOptions,
  type Provider,
  type SupabaseClient,
  type User,
} from '@supabase/supabase-js';
import { toAuthError } from './errors.ts';
import { requireEmail, requireUrl, sameEmail } from './input.ts';
import {
  actionRedirectUrl,
  type EmailTokenType,
  emailHash,
  LINK_PARAMS,
  type OAuthLanding,
  parseActionCode,
  parseEmailLink,
  parseOAuthLanding,
} from './links.ts';
import { acceptsIdToken, looksNew, toAuthUser, toSupabaseProvider } from './user.ts';

export {
  mapSupabaseErrorCode,
  SUPABASE_ERROR_TABLE,
  type SupabaseErrorContext,
  type SupabaseErrorMapping,
  toAuthError,
} from './errors.ts';
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
} from './links.ts';
export {
  looksNew,
  SUPABASE_PROVIDER_NAMES,
  toAuthUser,
  toDoorwayProvider,
  toSupabaseProvider,
} from './user.ts';

/** supabase-js auth options (as in `createClient(url, key, { auth })`). */
export type SupabaseAuthOptions = Omit<GoTrueClientOptions, 'url' | 'headers'>;

/** What the provider needs of a Supabase client: its auth client (`SupabaseClient` fits). */
export interface SupabaseAuthSource {
  auth: GoTrueClient;
}

/**
 * Where the provider's Supabase client comes from: an existing client (create it with
 * `detectSessionInUrl: false`, so OAuth returns are left to {@link AuthProvider.getRedirectResult}), or a
 * project URL and anon (publishable) key.
 */
export type SupabaseProviderOptions =
  | { client: SupabaseAuthSource | Pick<SupabaseClient, 'auth'> }
  | {
      url: string;
      anonKey: string;
      /**
       * Auth options. Defaults: `detectSessionInUrl: false`; in a browser `persistSession` and
       * `autoRefreshToken` stay on, elsewhere both are off (memory only). Only the auth client is created
       * (no database or realtime client: supabase-js's realtime needs WebSocket, which Node 20 lacks).
       */
      auth?: SupabaseAuthOptions;
    };

/**
 * A captcha in front of Supabase (hCaptcha or Turnstile, enabled under Authentication → Attack Protection).
 * Supabase renders none itself: wrap the widget the project uses.
 */
export interface SupabaseCaptcha {
  /** Renders the widget into the container the flow passes to `createCaptchaVerifier`. */
  render(container: unknown): Promise<void>;
  /**
   * A token for the next request, or `null` while unsolved. Called before every request Supabase protects
   * (sign-in, sign-up, OTP, recovery, anonymous), sometimes twice per step: return a fresh token each time.
   */
  getToken(): string | null;
  /** Resets the widget. */
  reset(): void;
}

/** A popup window, as the adapter needs it. */
export interface SupabasePopup {
  /** Whether the person (or the page) closed it. */
  readonly closed: boolean;
  /** Points the popup at a URL. */
  navigate(url: string): void;
  /** The popup's URL once it is back on this origin; `null` while it is elsewhere or blank. */
  currentUrl(): string | null;
  /** Closes it. */
  close(): void;
}

/** The browser bits the adapter uses; injectable for tests and non-window hosts. */
export interface SupabaseBrowser {
  /** Opens an empty popup of this size synchronously, or `null` when blocked. */
  openPopup(size: { width: number; height: number }): SupabasePopup | null;
  /** Leaves the page (redirect sign-in). */
  navigate(url: string): void;
  /** The page URL, or `null` outside a browser. */
  currentUrl(): string | null;
  /** Replaces the page URL without navigating (drops OAuth values after a redirect sign-in). */
  replaceUrl(url: string): void;
}

/** Settings of {@link createSupabaseProvider}. */
export interface SupabaseProviderSettings {
  /** Doorway ids of the OAuth providers enabled in the project (`google.com`, `github.com`, …). Default none. */
  federatedProviders?: readonly string[];
  /**
   * Where emailed links land when the flow gives no continue URL (sign-up confirmation, password reset
   * without settings). Default in a browser: `<origin>/__/auth/action`.
   */
  actionUrl?: string;
  /** Where a redirect sign-in comes back to (must be in the redirect allow list). Default: the current page. */
  oauthRedirectUrl?: string;
  /** Same-origin page a popup sign-in comes back to; a blank page is best. Default: `oauthRedirectUrl`. */
  popupRedirectUrl?: string;
  /** Whether email-link sign-in may create accounts (`shouldCreateUser`). Default `true`. */
  emailLinkSignUp?: boolean;
  /** Whether phone sign-in may create accounts. Default `true`. */
  phoneSignUp?: boolean;
  /** Whether phone sign-in is offered (an SMS provider is configured). Default `true`. */
  phone?: boolean;
  /** The project's captcha; turns `capabilities.captcha` on. */
  captcha?: SupabaseCaptcha;
  /** The project's SMS OTP lifetime (Auth → Providers → Phone). Default 60 s, GoTrue's default. */
  smsCodeLifetimeSeconds?: number;
  /** How close an account's creation and first sign-in must be to count as new (OAuth). Default 1000 ms. */
  newUserWindowMs?: number;
  /** Overrides of the browser bits (popup, navigation, page URL). */
  browser?: Partial<SupabaseBrowser>;
  /** How often a popup is checked, in ms. Default 250. */
  popupPollIntervalMs?: number;
  /** Timers and time (SMS code age, popup polling). Default: the system clock. */
  clock?: Clock;
}

/** The Supabase provider: an {@link AuthProvider} plus its client and lifecycle. */
export interface SupabaseProvider extends AuthProvider {
  /** The Supabase client (or auth client) the provider uses. */
  readonly client: SupabaseAuthSource;
  /** Resolves once a persisted session (if any) is loaded; `getCurrentUser` is accurate from then on. */
  readonly ready: Promise<void>;
  /** Stops listening to the client's auth events. */
  dispose(): void;
}

// GoTrue accepts any 2–15 digits; the widget needs a real international number with its `+`.
const E164 = /^\+[1-9]\d{6,14}$/;
const RAW_TOKEN_HASH = /^(pkce_)?[0-9a-f]{16,128}$/;

function windowBrowser(): SupabaseBrowser {
  const win = (): Window | null => (typeof window === 'undefined' ? null : window);
  return {
    openPopup({ width, height }) {
      const w = win();
      if (!w) return null;
      const left = Math.max(0, w.screenX + (w.outerWidth - width) / 2);
      const top = Math.max(0, w.screenY + (w.outerHeight - height) / 2);
      const popup = w.open(
        '',
        'doorway-supabase',
        `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
      );
      if (!popup) return null;
      return {
        get closed() {
          return popup.closed;
        },
        navigate: (url) => popup.location.assign(url),
        currentUrl() {
          try {
            const href = popup.location.href;
            return href === 'about:blank' ? null : href;
          } catch {
            return null; // still on the IdP: cross-origin
          }
        },
        close: () => popup.close(),
      };
    },
    navigate: (url) => win()?.location.assign(url),
    currentUrl: () => win()?.location.href ?? null,
    replaceUrl: (url) => win()?.history.replaceState(win()?.history.state, '', url),
  };
}

function defaultActionUrl(): string | undefined {
  return typeof window === 'undefined' ? undefined : new URL('/__/auth/action', window.location.origin).href;
}

function clientFrom(options: SupabaseProviderOptions): SupabaseAuthSource {
  if ('client' in options) return options.client;
  const browser = typeof window !== 'undefined';
  const base = new URL(options.url.endsWith('/') ? options.url : `${options.url}/`);
  // What createClient does for `client.auth`, without the database and realtime clients.
  const auth = new GoTrueClient({
    storageKey: `sb-${base.hostname.split('.')[0]}-auth-token`,
    persistSession: browser,
    autoRefreshToken: browser,
    ...options.auth,
    detectSessionInUrl: false,
    url: new URL('auth/v1', base).href,
    headers: { Authorization: `Bearer ${options.anonKey}`, apikey: options.anonKey },
  });
  return { auth };
}

/** What a verification id carries: the number, the kind of code sent, and when. */
interface SmsVerification {
  phone: string;
  type: 'sms' | 'phone_change';
  isNew: boolean;
  sentAt: number;
}

function encodeVerification(v: SmsVerification): string {
  return `${v.type}:${v.isNew ? 1 : 0}:${v.sentAt}:${v.phone}`;
}

function decodeVerification(id: string): SmsVerification | null {
  const [type, isNew, sentAt, phone] = id.split(':');
  if ((type !== 'sms' && type !== 'phone_change') || !phone || !E164.test(phone)) return null;
  const at = Number(sentAt);
  return Number.isFinite(at) ? { type, isNew: isNew === '1', sentAt: at, phone } : null;
}

const OPERATIONS: Partial<Record<EmailTokenType, ActionCodeInfo['operation']>> = {
  recovery: 'resetPassword',
  signup: 'verifyEmail',
  invite: 'verifyEmail',
  email_change: 'verifyAndChangeEmail',
};

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
  const auth = client.auth;
  const browser: SupabaseBrowser = { ...windowBrowser(), ...settings.browser };
  const clock = settings.clock ?? systemClock;
  const actionUrl = settings.actionUrl ?? defaultActionUrl();
  const smsLifetimeMs = (settings.smsCodeLifetimeSeconds ?? 60) * 1000;
  const newUserWindowMs = settings.newUserWindowMs ?? 1000;
  const captcha = settings.captcha;

  const capabilities: ProviderCapabilities = Object.freeze({
    password: true,
    emailLink: true,
    phone: settings.phone ?? true,
    anonymous: true,
    federated: Object.freeze([...(settings.federatedProviders ?? [])]),
    popup: true,
    redirect: true,
    tenants: false,
    // Supabase has no lookup: the flow takes the combined, enumeration-safe path.
    reliableSignInMethodLookup: false,
    actionCodes: Object.freeze(['resetPassword', 'verifyEmail', 'verifyAndChangeEmail'] as const),
    captcha: captcha !== undefined,
  });

  let current: AuthUser | null = null;
  const map = (user: User): AuthUser => toAuthUser(user, { emailLink: capabilities.emailLink });
  const {
    data: { subscription },
  } = auth.onAuthStateChange((event, session) => {
    // Keeps getCurrentUser in step with refreshes, other tabs and sign-outs; no awaits in here (supabase-js
    // runs these callbacks inside its own calls).
    if (event === 'SIGNED_OUT') current = null;
    else if (session?.user) current = map(session.user);
  });
  const ready = auth.getSession().then(
    ({ data }) => {
      if (data.session?.user && current === null) current = map(data.session.user);
    },
    () => undefined,
  );

  const captchaToken = (): string | undefined => captcha?.getToken() ?? undefined;

  function signedIn(
    user: User,
    providerId: string,
    isNewUser: boolean,
    credential?: AuthCredential,
  ): SignInResult {
    current = map(user);
    return credential
      ? { user: current, isNewUser, providerId, credential }
      : { user: current, isNewUser, providerId };
  }

  // Emailed codes that checkActionCode / verifyPasswordResetCode already verified: Supabase cannot look at a
  // token without using it, so the outcome waits here for applyActionCode / confirmPasswordReset.
  const verified = new Map<string, { info: ActionCodeInfo; uid: string | null }>();

  async function verifyActionCode(code: string, allowed: readonly EmailTokenType[]) {
    const cached = verified.get(code);
    const parsed =
      parseActionCode(code) ??
      (allowed.includes('recovery') && RAW_TOKEN_HASH.test(code)
        ? { type: 'recovery' as const, tokenHash: code }
        : null);
    if (!parsed) throw new AuthError('invalid-action-code');
    const operation = OPERATIONS[parsed.type];
    // Sign-in links are not action codes here: checking one would sign its owner in.
    if (!operation) throw new AuthError('operation-not-allowed');
    if (!allowed.includes(parsed.type)) throw new AuthError('invalid-action-code');
    if (cached) return cached;
    const { data, error } = await auth.verifyOtp({ type: parsed.type, token_hash: parsed.tokenHash });
    if (error) throw toAuthError(error, 'link');
    // With "Secure email change" the first of two links answers without a user: accepted, nothing to show.
    const entry = {
      info: { operation, email: data.user?.email || null, previousEmail: null },
      uid: data.user?.id ?? null,
    };
    if (data.user) current = map(data.user);
    verified.set(code, entry);
    return entry;
  }

  async function sendMagicLink(email: string, base: string, extra: Record<string, string>): Promise<void> {
    const existing = await auth.signInWithOtp({
      email,
      options: {
        captchaToken: captchaToken(),
        emailRedirectTo: actionRedirectUrl(base, 'signIn', extra),
        shouldCreateUser: false,
      },
    });
    if (!existing.error) return;
    // GoTrue refuses `create_user: false` for an unknown email with otp_disabled: the account is new.
    if (existing.error.code !== 'otp_disabled') throw toAuthError(existing.error, 'email');
    if (settings.emailLinkSignUp === false) return; // send nothing, and say nothing about the account
    const created = await auth.signInWithOtp({
      email,
      options: {
        captchaToken: captchaToken(),
        emailRedirectTo: actionRedirectUrl(base, 'signIn', { ...extra, [LINK_PARAMS.isNew]: '1' }),
        shouldCreateUser: true,
      },
    });
    if (created.error) throw toAuthError(created.error, 'email');
  }

  async function sendSmsCode(phone: string): Promise<string> {
    const sentAt = clock.now();
    const existing = await auth.signInWithOtp({
      phone,
      options: { shouldCreateUser: false, captchaToken: captchaToken() },
    });
    if (!existing.error) return encodeVerification({ phone, type: 'sms', isNew: false, sentAt });
    if (existing.error.code !== 'otp_disabled' || settings.phoneSignUp === false) {
      throw toAuthError(existing.error, 'phone');
    }
    const created = await auth.signInWithOtp({
      phone,
      options: { shouldCreateUser: true, captchaToken: captchaToken() },
    });
    if (created.error) throw toAuthError(created.error, 'phone');
    return encodeVerification({ phone, type: 'sms', isNew: true, sentAt });
  }

  async function withIdToken(credential: AuthCredential, link: boolean): Promise<SignInResult> {
    if (credential.kind !== 'federated') throw new AuthError('operation-not-allowed');
    const provider = toSupabaseProvider(credential.providerId);
    if (!credential.idToken || !acceptsIdToken(provider)) {
      throw new AuthError('operation-not-allowed', { credential });
    }
    if (link && current === null) throw new AuthError('requires-recent-login', { credential });
    const params = {
      provider,
      token: credential.idToken,
      ...(credential.accessToken ? { access_token: credential.accessToken } : {}),
      options: { captchaToken: captchaToken() },
    };
    const { data, error } = link ? await auth.linkIdentity(params) : await auth.signInWithIdToken(params);
    if (error) throw toAuthError(error, 'federated', { credential });
    return signedIn(
      data.user,
      credential.providerId,
      !link && looksNew(data.user, newUserWindowMs),
      credential,
    );
  }

  async function completeOAuth(landing: OAuthLanding): Promise<SignInResult> {
    if (landing.error) {
      // The IdP's own refusal (the person cancelled) comes back as access_denied without a GoTrue code.
      if (landing.error.code === null && landing.error.error === 'access_denied')
        throw new AuthError('user-cancelled');
      throw toAuthError({ code: landing.error.code ?? undefined }, 'federated');
    }
    let user: User | null = null;
    if (landing.tokens) {
      const { data, error } = await auth.setSession({
        access_token: landing.tokens.accessToken,
        refresh_token: landing.tokens.refreshToken,
      });
      if (error) throw toAuthError(error, 'federated');
      user = data.user;
    } else if (landing.code) {
      const { data, error } = await auth.exchangeCodeForSession(landing.code);
      if (error) throw toAuthError(error, 'federated');
      user = data.user;
    }
    if (!user) throw new AuthError('generic');
    return signedIn(user, landing.providerId, !landing.link && looksNew(user, newUserWindowMs));
  }

  function waitForPopup(popup: SupabasePopup): Promise<OAuthLanding> {
    const interval = settings.popupPollIntervalMs ?? 250;
    return new Promise((resolve, reject) => {
      const check = () => {
        const landing = parseOAuthLanding(popup.currentUrl() ?? '');
        if (landing) {
          popup.close();
          resolve(landing);
        } else if (popup.closed) {
          reject(new AuthError('user-cancelled'));
        } else {
          clock.setTimeout(check, interval);
        }
      };
      check();
    });
  }

  function oauthRedirect(providerId: string, mode: FederatedOptions['mode'], link: boolean): string {
    const base =
      (mode === 'popup' ? settings.popupRedirectUrl : undefined) ??
      settings.oauthRedirectUrl ??
      browser.currentUrl();
    if (!base) throw new AuthError('operation-not-allowed');
    const url = new URL(parseOAuthLanding(base)?.cleanUrl ?? base);
    url.hash = '';
    url.searchParams.set(LINK_PARAMS.federated, providerId);
    if (link) url.searchParams.set(LINK_PARAMS.link, '1');
    else url.searchParams.delete(LINK_PARAMS.link);
    return url.href;
  }

  const redirectsSeen = new Set<string>();

  const provider: SupabaseProvider = {
    client,
    ready,
    capabilities,

    dispose() {
      subscription.unsubscribe();
    },

    getCurrentUser: () => current,

    async setTenant(tenantId) {
      // Supabase Auth has no tenants: only the project itself.
      if (tenantId !== null) throw new AuthError('operation-not-allowed');
    },

    async fetchSignInMethodsForEmail(email): Promise<SignInMethod[]> {
      requireEmail(email);
      // Supabase has no such lookup (and would be enumerable if it had): always "unknown".
      return [];
    },

    async signInWithEmailAndPassword(email, password) {
      requireEmail(email);
      const { data, error } = await auth.signInWithPassword({
        email,
        password,
        options: { captchaToken: captchaToken() },
      });
      if (error) throw toAuthError(error, 'password');
      return signedIn(data.user, 'password', false);
    },

    async createUser(email, password, displayName) {
      const { data, error } = await auth.signUp({
        email,
        password,
        options: {
          data: displayName ? { full_name: displayName } : {},
          captchaToken: captchaToken(),
          ...(actionUrl ? { emailRedirectTo: actionRedirectUrl(actionUrl, 'verifyEmail') } : {}),
        },
      });
      if (error) throw toAuthError(error, 'signUp');
      if (!data.session || !data.user) {
        // "Confirm email" is on: no session. An existing account comes back as a decoy user without
        // identities (Supabase's documented signal); otherwise the account waits for its confirmation link.
        if (!data.user?.identities?.length) throw new AuthError('email-already-in-use', { email });
        throw new AuthError('operation-not-allowed', { email });
      }
      return signedIn(data.session.user ?? data.user, 'password', true);
    },

    async signInWithCredential(credential) {
      switch (credential.kind) {
        case 'password':
          return provider.signInWithEmailAndPassword(credential.email, credential.password);
        case 'emailLink':
          return provider.signInWithEmailLink(credential.email, credential.link);
        case 'phone':
          return provider.confirmPhoneCode(credential.verificationId, credential.code);
        case 'federated':
          return withIdToken(credential, false);
      }
    },

    async signInWithFederated(providerId, options) {
      if (!capabilities.federated.includes(providerId)) throw new AuthError('operation-not-allowed');
      const link = options.link === true;
      if (link && current === null) throw new AuthError('requires-recent-login');
      // Opened before any await, while the click's user activation still allows popups.
      const popup =
        options.mode === 'popup' ? browser.openPopup({ width: POPUP_WIDTH, height: POPUP_HEIGHT }) : null;
      if (options.mode === 'popup' && !popup) throw new AuthError('popup-blocked');
      try {
        const queryParams: Record<string, string> = { ...options.customParameters };
        if (options.loginHint) queryParams.login_hint = options.loginHint;
        const oauth = {
          redirectTo: oauthRedirect(providerId, options.mode, link),
          skipBrowserRedirect: true,
          ...(options.scopes?.length ? { scopes: options.scopes.join(' ') } : {}),
          ...(Object.keys(queryParams).length ? { queryParams } : {}),
        };
        const supabaseProvider = toSupabaseProvider(providerId) as Provider;
        const { data, error } = link
          ? await auth.linkIdentity({ provider: supabaseProvider, options: oauth })
          : await auth.signInWithOAuth({ provider: supabaseProvider, options: oauth });
        if (error || !data.url) throw toAuthError(error, 'federated');
        if (!popup) {
          browser.navigate(data.url);
          return null;
        }
        popup.navigate(data.url);
        return await completeOAuth(await waitForPopup(popup));
      } catch (e) {
        if (popup && !popup.closed) popup.close();
        throw toAuthError(e, 'federated');
      }
    },

    async getRedirectResult() {
      const href = browser.currentUrl();
      const landing = href === null || redirectsSeen.has(href) ? null : parseOAuthLanding(href);
      if (!landing || href === null) return null;
      redirectsSeen.add(href);
      browser.replaceUrl(landing.cleanUrl);
      return completeOAuth(landing);
    },

    async signInAnonymously() {
      const { data, error } = await auth.signInAnonymously({ options: { captchaToken: captchaToken() } });
      if (error) throw toAuthError(error, 'anonymous');
      if (!data.user) throw new AuthError('generic');
      return signedIn(data.user, 'anonymous', true);
    },

    createCaptchaVerifier(container): CaptchaVerifier {
      if (!captcha) {
        // Supabase has no captcha widget of its own: without a configured one there is nothing to solve.
        return { kind: 'supabase-none', render: async () => {}, isSolved: () => true, clear: () => {} };
      }
      return {
        kind: 'supabase-captcha',
        render: () => captcha.render(container),
        isSolved: () => captcha.getToken() !== null,
        clear: () => captcha.reset(),
      };
    },

    async startPhoneSignIn(phoneNumber, verifier) {
      if (!capabilities.phone) throw new AuthError('operation-not-allowed');
      if (!E164.test(phoneNumber)) throw new AuthError('invalid-phone-number');
      if (captcha && !verifier.isSolved()) throw new AuthError('captcha-check-failed');
      const me = current;
      if (me?.isAnonymous) {
        // Supabase's upgrade: give the anonymous user the number (a phone_change code keeps the uid).
        const { data, error } = await auth.updateUser({ phone: phoneNumber });
        if (!error && data.user.new_phone) {
          return {
            verificationId: encodeVerification({
              phone: phoneNumber,
              type: 'phone_change',
              isNew: false,
              sentAt: clock.now(),
            }),
          };
        }
        // phone_exists: another account's number, so a sign-in code (linking it is refused at confirmation).
        // No error and no pending number: "Confirm phone" is off and the number was attached at once.
        if (error && error.code !== 'phone_exists') throw toAuthError(error, 'phone');
      }
      return { verificationId: await sendSmsCode(phoneNumber) };
    },

    async confirmPhoneCode(verificationId, code, options) {
      const v = decodeVerification(verificationId);
      if (!v) throw new AuthError('code-expired');
      const credential: AuthCredential = { kind: 'phone', verificationId, code };
      if (options?.link) {
        const me = current;
        if (!me) throw new AuthError('requires-recent-login', { credential });
        if (v.type === 'sms' && me.phoneNumber !== v.phone) {
          throw new AuthError('credential-already-in-use', { credential });
        }
      }
      const { data, error } = await auth.verifyOtp({ phone: v.phone, token: code, type: v.type });
      if (error) {
        // GoTrue says otp_expired for a wrong code too: within the code's lifetime it is a typo.
        if (error.code === 'otp_expired' && clock.now() - v.sentAt < smsLifetimeMs) {
          throw new AuthError('invalid-verification-code');
        }
        throw toAuthError(error, 'sms');
      }
      if (!data.user) throw new AuthError('generic');
      return signedIn(data.user, 'phone', !options?.link && v.type === 'sms' && v.isNew);
    },

    async sendSignInLinkToEmail(email, linkSettings: ActionLinkSettings) {
      requireEmail(email);
      const base = requireUrl(linkSettings.url);
      const hash = await emailHash(email);
      const extra: Record<string, string> = hash ? { [LINK_PARAMS.emailHash]: hash } : {};
      const me = current;
      const params = parseEmailLinkParams(base);
      // The widget says whether it upgrades (doorway_auid); a caller outside the widget gets Supabase's upgrade.
      if (me?.isAnonymous && (params.anonymousUid === me.uid || params.sid === null)) {
        const { data, error } = await auth.updateUser(
          { email },
          { emailRedirectTo: actionRedirectUrl(base, 'signIn', extra) },
        );
        if (!error && data.user.new_email) return; // an email_change link is on its way
        if (error && error.code !== 'email_exists' && error.code !== 'user_already_exists') {
          throw toAuthError(error, 'email');
        }
        // Either "Confirm email" is off and the email was attached at once (a magic link then signs this same
        // user in), or the email is another account's (its link is refused when linking).
      }
      await sendMagicLink(email, base, extra);
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
        const me = current;
        if (!me) throw new AuthError('requires-recent-login', { credential });
        const sameAccount =
          parsed.kind === 'token' &&
          (parsed.type === 'email_change' || (me.email !== null && sameEmail(me.email, email)));
        // A sign-in link of another account would sign that account in instead: refuse before using it.
        if (!sameAccount) throw new AuthError('email-already-in-use', { email, credential });
      }
      const { data, error } =
        parsed.kind === 'pkce'
          ? await auth.exchangeCodeForSession(parsed.code)
          : await auth.verifyOtp({ type: parsed.type, token_hash: parsed.tokenHash });
      if (error) throw toAuthError(error, 'link');
      if (!data.user) throw new AuthError('generic');
      if (!data.user.email || !sameEmail(data.user.email, email)) {
        // A link without Doorway's email hash, used with another email: the session must not stay.
        await auth.signOut({ scope: 'local' });
        current = null;
        throw new AuthError('email-mismatch', { email });
      }
      const isNew =
        parsed.isNew || (parsed.kind === 'token' && (parsed.type === 'signup' || parsed.type === 'invite'));
      return signedIn(data.user, 'emailLink', !options?.link && isNew);
    },

    async sendPasswordResetEmail(email, linkSettings) {
      requireEmail(email);
      const base = linkSettings?.url ?? actionUrl;
      const { error } = await auth.resetPasswordForEmail(email, {
        captchaToken: captchaToken(),
        ...(base ? { redirectTo: actionRedirectUrl(requireUrl(base), 'resetPassword') } : {}),
      });
      // An unknown email succeeds without a mail: Supabase does not reveal accounts here.
      if (error) throw toAuthError(error, 'email');
    },

    async verifyPasswordResetCode(code) {
      const { info } = await verifyActionCode(code, ['recovery']);
      if (info.email === null) throw new AuthError('invalid-action-code');
      return info.email;
    },

    async confirmPasswordReset(code, newPassword) {
      const entry = await verifyActionCode(code, ['recovery']);
      if (entry.uid === null || current?.uid !== entry.uid) {
        // The recovery session was replaced since the code was used: the code cannot be used again.
        verified.delete(code);
        throw new AuthError('invalid-action-code');
      }
      const { error } = await auth.updateUser({ password: newPassword });
      // weak_password keeps the entry, so the person can try another password with the same code.
      if (error) throw toAuthError(error, 'link');
      verified.delete(code);
    },

    async checkActionCode(code) {
      return (await verifyActionCode(code, ['recovery', 'signup', 'invite', 'email_change'])).info;
    },

    async applyActionCode(code) {
      await verifyActionCode(code, ['signup', 'invite', 'email_change']);
      verified.delete(code);
    },

    async linkWithCredential(credential) {
      switch (credential.kind) {
        case 'emailLink':
          return provider.signInWithEmailLink(credential.email, credential.link, { link: true });
        case 'phone':
          return provider.confirmPhoneCode(credential.verificationId, credential.code, { link: true });
        case 'federated':
          return withIdToken(credential, true);
        case 'password': {
          const me = current;
          if (!me) throw new AuthError('requires-recent-login', { credential });
          requireEmail(credential.email);
          const attributes =
            me.email !== null && sameEmail(me.email, credential.email)
              ? { password: credential.password }
              : { email: credential.email, password: credential.password };
          const { data, error } = await auth.updateUser(
            attributes,
            actionUrl ? { emailRedirectTo: actionRedirectUrl(actionUrl, 'verifyAndChangeEmail') } : {},
          );
          if (error) throw toAuthError(error, 'update', { email: credential.email, credential });
          if (!data.user.email || !sameEmail(data.user.email, credential.email)) {
            // "Confirm email" is on: the email waits for its confirmation link (see createUser).
            current = map(data.user);
            throw new AuthError('operation-not-allowed', { email: credential.email, credential });
          }
          return signedIn(data.user, 'password', false);
        }
      }
    },

    async signOut() {
      const { error } = await auth.signOut({ scope: 'local' });
      if (error) throw toAuthError(error);
      current = null;
    },
  };
  return provider;
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
