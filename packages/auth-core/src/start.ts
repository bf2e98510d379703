/**
 * The start of the flow: its state before `START` and the transition of `START` itself (the first card),
 * on the moves of `steps/step.ts`. The widget's first chunk holds this module and that one; the rest of
 * the engine (`transition.ts` and its steps) loads after the first card.
 * @module
 */
import { type ActionParams, isUrlTenantAllowed, parseActionUrl } from './actionUrl.ts';
import type { FlowEvent } from './events.ts';
import { safeRedirect } from './redirect.ts';
import type { FlowState } from './states.ts';
import { call, type FlowContext, firstCard, go, same, type TransitionResult } from './steps/step.ts';

// What serverFlow.ts and the tests import from here; the moves themselves live in steps/step.ts.
export type { FlowContext, ProviderLoaded, TransitionResult } from './steps/step.ts';

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
