/**
 * The double's router, like GoTrue's: the API key check (the anon or the service-role key), then one
 * handler per route; in front of it the request log and the fault switches.
 * @module
 */
import { HttpResponse } from 'msw';
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError } from './errors.ts';
import { type LimiterName, limitRequest } from './limits.ts';
import { errorResponse, json, redirect } from './responses.ts';
import { adminDeleteUser } from './routes/admin.ts';
import { authorize, callback, linkAuthorize } from './routes/external.ts';
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from './routes/factors.ts';
import { deleteIdentity } from './routes/identities.ts';
import { logout } from './routes/logout.ts';
import { otpRoute } from './routes/otp.ts';
import {
  deletePasskey,
  listPasskeys,
  passkeyAuthenticationOptions,
  passkeyAuthenticationVerify,
  passkeyRegistrationOptions,
  passkeyRegistrationVerify,
  updatePasskey,
} from './routes/passkeys.ts';
import { recover } from './routes/recover.ts';
import { HEALTH, settingsJson } from './routes/settings.ts';
import { signup } from './routes/signup.ts';
import { token } from './routes/token.ts';
import { getUser, userUpdate } from './routes/user.ts';
import { verifyGet, verifyPost } from './routes/verify.ts';
import type { DoubleError } from './types.ts';

/** A route's handler; `params` holds the path's `{name}` segments. */
type Handler = (
  ctx: DoubleContext,
  request: Request,
  q: URLSearchParams,
  params: Readonly<Record<string, string>>,
) => Response | Promise<Response>;

/** `METHOD /path` to its handler; a `{name}` segment matches any one segment. */
const ROUTES: Record<string, Handler> = {
  'POST /signup': signup,
  'POST /otp': otpRoute,
  'POST /verify': (ctx, request) => verifyPost(ctx, request),
  'GET /verify': (ctx, _, q) => verifyGet(ctx, q),
  'POST /recover': recover,
  'POST /token': token,
  'GET /user': (ctx, request) => getUser(ctx, request),
  'PUT /user': userUpdate,
  'POST /logout': logout,
  'POST /factors': (ctx, request) => enrollFactor(ctx, request),
  'POST /factors/{factor_id}/challenge': (ctx, request, _, p) =>
    challengeFactor(ctx, request, p.factor_id ?? ''),
  'POST /factors/{factor_id}/verify': (ctx, request, _, p) => verifyFactor(ctx, request, p.factor_id ?? ''),
  'DELETE /factors/{factor_id}': (ctx, request, _, p) => unenrollFactor(ctx, request, p.factor_id ?? ''),
  'POST /passkeys/registration/options': (ctx, request) => passkeyRegistrationOptions(ctx, request),
  'POST /passkeys/registration/verify': (ctx, request) => passkeyRegistrationVerify(ctx, request),
  'POST /passkeys/authentication/options': (ctx, request) => passkeyAuthenticationOptions(ctx, request),
  'POST /passkeys/authentication/verify': (ctx, request) => passkeyAuthenticationVerify(ctx, request),
  'GET /passkeys': (ctx, request) => listPasskeys(ctx, request),
  'GET /passkeys/': (ctx, request) => listPasskeys(ctx, request),
  'PATCH /passkeys/{passkey_id}': (ctx, request, _, p) => updatePasskey(ctx, request, p.passkey_id ?? ''),
  'DELETE /passkeys/{passkey_id}': (ctx, request, _, p) => deletePasskey(ctx, request, p.passkey_id ?? ''),
  'GET /authorize': (ctx, _, q) => redirect(authorize(ctx, q, null)),
  'GET /user/identities/authorize': linkAuthorize,
  'DELETE /user/identities/{identity_id}': (ctx, request, _, p) =>
    deleteIdentity(ctx, request, p.identity_id ?? ''),
  'GET /callback': (ctx, _, q) => redirect(callback(ctx, q)),
  'DELETE /admin/users/{user_id}': (ctx, request, _, p) => adminDeleteUser(ctx, request, p.user_id ?? ''),
  'GET /settings': (ctx) => json(settingsJson(ctx)),
  'GET /health': () => json(HEALTH),
};

/**
 * The routes behind a per-client rate limit from the start (api.go's `limitHandler`); `/token`, `/signup`,
 * `PUT /user` and the factor routes count in their handlers, after the checks GoTrue makes first.
 */
const ROUTE_LIMITS: Record<string, LimiterName> = {
  'POST /otp': 'otp',
  'POST /recover': 'recover',
  'POST /verify': 'verify',
  'GET /verify': 'verify',
  'POST /passkeys/authentication/options': 'passkey',
};

/** The handler of `METHOD /path` and the values of its `{name}` segments, if a route matches. */
function match(key: string): { handler: Handler; params: Record<string, string> } | null {
  const handler = Object.hasOwn(ROUTES, key) ? ROUTES[key] : undefined;
  if (handler) return { handler, params: {} };
  const parts = key.split('/');
  for (const [pattern, candidate] of Object.entries(ROUTES)) {
    const want = pattern.split('/');
    if (!pattern.includes('{') || want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = want.every((w, i) => {
      const got = parts[i] ?? '';
      if (!w.startsWith('{')) return w === got;
      params[w.slice(1, -1)] = got;
      return got !== '';
    });
    if (fits) return { handler: candidate, params };
  }
  return null;
}

/** The routes a browser reaches without the anon key. */
const KEYLESS = ['/verify', '/callback', '/authorize'];

/** The path under `/auth/v1`. */
const authPath = (url: URL) => url.pathname.replace(/^\/auth\/v1/, '') || '/';

/** One request to `<projectUrl>/auth/v1/*`, like GoTrue's router. */
async function route(ctx: DoubleContext, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = authPath(url);
  const apiKey = request.headers.get('apikey');
  if (apiKey !== ctx.anonKey && apiKey !== ctx.serviceRoleKey && !KEYLESS.includes(path)) {
    return HttpResponse.json(
      { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
      { status: 401 },
    );
  }
  const key = `${request.method.toUpperCase()} ${path}`;
  const found = match(key);
  if (!found) throw new GoTrueDoubleError(404, 'not_found', 'Not found');
  const limiter = Object.hasOwn(ROUTE_LIMITS, key) ? ROUTE_LIMITS[key] : undefined;
  if (limiter) limitRequest(ctx, request, limiter);
  return found.handler(ctx, request, url.searchParams, found.params);
}

/** A request to the auth API: logged, then a fault, an injected failure or the route's answer. */
export async function handle(ctx: DoubleContext, request: Request): Promise<Response> {
  ctx.clock.tick();
  const path = authPath(new URL(request.url));
  const method = request.method.toUpperCase();
  ctx.requests.push({ method, path, at: ctx.clock.now() });
  if (ctx.faults.network) return HttpResponse.error();
  if (ctx.faults.serverError)
    return errorResponse(
      ctx.config,
      new GoTrueDoubleError(500, 'unexpected_failure', 'Unexpected failure'),
      request,
    );
  const failure = ctx.failures.findIndex((f) => f.route === '*' || f.route === `${method} ${path}`);
  if (failure !== -1) {
    const [{ error }] = ctx.failures.splice(failure, 1) as [{ route: string; error: DoubleError }];
    return errorResponse(
      ctx.config,
      new GoTrueDoubleError(error.status, error.code, error.message ?? 'Injected failure'),
      request,
    );
  }
  try {
    return await route(ctx, request);
  } catch (e) {
    return errorResponse(ctx.config, e, request);
  }
}
