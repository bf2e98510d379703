/**
 * The pure flow transition: `transition(state, event, ctx) → [nextState, effects]`. No awaits, clocks,
 * randomness or provider calls happen here; the runner does those from the returned effects.
 *
 * Each step of the flow (`steps/*.ts`: chooser, email entry, password, phone, email link, federated and
 * linking, second factor, action codes, anonymous, passkeys, signed in, loading) owns its cards: the
 * events a person sends there, its provider ops (the result's shape, where the result and a failure
 * lead) and the by-card events (Continue, Cancel, resend). This module merges the steps' tables into
 * complete ones, checked by the compiler (an event, op or timer without its handler, or claimed by two
 * steps, does not compile), and dispatches to them.
 * @module
 */
import type { ErrorInfo } from './errors.ts';
import type { FlowEvent } from './events.ts';
import type { ProviderOp, ProviderOpKind } from './ops.ts';
import { startTransition } from './start.ts';
import type { CardName, FlowState, StateOf } from './states.ts';
import { actionCode } from './steps/actionCode.ts';
import { anonymous, mergeConflict } from './steps/anonymous.ts';
import { chooser } from './steps/chooser.ts';
import { emailEntry } from './steps/email.ts';
import { emailLink } from './steps/emailLink.ts';
import { federated } from './steps/federated.ts';
import { loading } from './steps/loading.ts';
import { passkey } from './steps/passkey.ts';
import { password } from './steps/password.ts';
import { phone } from './steps/phone.ts';
import { askSecondFactor, SECOND_FACTOR_OPS, secondFactor } from './steps/secondFactor.ts';
import { failed } from './steps/shared.ts';
import { signedIn, successElapsed } from './steps/signedIn.ts';
import {
  type CardCase,
  type CardTable,
  type FlowContext,
  firstCard,
  go,
  type OpCase,
  type OpTable,
  type Step,
  type SystemTable,
  same,
  type TransitionResult,
  type UiTable,
} from './steps/step.ts';

const STEPS = [
  loading,
  chooser,
  emailEntry,
  password,
  phone,
  emailLink,
  federated,
  secondFactor,
  actionCode,
  anonymous,
  passkey,
  signedIn,
] as const;

// The steps' tables, merged: one table per kind of key, typed as the intersection of the steps' parts.
type Part<S, K extends keyof Step> = S extends { readonly [P in K]: infer T } ? T : Record<never, never>;
type PartsOf<T extends readonly unknown[], K extends keyof Step> = { [I in keyof T]: Part<T[I], K> };
type Parts<K extends keyof Step> = PartsOf<typeof STEPS, K>;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type KeysOf<T> = T extends unknown ? keyof T : never;
/** The keys that more than one of the tables has. */
type Shared<T extends readonly unknown[]> = T extends readonly [infer H, ...infer R]
  ? (keyof H & KeysOf<R[number]>) | Shared<R>
  : never;
type Claimed = Shared<Parts<'ui'>> | Shared<Parts<'events'>> | Shared<Parts<'ops'>> | Shared<Parts<'cards'>>;
// Compile-time check that every event, op and card has one owner.
const _oneOwner: [Claimed] extends [never] ? true : Claimed = true;
void _oneOwner;

function merged<K extends keyof Step>(key: K): Intersection<Parts<K>[number]> {
  return Object.assign({}, ...STEPS.map((step: Step) => step[key]));
}

const OPS = merged('ops') satisfies OpTable;
const CARDS: CardTable = merged('cards');

type AnyHandler = (state: FlowState, event: FlowEvent, ctx: FlowContext) => TransitionResult;
const caseOf = (op: ProviderOp) => OPS[op.kind] as OpCase<ProviderOpKind>;
const cardCase = (state: FlowState) => CARDS[state.card] as CardCase<CardName> | undefined;

