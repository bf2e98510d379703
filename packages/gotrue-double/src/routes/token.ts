/**
 * POST /token (token.go): the grant types `password`, `refresh_token`, `pkce` and `id_token` (with manual
 * linking), each answered with a session.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import {
  GoTrueDoubleError,
  manualLinkingDisabled,
  OAuthDoubleError,
  userBanned,
  validationFailed,
} from '../errors.ts';
import { sha256, toBase64Url } from '../hash.ts';
import { accountFromIdentity, linkIdentityToUser } from '../identities.ts';
import { verifyIdToken } from '../idp.ts';
import { limitRequest } from '../limits.ts';
import { FLOW_STATE_EXPIRY_MS } from '../pkce.ts';
import { json } from '../responses.ts';
import { authenticate, issueSession } from '../tokens.ts';
import type { UserRecord } from '../types.ts';
import { findByEmail, findByPhone, isBanned } from '../users.ts';
import { formatPhone, str } from '../util.ts';
import { checkCaptcha, readJson } from '../validate.ts';

/** The providers whose ID tokens GoTrue accepts without a custom OIDC configuration. */
const ID_TOKEN_PROVIDERS = ['google', 'apple', 'azure', 'facebook', 'kakao', 'keycloak'];

type Body = Record<string, unknown>;

function passwordGrant(ctx: DoubleContext, b: Body): Record<string, unknown> {
  checkCaptcha(ctx, b);
  const email = str(b.email);
  const phone = str(b.phone);
  if (email !== '' && phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided on login.');
  }
  let user: UserRecord | undefined;
  if (email !== '') user = findByEmail(ctx, email);
  else if (phone !== '') user = findByPhone(ctx, formatPhone(phone));
  else throw validationFailed('missing email or phone');
  const invalid = () => new GoTrueDoubleError(400, 'invalid_credentials', 'Invalid login credentials');
  if (!user || user.password === null) throw invalid();
  if (isBanned(ctx, user)) throw userBanned(400);
  if (user.password !== str(b.password)) throw invalid();
  if (email !== '' && user.emailConfirmedAt === null)
    throw new GoTrueDoubleError(400, 'email_not_confirmed', 'Email not confirmed');
  if (phone !== '' && user.phoneConfirmedAt === null)
    throw new GoTrueDoubleError(400, 'phone_not_confirmed', 'Phone not confirmed');
  return issueSession(ctx, user, 'password');
}

const refreshTokenNotFound = () =>
  new GoTrueDoubleError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

/**
 * The refresh grant (tokens/service.go): a used token is accepted again while it is the parent of the
 * session's active one (that one is handed back) or within SECURITY_REFRESH_TOKEN_REUSE_INTERVAL of its use;
 * later, the session's tokens are all revoked.
 */
function refreshGrant(ctx: DoubleContext, b: Body): Record<string, unknown> {
  const given = str(b.refresh_token);
  const record = ctx.store.refreshTokens.get(given);
  if (!record) throw refreshTokenNotFound();
  const session = ctx.store.sessions.get(record.sessionId);
  const user = session ? ctx.store.users.get(session.userId) : undefined;
  if (!session || !user) throw refreshTokenNotFound();
  if (isBanned(ctx, user))
    throw new GoTrueDoubleError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
  const now = ctx.clock.now();
  if (record.revoked) {
    const active = [...ctx.store.refreshTokens].find(([, r]) => r.sessionId === session.id && !r.revoked);
    if (active && active[1].parent === given) {
      return issueSession(ctx, user, session.amr, session.id, { reuse: active[0] });
    }
    if (now > (record.updatedAt ?? 0) + ctx.config.refreshTokenReuseIntervalMs) {
      for (const r of ctx.store.refreshTokens.values()) if (r.sessionId === session.id) r.revoked = true;
      throw new GoTrueDoubleError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
  } else {
    record.revoked = true;
    record.updatedAt = now;
  }
  return issueSession(ctx, user, session.amr, session.id, { parent: given });
}

const flowStateNotFound = () =>
  new GoTrueDoubleError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');

function pkceGrant(ctx: DoubleContext, b: Body): Record<string, unknown> {
  const authCode = str(b.auth_code);
  const verifier = str(b.code_verifier);
  if (authCode === '' || verifier === '') {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const flow = [...ctx.store.flowStates.values()].find((f) => f.authCode === authCode);
  if (!flow || flow.userId === null) throw flowStateNotFound();
  // FlowState.IsExpired: from the request that made it, but a magic link's from the click that issued the code.
  const from =
    flow.authMethod === 'magiclink' && flow.authCodeIssuedAt !== undefined
      ? flow.authCodeIssuedAt
      : flow.createdAt;
  if (ctx.clock.now() - from > FLOW_STATE_EXPIRY_MS) {
    throw new GoTrueDoubleError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const expected = flow.codeChallengeMethod === 's256' ? toBase64Url(sha256(verifier)) : verifier;
  if (expected !== flow.codeChallenge) {
    throw new GoTrueDoubleError(
      400,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
  const user = ctx.store.users.get(flow.userId);
  if (!user) throw flowStateNotFound();
  ctx.store.flowStates.delete(flow.id);
  return issueSession(ctx, user, flow.authMethod);
}

function idTokenGrant(ctx: DoubleContext, b: Body, request: Request): Record<string, unknown> {
  const idToken = str(b.id_token);
  const provider = str(b.provider);
  if (idToken === '') throw new OAuthDoubleError('invalid request', 'id_token required');
  if (provider === '')
    throw new OAuthDoubleError('invalid request', 'provider or client_id and issuer required');
  if (!ID_TOKEN_PROVIDERS.includes(provider)) {
    throw validationFailed(`Custom OIDC provider "${provider}" not allowed`);
  }
  if (!ctx.config.externalProviders.has(provider)) {
    throw new GoTrueDoubleError(
      400,
      'provider_disabled',
      `Provider (issuer "${ctx.idpUrl}/${provider}") is not enabled`,
    );
  }
  const identity = verifyIdToken(ctx, provider, idToken);
  if (!identity || identity.sub === '') throw new OAuthDoubleError('invalid request', 'Bad ID token');
  if (b.link_identity === true) {
    if (!ctx.config.manualLinking) throw manualLinkingDisabled();
    const { user, sessionId } = authenticate(ctx, request);
    return issueSession(ctx, linkIdentityToUser(ctx, user, provider, identity), 'oauth', sessionId);
  }
  return issueSession(ctx, accountFromIdentity(ctx, provider, identity), 'oauth');
}

const GRANTS = ['password', 'refresh_token', 'pkce', 'id_token'];

/** POST /token: an unknown grant type is refused before the rate limit counts the request. */
export async function token(ctx: DoubleContext, request: Request, q: URLSearchParams): Promise<Response> {
  const grant = q.get('grant_type') ?? '';
  if (!GRANTS.includes(grant)) {
    throw new GoTrueDoubleError(400, 'invalid_credentials', 'unsupported_grant_type');
  }
  limitRequest(ctx, request, 'token');
  const b = await readJson(request);
  switch (grant) {
    case 'password':
      return json(passwordGrant(ctx, b));
    case 'refresh_token':
      return json(refreshGrant(ctx, b));
    case 'pkce':
      return json(pkceGrant(ctx, b));
    default:
      return json(idTokenGrant(ctx, b, request));
  }
}
