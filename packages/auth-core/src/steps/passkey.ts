/**
 * Passkeys: the chooser's passkey button, and the passkey autofill of the email field.
 * @module
 */
import { askSecondFactor } from './secondFactor.ts';
import { fail, isSignInResult, signInDone, succeed } from './shared.ts';
import { type Step, same } from './step.ts';

export const passkey = {
  events: {
    PASSKEY_AUTOFILLED: (state, event) => {
      // Only where the autofill runs and nothing else is under way.
      if (state.card !== 'emailEntry' || state.pending || !isSignInResult(event.result)) return same(state);
      return succeed(state, event.result);
    },
    PASSKEY_AUTOFILL_FAILED: (state, event, ctx) => {
      const { code } = event.error;
      if (state.card !== 'emailEntry' || state.pending) return same(state);
      // The passkey was right and the account has a second factor: asked for, as after the button.
      if (code === 'second-factor-required') return askSecondFactor(state, ctx, event.error.challenge);
      // Dismissed, or no autofill in this browser: the email form is still there, nothing to say.
      return code === 'user-cancelled' || code === 'passkeys-unsupported' ? same(state) : fail(state, code);
    },
  },
  ops: {
    passkey: {
      shape: isSignInResult,
      resolved: signInDone,
      // A dismissed passkey dialog is the person's choice, not a missing permission.
      rejected: (state, _ctx, _op, { code }) =>
        fail(state, code === 'user-cancelled' ? 'passkey-cancelled' : code),
    },
  },
} satisfies Step;
