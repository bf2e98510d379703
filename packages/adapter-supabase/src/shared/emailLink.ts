/**
 * Email-link sign-in as both providers take it: the link request's values, the two-step magic-link send,
 * the checks before a link is used and the reading of its outcome. Each provider makes the requests with its
 * own client (supabase-js in the browser, GoTrue REST on the server) and hands them in as functions.
 * @module
 */
import { type AuthCredential, AuthError, type AuthUser, requireEmail, sameEmail } from '@doorway/auth-core';
import { toAuthError } from './errors.ts';
import { requireUrl } from './input.ts';
import { actionRedirectUrl, emailHash, LINK_PARAMS, type ParsedEmailLink, parseEmailLink } from './links.ts';

/** GoTrue's refusal as either client reports it (supabase-js's `AuthError`, or a REST answer's code). */
export interface GoTrueRefusal {
  readonly code?: string | undefined;
}

/** One magic-link request to `redirectTo`: its refusal, or `null` when GoTrue sent the mail. */
export type SendMagicLink = (createUser: boolean, redirectTo: string) => Promise<GoTrueRefusal | null>;

/** How `signInWithEmailLink` is called: `link` adds the email to the signed-in user. */
export type LinkOptions = { link?: boolean };

/** A checked sign-in link request: the trimmed address, the continue URL and Doorway's values for it. */
export interface SignInLinkRequest {
  email: string;
  base: string;
  extra: Record<string, string>;
}

/** Checks the address and continue URL of `sendSignInLinkToEmail`, and adds the email's hash to the link. */
export async function signInLinkRequest(email: string, url: string): Promise<SignInLinkRequest> {
  const address = requireEmail(email);
  const base = requireUrl(url);
  const hash = await emailHash(address);
  return { email: address, base, extra: hash ? { [LINK_PARAMS.emailHash]: hash } : {} };
}

/**
 * Sends a magic link without creating an account, and only when GoTrue says the email is unknown (and
 * `signUp` allows it) again with account creation, marking the link as a new account's.
 */
export async function sendMagicLink(
  send: SendMagicLink,
  request: SignInLinkRequest,
  signUp: boolean,
): Promise<void> {
  const { base, extra } = request;
  const existing = await send(false, actionRedirectUrl(base, 'signIn', extra));
  if (existing === null) return;
  // GoTrue refuses `create_user: false` for an unknown email with otp_disabled: the account is new.
  if (existing.code !== 'otp_disabled') throw toAuthError(existing, 'email');
  if (!signUp) return; // send nothing, and say nothing about the account
  const created = await send(true, actionRedirectUrl(base, 'signIn', { ...extra, [LINK_PARAMS.isNew]: '1' }));
  if (created !== null) throw toAuthError(created, 'email');
}

/** `isSignInWithEmailLink`: whether the adapter can complete a sign-in with `link`. */
export const isSignInLink = (link: string): boolean => parseEmailLink(link) !== null;

/**
 * The checks before a sign-in link is used (GoTrue spends it): the link is one, it was sent to `email`
 * (when it says so), and when linking to `me`, it cannot sign another account in. Resolves the parsed link.
 */
export async function checkSignInLink(
  email: string,
  link: string,
  options: LinkOptions | undefined,
  me: AuthUser | null,
): Promise<ParsedEmailLink> {
  const parsed = parseEmailLink(link);
  if (!parsed) throw new AuthError('invalid-action-code');
  const credential: AuthCredential = { kind: 'emailLink', email, link };
  if (parsed.emailHash !== null) {
    const hash = await emailHash(email);
    if (hash !== null && hash !== parsed.emailHash) throw new AuthError('email-mismatch', { email });
  }
  if (options?.link) {
    if (!me) throw new AuthError('requires-recent-login', { credential });
    const sameAccount =
      parsed.kind === 'token' &&
      (parsed.type === 'email_change' || (me.email !== null && sameEmail(me.email, email)));
    // A sign-in link of another account would sign that account in instead: refuse before using it.
    if (!sameAccount) throw new AuthError('email-already-in-use', { email, credential });
  }
  return parsed;
}

/** Whether the account a link signed in is `email`'s (a link without Doorway's hash may be another's). */
export function isAccountOf(user: { email?: string | null }, email: string): boolean {
  return typeof user.email === 'string' && user.email !== '' && sameEmail(user.email, email);
}

/** Whether a completed link's sign-in created the account (never when it linked). */
export function linkCreatedAccount(parsed: ParsedEmailLink, options: LinkOptions | undefined): boolean {
  const isNew =
    parsed.isNew || (parsed.kind === 'token' && (parsed.type === 'signup' || parsed.type === 'invite'));
  return !options?.link && isNew;
}
