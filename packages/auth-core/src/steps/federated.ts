/**
 * Federated sign-in (popup or redirect) and account linking: an email that already has an account with
 * another method signs in with that method, then the new credential is linked.
 * @module
 */
import { emailOptionOf, type FederatedOption, type SignInOption } from '../config.ts';
import { isRetryableError } from '../errors.ts';
import type { ProviderOp } from '../ops.ts';
import type { AuthCredential, SignInMethod, SignInResult } from '../provider.ts';
import type { FlowState } from '../states.ts';
import { sendEmailLinkOp } from './emailLink.ts';
import { fail, isMethods, isSignInResult, succeed } from './shared.ts';
import {
  call,
  type FlowContext,
  firstCard,
  go,
  type OpCase,
  optionsOf,
  type Step,
  same,
  type TransitionResult,
} from './step.ts';

export function federatedOption(
  options: readonly SignInOption[],
  providerId: string,
): FederatedOption | null {
  return (
    options.find((o): o is FederatedOption => o.provider === 'federated' && o.providerId === providerId) ??
    null
  );
}

export function federatedOp(
  state: FlowState,
  ctx: FlowContext,
  option: FederatedOption,
  loginHint: string | null,
  pendingCredential: AuthCredential | null,
): ProviderOp {
  return {
    kind: 'federated',
    providerId: option.providerId,
    mode: ctx.config.signInFlow,
    loginHint,
    link: state.upgradeUid !== null,
    scopes: option.scopes,
    customParameters: option.customParameters,
    pendingCredential,
  };
}

/** Where an `account-exists-with-different-credential` leads, by the existing account's methods. */
function routeLinking(
  state: FlowState,
  ctx: FlowContext,
  email: string,
  credential: AuthCredential,
  methods: readonly SignInMethod[],
): TransitionResult {
  const options = optionsOf(state, ctx);
  const emailOption = emailOptionOf(options);
  if (methods.includes('password') || (methods.length === 0 && emailOption?.signInMethod === 'password')) {
    if (emailOption) return go(state, { card: 'passwordLinking', email, pendingCredential: credential });
  }
  if (methods.includes('emailLink') || (methods.length === 0 && emailOption?.signInMethod === 'emailLink')) {
    if (emailOption) return go(state, { card: 'emailLinkLinking', email, pendingCredential: credential });
  }
  const federated = methods.find((m) => federatedOption(options, m) !== null);
  if (federated !== undefined) {
    return go(state, {
      card: 'federatedLinking',
      email,
      providerId: federated,
      pendingCredential: credential,
    });
  }
  return go(state, { card: 'unsupportedProvider', email });
}

/** A federated sign-in (or a redirect's result) that failed: linking, the error card, or an error line. */
const federatedRejected: OpCase<'federated' | 'redirectResult'>['rejected'] = (state, ctx, op, error) => {
  const { code } = error;
  if (code === 'account-exists-with-different-credential' && error.email && error.credential) {
    return call(state, { kind: 'lookupForLinking', email: error.email, credential: error.credential });
  }
  if (state.card === 'spinner') {
    return isRetryableError(code)
      ? go(state, { card: 'recoverableError', message: code, retry: op })
      : firstCard(state, ctx, code);
  }
  return fail(state, code);
};

const signInResultOrNull = (result: unknown) => result === null || isSignInResult(result);

export const federated = {
  ui: {
    SIGN_IN_FEDERATED: (state, _event, ctx) => {
      if (state.card !== 'federatedSignIn' && state.card !== 'federatedLinking') return same(state);
      const option = federatedOption(optionsOf(state, ctx), state.providerId);
      if (!option) return same(state);
      const pending = state.card === 'federatedLinking' ? state.pendingCredential : null;
      return call(state, federatedOp(state, ctx, option, state.email, pending));
    },
    SEND_LINKING_EMAIL: (state, _event, ctx) => {
      if (state.card !== 'emailLinkLinking') return same(state);
      return call(state, sendEmailLinkOp(state, ctx, state.email, state.pendingCredential));
    },
  },
  ops: {
    federated: {
      shape: signInResultOrNull,
      resolved: (state, _ctx, _op, result) => {
        if (result === null) return [{ ...state, busy: true }, []]; // redirecting away: keep the spinner up
        const r = result as SignInResult;
        if (
          state.card === 'federatedSignIn' &&
          r.user.email &&
          r.user.email.toLowerCase() !== state.email.toLowerCase()
        ) {
          return go(state, { card: 'emailMismatch', enteredEmail: state.email, result: r });
        }
        return succeed(state, r);
      },
      rejected: federatedRejected,
    },
    redirectResult: {
      shape: signInResultOrNull,
      resolved: (state, ctx, _op, result) =>
        result === null ? firstCard(state, ctx) : succeed(state, result as SignInResult),
      rejected: federatedRejected,
    },
    lookupForLinking: {
      shape: isMethods,
      resolved: (state, ctx, op, result) =>
        routeLinking(state, ctx, op.email, op.credential, result as SignInMethod[]),
    },
  },
  cards: {
    emailMismatch: {
      continue: (state) => succeed(state, state.result),
      cancel: (state) => call(state, { kind: 'signOut' }),
    },
  },
} satisfies Step;
