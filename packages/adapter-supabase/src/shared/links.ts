/**
 * Emailed links and OAuth returns: Doorway's email templates for Supabase, the action codes they produce,
 * and the query values the adapter adds to redirect URLs.
 * @module
 */
import type { ActionMode } from '@doorway/auth-core';

/** GoTrue's email verification types (`verifyOtp({ type, token_hash })`). */
export const EMAIL_TOKEN_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change',
  'email',
] as const;
/** One GoTrue email verification type. */
export type EmailTokenType = (typeof EMAIL_TOKEN_TYPES)[number];

/** The action modes Supabase sends links for (`capabilities.actionCodes` of the providers). */
export const SUPABASE_ACTION_MODES: readonly ActionMode[] = Object.freeze([
  'resetPassword',
  'verifyEmail',
  'verifyAndChangeEmail',
] as const);

/** Types whose verification signs someone in (and may come from `sendSignInLinkToEmail`). */
const SIGN_IN_TYPES: readonly EmailTokenType[] = ['magiclink', 'signup', 'invite', 'email', 'email_change'];

/**
 * The email templates Doorway needs in the Supabase project (Authentication → Email Templates, or
 * `[auth.email.template.*]` in `config.toml`). Each link is the redirect URL the adapter sent (it already
 * carries `mode` and Doorway's values) plus `oobCode=<type>-<token hash>`: the widget reads the mode and code
 * like any action URL, and the adapter verifies the code with `verifyOtp({ type, token_hash })`, which needs
 * no PKCE code verifier, so links work in any browser.
 */
export const SUPABASE_EMAIL_TEMPLATES = {
  /** "Confirm signup": sign-up confirmation, and the first sign-in link of a new account. */
  confirmation:
    '<h2>Confirm your email</h2>\n<p><a href="{{ .RedirectTo }}&oobCode=signup-{{ .TokenHash }}">Confirm your email address</a></p>',
  /** "Magic Link": email-link sign-in for an existing account. */
  magicLink:
    '<h2>Sign in</h2>\n<p><a href="{{ .RedirectTo }}&oobCode=magiclink-{{ .TokenHash }}">Sign in</a></p>',
  /** "Reset Password". */
  recovery:
    '<h2>Reset your password</h2>\n<p><a href="{{ .RedirectTo }}&oobCode=recovery-{{ .TokenHash }}">Reset password</a></p>',
  /** "Change Email Address": also how an anonymous user gets an email (upgrade). */
  emailChange:
    '<h2>Confirm your email</h2>\n<p><a href="{{ .RedirectTo }}&oobCode=email_change-{{ .TokenHash }}">Confirm {{ .NewEmail }}</a></p>',
  /** "Invite user". */
  invite:
    '<h2>You have been invited</h2>\n<p><a href="{{ .RedirectTo }}&oobCode=invite-{{ .TokenHash }}">Accept the invite</a></p>',
} as const;

/** An action code from a Doorway template: the GoTrue type and the token hash. */
export interface SupabaseActionCode {
  type: EmailTokenType;
  tokenHash: string;
}

const TOKEN_HASH = /^\w{8,512}$/;
const isTokenType = (v: string): v is EmailTokenType => (EMAIL_TOKEN_TYPES as readonly string[]).includes(v);

/**
 * Reads `<type>-<token hash>` (the `oobCode` of Doorway's templates); `null` when it is not one.
 * @example parseActionCode('recovery-3f2a9c…') // { type: 'recovery', tokenHash: '3f2a9c…' }
 */
export function parseActionCode(code: string): SupabaseActionCode | null {
  const dash = code.indexOf('-');
  if (dash <= 0) return null;
  const type = code.slice(0, dash);
  const tokenHash = code.slice(dash + 1);
  return isTokenType(type) && TOKEN_HASH.test(tokenHash) ? { type, tokenHash } : null;
}

/** The `oobCode` a Doorway template produces for a type and token hash (what the project's mail contains). */
export function formatActionCode(type: EmailTokenType, tokenHash: string): string {
  return `${type}-${tokenHash}`;
}

/** Query values the adapter adds to redirect URLs. */
export const LINK_PARAMS = {
  /** Hash of the email a sign-in link was sent to (checked before the link is used). */
  emailHash: 'doorway_eh',
  /** The sign-in link's request created the account. */
  isNew: 'doorway_new',
  /** Doorway provider id of an OAuth sign-in waiting to come back. */
  federated: 'doorway_fed',
  /** The OAuth sign-in links to the current user. */
  link: 'doorway_link',
} as const;

