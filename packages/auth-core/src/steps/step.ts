/**
 * What every step of the engine builds on: the moves a transition makes (`go` to a card, `call` the
 * provider, stay the `same`, back to the `firstCard`) and the shape of a step's tables. `start.ts` (the
 * first chunk's `START`) imports the moves from here, so this module holds nothing else that runs.
 * @module
 */
import { emailOptionOf, optionsFor, phoneOptionOf, type SignInOption, type WidgetConfig } from '../config.ts';
import { BUSY_SPINNER_DELAY_MS } from '../constants.ts';
import type { ErrorInfo } from '../errors.ts';
import type { FlowEvent, FlowEventType, UI_EVENT_TYPES } from '../events.ts';
import type { MessageKey } from '../messages.ts';
import type { Effect, ProviderOp, ProviderOpKind } from '../ops.ts';
import type { ProviderCapabilities } from '../provider.ts';
import type { CardName, CardState, FlowState, StateOf } from '../states.ts';

/** What a transition may read besides the state: the normalised config and the provider's capabilities. */
export interface FlowContext {
  config: WidgetConfig;
  capabilities: ProviderCapabilities;
}

/** What the runner resolves `loadProvider` with. */
export interface ProviderLoaded {
  currentUser: { uid: string; isAnonymous: boolean } | null;
  redirectPending: boolean;
  signOut: boolean;
}

/** A transition's result: the next state and the effects for the runner. */
export type TransitionResult = readonly [FlowState, readonly Effect[]];

const PASSIVE = new Set<FlowState['card']>(['spinner', 'signedIn']);

/** Moves to another card: clears pending/busy/error, fires `uiShown` for the first interactive card. */
export function go(state: FlowState, card: CardState, effects: Effect[] = []): TransitionResult {
  const out = effects.slice();
  if (state.pending) out.push({ type: 'cancelTimer', name: 'busy' });
  const shown = state.shown || !PASSIVE.has(card.card);
  if (shown && !state.shown) out.push({ type: 'uiShown' });
  const next: FlowState = {
    seq: state.seq,
    pending: null,
    busy: false,
    error: null,
    tenantId: state.tenantId,
    tenantChosen: state.tenantChosen,
    upgradeUid: state.upgradeUid,
    redirectUrl: state.redirectUrl,
    pageUrl: state.pageUrl,
    shown,
    ...card,
  };
  return [next, out];
}

/** Starts a provider call, staying on the current card (or showing `card` meanwhile). */
export function call(state: FlowState, op: ProviderOp, card?: CardState): TransitionResult {
  const id = state.seq + 1;
  const base: FlowState = card ? ({ ...state, ...card } as FlowState) : state;
  return [
    { ...base, seq: id, pending: { id, op }, busy: false, error: null },
    [
      { type: 'call', id, op },
      { type: 'startTimer', name: 'busy', ms: BUSY_SPINNER_DELAY_MS },
    ],
  ];
}

/** Stays: the same state (the same object), no effects. */
export function same(state: FlowState): TransitionResult {
  return [state, []];
}

export function optionsOf(state: FlowState, ctx: FlowContext): readonly SignInOption[] {
  return optionsFor(ctx.config, ctx.config.tenants ? state.tenantId : undefined);
}

/** The card a person starts on (or comes back to). */
export function firstCard(
  state: FlowState,
  ctx: FlowContext,
  error: MessageKey | null = null,
): TransitionResult {
  const { config } = ctx;
  const options = optionsOf(state, ctx);
  let card: CardState;
  if (
    config.tenants &&
    config.tenants.length > 1 &&
    config.displayMode === 'optionFirst' &&
    !state.tenantChosen
  ) {
    card = { card: 'providerChooser', chooseTenant: true };
  } else if (config.displayMode === 'identifierFirst' && emailOptionOf(options)) {
    card = { card: 'emailEntry', email: '' };
  } else if (options.length === 1 && options[0]?.provider === 'email') {
    card = { card: 'emailEntry', email: '' };
  } else if (options.length === 1 && options[0]?.provider === 'phone') {
    card = phoneEntryCard(options, '');
  } else {
    card = { card: 'providerChooser', chooseTenant: false };
  }
  const [next, effects] = go(state, card);
  return [error ? { ...next, error } : next, effects];
}

export function phoneEntryCard(options: readonly SignInOption[], phoneNumber: string): CardState {
  const phone = phoneOptionOf(options);
  return {
    card: 'phoneEntry',
    phoneNumber: phoneNumber || phone?.loginHint || '',
    country: phone?.defaultCountry ?? 'US',
  };
}

// The shape of a step's tables (types only). The dispatcher (`transition.ts`) merges every step's tables
// and checks that each event, op and timer has its handler, and that no two steps claim the same key.

/** The event types a person's actions produce. */
export type UiEventType = (typeof UI_EVENT_TYPES)[number];
/** One event type's handler. */
export type EventHandler<T extends FlowEventType> = (
  state: FlowState,
  event: Extract<FlowEvent, { type: T }>,
  ctx: FlowContext,
) => TransitionResult;
/** What a person's events do, one handler per event type. */
export type UiTable = { [T in UiEventType]: EventHandler<T> };
/** What the runner's (and the passkey autofill's) events do. */
export type SystemTable = { [T in Exclude<FlowEventType, UiEventType>]: EventHandler<T> };

/** The op of one kind, narrowed. */
export type OpOf<K extends ProviderOpKind> = Extract<ProviderOp, { kind: K }>;
/** One provider op: where its result leads, the shape that result must have, and where a failure leads. */
export interface OpCase<K extends ProviderOpKind> {
  resolved: (state: FlowState, ctx: FlowContext, op: OpOf<K>, result: unknown) => TransitionResult;
  /**
   * Whether a result has the shape the op promises; anything else is treated as a `generic` failure.
   * Without it, any result will do (the op's result is not read).
   */
  shape?: (result: unknown) => boolean;
  /**
   * Without it, a failure is an error line on the card (from the spinner: the recoverable error card,
   * with Retry when the error may pass): `failed` of `shared.ts`.
   */
  rejected?: (state: FlowState, ctx: FlowContext, op: OpOf<K>, error: ErrorInfo) => TransitionResult;
}
/** Every op's case. */
export type OpTable = { [K in ProviderOpKind]: OpCase<K> };

/** What the by-card events do on one card; a card without `cancel` goes back to the first card. */
export interface CardCase<C extends CardName> {
  continue?: (state: StateOf<C>, ctx: FlowContext) => TransitionResult;
  cancel?: (state: StateOf<C>, ctx: FlowContext) => TransitionResult;
  resend?: (state: StateOf<C>, ctx: FlowContext) => TransitionResult;
}
/** The cards' cases. */
export type CardTable = { [C in CardName]?: CardCase<C> };

/** One step of the flow: its cards, the events and ops it owns. */
export interface Step {
  ui?: Partial<UiTable>;
  events?: Partial<SystemTable>;
  ops?: Partial<OpTable>;
  cards?: CardTable;
}
