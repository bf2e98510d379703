/**
 * Email action codes (spec §2): the link's outcome card, the new-password form of a reset, and where
 * Continue leads from each result.
 * @module
 */
import type { ActionResult } from '../action.ts';
import type { ProviderOp } from '../ops.ts';
import { safeRedirect } from '../redirect.ts';
import { validateNewPassword } from '../rules.ts';
import { ACTION_CODE_CARDS, type FlowState, type StateOf } from '../states.ts';
import { fail, isObject } from './shared.ts';
import { call, type FlowContext, firstCard, go, type Step, same, type TransitionResult } from './step.ts';

function fromActionResult(
  state: FlowState,
  ctx: FlowContext,
  result: ActionResult,
  op: ProviderOp,
): TransitionResult {
  switch (result.card) {
    case 'widget':
      return firstCard(state, ctx);
    case 'recoverableError':
      return go(state, { card: 'recoverableError', message: result.message, retry: op });
    case 'passwordReset': {
      const [next, effects] = go(state, {
        card: 'passwordReset',
        code: result.code,
        email: result.email,
        continueUrl: result.continueUrl,
      });
      return [result.error ? { ...next, error: result.error } : next, effects];
    }
    default:
      return go(state, result);
  }
}

const ACTION_CARDS: ReadonlySet<string> = new Set(['widget', ...ACTION_CODE_CARDS, 'recoverableError']);
const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

const isActionResult = (result: unknown) =>
  isObject(result) &&
  ACTION_CARDS.has(String(result.card)) &&
  optionalString(result.continueUrl) &&
  optionalString(result.email) &&
  (result.card !== 'passwordReset' ||
    (typeof result.code === 'string' && typeof result.email === 'string')) &&
  (result.card !== 'recoverableError' || typeof result.message === 'string');

/** Continue from a success with a continue URL: there (checked again: it only leaves through safeRedirect). */
function toContinueUrl(
  state: FlowState & { continueUrl: string | null },
  ctx: FlowContext,
): TransitionResult {
  const url = safeRedirect(state.continueUrl, ctx.config.allowedOrigins);
  return url ? [state, [{ type: 'redirect', url }]] : firstCard(state, ctx);
}

/** Continue after an email change was revoked (or a second factor removed): a reset email, to be safe. */
const sendReset = (state: StateOf<'emailChangeRevoked' | 'revertSecondFactorAdditionSuccess'>) =>
  call(state, { kind: 'sendPasswordReset', email: state.email ?? '', url: state.pageUrl });

export const actionCode = {
  ui: {
    SUBMIT_NEW_PASSWORD: (state, event) => {
      if (state.card !== 'passwordReset') return same(state);
      const invalid = validateNewPassword(event.password, undefined);
      if (invalid) return fail(state, invalid);
      return call(state, { kind: 'confirmPasswordReset', code: state.code, password: event.password });
    },
  },
  ops: {
    actionCode: {
      shape: isActionResult,
      resolved: (state, ctx, op, result) => fromActionResult(state, ctx, result as ActionResult, op),
    },
    confirmPasswordReset: {
      resolved: (state) =>
        go(state, {
          card: 'passwordResetSuccess',
          continueUrl: state.card === 'passwordReset' ? state.continueUrl : null,
        }),
      rejected: (state, _ctx, _op, { code }) => {
        if (code === 'expired-action-code' || code === 'invalid-action-code') {
          return go(state, { card: 'passwordResetFailure' });
        }
        return fail(state, code);
      },
    },
  },
  // Cancel does nothing on the cards of an action code.
  cards: {
    passwordReset: { cancel: same },
    passwordResetSuccess: { cancel: same, continue: toContinueUrl },
    passwordResetFailure: { cancel: same },
    emailVerificationSuccess: { cancel: same, continue: toContinueUrl },
    emailVerificationFailure: { cancel: same },
    verifyAndChangeEmailSuccess: { cancel: same, continue: toContinueUrl },
    verifyAndChangeEmailFailure: { cancel: same },
    revertSecondFactorAdditionSuccess: { cancel: same, continue: sendReset },
    revertSecondFactorAdditionFailure: { cancel: same },
    emailChangeRevoked: { cancel: same, continue: sendReset },
    emailChangeRevokeFailure: { cancel: same },
  },
} satisfies Step;
