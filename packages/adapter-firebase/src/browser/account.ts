/**
 * The signed-in user's own account on the SDK: `updateProfile`, `verifyBeforeUpdateEmail` (the new address
 * confirms; Firebase then mails the old one a recoverEmail link that undoes it), `updatePassword` (after a
 * re-authentication with the current password, when given), the providers of `providerData` and `unlink`,
 * and `deleteUser`. Signing out other sessions revokes refresh tokens: an Admin SDK operation, not offered
 * here.
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
import {
  deleteUser,
  EmailAuthProvider,
  reauthenticateWithCredential,
  type User,
  unlink,
  updatePassword,
  updateProfile,
  verifyBeforeUpdateEmail,
} from 'firebase/auth';
import { resetLinkSettings, withAuthErrors } from '../shared/common.ts';
import { type BrowserContext, requireUser } from './context.ts';
import { toAuthUser } from './results.ts';

/** The account operations of the browser provider: all but `signOutOtherSessions` (Admin SDK only). */
export const FIREBASE_ACCOUNT_OPERATIONS: readonly AccountOperation[] = ACCOUNT_OPERATIONS.filter(
  (operation) => operation !== 'signOutOtherSessions',
);

/** `updateProfile`: the display name (`null` or blank: none; Firebase keeps an empty name as none). */
async function setDisplayName(ctx: BrowserContext, displayName: string | null): Promise<AuthUser> {
  const user = requireUser(ctx);
  const name = displayName?.trim() ?? '';
  await withAuthErrors('other', () => updateProfile(user, { displayName: name }));
  return toAuthUser(user);
}

/** `changeEmail`: `verifyBeforeUpdateEmail`; the address changes when the new one follows its link. */
async function changeEmail(
  ctx: BrowserContext,
  newEmail: string,
  settings: ActionLinkSettings | undefined,
): Promise<PendingEmailChange> {
  const user = requireUser(ctx);
  const email = requireEmail(newEmail).trim();
  await withAuthErrors('other', () => verifyBeforeUpdateEmail(user, email, resetLinkSettings(settings)));
  return { pendingEmail: email, confirmBy: 'new' };
}

/** `changePassword`: re-authenticates with `currentPassword` when given, then `updatePassword`. */
async function changePassword(
  ctx: BrowserContext,
  newPassword: string,
  currentPassword: string | undefined,
): Promise<void> {
  const user = requireUser(ctx);
  if (currentPassword !== undefined && user.email !== null) {
    const credential = EmailAuthProvider.credential(user.email, currentPassword);
    await withAuthErrors('password', () => reauthenticateWithCredential(user, credential));
  }
  await withAuthErrors('other', () => updatePassword(user, newPassword));
}

/** The user as Firebase has it now. */
async function reloaded(ctx: BrowserContext): Promise<User> {
  const user = requireUser(ctx);
  await withAuthErrors('other', () => user.reload());
  return user;
}

/** `unlink`: Firebase's provider id of the method (`emailLink` is `password` there), never the last one. */
async function unlinkMethod(ctx: BrowserContext, method: SignInMethod): Promise<AuthUser> {
  const user = await reloaded(ctx);
  const providerId = method === 'emailLink' ? 'password' : method;
  const linked = user.providerData.map((p) => p.providerId);
  if (!linked.includes(providerId)) throw new AuthError('operation-not-allowed');
  if (new Set(linked).size <= 1) throw new AuthError('last-sign-in-method');
  return toAuthUser(await withAuthErrors('other', () => unlink(user, providerId)));
}

/** `provider.account` of the browser provider. */
export function browserAccount(ctx: BrowserContext): AccountOperations {
  return {
    updateProfile: (profile) => setDisplayName(ctx, profile.displayName),
    changeEmail: (newEmail, settings) => changeEmail(ctx, newEmail, settings),
    changePassword: (newPassword, currentPassword) => changePassword(ctx, newPassword, currentPassword),
    listMethods: async () => toAuthUser(await reloaded(ctx)).providerIds.slice(),
    unlink: (method) => unlinkMethod(ctx, method),
    signOutOtherSessions: async () => {
      requireUser(ctx);
      throw new AuthError('operation-not-allowed');
    },
    deleteAccount: () => withAuthErrors('other', () => deleteUser(requireUser(ctx))),
  };
}
