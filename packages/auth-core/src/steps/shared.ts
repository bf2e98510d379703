/**
 * What several steps share after the first card: the error line, the success card, the default failure,
 * the form checks and the shapes of provider results. Part of the engine loaded after the first card.
 * @module
 */

import { SUCCESS_DISPLAY_DELAY_MS } from '../constants.ts';
import type { ErrorInfo } from '../errors.ts';
import { isRetryableError } from '../errors.ts';
import type { MessageKey } from '../messages.ts';
import type { Effect, ProviderOp } from '../ops.ts';
import type { SignInResult } from '../provider.ts';
import type { FlowState } from '../states.ts';
import { type FlowContext, go, type TransitionResult } from './step.ts';

/** Shows an error line on the current card; anything in flight is over. */
export function fail(state: FlowState, error: MessageKey, effects: Effect[] = []): TransitionResult {
  const out: Effect[] = state.pending ? [{ type: 'cancelTimer', name: 'busy' }, ...effects] : effects;
  return [{ ...state, pending: null, busy: false, error }, out];
}

/** Sign-in is done: "Signed in!" / "Verified!" for 1 s, the success callback, then the redirect. */
export function succeed(
  state: FlowState,
  result: SignInResult,
  message: 'signedIn' | 'verified' = 'signedIn',
): TransitionResult {
  return go(state, { card: 'signedIn', message, result, elapsed: false, redirect: null }, [
    { type: 'signInSuccess', result, redirectUrl: state.redirectUrl },
    { type: 'startTimer', name: 'success', ms: SUCCESS_DISPLAY_DELAY_MS },
  ]);
}

/** The resend countdown (a code was texted), started again. */
export const RESEND_TIMERS: Effect[] = [
  { type: 'cancelTimer', name: 'resend' },
  { type: 'startTimer', name: 'resend', ms: 1000 },
];

/** A sign-in op's result, as the success card shows it. */
export const signInDone = (state: FlowState, _ctx: FlowContext, _op: ProviderOp, result: unknown) =>
  succeed(state, result as SignInResult);

/**
 * A failed call with no case of its own: an error line on the card, or (from the spinner) the
 * recoverable error card, with Retry when the error may pass.
 */
export function failed(
  state: FlowState,
  _ctx: FlowContext,
  op: ProviderOp,
  error: ErrorInfo,
): TransitionResult {
  const { code } = error;
  if (state.card === 'spinner') {
    return go(state, { card: 'recoverableError', message: code, retry: isRetryableError(code) ? op : null });
  }
  return fail(state, code);
}

/** Validates a form's fields in order and returns the first message, if any. */
export function firstError(...checks: (MessageKey | null)[]): MessageKey | null {
  return checks.find((c) => c !== null) ?? null;
}

// The shapes of provider results (`OpCase.shape`).
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
export const isSignInResult = (v: unknown): v is SignInResult =>
  isObject(v) && isObject(v.user) && typeof v.user.uid === 'string' && typeof v.providerId === 'string';
export const isMethods = (v: unknown): boolean => Array.isArray(v) && v.every((m) => typeof m === 'string');
export const hasVerificationId = (v: unknown): boolean => isObject(v) && typeof v.verificationId === 'string';
