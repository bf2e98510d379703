/**
 * GoTrue's PKCE flow states: the challenge a request brings, and the flow state that waits for the
 * `/token?grant_type=pkce` exchange.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { validationFailed } from './errors.ts';
import { randomUUID } from './hash.ts';
import type { FlowState, UserRecord } from './types.ts';
import { str } from './util.ts';

/** How long a flow state may wait for its exchange. */
export const FLOW_STATE_EXPIRY_MS = 300_000;

/** A PKCE challenge (method lower-cased). */
export interface PkceChallenge {
  challenge: string;
  method: string;
}

/** The request's PKCE challenge, `null` when it has none, or GoTrue's validation_failed answer. */
export function validatePkce(body: Record<string, unknown>): PkceChallenge | null {
  const challenge = str(body.code_challenge);
  const method = str(body.code_challenge_method);
  if (challenge === '' && method === '') return null;
  if (challenge === '' || method === '') {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  // isValidCodeChallenge (pkce.go): RFC 7636's length and characters.
  if (challenge.length < 43 || challenge.length > 128) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw validationFailed(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (method.toLowerCase() !== 's256' && method.toLowerCase() !== 'plain') {
    throw validationFailed('Unsupported code_challenge_method, supported methods are: S256, plain');
  }
  return { challenge, method: method.toLowerCase() };
}

/** A new flow state, stored. */
export function newFlowState(
  ctx: DoubleContext,
  fields: Partial<FlowState> & { providerType: string; authMethod: string },
): FlowState {
  const state: FlowState = {
    id: randomUUID(),
    codeChallenge: '',
    codeChallengeMethod: '',
    authCode: randomUUID(),
    userId: null,
    referrer: ctx.config.siteUrl,
    linkingTargetId: null,
    createdAt: ctx.clock.now(),
    ...fields,
  };
  ctx.store.flowStates.set(state.id, state);
  return state;
}

/**
 * For a request with a PKCE challenge, the flow state of `user` that its emailed link completes (the same
 * name for provider type and method unless told).
 */
export function startEmailFlow(
  ctx: DoubleContext,
  pkce: PkceChallenge | null,
  user: UserRecord,
  providerType: string,
  authMethod = providerType,
): void {
  if (!pkce) return;
  newFlowState(ctx, {
    providerType,
    authMethod,
    codeChallenge: pkce.challenge,
    codeChallengeMethod: pkce.method,
    userId: user.id,
  });
}
