/**
 * GoTrue's REST API as the server side calls it: one small function per endpoint, each one request with the
 * project's anon key (and the user's access token where GoTrue wants one), shaped as supabase-js 2.108 sends
 * it. No supabase-js here, so a server needs only `fetch`.
 *
 * Each function resolves GoTrue's answer as data, or its refusal as `{ ok: false, status, code }`, and
 * rejects only `network-request-failed` (no answer, or a 5xx: worth a retry, as supabase-js treats it).
 * Turning a refusal into a catalogue code is the caller's job (`mapSupabaseErrorCode`), because the same
 * GoTrue code means different things in different steps.
 * @module
 */
import { AuthError } from '@doorway/auth-core';
import type { User } from '@supabase/supabase-js';
import type { EmailTokenType } from '../shared/links.ts';

/** A `fetch` (the global one by default; the GoTrue double's `double.fetch` in tests). */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** Where GoTrue is and how to reach it. */
export interface GoTrueApi {
  /** `<project>/auth/v1`. */
  readonly authUrl: string;
  /** The project's anon (publishable) key. */
  readonly anonKey: string;
  readonly fetch: FetchLike;
}

/** GoTrue's answer: its JSON body, or its refusal (HTTP status and GoTrue error code, if any). */
export type GoTrueResult =
  | { ok: true; data: unknown }
  | { ok: false; status: number; code: string | undefined };

/** A session GoTrue issued: the access token and the user it is for. */
export interface GoTrueSession {
  accessToken: string;
  /** The session's refresh token (`null` when the answer has none). */
  refreshToken: string | null;
  user: User;
}

/** The API version whose errors carry `code` (supabase-js 2.108 asks for it too). */
const API_VERSION = '2024-01-01';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The GoTrue error code of an error body. */
function errorCode(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  // Versioned errors: `{ code, message }`; legacy: `{ code: <status>, error_code, msg }`; OAuth: `{ error }`.
  if (typeof body.code === 'string') return body.code;
  if (typeof body.error_code === 'string') return body.error_code;
  if (isObject(body.weak_password)) return 'weak_password';
  return typeof body.error === 'string' ? body.error : undefined;
}

