/**
 * Signed in, and signing out: the success card's redirect (once its delay has elapsed and the success
 * callback did not say no), Sign out, and signing in again.
 * @module
 */
import type { FlowState } from '../states.ts';
import { call, firstCard, go, type Step, same, type TransitionResult } from './step.ts';

/** The success card's delay has elapsed: the redirect, if the callback allowed it. */
export function successElapsed(state: FlowState): TransitionResult {
  if (state.card !== 'signedIn' || state.elapsed) return same(state);
  const next: FlowState = { ...state, elapsed: true };
  return [
    next,
    state.redirect === true && state.redirectUrl ? [{ type: 'redirect', url: state.redirectUrl }] : [],
  ];
}

export const signedIn = {
  ui: {
    SIGN_OUT: (state) => {
      if (state.card !== 'signedIn' && state.card !== 'providerChooser') return same(state);
      return call(state, { kind: 'signOut' }, { card: 'spinner' });
    },
    SIGN_IN_AGAIN: (state, _event, ctx) => (state.card === 'signOut' ? firstCard(state, ctx) : same(state)),
  },
  events: {
    CALLBACK_RESULT: (state, event) => {
      if (state.card !== 'signedIn' || state.redirect !== null) return same(state);
      const redirect = event.redirect && state.redirectUrl !== null;
      const next: FlowState = { ...state, redirect };
      return [
        next,
        redirect && state.elapsed && state.redirectUrl ? [{ type: 'redirect', url: state.redirectUrl }] : [],
      ];
    },
  },
  ops: {
    signOut: {
      resolved: (state, ctx) =>
        state.card === 'emailMismatch' ? firstCard(state, ctx) : go(state, { card: 'signOut' }),
      rejected: (state, ctx, op, { code }) => {
        if (state.card === 'emailMismatch') return firstCard(state, ctx);
        return go(state, { card: 'recoverableError', message: code, retry: op });
      },
    },
  },
  cards: {
    signedIn: { cancel: same },
  },
} satisfies Step;
