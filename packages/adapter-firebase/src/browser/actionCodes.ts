/**
 * Password reset and the other emailed action codes, on the SDK.
 * @module
 */
import type { ActionCodeInfo, ActionLinkSettings } from '@doorway/auth-core';
import {
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  sendPasswordResetEmail,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { toActionCodeInfo } from '../shared/actionCodes.ts';
import { resetLinkSettings, sendableEmail, withAuthErrors } from '../shared/common.ts';
import type { BrowserContext } from './context.ts';

/** Emails a password reset link (leading to `settings.url` after the reset, when given). */
export async function sendPasswordReset(
  ctx: BrowserContext,
  email: string,
  settings: ActionLinkSettings | undefined,
): Promise<void> {
  const address = sendableEmail(email);
  return withAuthErrors('passwordReset', () =>
    sendPasswordResetEmail(ctx.auth, address, resetLinkSettings(settings)),
  );
}

/** The email a reset code is for. */
export function verifyResetCode(ctx: BrowserContext, code: string): Promise<string> {
  return withAuthErrors('actionCode', () => verifyPasswordResetCode(ctx.auth, code));
}

export function confirmReset(ctx: BrowserContext, code: string, newPassword: string): Promise<void> {
  return withAuthErrors('actionCode', () => confirmPasswordReset(ctx.auth, code, newPassword));
}

/** What a code does, in the spec's words. */
export function checkCode(ctx: BrowserContext, code: string): Promise<ActionCodeInfo> {
  return withAuthErrors('actionCode', async () => toActionCodeInfo(await checkActionCode(ctx.auth, code)));
}

export function applyCode(ctx: BrowserContext, code: string): Promise<void> {
  return withAuthErrors('actionCode', () => applyActionCode(ctx.auth, code));
}
