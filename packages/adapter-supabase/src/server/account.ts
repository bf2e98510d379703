/**
 * The account page's operations on the server ({@link AccountOperations} of
 * `SupabaseServer.accountProvider`), over GoTrue REST with the session's access token:
 * - **Display name**: `PUT /user` with `data.full_name` (cleared: the names an IdP gave too), as the browser
 *   provider sets it.
 * - **Email**: `PUT /user` with the new address; GoTrue emails a confirmation link to it (token-hash links,
 *   Doorway's templates, to the action route) and, with secure email change on, one to the current address
 *   too. The address changes once the link (or both) is followed; `confirmBy` says which the project wants.
 * - **Password**: a current password is checked by a password grant first (the session it opens is ended at
 *   once), then `PUT /user` with the new one. GoTrue ends the user's other sessions and keeps this one, so the
 *   host's session token does not change.
 * - **Methods**: `GET /user`'s identities; unlinking is `DELETE /user/identities/{identity_id}` (manual
 *   linking must be on). The `email` identity stands for both `password` and `emailLink`.
 * - **Other sessions**: `POST /logout?scope=others`; this session and its token stay.
 * - **Deleting the account**: `DELETE /admin/users/{id}` with the project's service-role key (only when the
 *   server has one: otherwise `capabilities.account` leaves `deleteAccount` out). GoTrue ends every session.
 * @module
 */
import {
  ACCOUNT_OPERATIONS,
  type AccountOperation,
  type AccountOperations,
  type ActionLinkSettings,
  AuthError,
  type AuthUser,
  type PendingEmailChange,
  requireEmail,
  type SignInMethod,
} from '@doorway/auth-core';
import type { User, UserIdentity } from '@supabase/supabase-js';
import { requireUrl } from '../shared/input.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { displayNameData, identityProvider, toAuthUser } from '../shared/user.ts';
import { type FormContext, refusal } from './formContext.ts';
import {
  adminDeleteUser,
  deleteIdentity,
  getUser,
  goTrueRequest,
  logout,
  updatePassword,
  updateUser,
  userOf,
} from './rest.ts';

/** What the server's account operations need beyond the request's session. */
export interface ServerAccountSettings {
  /** The project's service-role key: `deleteAccount` is offered only with it. */
  serviceRoleKey?: string;
}

/** The operations `capabilities.account` lists: all, `deleteAccount` only with the service-role key. */
export function serverAccountOperations(settings: ServerAccountSettings): readonly AccountOperation[] {
  return Object.freeze(
    ACCOUNT_OPERATIONS.filter((operation) => operation !== 'deleteAccount' || !!settings.serviceRoleKey),
  );
}

/** The request's session, or `requires-recent-login`. */
function session(ctx: FormContext): { user: AuthUser; accessToken: string } {
  if (ctx.current === null) throw new AuthError('requires-recent-login');
  return ctx.current;
}

/** Records the user GoTrue answered with (the session's token stays) and returns it as Doorway's. */
function updated(ctx: FormContext, user: User): AuthUser {
  const { accessToken } = session(ctx);
  const next = toAuthUser(user, { emailLink: true });
  ctx.current = { user: next, accessToken };
  return next;
}

/** The user of the session, fresh from GoTrue (`GET /user`). */
async function freshUser(ctx: FormContext): Promise<User> {
  const result = await getUser(ctx.api, session(ctx).accessToken);
  if (!result.ok) throw refusal(result, 'other');
  return userOf(result.data) ?? fail('generic');
}

function fail(code: 'generic' | 'operation-not-allowed' | 'last-sign-in-method' | 'wrong-password'): never {
  throw new AuthError(code);
}

/** `updateProfile`: `user_metadata.full_name` (cleared: `name` and `display_name` too). */
async function updateProfile(ctx: FormContext, displayName: string | null): Promise<AuthUser> {
  const result = await updateUser(ctx.api, session(ctx).accessToken, { data: displayNameData(displayName) });
  if (!result.ok) throw refusal(result, 'update');
  return updated(ctx, userOf(result.data) ?? fail('generic'));
}

