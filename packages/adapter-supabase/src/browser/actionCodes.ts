/**
 * Emailed action codes in the browser: password-reset mail, checking and applying codes, and setting the new
 * password with a recovery code. Verifying a code spends it and signs its owner in (GoTrue has no look-only
 * check), so the outcome is kept in the context for the step that follows. A recovery session of an account
 * with a verified factor is at aal1: the new password then waits for the second factor.
 * @module
 */
import { type ActionCodeInfo, type ActionLinkSettings, AuthError, requireEmail } from '@doorway/auth-core';
import type { Session, User } from '@supabase/supabase-js';
import { actionCodeInfo, checkActionCodeFor, EMAIL_ACTION_TYPES } from '../shared/actionCodes.ts';
import { toAuthError } from '../shared/errors.ts';
import { requireUrl } from '../shared/input.ts';
import { actionRedirectUrl, type EmailTokenType } from '../shared/links.ts';
import { awaitsSecondFactor, secondFactorChallenge, sessionIdOf } from '../shared/secondFactors.ts';
import {
  captchaToken,
  type PendingReset,
  type ProviderContext,
  userOf,
  type VerifiedCode,
} from './context.ts';

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
  // A session waiting for its second factor (aal1, with a verified factor) signs nobody in.
  if (data.user) {
    const waits = data.session !== null && awaitsSecondFactor(data.session.access_token, data.user);
    ctx.current = waits ? null : userOf(ctx, data.user);
  }
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

/**
 * `confirmPasswordReset`: the new password, as the recovery session the code opened. That session is at
 * aal1, and GoTrue changes the password of an account with a verified factor only at aal2: then it rejects
 * `second-factor-required` with the challenge of the recovery session, the new password waits in memory, and
 * finishing the challenge (`secondFactors.finishSignIn`) sets it and signs the person in (see
 * {@link finishPasswordReset}).
 */
export async function confirmPasswordReset(
  ctx: ProviderContext,
  code: string,
  newPassword: string,
): Promise<void> {
  const entry = await verifyActionCode(ctx, code, ['recovery']);
  const { data } = await ctx.auth.getSession();
  const session = data.session;
  if (entry.uid === null || session?.user.id !== entry.uid) {
    // The recovery session was replaced since the code was used: the code cannot be used again.
    ctx.verified.delete(code);
    throw new AuthError('invalid-action-code');
  }
  if (awaitsSecondFactor(session.access_token, session.user)) {
    throw resetNeedsSecondFactor(ctx, session, { code, password: newPassword });
  }
  const { error } = await ctx.auth.updateUser({ password: newPassword });
  // weak_password keeps the entry, so the person can try another password with the same code.
  if (error) throw toAuthError(error, 'link');
  ctx.verified.delete(code);
}

/** The `second-factor-required` of a reset whose recovery session is at aal1; the new password waits. */
function resetNeedsSecondFactor(ctx: ProviderContext, session: Session, reset: PendingReset): AuthError {
  const challenge = secondFactorChallenge(session.user, {
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    providerId: 'password',
  });
  const id = sessionIdOf(session.access_token);
  // Only factors Doorway does not offer (WebAuthn), or a token without a session: nothing here can finish it.
  if (challenge.factors.length === 0 || id === null) return new AuthError('operation-not-allowed');
  ctx.current = null;
  ctx.resets.set(id, reset);
  return new AuthError('second-factor-required', { challenge });
}

/** Takes out the reset waiting for the second factor of the session of `accessToken`, if there is one. */
export function takePasswordReset(ctx: ProviderContext, accessToken: string): PendingReset | undefined {
  const id = sessionIdOf(accessToken);
  const reset = id === null ? undefined : ctx.resets.get(id);
  if (id !== null) ctx.resets.delete(id);
  return reset;
}

/**
 * Ends a reset whose recovery session has just reached aal2 with its second factor: the new password is
 * set, the code is used up, and the person is signed in (the user GoTrue answers with). A password GoTrue
 * refuses only now ends the recovery session: nobody is left signed in without the reset.
 */
export async function finishPasswordReset(ctx: ProviderContext, reset: PendingReset): Promise<User> {
  ctx.verified.delete(reset.code);
  const { data, error } = await ctx.auth.updateUser({ password: reset.password });
  if (!error) return data.user;
  await ctx.auth.signOut({ scope: 'local' }).catch(() => undefined);
  ctx.current = null;
  throw toAuthError(error, 'link');
}
