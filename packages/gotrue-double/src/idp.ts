/**
 * The fake OAuth / OIDC identity provider behind `/authorize` and ID tokens: at `idp.<project host>`, it
 * signs in the identity queued for it (or the `login_hint`'s), or is cancelled by the person.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { randomUUID } from './hash.ts';
import { IDP_CLIENT_ID, IDP_SECRET, signJwt, verifyJwt } from './jwt.ts';
import type { DoubleIdpIdentity, GoTrueDouble, IdpAction } from './types.ts';
import { sha224, str } from './util.ts';

/** An ID token of `provider` for `identity`, valid for an hour. */
export function issueIdToken(ctx: DoubleContext, provider: string, identity: DoubleIdpIdentity): string {
  const iat = Math.floor(ctx.clock.now() / 1000);
  return signJwt(
    {
      iss: `${ctx.idpUrl}/${provider}`,
      aud: IDP_CLIENT_ID,
      sub: identity.sub,
      email: identity.email,
      email_verified: identity.emailVerified ?? true,
      ...(identity.displayName ? { name: identity.displayName } : {}),
      iat,
      exp: iat + 3600,
    },
    IDP_SECRET,
  );
}

/** The identity in an ID token the fake IdP of `provider` issued and that has not expired, else `null`. */
export function verifyIdToken(ctx: DoubleContext, provider: string, token: string): DoubleIdpIdentity | null {
  const claims = verifyJwt(token, IDP_SECRET);
  if (!claims || claims.iss !== `${ctx.idpUrl}/${provider}` || claims.aud !== IDP_CLIENT_ID) return null;
  if (typeof claims.exp === 'number' && claims.exp * 1000 < ctx.clock.now()) return null;
  return {
    sub: str(claims.sub),
    email: str(claims.email),
    emailVerified: claims.email_verified !== false,
    ...(typeof claims.name === 'string' ? { displayName: claims.name } : {}),
  };
}

/** The IdP's authorize page: where it sends the browser back to (`redirect_uri` with a code or an error). */
export function idpAuthorize(ctx: DoubleContext, url: URL): string {
  const provider = url.pathname.split('/')[1] ?? '';
  const back = new URL(url.searchParams.get('redirect_uri') ?? `${ctx.authUrl}/callback`);
  back.searchParams.set('state', url.searchParams.get('state') ?? '');
  const next = ctx.store.idpQueue.shift();
  const hint = url.searchParams.get('login_hint');
  const action: IdpAction =
    next ??
    (hint
      ? { kind: 'identity', identity: { sub: `hint-${sha224(hint).slice(0, 12)}`, email: hint } }
      : { kind: 'cancel' });
  if (action.kind === 'cancel') {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'The user denied the request');
    return back.href;
  }
  const code = randomUUID();
  ctx.store.idpCodes.set(code, { provider, identity: action.identity });
  back.searchParams.set('code', code);
  return back.href;
}

/** What tests drive the fake IdP with. */
export function idpOf(ctx: DoubleContext): GoTrueDouble['idp'] {
  return {
    queue(identity: DoubleIdpIdentity) {
      ctx.store.idpQueue.push({ kind: 'identity', identity });
    },
    cancelNext() {
      ctx.store.idpQueue.push({ kind: 'cancel' });
    },
    idToken: (provider, identity) => issueIdToken(ctx, provider, identity),
  };
}
