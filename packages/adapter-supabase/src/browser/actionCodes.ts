/**
 * Emailed action codes in the browser: password-reset mail, checking and applying codes, and setting the new
 * password with a recovery code. Verifying a code spends it and signs its owner in (GoTrue has no look-only
 * check), so the outcome is kept in the context for the step that follows.
 * @module
 */
import { type ActionCodeInfo, type ActionLinkSettings, AuthError, requireEmail } from '@doorway/auth-core';
import { actionCodeInfo, checkActionCodeFor, EMAIL_ACTION_TYPES } from '../shared/actionCodes.ts';
import { toAuthError } from '../shared/errors.ts';
import { requireUrl } from '../shared/input.ts';
import { actionRedirectUrl, type EmailTokenType } from '../shared/links.ts';
import { captchaToken, type ProviderContext, userOf, type VerifiedCode } from './context.ts';

const ALL_TYPES: readonly EmailTokenType[] = ['recovery', ...EMAIL_ACTION_TYPES];

/** `sendPasswordResetEmail`. An unknown email succeeds without a mail: Supabase does not reveal accounts. */
export async function sendPasswordResetEmail(
  ctx: ProviderContext,
  email: string,
  linkSettings?: ActionLinkSettings,
): Promise<void> {
  const address = requireEmail(email);
  const base = linkSettings?.url ?? ctx.actionUrl;
  const { error } = await ctx.auth.resetPasswordForEmail(address, {
    captchaToken: captchaToken(ctx),
    ...(base ? { redirectTo: actionRedirectUrl(requireUrl(base), 'resetPassword') } : {}),
  });
  if (error) throw toAuthError(error, 'email');
}

/** Verifies a code of the `allowed` types once (the session it opens becomes the current one). */
async function verifyActionCode(
  ctx: ProviderContext,
  code: string,
  allowed: readonly EmailTokenType[],
): Promise<VerifiedCode> {
  const cached = ctx.verified.get(code);
  const checked = checkActionCodeFor(code, allowed, true);
  if (cached) return cached;
  const { data, error } = await ctx.auth.verifyOtp({ type: checked.type, token_hash: checked.tokenHash });
  if (error) throw toAuthError(error, 'link');
  const entry = { info: actionCodeInfo(checked.operation, data.user), uid: data.user?.id ?? null };
  if (data.user) ctx.current = userOf(ctx, data.user);
  ctx.verified.set(code, entry);
  return entry;
}

/** `checkActionCode`. */
export async function checkActionCode(ctx: ProviderContext, code: string): Promise<ActionCodeInfo> {
  return (await verifyActionCode(ctx, code, ALL_TYPES)).info;
}

/** `applyActionCode`: verify-email and change-email codes. */
export async function applyActionCode(ctx: ProviderContext, code: string): Promise<void> {
  await verifyActionCode(ctx, code, EMAIL_ACTION_TYPES);
  ctx.verified.delete(code);
}

/** `verifyPasswordResetCode`: the email of the account a recovery code resets. */
export async function verifyPasswordResetCode(ctx: ProviderContext, code: string): Promise<string> {
  const { info } = await verifyActionCode(ctx, code, ['recovery']);
  if (info.email === null) throw new AuthError('invalid-action-code');
  return info.email;
}

/** `confirmPasswordReset`: the new password, as the recovery session the code opened. */
export async function confirmPasswordReset(
  ctx: ProviderContext,
  code: string,
  newPassword: string,
): Promise<void> {
  const entry = await verifyActionCode(ctx, code, ['recovery']);
  if (entry.uid === null || ctx.current?.uid !== entry.uid) {
    // The recovery session was replaced since the code was used: the code cannot be used again.
    ctx.verified.delete(code);
    throw new AuthError('invalid-action-code');
  }
  const { error } = await ctx.auth.updateUser({ password: newPassword });
  // weak_password keeps the entry, so the person can try another password with the same code.
  if (error) throw toAuthError(error, 'link');
  ctx.verified.delete(code);
}
