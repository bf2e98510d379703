/**
 * The second factor after a right first factor: which factor, the SMS captcha, the code (texted or from
 * an authenticator app), resending it, and cancelling the pending sign-in.
 * @module
 */
import { RESEND_COUNTDOWN_SECONDS } from '../constants.ts';
import type { ErrorInfo } from '../errors.ts';
import type { Effect, ProviderOpKind } from '../ops.ts';
import type { SecondFactorChallenge, SecondFactorInfo, SignInResult } from '../provider.ts';
import { validateCaptcha, validateCode } from '../rules.ts';
import type { FlowState, StateOf } from '../states.ts';
import { fail, hasVerificationId, isObject, isSignInResult, RESEND_TIMERS, succeed } from './shared.ts';
import {
  call,
  type FlowContext,
  firstCard,
  go,
  type OpOf,
  type Step,
  same,
  type TransitionResult,
} from './step.ts';

const FACTOR_KINDS: ReadonlySet<unknown> = new Set(['phone', 'totp']);
const isFactor = (v: unknown): v is SecondFactorInfo =>
  isObject(v) && typeof v.uid === 'string' && FACTOR_KINDS.has(v.kind);

/** The challenge a `second-factor-required` carries, if it is one a card can show (at least one factor). */
function challengeOf(v: unknown): SecondFactorChallenge | null {
  if (!isObject(v) || !Array.isArray(v.factors) || v.factors.length === 0) return null;
  return v.factors.every(isFactor) ? (v as unknown as SecondFactorChallenge) : null;
}

const SECOND_FACTOR_CARDS: ReadonlySet<string> = new Set([
  'secondFactorChooser',
  'secondFactorPhone',
  'secondFactorCode',
]);

/** The ops of the second factor: their failures have cases of their own (see `secondFactorRejected`). */
export const SECOND_FACTOR_OPS: ReadonlySet<ProviderOpKind> = new Set([
  'startSecondFactor',
  'finishSecondFactor',
  'cancelSecondFactor',
]);

/** One factor of a challenge: an SMS factor asks for the captcha first; a TOTP factor opens its check. */
function openFactor(
  state: FlowState,
  challenge: SecondFactorChallenge,
  factor: SecondFactorInfo,
): TransitionResult {
  if (factor.kind === 'phone') return go(state, { card: 'secondFactorPhone', challenge, factor });
  return call(state, {
    kind: 'startSecondFactor',
    challenge,
    factorUid: factor.uid,
    sms: false,
    verifier: null,
  });
}

/** A first factor was right and the account has a second: the chooser, or the only factor at once. */
export function askSecondFactor(state: FlowState, ctx: FlowContext, challenge: unknown): TransitionResult {
  const valid = challengeOf(challenge);
  if (valid === null || !ctx.capabilities.secondFactors?.length) return fail(state, 'generic');
  const [only] = valid.factors;
  if (valid.factors.length > 1 || only === undefined) {
    return go(state, { card: 'secondFactorChooser', challenge: valid });
  }
  return openFactor(state, valid, only);
}

/** Where a second factor's step that failed leads. */
function secondFactorRejected(
  state: FlowState,
  ctx: FlowContext,
  op: OpOf<'startSecondFactor' | 'finishSecondFactor' | 'cancelSecondFactor'>,
  { code }: ErrorInfo,
): TransitionResult {
  const stop: Effect[] = [{ type: 'cancelTimer', name: 'resend' }];
  if (op.kind === 'cancelSecondFactor') return firstCard(state, ctx);
  const smsCode = state.card === 'secondFactorCode' && state.factor.kind === 'phone' ? state.factor : null;
  if (code === 'code-expired' && op.kind === 'finishSecondFactor' && smsCode !== null) {
    // An SMS code that expired: back to the chooser (or the only factor's card) to text another.
    const { challenge } = op;
    const [next, effects] =
      challenge.factors.length > 1
        ? go(state, { card: 'secondFactorChooser', challenge }, stop)
        : go(state, { card: 'secondFactorPhone', challenge, factor: smsCode }, stop);
    return [{ ...next, error: code }, effects];
  }
  if (code === 'code-expired') {
    // The pending sign-in is over (it expired, or the backend forgot it): start again.
    const [next, effects] = firstCard(state, ctx, 'session-expired');
    return [next, [...stop, ...effects]];
  }
  if (SECOND_FACTOR_CARDS.has(state.card)) return fail(state, code);
  // The only factor could not be opened from the first factor's card: show the chooser with the error.
  const [next, effects] = go(state, { card: 'secondFactorChooser', challenge: op.challenge });
  return [{ ...next, error: code }, effects];
}

