/**
 * Action codes on the server (`SupabaseServer.serverProvider`, and the form provider's action codes):
 * Doorway's `oobCode=<type>-<token hash>` links, verified with `POST /verify`. Verifying spends the token and
 * opens a session: a verify-email link's session ends at once; a recovery link's is kept in the server's
 * context (see `ServerContext.resets`) until the new password is set in a later request.
 * @module
 */
import { type ActionCodeInfo, AuthError } from '@doorway/auth-core';
import type { ActionCodeProvider } from '@doorway/auth-core/server';
import type { User } from '@supabase/supabase-js';
import { actionCodeInfo, checkActionCodeFor, EMAIL_ACTION_TYPES } from '../shared/actionCodes.ts';
import { refuseTenant } from '../shared/common.ts';
import { mapSupabaseErrorCode } from '../shared/errors.ts';
import { type EmailTokenType, parseActionCode } from '../shared/links.ts';
import { serverSecondFactorChallenge } from '../shared/secondFactors.ts';
import type { PendingReset, ServerContext } from './context.ts';
import { getUser, logout, updatePassword, verifyTokenHash } from './rest.ts';
import { liveClaims } from './sessions.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The kept recovery session of a code, unless it has expired (then it is dropped). */
function pendingReset(ctx: ServerContext, code: string): PendingReset | undefined {
  const entry = ctx.resets.get(code);
  if (entry !== undefined && entry.expiresAt <= ctx.now()) {
    ctx.resets.delete(code);
    return undefined;
  }
  return entry;
}

/** Keeps a recovery session, dropping the oldest when the server keeps as many as it may. */
function keepReset(ctx: ServerContext, code: string, entry: PendingReset): void {
  if (ctx.resets.size >= ctx.maxPendingResets) {
    const oldest = ctx.resets.keys().next().value;
    if (oldest !== undefined) ctx.resets.delete(oldest);
  }
  ctx.resets.set(code, entry);
}

/** `POST /verify` with a Doorway action code; the user and session it yields, or an `AuthError`. */
async function verifyCode(ctx: ServerContext, type: EmailTokenType, tokenHash: string) {
  const result = await verifyTokenHash(ctx.api, type, tokenHash);
  if (!result.ok) throw new AuthError(mapSupabaseErrorCode(result.code, 'link'));
  const data = isObject(result.data) ? result.data : {};
  const user = isObject(data.user) ? (data.user as unknown as User) : null;
  const token = typeof data.access_token === 'string' ? data.access_token : null;
  return { user, token };
}

/** `verifyPasswordResetCode`: the account's email; the first call verifies the link and keeps its session. */
async function recoveryEmail(ctx: ServerContext, code: string): Promise<string> {
  const kept = pendingReset(ctx, code);
  if (kept !== undefined) return kept.email;
  const checked = checkActionCodeFor(code, ['recovery']);
  const { user, token } = await verifyCode(ctx, checked.type, checked.tokenHash);
  const exp = token === null ? null : liveClaims(ctx, token)?.exp;
  if (!user?.email || token === null || exp == null) throw new AuthError('invalid-action-code');
  keepReset(ctx, code, { email: user.email, token, expiresAt: exp * 1000 });
  return user.email;
}

/**
 * `confirmPasswordReset`: the new password, as the recovery session of the code; then every session ends.
 * The recovery session is at aal1: for an account with a verified factor GoTrue refuses (`insufficient_aal`),
 * so this rejects `second-factor-required` with that session's challenge and the password waits here until
 * the form provider's `secondFactors.finishSignIn` reaches aal2 ({@link finishReset}).
 */
async function confirmReset(ctx: ServerContext, code: string, newPassword: string): Promise<void> {
  await recoveryEmail(ctx, code);
  const entry = pendingReset(ctx, code);
  if (entry === undefined) throw new AuthError('invalid-action-code');
  const result = await updatePassword(ctx.api, entry.token, newPassword);
  if (!result.ok && result.code === 'insufficient_aal') {
    throw await resetNeedsSecondFactor(ctx, code, { ...entry, password: newPassword });
  }
  if (!result.ok) {
    const error = mapSupabaseErrorCode(result.code, 'link');
    // A weak password keeps the link usable for another try.
    if (error !== 'weak-password') ctx.resets.delete(code);
    throw new AuthError(error === 'weak-password' ? error : 'invalid-action-code');
  }
  ctx.resets.delete(code);
  // As Firebase does on a reset: every session of the account ends (the recovery one too).
  await logout(ctx.api, entry.token, 'global').catch(() => undefined);
}