/** `path` with `redirect_to` added, as supabase-js sends a redirect URL (a query value, never in the body). */
function withRedirect(path: string, redirectTo: string | undefined): string {
  if (redirectTo === undefined) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ redirect_to: redirectTo })}`;
}

/**
 * One GoTrue request. `token` is the bearer (a user's access token), else the anon key. Resolves the JSON
 * body or GoTrue's refusal; rejects `network-request-failed`.
 */
export async function goTrueRequest(
  api: GoTrueApi,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  token: string | null,
  body?: unknown,
): Promise<GoTrueResult> {
  let response: Response;
  try {
    response = await api.fetch(`${api.authUrl}${path}`, {
      method,
      headers: {
        apikey: api.anonKey,
        authorization: `Bearer ${token ?? api.anonKey}`,
        'x-supabase-api-version': API_VERSION,
        ...(body === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new AuthError('network-request-failed');
  }
  // A failing server or gateway is worth a retry, as supabase-js treats it.
  if (response.status >= 500) throw new AuthError('network-request-failed');
  const text = await response.text().catch(() => '');
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  return response.ok ? { ok: true, data } : { ok: false, status: response.status, code: errorCode(data) };
}

/**
 * The session in a GoTrue answer (`access_token` and `user`), or `null` when it has none (a sign-up waiting
 * for its confirmation email, the first link of a secure email change).
 */
export function sessionOf(data: unknown): GoTrueSession | null {
  if (!isObject(data) || typeof data.access_token !== 'string' || data.access_token === '') return null;
  const user = data.user;
  return isObject(user) && typeof user.id === 'string'
    ? {
        accessToken: data.access_token,
        refreshToken:
          typeof data.refresh_token === 'string' && data.refresh_token !== '' ? data.refresh_token : null,
        user: user as unknown as User,
      }
    : null;
}

/** The user in a GoTrue answer: its `user`, or the answer itself when it is a user (a sign-up without session). */
export function userOf(data: unknown): User | null {
  if (!isObject(data)) return null;
  const user = isObject(data.user) ? data.user : data;
  return typeof user.id === 'string' ? (user as unknown as User) : null;
}

/** `POST /token?grant_type=password`: email/password sign-in. */
export function passwordGrant(api: GoTrueApi, email: string, password: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/token?grant_type=password', null, { email, password });
}

/**
 * `POST /signup` with an email and password: creates the account, and signs it in unless "Confirm email" is
 * on (then GoTrue emails a confirmation link to `redirectTo`, or answers a decoy user for a taken email).
 */
export function signUpWithPassword(
  api: GoTrueApi,
  params: { email: string; password: string; data: Record<string, string>; redirectTo?: string },
): Promise<GoTrueResult> {
  const { email, password, data, redirectTo } = params;
  return goTrueRequest(api, 'POST', withRedirect('/signup', redirectTo), null, { email, password, data });
}

/** `POST /signup` with no credentials: a new anonymous user, signed in. */
export function signUpAnonymously(api: GoTrueApi): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/signup', null, { data: {} });
}

/**
 * `POST /otp` with an email: a magic link to `redirectTo`. With `createUser: false` GoTrue refuses an email
 * it does not know (`otp_disabled`); with `true` it creates the account and sends its confirmation link.
 */
export function sendEmailOtp(
  api: GoTrueApi,
  params: { email: string; createUser: boolean; redirectTo: string },
): Promise<GoTrueResult> {
  const { email, createUser, redirectTo } = params;
  return goTrueRequest(api, 'POST', withRedirect('/otp', redirectTo), null, {
    email,
    data: {},
    create_user: createUser,
  });
}

/** `POST /recover`: a password-reset link to `redirectTo` (GoTrue answers alike for unknown emails). */
export function sendRecovery(api: GoTrueApi, email: string, redirectTo?: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', withRedirect('/recover', redirectTo), null, { email });
}

/** `POST /verify` with an emailed token hash: uses the token and answers the session it opens. */
export function verifyTokenHash(
  api: GoTrueApi,
  type: EmailTokenType,
  tokenHash: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/verify', null, { type, token_hash: tokenHash });
}

/** `GET /user`: the user of an access token (GoTrue checks its signature, expiry and session). */
export function getUser(api: GoTrueApi, accessToken: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'GET', '/user', accessToken);
}

/** `PUT /user` with a new password, as the user of `accessToken`. */
export function updatePassword(api: GoTrueApi, accessToken: string, password: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'PUT', '/user', accessToken, { password });
}

/**
 * `PUT /user` with changes to the user of `accessToken`: `data` (merged into `user_metadata`, `null`
 * removing a key) and `email` (a confirmation link to `redirectTo`; with secure email change one to the
 * current address too). Answers the user, whose address changes only once the link (or both) is followed.
 */
export function updateUser(
  api: GoTrueApi,
  accessToken: string,
  changes: { data?: Record<string, string | null>; email?: string },
  redirectTo?: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'PUT', withRedirect('/user', redirectTo), accessToken, changes);
}

/** `DELETE /user/identities/{id}`: unlinks one of the user's identities (by its `identity_id`). */
export function deleteIdentity(
  api: GoTrueApi,
  accessToken: string,
  identityId: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'DELETE', `/user/identities/${encodeURIComponent(identityId)}`, accessToken);
}

/**
 * `DELETE /admin/users/{id}` with the project's service-role key (as `apikey` and bearer, as supabase-js's
 * admin client sends it): deletes the user, its identities, factors and sessions.
 */
export function adminDeleteUser(
  api: GoTrueApi,
  serviceRoleKey: string,
  userId: string,
): Promise<GoTrueResult> {
  const admin: GoTrueApi = { ...api, anonKey: serviceRoleKey };
  return goTrueRequest(admin, 'DELETE', `/admin/users/${encodeURIComponent(userId)}`, null, {
    should_soft_delete: false,
  });
}

/**
 * `POST /logout`: ends the session of `accessToken` (`local`), every other session of its user (`others`)
 * or all of them (`global`), refresh tokens included.
 */
export function logout(
  api: GoTrueApi,
  accessToken: string,
  scope: 'local' | 'global' | 'others',
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', `/logout?scope=${scope}`, accessToken);
}

/** Whether a logout did what was asked: it succeeded, or the session (or its user) was already gone. */
export function loggedOut(result: GoTrueResult): boolean {
  return result.ok || result.status === 401 || result.status === 403 || result.status === 404;
}

/** `POST /factors`: enrols a TOTP factor (answers its secret and URI) for the user of `accessToken`. */
export function enrollTotpFactor(
  api: GoTrueApi,
  accessToken: string,
  friendlyName: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/factors', accessToken, {
    friendly_name: friendlyName,
    factor_type: 'totp',
  });
}

/** `POST /factors/{id}/challenge`: a challenge of one of the user's factors (answers its `id`). */
export function challengeFactor(
  api: GoTrueApi,
  accessToken: string,
  factorId: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', `/factors/${encodeURIComponent(factorId)}/challenge`, accessToken, {});
}

/** `POST /factors/{id}/verify`: the code of a challenge; answers a session at aal2. */
export function verifyFactor(
  api: GoTrueApi,
  accessToken: string,
  params: { factorId: string; challengeId: string; code: string },
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', `/factors/${encodeURIComponent(params.factorId)}/verify`, accessToken, {
    challenge_id: params.challengeId,
    code: params.code,
  });
}

/** `DELETE /factors/{id}`: removes one of the user's factors (a verified one only at aal2). */
export function unenrollFactor(api: GoTrueApi, accessToken: string, factorId: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'DELETE', `/factors/${encodeURIComponent(factorId)}`, accessToken);
}

/** `GET /passkeys`: the passkeys of the user of `accessToken`, oldest first. */
export function listPasskeys(api: GoTrueApi, accessToken: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'GET', '/passkeys', accessToken);
}

/** `POST /passkeys/registration/options`: a registration's challenge (`challenge_id`) and creation options. */
export function passkeyRegistrationOptions(api: GoTrueApi, accessToken: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/passkeys/registration/options', accessToken, {});
}

/** `POST /passkeys/registration/verify`: the authenticator's credential for a challenge; answers the passkey. */
export function verifyPasskeyRegistration(
  api: GoTrueApi,
  accessToken: string,
  params: { challengeId: string; credential: unknown },
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'POST', '/passkeys/registration/verify', accessToken, {
    challenge_id: params.challengeId,
    credential: params.credential,
  });
}

/** `PATCH /passkeys/{id}`: renames one of the user's passkeys; answers the passkey. */
export function renamePasskey(
  api: GoTrueApi,
  accessToken: string,
  passkeyId: string,
  friendlyName: string,
): Promise<GoTrueResult> {
  return goTrueRequest(api, 'PATCH', `/passkeys/${encodeURIComponent(passkeyId)}`, accessToken, {
    friendly_name: friendlyName,
  });
}

/** `DELETE /passkeys/{id}`: removes one of the user's passkeys. */
export function deletePasskey(api: GoTrueApi, accessToken: string, passkeyId: string): Promise<GoTrueResult> {
  return goTrueRequest(api, 'DELETE', `/passkeys/${encodeURIComponent(passkeyId)}`, accessToken);
}
