/**
 * Which cards the action route serves as static pages. Shared by the route's component and its `handle`
 * (browser and server alike); nothing here is secret.
 * @module
 */
import { ACTION_CODE_CARDS, type CardName, type FlowState } from '@doorway/auth-core';

const CODE_CARDS: ReadonlySet<CardName> = new Set<CardName>(ACTION_CODE_CARDS);

/**
 * Whether the action route serves this card as a static page, with no scripts, so that its forms post to
 * the server with JavaScript on as well as off: the cards of an action code, and the Retry of one that a
 * backend failure interrupted. The server must run them: the reset form needs the code, which stays out of
 * the page (and, on Supabase, the recovery session the server keeps by code: the browser cannot use the
 * link again), and a Retry checks the code again. Every other card (a flow opened by an email sign-in link,
 * the sign-in cards after Continue or "Change password") is the widget, hydrated as on `/login`.
 */
export function isStaticCard(state: FlowState | undefined): boolean {
  if (state === undefined) return false;
  if (state.card === 'recoverableError') return state.retry?.kind === 'actionCode';
  return CODE_CARDS.has(state.card);
}
