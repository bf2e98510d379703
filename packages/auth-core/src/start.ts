/**
 * The start of the flow: its state before `START`, the helpers every transition builds on, and the
 * transition of `START` itself (the first card). The widget's first chunk holds this module; the rest of
 * the engine (`transition.ts`) loads after the first card.
 * @module
 */
import { type ActionParams, isUrlTenantAllowed, parseActionUrl } from './actionUrl.ts';
import { emailOptionOf, optionsFor, phoneOptionOf, type SignInOption, type WidgetConfig } from './config.ts';
import { BUSY_SPINNER_DELAY_MS } from './constants.ts';
import type { FlowEvent } from './events.ts';
import type { MessageKey } from './messages.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type { ProviderCapabilities } from './provider.ts';
import { safeRedirect } from './redirect.ts';
import type { CardState, FlowState } from './states.ts';

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

/** The state before `START`: a spinner. */
export function initialState(pageUrl = 'http://localhost/'): FlowState {
  return {
    card: 'spinner',
    seq: 0,
    pending: null,
    busy: false,
    error: null,
    tenantId: null,
    tenantChosen: false,
    upgradeUid: null,
    redirectUrl: null,
    shown: false,
    pageUrl,
  };
}

const PASSIVE = new Set<FlowState['card']>(['spinner', 'signedIn']);

/** Moves to another card: clears pending/busy/error, fires `uiShown` for the first interactive card. */
export function go(state: FlowState, card: CardState, effects: Effect[] = []): TransitionResult {
  const out: Effect[] = [...effects];
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

export const same = (state: FlowState): TransitionResult => [state, []];

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

export function begin(
  state: FlowState,
  ctx: FlowContext,
  url: string,
  currentUser: { uid: string; isAnonymous: boolean } | null,
  redirectPending: boolean,
  signOut: boolean,
): TransitionResult {
  let pageQuery: URLSearchParams;
  try {
    pageQuery = new URL(url).searchParams;
  } catch {
    pageQuery = new URLSearchParams();
  }
  const { config } = ctx;
  const action = parseActionUrl(url);
  const tenantIds = (config.tenants ?? []).map((t) => t.id);
  const foreign = action !== null && !isUrlTenantAllowed(action.tenantId, tenantIds);
  const started: FlowState = {
    ...state,
    pageUrl: url,
    upgradeUid: config.autoUpgradeAnonymousUsers && currentUser?.isAnonymous ? currentUser.uid : null,
    redirectUrl: safeRedirect(
      pageQuery.get('signInSuccessUrl'),
      config.allowedOrigins,
      config.signInSuccessUrl,
    ),
    // A tenant the configuration does not list is never taken from the URL (see isUrlTenantAllowed).
    tenantId: (foreign ? null : action?.tenantId) ?? state.tenantId,
  };
  if (signOut) return call(started, { kind: 'signOut' }, { card: 'spinner' });
  if (action !== null && foreign) return refuseForeignTenant(started, ctx, action);
  if (action?.mode === 'signIn' && action.oobCode !== null) {
    return call(
      started,
      { kind: 'checkEmailLink', url, upgradeUid: started.upgradeUid },
      { card: 'spinner' },
    );
  }
  if (action && action.mode !== 'signIn' && action.mode !== 'select') {
    return call(started, { kind: 'actionCode', url }, { card: 'spinner' });
  }
  if (redirectPending) return call(started, { kind: 'redirectResult' }, { card: 'spinner' });
  return firstCard(started, ctx);
}

/**
 * A URL naming a tenant the widget is not configured for, refused before any provider call: a link with
 * a code (an email link, an action code) shows the invalid-code error; a `select` link (or a sign-in
 * link without its code) shows the first card with "not enabled for this app".
 */
function refuseForeignTenant(state: FlowState, ctx: FlowContext, action: ActionParams): TransitionResult {
  const withCode = action.mode !== 'select' && (action.mode !== 'signIn' || action.oobCode !== null);
  if (!withCode) return firstCard(state, ctx, 'operation-not-allowed');
  return go(state, { card: 'recoverableError', message: 'invalid-action-code', retry: null });
}

/**
 * The part of `transition` that shows the first card: `START` only, `null` for any other event. A
 * runner whose engine is still loading uses it so that the first card needs none of the rest.
 */
export function startTransition(
  state: FlowState,
  event: FlowEvent,
  ctx: FlowContext,
): TransitionResult | null {
  if (event.type !== 'START') return null;
  if (state.card !== 'spinner' || state.pending || state.shown) return same(state);
  if (event.lazy) return call({ ...state, pageUrl: event.url }, { kind: 'loadProvider' });
  return begin(state, ctx, event.url, event.currentUser, event.redirectPending, event.signOut === true);
}
