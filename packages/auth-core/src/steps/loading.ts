/**
 * The spinner and the error cards: loading a lazy provider, then starting as `START` would have, and
 * Retry on the recoverable error card.
 * @module
 */
import { begin } from '../start.ts';
import { isObject } from './shared.ts';
import { call, firstCard, go, type ProviderLoaded, type Step, same } from './step.ts';

export const loading = {
  ui: {
    RETRY: (state, _event, ctx) => {
      if (state.card !== 'recoverableError') return same(state);
      return state.retry ? call(state, state.retry, { card: 'spinner' }) : firstCard(state, ctx);
    },
  },
  ops: {
    loadProvider: {
      shape: isObject,
      resolved: (state, ctx, _op, result) => {
        const r = result as ProviderLoaded;
        const [s] = go(state, { card: 'spinner' });
        return begin(s, ctx, state.pageUrl, r.currentUser, r.redirectPending, r.signOut);
      },
      rejected: (state, _ctx, _op, { code }) => go(state, { card: 'unrecoverableError', message: code }),
    },
  },
  cards: {
    spinner: { cancel: same },
    unrecoverableError: { cancel: same },
  },
} satisfies Step;
