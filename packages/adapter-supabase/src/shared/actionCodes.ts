/**
 * Emailed action codes as both sides read them: which GoTrue types stand for which action, and the checks a
 * code passes before GoTrue is asked (asking spends it).
 * @module
 */
import { type ActionCodeInfo, AuthError } from '@doorway/auth-core';
import { type EmailTokenType, parseActionCode } from './links.ts';

/** The action each emailed type stands for; sign-in types stand for none. */
const OPERATIONS: Partial<Record<EmailTokenType, ActionCodeInfo['operation']>> = {
  recovery: 'resetPassword',
  signup: 'verifyEmail',
  invite: 'verifyEmail',
  email_change: 'verifyAndChangeEmail',
};

/** The types of the links that verify or change an email (`applyActionCode`). */
export const EMAIL_ACTION_TYPES: readonly EmailTokenType[] = ['signup', 'invite', 'email_change'];

// A bare recovery token hash, as Supabase's own `{{ .TokenHash }}` templates give it.
const RAW_TOKEN_HASH = /^(pkce_)?[0-9a-f]{16,128}$/;

/** An action code ready to verify: its GoTrue type and token hash, and the action it stands for. */
export interface CheckedActionCode {
  type: EmailTokenType;
  tokenHash: string;
  operation: ActionCodeInfo['operation'];
}

/**
 * Reads `code` for a step that takes the `allowed` types. Rejects `invalid-action-code` for anything else,
 * and `operation-not-allowed` for a sign-in link (checking one would sign its owner in).
 * @param rawRecovery whether a bare token hash counts as a recovery code (the browser takes them)
 */
export function checkActionCodeFor(
  code: string,
  allowed: readonly EmailTokenType[],
  rawRecovery = false,
): CheckedActionCode {
  const parsed =
    parseActionCode(code) ??
    (rawRecovery && allowed.includes('recovery') && RAW_TOKEN_HASH.test(code)
      ? { type: 'recovery' as const, tokenHash: code }
      : null);
  if (!parsed) throw new AuthError('invalid-action-code');
  const operation = OPERATIONS[parsed.type];
  if (!operation) throw new AuthError('operation-not-allowed');
  if (!allowed.includes(parsed.type)) throw new AuthError('invalid-action-code');
  return { ...parsed, operation };
}

/** What `checkActionCode` answers for a verified code. With "Secure email change" the first of two links
 * answers without a user: accepted, nothing to show. */
export function actionCodeInfo(
  operation: ActionCodeInfo['operation'],
  user: { email?: string | null } | null | undefined,
): ActionCodeInfo {
  return { operation, email: user?.email || null, previousEmail: null };
}
