/**
 * GET /authorize, GET /user/identities/authorize and GET /callback (external.go): the browser's way to the
 * fake IdP and back, ending in a session in the redirect's fragment or, in PKCE flows, an auth code.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, manualLinkingDisabled, OAuthDoubleError, validationFailed } from '../errors.ts';
import { accountFromIdentity, linkIdentityToUser } from '../identities.ts';
import { IDP_CLIENT_ID } from '../jwt.ts';
import { FLOW_STATE_EXPIRY_MS, newFlowState, validatePkce } from '../pkce.ts';
import { json, redirect, redirectWithError } from '../responses.ts';
import { authenticate, issueSession, sessionFragment } from '../tokens.ts';
import type { FlowState, IdpGrant, UserRecord } from '../types.ts';
import { referrer } from '../validate.ts';

/** The parameters GoTrue reads itself; the others go on to the IdP. */
const OWN_PARAMS = [
  'provider',
  'redirect_to',
  'scopes',
  'code_challenge',
  'code_challenge_method',
  'skip_http_redirect',
];

/** Where GET /authorize sends the browser: the IdP's authorize URL, with a new flow state as `state`. */
export function authorize(ctx: DoubleContext, q: URLSearchParams, linkingTarget: UserRecord | null): string {
  const provider = (q.get('provider') ?? '').toLowerCase();
  if (!ctx.config.externalProviders.has(provider)) {
    throw validationFailed(`Unsupported provider: provider ${provider} could not be found`);
  }
  const pkce = validatePkce({
    code_challenge: q.get('code_challenge') ?? '',
    code_challenge_method: q.get('code_challenge_method') ?? '',
  });
  const flow = newFlowState(ctx, {
    providerType: 'oauth',
    authMethod: 'oauth',
    codeChallenge: pkce?.challenge ?? '',
    codeChallengeMethod: pkce?.method ?? '',
    referrer: referrer(ctx, q.get('redirect_to')),
    linkingTargetId: linkingTarget?.id ?? null,
  });
  const idp = new URL(`${ctx.idpUrl}/${provider}/authorize`);
  idp.searchParams.set('client_id', IDP_CLIENT_ID);
  idp.searchParams.set('redirect_uri', `${ctx.authUrl}/callback`);
  idp.searchParams.set('response_type', 'code');
  idp.searchParams.set('state', flow.id);
  const scopes = q.get('scopes');
  if (scopes) idp.searchParams.set('scope', scopes);
  for (const [key, value] of q) if (!OWN_PARAMS.includes(key)) idp.searchParams.set(key, value);
  return idp.href;
}

/** GET /user/identities/authorize: {@link authorize} for linking to the signed-in user. */
export function linkAuthorize(ctx: DoubleContext, request: Request, q: URLSearchParams): Response {
  const { user } = authenticate(ctx, request);
  if (!ctx.config.manualLinking) throw manualLinkingDisabled();
  const target = authorize(ctx, q, user);
  return q.get('skip_http_redirect') === 'true' ? json({ url: target }) : redirect(target);
}

/** The flow state and IdP grant of a callback, or the error GoTrue redirects with. */
function callbackGrant(ctx: DoubleContext, q: URLSearchParams, flow: FlowState | undefined): IdpGrant {
  if ((q.get('state') ?? '') === '')
    throw new GoTrueDoubleError(400, 'bad_oauth_callback', 'OAuth state parameter missing');
  if (!flow) throw new GoTrueDoubleError(400, 'bad_oauth_state', 'OAuth state not found or expired');
  if (ctx.clock.now() - flow.createdAt > FLOW_STATE_EXPIRY_MS)
    throw new GoTrueDoubleError(400, 'bad_oauth_state', 'OAuth state has expired');
  const idpError = q.get('error');
  if (idpError) throw new OAuthDoubleError(idpError, q.get('error_description') ?? '');
  const grant = ctx.store.idpCodes.get(q.get('code') ?? '');
  if (!grant) throw new OAuthDoubleError('server_error', 'Error exchanging code with provider');
  ctx.store.idpCodes.delete(q.get('code') ?? '');
  return grant;
}

/** Where GET /callback sends the browser: back to the app with a session, an auth code or an error. */
export function callback(ctx: DoubleContext, q: URLSearchParams): string {
  const flow = ctx.store.flowStates.get(q.get('state') ?? '');
  const base = flow?.referrer ?? ctx.config.siteUrl;
  const pkce = (flow?.codeChallenge ?? '') !== '';
  try {
    const grant = callbackGrant(ctx, q, flow);
    const started = flow as FlowState;
    const target = started.linkingTargetId ? ctx.store.users.get(started.linkingTargetId) : undefined;
    const user = target
      ? linkIdentityToUser(ctx, target, grant.provider, grant.identity)
      : accountFromIdentity(ctx, grant.provider, grant.identity);
    if (pkce) {
      // The code is the one the flow state was made with; its 5 minutes still count from /authorize.
      started.userId = user.id;
      started.authCodeIssuedAt = ctx.clock.now();
      const url = new URL(base);
      url.searchParams.set('code', started.authCode);
      return url.href;
    }
    ctx.store.flowStates.delete(started.id);
    const tokens = issueSession(ctx, user, 'oauth');
    return `${base}#${sessionFragment(tokens, { provider_token: `idp-access-${grant.identity.sub}` })}`;
  } catch (e) {
    if (e instanceof GoTrueDoubleError || e instanceof OAuthDoubleError)
      return redirectWithError(base, e, true);
    throw e;
  }
}
