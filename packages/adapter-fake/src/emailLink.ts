/**
 * Email link: sending the sign-in link, recognising it, and signing in (or linking) with it.
 * @module
 */
import type { ActionLinkSettings, SignInResult } from '@doorway/auth-core';
import { issueCode, lookupCode } from './actionCodes.ts';
import {
  addProvider,
  byEmail,
  checkEmail,
  currentRow,
  signInAs,
  signInFirstFactor,
  signUp,
} from './users.ts';
import { fail, isContinueUrl, readActionLink } from './util.ts';
import { type CodeRow, type FakeContext, requireCapability, type Session, type UserRow } from './world.ts';

/** `sendSignInLinkToEmail`: mails a signIn code for the address (no account needed). */
export function sendSignInLink(
  ctx: FakeContext,
  s: Session,
  email: string,
  settings: ActionLinkSettings,
): void {
  requireCapability(ctx.world.capabilities.emailLink);
  const address = checkEmail(email);
  if (!isContinueUrl(settings.url)) fail('invalid-continue-uri');
  const info = { operation: 'signIn', email: address, previousEmail: null } as const;
  issueCode(ctx, s.tenantId, { kind: 'signIn', to: address, uid: null, info }, settings);
}

/** `isSignInWithEmailLink`: whether the link carries a signIn code. */
export function isSignInLink(link: string): boolean {
  return readActionLink(link)?.mode === 'signIn';
}

// The live signIn code of `link`, which must have been sent to `email`.
function emailLinkCode(
  ctx: FakeContext,
  s: Session,
  email: string,
  link: string,
): { code: CodeRow; email: string } {
  const normalized = checkEmail(email);
  const params = readActionLink(link);
  if (params === null || params.mode !== 'signIn') fail('invalid-action-code');
  const code = lookupCode(ctx, s, params.oobCode, ['signIn']);
  if (code.info.email !== normalized) fail('email-mismatch');
  return { code, email: normalized };
}

// Links the proven address to the signed-in user, unless another account holds it.
function linkToCurrent(
  ctx: FakeContext,
  s: Session,
  found: { code: CodeRow; email: string },
  owner: UserRow | undefined,
  link: string,
): SignInResult {
  const { email } = found;
  const current = currentRow(ctx.world, s);
  if (owner !== undefined && owner !== current) {
    fail('email-already-in-use', { email, credential: { kind: 'emailLink', email, link } });
  }
  found.code.used = true;
  current.email = email;
  current.emailVerified = true;
  addProvider(current, 'emailLink');
  return signInAs(s, current, 'emailLink', false);
}

/**
 * `signInWithEmailLink` (or linking it): signs the owner in (or asks for its second factor), or signs a new
 * verified account up.
 */
export function emailLinkSignIn(
  ctx: FakeContext,
  s: Session,
  email: string,
  link: string,
  linking: boolean,
): SignInResult {
  requireCapability(ctx.world.capabilities.emailLink);
  const found = emailLinkCode(ctx, s, email, link);
  const owner = byEmail(ctx.world, s.tenantId, found.email);
  if (linking) return linkToCurrent(ctx, s, found, owner, link);
  if (owner !== undefined) {
    if (owner.disabled) fail('user-disabled');
    found.code.used = true;
    owner.emailVerified = true;
    addProvider(owner, 'emailLink');
    return signInFirstFactor(ctx, s, owner, 'emailLink');
  }
  const row = signUp(ctx, { email: found.email, emailLink: true, emailVerified: true }, s.tenantId);
  found.code.used = true;
  return signInAs(s, row, 'emailLink', true);
}