/**
 * The redirect URL to send Supabase for an emailed link: `continueUrl` with `mode` (and `extra` values) set and
 * any fragment, `oobCode` or `code` removed. Throws `TypeError` when `continueUrl` is not an absolute URL.
 * @example actionRedirectUrl('https://app.example/auth/action', 'verifyAndChangeEmail') // for updateUser({ email })
 */
export function actionRedirectUrl(
  continueUrl: string,
  mode: ActionMode,
  extra: Readonly<Record<string, string>> = {},
): string {
  const url = new URL(continueUrl);
  url.hash = '';
  for (const key of ['oobCode', 'code', 'mode']) url.searchParams.delete(key);
  url.searchParams.set('mode', mode);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.href;
}

/**
 * A short hash of an email (first 16 hex digits of SHA-256 of the trimmed, lower-cased address), so a link can
 * say which email it was sent to without carrying the address. `null` where Web Crypto is unavailable.
 */
export async function emailHash(email: string): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()));
  return Array.from(new Uint8Array(digest).slice(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What an email sign-in link carries. */
export type ParsedEmailLink =
  | { kind: 'token'; type: EmailTokenType; tokenHash: string; emailHash: string | null; isNew: boolean }
  | { kind: 'pkce'; code: string; emailHash: string | null; isNew: boolean };

/**
 * Reads an email sign-in link: a Doorway template link (`mode=signIn&oobCode=<type>-<hash>`), Supabase's own
 * token-hash style (`token_hash=…&type=…`), or a PKCE return (`mode=signIn&code=…`, from Supabase's default
 * `{{ .ConfirmationURL }}` templates). `null` for anything else.
 */
export function parseEmailLink(link: string): ParsedEmailLink | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const q = url.searchParams;
  const mode = q.get('mode');
  if (mode !== null && mode !== 'signIn') return null;
  const common = { emailHash: q.get(LINK_PARAMS.emailHash), isNew: q.get(LINK_PARAMS.isNew) === '1' };
  const oob = q.get('oobCode');
  const code = oob === null ? null : parseActionCode(oob);
  if (code && SIGN_IN_TYPES.includes(code.type)) return { kind: 'token', ...code, ...common };
  const tokenHash = q.get('token_hash');
  const type = q.get('type');
  if (tokenHash && type && isTokenType(type) && SIGN_IN_TYPES.includes(type) && TOKEN_HASH.test(tokenHash)) {
    return { kind: 'token', type, tokenHash, ...common };
  }
  const pkce = q.get('code');
  if (mode === 'signIn' && pkce) return { kind: 'pkce', code: pkce, ...common };
  return null;
}

/** An OAuth sign-in coming back to the page (popup or redirect). */
export interface OAuthLanding {
  /** Doorway provider id the sign-in was started with. */
  providerId: string;
  /** Whether it linked the identity to the current user. */
  link: boolean;
  /** Implicit flow: the session in the fragment. */
  tokens: { accessToken: string; refreshToken: string } | null;
  /** PKCE flow: the auth code to exchange. */
  code: string | null;
  /** GoTrue's or the IdP's error (`error`, `error_code`). */
  error: { error: string | null; code: string | null } | null;
  /** The page URL without the OAuth values, to put back in the address bar. */
  cleanUrl: string;
}

const OAUTH_QUERY_KEYS = [
  'code',
  'error',
  'error_code',
  'error_description',
  'sb',
  LINK_PARAMS.federated,
  LINK_PARAMS.link,
];

/** Reads an OAuth return that the adapter started (it carries `doorway_fed`); `null` for any other URL. */
export function parseOAuthLanding(href: string): OAuthLanding | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const q = url.searchParams;
  const providerId = q.get(LINK_PARAMS.federated);
  if (!providerId) return null;
  const h = new URLSearchParams(url.hash.startsWith('#') ? url.hash.slice(1) : url.hash);
  const errorName = q.get('error') ?? h.get('error');
  const errorCode = q.get('error_code') ?? h.get('error_code');
  const accessToken = h.get('access_token');
  const refreshToken = h.get('refresh_token');
  const code = q.get('code');
  const hasError = errorName !== null || errorCode !== null;
  if (!hasError && !(accessToken && refreshToken) && !code) return null;
  const clean = new URL(url.href);
  clean.hash = '';
  for (const key of OAUTH_QUERY_KEYS) clean.searchParams.delete(key);
  return {
    providerId,
    link: q.get(LINK_PARAMS.link) === '1',
    tokens: accessToken && refreshToken ? { accessToken, refreshToken } : null,
    code,
    error: hasError ? { error: errorName, code: errorCode } : null,
    cleanUrl: clean.href,
  };
}