/** The `second-factor-required` of a reset whose recovery session is at aal1; the new password waits. */
async function resetNeedsSecondFactor(ctx: ServerContext, code: string, entry: PendingReset) {
  const found = await getUser(ctx.api, entry.token);
  const challenge = found.ok
    ? serverSecondFactorChallenge(found.data, { accessToken: entry.token, providerId: 'password' })
    : null;
  if (challenge === null || challenge.factors.length === 0) {
    // The recovery session is gone, or only factors Doorway does not offer (WebAuthn) could finish it.
    ctx.resets.delete(code);
    await logout(ctx.api, entry.token, 'local').catch(() => undefined);
    return new AuthError(challenge === null ? 'invalid-action-code' : 'operation-not-allowed');
  }
  ctx.resets.set(code, entry);
  return new AuthError('second-factor-required', { challenge });
}

/**
 * Ends a reset waiting for its second factor, once the recovery session of `recoveryToken` reached aal2
 * (`token`, the session the person is now signed in with): the new password is set and the account's other
 * sessions end. Whether there was one.
 */
async function finishReset(ctx: ServerContext, recoveryToken: string, token: string): Promise<boolean> {
  const found = [...ctx.resets].find(([, e]) => e.token === recoveryToken && e.password !== undefined);
  if (found === undefined) return false;
  const [code, entry] = found;
  ctx.resets.delete(code);
  const result = await updatePassword(ctx.api, token, entry.password ?? '');
  if (!result.ok) {
    // Refused only now: the session ends, so nobody is signed in without the reset.
    await logout(ctx.api, token, 'local').catch(() => undefined);
    throw new AuthError(mapSupabaseErrorCode(result.code, 'link'));
  }
  await logout(ctx.api, token, 'others').catch(() => undefined);
  return true;
}

/** Verifies a verify-email or change-email code once per request (`checked` keeps this request's outcomes). */
async function checkEmailCode(
  ctx: ServerContext,
  checked: Map<string, ActionCodeInfo>,
  code: string,
): Promise<ActionCodeInfo> {
  const done = checked.get(code);
  if (done !== undefined) return done;
  const parsed = checkActionCodeFor(code, EMAIL_ACTION_TYPES);
  const { user, token } = await verifyCode(ctx, parsed.type, parsed.tokenHash);
  // GoTrue signs the link's owner in; nobody holds that session here, so it ends at once.
  if (token !== null) await logout(ctx.api, token, 'local').catch(() => undefined);
  const info = actionCodeInfo(parsed.operation, user);
  checked.set(code, info);
  return info;
}

/** The server's action codes, and the end of a reset that waited for its second factor (see `./form.ts`). */
export interface ServerActionCodes extends ActionCodeProvider {
  finishPasswordReset(recoveryToken: string, token: string): Promise<boolean>;
}

/** `SupabaseServer.serverProvider`: the action-code methods of one request. */
export function createActionCodeProvider(ctx: ServerContext): ServerActionCodes {
  // Codes this request verified (checkActionCode then applyActionCode use one token once).
  const checked = new Map<string, ActionCodeInfo>();
  return {
    setTenant: refuseTenant,
    async checkActionCode(code) {
      if (parseActionCode(code)?.type === 'recovery') {
        return { operation: 'resetPassword', email: await recoveryEmail(ctx, code), previousEmail: null };
      }
      return checkEmailCode(ctx, checked, code);
    },
    async applyActionCode(code) {
      await checkEmailCode(ctx, checked, code);
      // Applied: the token is spent, so another apply asks GoTrue (which refuses it), as in the browser.
      checked.delete(code);
    },
    verifyPasswordResetCode: (code) => recoveryEmail(ctx, code),
    confirmPasswordReset: (code, newPassword) => confirmReset(ctx, code, newPassword),
    finishPasswordReset: (recoveryToken, token) => finishReset(ctx, recoveryToken, token),
  };
}