/** `changeEmail`: the address changes when its link (with secure email change: both links) is followed. */
async function changeEmail(
  ctx: FormContext,
  newEmail: string,
  linkSettings: ActionLinkSettings | undefined,
): Promise<PendingEmailChange> {
  const current = session(ctx);
  const email = requireEmail(newEmail).trim().toLowerCase();
  const base = linkSettings?.url ?? ctx.settings.actionUrl;
  const redirectTo =
    base === undefined ? undefined : actionRedirectUrl(requireUrl(base), 'verifyAndChangeEmail');
  const result = await updateUser(ctx.api, current.accessToken, { email }, redirectTo);
  if (!result.ok) throw refusal(result, 'update', { email });
  updated(ctx, userOf(result.data) ?? fail('generic'));
  const both = (ctx.settings.secureEmailChange ?? true) && current.user.email !== null;
  return { pendingEmail: email, confirmBy: both ? 'both' : 'new' };
}

/**
 * Checks the user's current password with a password grant (by email, else phone), ending the session the
 * grant opens. Rejects `wrong-password`, and what the grant refuses (`too-many-requests`, …).
 */
async function checkPassword(ctx: FormContext, user: AuthUser, password: string): Promise<void> {
  const who = user.email ? { email: user.email } : user.phoneNumber ? { phone: user.phoneNumber } : null;
  if (who === null) fail('wrong-password');
  const result = await goTrueRequest(ctx.api, 'POST', '/token?grant_type=password', null, {
    ...who,
    password,
  });
  if (!result.ok) throw refusal(result, 'password');
  const data = result.data as { access_token?: unknown } | null;
  if (typeof data?.access_token === 'string') {
    await logout(ctx.api, data.access_token, 'local').catch(() => undefined);
  }
}

/** `changePassword`: GoTrue ends the user's other sessions; this one (and its token) stays. */
async function changePassword(
  ctx: FormContext,
  newPassword: string,
  currentPassword: string | undefined,
): Promise<void> {
  const current = session(ctx);
  if (currentPassword !== undefined) await checkPassword(ctx, current.user, currentPassword);
  const result = await updatePassword(ctx.api, current.accessToken, newPassword);
  if (!result.ok) throw refusal(result, 'update');
  updated(ctx, userOf(result.data) ?? fail('generic'));
}

/** `unlink`: never the last identity (`last-sign-in-method`), nor one the user does not have. */
async function unlink(ctx: FormContext, method: SignInMethod): Promise<AuthUser> {
  const identities: readonly UserIdentity[] = (await freshUser(ctx)).identities ?? [];
  const provider = identityProvider(method);
  const identity = identities.find((candidate) => candidate.provider === provider);
  if (identity === undefined) fail('operation-not-allowed');
  if (identities.length <= 1) fail('last-sign-in-method');
  const result = await deleteIdentity(ctx.api, session(ctx).accessToken, identity.identity_id);
  if (!result.ok) throw refusal(result, 'account');
  return updated(ctx, await freshUser(ctx));
}

/** `signOutOtherSessions`: `POST /logout?scope=others`. */
async function signOutOtherSessions(ctx: FormContext): Promise<void> {
  const result = await logout(ctx.api, session(ctx).accessToken, 'others');
  if (!result.ok) throw refusal(result, 'other');
}

/**
 * `deleteAccount` with the service-role key; an account already gone counts as deleted. A refusal of the
 * key (a wrong or missing service-role key on the server) is `generic`: nothing the user can fix.
 */
async function deleteAccount(ctx: FormContext, serviceRoleKey: string | undefined): Promise<void> {
  const { user } = session(ctx);
  if (!serviceRoleKey) fail('operation-not-allowed');
  const result = await adminDeleteUser(ctx.api, serviceRoleKey, user.uid);
  if (!result.ok && result.status !== 404) fail('generic');
  ctx.current = null;
}

/** `provider.account` of a server provider: the operations run as the request's session. */
export function serverAccount(ctx: FormContext, settings: ServerAccountSettings): AccountOperations {
  return {
    updateProfile: (profile) => updateProfile(ctx, profile.displayName),
    changeEmail: (newEmail, linkSettings) => changeEmail(ctx, newEmail, linkSettings),
    changePassword: (newPassword, currentPassword) => changePassword(ctx, newPassword, currentPassword),
    listMethods: async () => updated(ctx, await freshUser(ctx)).providerIds.slice(),
    unlink: (method) => unlink(ctx, method),
    signOutOtherSessions: () => signOutOtherSessions(ctx),
    deleteAccount: () => deleteAccount(ctx, settings.serviceRoleKey),
  };
}
