/**
 * The signed-in user's own account in the browser: `updateUser` for the display name, the address (a
 * confirmation link to the new address, and with secure email change one to the current address too) and
 * the password; the identities for the linked methods and unlinking; `signOut({ scope: 'others' })`.
 * Deleting an account needs the service key: the browser provider does not offer it.
 * @module
 */
import {
  type AccountOperations,
  type ActionLinkSettings,
  AuthError,
  type AuthUser,
  type PendingEmailChange,
  requireEmail,
  type SignInMethod,
} from '@doorway/auth-core';
import type { User, UserIdentity } from '@supabase/supabase-js';
import { toAuthError } from '../shared/errors.ts';
import { actionRedirectUrl } from '../shared/links.ts';
import { displayNameData, identityProvider } from '../shared/user.ts';
import { captchaToken, type ProviderContext, userOf } from './context.ts';

/** The signed-in user, or `requires-recent-login`. */
function me(ctx: ProviderContext): AuthUser {
  if (!(ctx.capabilities.account ?? []).length) throw new AuthError('operation-not-allowed');
  return ctx.current ?? fail('requires-recent-login');
}

function fail(code: 'requires-recent-login' | 'operation-not-allowed' | 'last-sign-in-method'): never {
  throw new AuthError(code);
}

/** Records the user GoTrue answered with and returns it as Doorway's. */
function updated(ctx: ProviderContext, user: User): AuthUser {
  ctx.current = userOf(ctx, user);
  return ctx.current;
}

/** `updateProfile`: `user_metadata.full_name` (cleared: the names an IdP gave too). */
async function updateProfile(ctx: ProviderContext, displayName: string | null): Promise<AuthUser> {
  me(ctx);
  const { data: answer, error } = await ctx.auth.updateUser({ data: displayNameData(displayName) });
  if (error) throw toAuthError(error, 'update');
  return updated(ctx, answer.user);
}

/** `changeEmail`: `updateUser({ email })`; the address changes when its link (or both links) are followed. */
async function changeEmail(
  ctx: ProviderContext,
  newEmail: string,
  settings: ActionLinkSettings | undefined,
): Promise<PendingEmailChange> {
  const current = me(ctx);
  const email = requireEmail(newEmail).trim().toLowerCase();
  const url = settings?.url ?? ctx.actionUrl;
  const { data, error } = await ctx.auth.updateUser(
    { email },
    url ? { emailRedirectTo: actionRedirectUrl(url, 'verifyAndChangeEmail') } : {},
  );
  if (error) throw toAuthError(error, 'update', { email });
  updated(ctx, data.user);
  const both = (ctx.settings.secureEmailChange ?? true) && current.email !== null;
  return { pendingEmail: email, confirmBy: both ? 'both' : 'new' };
}

/**
 * `changePassword`: with `currentPassword`, a password sign-in checks it first (a fresh session replaces
 * this one); then `updateUser({ password })`, which ends the user's other sessions.
 */
async function changePassword(
  ctx: ProviderContext,
  newPassword: string,
  currentPassword: string | undefined,
): Promise<void> {
  const current = me(ctx);
  if (currentPassword !== undefined) {
    const who = current.email ? { email: current.email } : { phone: current.phoneNumber ?? '' };
    const options = { captchaToken: captchaToken(ctx) };
    const { error } = await ctx.auth.signInWithPassword({ ...who, password: currentPassword, options });
    if (error) throw toAuthError(error, 'password');
  }
  const { data, error } = await ctx.auth.updateUser({ password: newPassword });
  if (error) throw toAuthError(error, 'update');
  updated(ctx, data.user);
}

/** The user fresh from GoTrue. */
async function freshUser(ctx: ProviderContext): Promise<User> {
  me(ctx);
  const { data, error } = await ctx.auth.getUser();
  if (error) throw toAuthError(error);
  return data.user;
}

/** The Supabase identity behind a Doorway sign-in method. */
function identityFor(identities: readonly UserIdentity[], method: SignInMethod): UserIdentity | undefined {
  const provider = identityProvider(method);
  return identities.find((identity) => identity.provider === provider);
}

/**
 * `unlink`: `unlinkIdentity` (GoTrue's `DELETE /user/identities/{id}`, which needs manual linking on). The
 * `email` identity serves both `password` and `emailLink`: unlinking either removes both.
 */
async function unlink(ctx: ProviderContext, method: SignInMethod): Promise<AuthUser> {
  const identities = (await freshUser(ctx)).identities ?? [];
  const identity = identityFor(identities, method) ?? fail('operation-not-allowed');
  if (identities.length <= 1) fail('last-sign-in-method');
  const { error } = await ctx.auth.unlinkIdentity(identity);
  if (error) throw toAuthError(error, 'account');
  return updated(ctx, await freshUser(ctx));
}

/** `signOutOtherSessions`: GoTrue's `POST /logout?scope=others`; this session stays. */
async function signOutOtherSessions(ctx: ProviderContext): Promise<void> {
  me(ctx);
  const { error } = await ctx.auth.signOut({ scope: 'others' });
  if (error) throw toAuthError(error);
}

/** `provider.account` of the browser provider (everything but `deleteAccount`, which needs the service key). */
export function browserAccount(ctx: ProviderContext): AccountOperations {
  return {
    updateProfile: (profile) => updateProfile(ctx, profile.displayName),
    changeEmail: (newEmail, settings) => changeEmail(ctx, newEmail, settings),
    changePassword: (newPassword, currentPassword) => changePassword(ctx, newPassword, currentPassword),
    listMethods: async () => updated(ctx, await freshUser(ctx)).providerIds.slice(),
    unlink: (method) => unlink(ctx, method),
    signOutOtherSessions: () => signOutOtherSessions(ctx),
    deleteAccount: async () => fail('operation-not-allowed'),
  };
}
