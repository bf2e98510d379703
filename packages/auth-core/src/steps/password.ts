/**
 * Email and password: sign-in (and the password half of linking), sign-up, and recovery by email.
 * @module
 */
import { emailOptionOf } from '../config.ts';
import {
  normalizeEmail,
  typedEmail,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePassword,
} from '../rules.ts';
import type { FlowState } from '../states.ts';
import { fail, firstError, isSignInResult, signInDone } from './shared.ts';
import {
  call,
  type EventHandler,
  type FlowContext,
  go,
  optionsOf,
  type Step,
  same,
  type TransitionResult,
} from './step.ts';

const onSubmitSignUp: EventHandler<'SUBMIT_SIGN_UP'> = (state, event) => {
  if (state.card !== 'passwordSignUp') return same(state);
  const email = normalizeEmail(event.email);
  const name = typeof event.name === 'string' ? event.name.trim() : '';
  const typed: FlowState = { ...state, email, name };
  const invalid = firstError(
    validateEmail(email, undefined),
    validateName(name, { required: state.requireName }),
    validateNewPassword(event.password, undefined),
  );
  if (invalid) return fail(typed, invalid);
  const link = state.upgradeUid !== null;
  return call(typed, {
    kind: 'createUser',
    email,
    password: event.password,
    name: name === '' ? null : name,
    link,
  });
};

/** Back to the password card from recovery: sign-up is offered when the lookup could not tell. */
function backToPassword(state: FlowState & { email: string }, ctx: FlowContext): TransitionResult {
  return go(state, {
    card: 'passwordSignIn',
    email: state.email,
    offerSignUp:
      !ctx.capabilities.reliableSignInMethodLookup && !emailOptionOf(optionsOf(state, ctx))?.disableSignUp,
  });
}

export const password = {
  ui: {
    SUBMIT_PASSWORD: (state, event) => {
      if (state.card !== 'passwordSignIn' && state.card !== 'passwordLinking') return same(state);
      const invalid = validatePassword(event.password, undefined);
      if (invalid) return fail(state, invalid);
      if (state.card === 'passwordLinking') {
        const credential = state.pendingCredential;
        return call(state, {
          kind: 'passwordSignInAndLink',
          email: state.email,
          password: event.password,
          credential,
        });
      }
      const link = state.upgradeUid !== null;
      return call(state, { kind: 'passwordSignIn', email: state.email, password: event.password, link });
    },
    GO_TO_RECOVERY: (state) => {
      if (state.card !== 'passwordSignIn' && state.card !== 'passwordLinking') return same(state);
      return go(state, { card: 'passwordRecovery', email: state.email });
    },
    GO_TO_SIGN_UP: (state, _event, ctx) => {
      const emailOption = emailOptionOf(optionsOf(state, ctx));
      if (state.card !== 'passwordSignIn' || !state.offerSignUp || !emailOption) return same(state);
      return go(state, {
        card: 'passwordSignUp',
        email: state.email,
        requireName: emailOption.requireDisplayName,
      });
    },
    SUBMIT_SIGN_UP: onSubmitSignUp,
    SUBMIT_RECOVERY: (state, event) => {
      if (state.card !== 'passwordRecovery') return same(state);
      const { email, invalid } = typedEmail(event.email);
      const typed = { ...state, email } as FlowState;
      if (invalid) return fail(typed, invalid);
      return call(typed, { kind: 'sendPasswordReset', email, url: state.pageUrl });
    },
  },
  ops: {
    passwordSignIn: { shape: isSignInResult, resolved: signInDone },
    createUser: { shape: isSignInResult, resolved: signInDone },
    passwordSignInAndLink: { shape: isSignInResult, resolved: signInDone },
    sendPasswordReset: {
      resolved: (state, _ctx, op) => go(state, { card: 'recoveryEmailSent', email: op.email }),
    },
  },
  cards: {
    recoveryEmailSent: { continue: backToPassword },
    passwordRecovery: { cancel: backToPassword },
  },
} satisfies Step;