const cancelSignIn = (state: StateOf<'secondFactorChooser' | 'secondFactorPhone' | 'secondFactorCode'>) =>
  call(state, { kind: 'cancelSecondFactor', challenge: state.challenge });

export const secondFactor = {
  ui: {
    CHOOSE_SECOND_FACTOR: (state, event) => {
      if (state.card !== 'secondFactorChooser') return same(state);
      const factor = state.challenge.factors.find((f) => f.uid === event.factorUid);
      return factor ? openFactor(state, state.challenge, factor) : same(state);
    },
    SEND_SECOND_FACTOR_SMS: (state, event) => {
      if (state.card !== 'secondFactorPhone') return same(state);
      const invalid = validateCaptcha(event.captchaSolved === true);
      if (invalid) return fail(state, invalid);
      const { challenge, factor } = state;
      return call(state, {
        kind: 'startSecondFactor',
        challenge,
        factorUid: factor.uid,
        sms: true,
        verifier: event.verifier,
      });
    },
    SUBMIT_SECOND_FACTOR_CODE: (state, event) => {
      if (state.card !== 'secondFactorCode') return same(state);
      const code = typeof event.code === 'string' ? event.code.trim() : '';
      const invalid = validateCode(code, undefined);
      if (invalid) return fail(state, invalid);
      const { challenge, verificationId } = state;
      return call(state, { kind: 'finishSecondFactor', challenge, verificationId, code });
    },
  },
  ops: {
    startSecondFactor: {
      shape: hasVerificationId,
      resolved: (state, ctx, op, result) => {
        const factor = op.challenge.factors.find((f) => f.uid === op.factorUid);
        if (!factor) return secondFactorRejected(state, ctx, op, { code: 'code-expired' });
        const { verificationId } = result as { verificationId: string };
        const resendIn = op.sms ? RESEND_COUNTDOWN_SECONDS : 0;
        const card = {
          card: 'secondFactorCode',
          challenge: op.challenge,
          factor,
          verificationId,
          resendIn,
        } as const;
        return go(state, card, op.sms ? RESEND_TIMERS : []);
      },
      rejected: secondFactorRejected,
    },
    finishSecondFactor: {
      shape: isSignInResult,
      resolved: (state, _ctx, _op, result) => {
        const [next, effects] = succeed(state, result as SignInResult);
        return [next, [{ type: 'cancelTimer', name: 'resend' }, ...effects]];
      },
      rejected: secondFactorRejected,
    },
    cancelSecondFactor: {
      resolved: (state, ctx) => firstCard(state, ctx),
      rejected: secondFactorRejected,
    },
  },
  cards: {
    secondFactorChooser: { cancel: cancelSignIn },
    secondFactorPhone: { cancel: cancelSignIn },
    secondFactorCode: {
      cancel: cancelSignIn,
      resend: (state) => {
        if (state.factor.kind !== 'phone' || state.resendIn > 0) return same(state);
        const { challenge, factor } = state;
        return call(state, {
          kind: 'startSecondFactor',
          challenge,
          factorUid: factor.uid,
          sms: true,
          verifier: null,
        });
      },
    },
  },
} satisfies Step;
