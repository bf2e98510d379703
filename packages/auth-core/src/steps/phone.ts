/**
 * Phone sign-in: the number (with the captcha), the texted code, resending it, changing the number.
 * @module
 */
import { phoneOptionOf } from '../config.ts';
import { RESEND_COUNTDOWN_SECONDS } from '../constants.ts';
import type { SignInResult } from '../provider.ts';
import { validateCaptcha, validateCode, validateCountry, validatePhoneNumber } from '../rules.ts';
import type { FlowState, StateOf } from '../states.ts';
import { fail, firstError, hasVerificationId, isSignInResult, RESEND_TIMERS, succeed } from './shared.ts';
import { call, type EventHandler, go, optionsOf, type Step, same, type TransitionResult } from './step.ts';

/** Back from the code to the number, as typed. */
function toNumber(state: StateOf<'phoneCode'>): TransitionResult {
  return go(state, { card: 'phoneEntry', phoneNumber: state.phoneNumber, country: state.country }, [
    { type: 'cancelTimer', name: 'resend' },
  ]);
}

const onSubmitPhone: EventHandler<'SUBMIT_PHONE'> = (state, event, ctx) => {
  if (state.card !== 'phoneEntry') return same(state);
  const phone = phoneOptionOf(optionsOf(state, ctx));
  const typed: FlowState = {
    ...state,
    phoneNumber: String(event.phoneNumber ?? ''),
    country: String(event.country ?? ''),
  };
  const invalid = firstError(
    validateCountry(event.country, {
      allowed: phone?.allowedCountries ?? null,
      blocked: phone?.blockedCountries ?? [],
    }),
    validatePhoneNumber(event.phoneNumber, undefined),
    validateCaptcha(event.captchaSolved === true),
  );
  if (invalid) return fail(typed, invalid);
  return call(typed, { kind: 'startPhone', phoneNumber: event.phoneNumber, verifier: event.verifier });
};

export const phone = {
  ui: {
    SUBMIT_PHONE: onSubmitPhone,
    SUBMIT_CODE: (state, event) => {
      if (state.card !== 'phoneCode') return same(state);
      const invalid = validateCode(event.code, undefined);
      if (invalid) return fail(state, invalid);
      const { verificationId } = state;
      return call(state, {
        kind: 'confirmPhone',
        verificationId,
        code: event.code.trim(),
        link: state.upgradeUid !== null,
      });
    },
    CHANGE_PHONE: (state) => (state.card === 'phoneCode' ? toNumber(state) : same(state)),
  },
  ops: {
    startPhone: {
      shape: hasVerificationId,
      resolved: (state, _ctx, op, result) => {
        const entered = state.card === 'phoneEntry' || state.card === 'phoneCode' ? state : null;
        const { verificationId } = result as { verificationId: string };
        const card = {
          card: 'phoneCode',
          phoneNumber: op.phoneNumber,
          country: entered?.country ?? 'US',
          verificationId,
          resendIn: RESEND_COUNTDOWN_SECONDS,
        } as const;
        return go(state, card, RESEND_TIMERS);
      },
    },
    confirmPhone: {
      shape: isSignInResult,
      resolved: (state, _ctx, _op, result) => {
        const [next, effects] = succeed(state, result as SignInResult, 'verified');
        return [next, [{ type: 'cancelTimer', name: 'resend' }, ...effects]];
      },
      rejected: (state, _ctx, _op, { code }) => {
        if (code === 'code-expired' && state.card === 'phoneCode') {
          const [next, effects] = toNumber(state);
          return [{ ...next, error: code }, effects];
        }
        return fail(state, code);
      },
    },
  },
  cards: {
    phoneCode: {
      resend: (state) =>
        state.resendIn > 0
          ? same(state)
          : call(state, { kind: 'startPhone', phoneNumber: state.phoneNumber, verifier: null }),
      cancel: toNumber,
    },
  },
} satisfies Step;