/** A successful provider call, by what was asked (a malformed result is a `generic` failure). */
function resolved(state: FlowState, ctx: FlowContext, op: ProviderOp, result: unknown): TransitionResult {
  const own = caseOf(op);
  if (own.shape && !own.shape(result)) return rejected(state, ctx, op, { code: 'generic' });
  return own.resolved(state, ctx, op, result);
}

/** A failed provider call, by what was asked: inline errors keep the card (and what was typed). */
function rejected(state: FlowState, ctx: FlowContext, op: ProviderOp, error: ErrorInfo): TransitionResult {
  const { code } = error;
  if (code === 'web-storage-unsupported') return go(state, { card: 'unrecoverableError', message: code });
  if (!SECOND_FACTOR_OPS.has(op.kind)) {
    if (code === 'second-factor-required') return askSecondFactor(state, ctx, error.challenge);
    const conflict = mergeConflict(state, op, error);
    if (conflict) return conflict;
  }
  return (caseOf(op).rejected ?? failed)(state, ctx, op, error);
}

/** What a person's events do: each step's own, and the by-card events, asked of the card's step. */
const UI = {
  ...merged('ui'),
  CONTINUE: (state, _event, ctx) => cardCase(state)?.continue?.(state, ctx) ?? same(state),
  CANCEL: (state, _event, ctx) => {
    if (state.pending && state.card !== 'spinner') return same(state);
    const cancel = cardCase(state)?.cancel;
    if (cancel) return cancel(state, ctx);
    const [next, effects] = firstCard(state, ctx);
    // Going back from a card to itself (single-option widgets) must not loop.
    return next.card === state.card ? same(state) : [next, effects];
  },
  RESEND_CODE: (state, _event, ctx) => cardCase(state)?.resend?.(state, ctx) ?? same(state),
} satisfies UiTable;

/** What the runner's events (and the steps' other events) do. */
const SYSTEM = {
  ...merged('events'),
  START: (state, event, ctx) => startTransition(state, event, ctx) as TransitionResult,
  PROVIDER_RESOLVED: (state, event, ctx) => {
    if (!state.pending || state.pending.id !== event.id) return same(state);
    return resolved(state, ctx, state.pending.op, event.result);
  },
  PROVIDER_REJECTED: (state, event, ctx) => {
    if (!state.pending || state.pending.id !== event.id) return same(state);
    return rejected(state, ctx, state.pending.op, event.error);
  },
  TIMER: (state, event) => onTimer(state, event.name),
} satisfies SystemTable;

function onTimer(state: FlowState, name: 'busy' | 'resend' | 'success'): TransitionResult {
  switch (name) {
    case 'busy':
      return state.pending && !state.busy ? [{ ...state, busy: true }, []] : same(state);
    case 'resend': {
      if ((state.card !== 'phoneCode' && state.card !== 'secondFactorCode') || state.resendIn <= 0) {
        return same(state);
      }
      const resendIn = state.resendIn - 1;
      const next: StateOf<'phoneCode' | 'secondFactorCode'> = { ...state, resendIn };
      return [next, resendIn > 0 ? [{ type: 'startTimer', name: 'resend', ms: 1000 }] : []];
    }
    case 'success':
      return successElapsed(state);
  }
}

const handlers = (table: object) => table as Record<string, AnyHandler>;

/**
 * The flow's transition function. Pure: the same state, event and context always give the same result.
 * Unknown or out-of-place events leave the state as it is (same object, no effects).
 */
export function transition(state: FlowState, event: FlowEvent, ctx: FlowContext): TransitionResult {
  const { type } = event;
  if (Object.hasOwn(SYSTEM, type)) return handlers(SYSTEM)[type]!(state, event, ctx);
  // A person's event while a call is in flight would start a second call: ignore it (double submit).
  if (state.pending && type !== 'CANCEL') return same(state);
  return Object.hasOwn(UI, type) ? handlers(UI)[type]!(state, event, ctx) : same(state);
}
