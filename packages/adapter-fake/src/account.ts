/**
 * The signed-in user's own account: profile, email change (a verifyAndChangeEmail link to the new address;
 * once applied, a recoverEmail link to the old one), password, linked sign-in methods, signing out the
 * other sessions, and deleting the account.
 * @module
 */
import {
  type AccountOperation,
  type ActionCodeInfo,
  type ActionLinkSettings,
  type AuthUser,
  PASSWORD_MIN_LENGTH,
  type PendingEmailChange,
  type SignInMethod,
} from '@doorway/auth-core';
import { issueCode } from './actionCodes.ts';
import { addProvider, currentRow, deleteUser, freeEmail, signOutEverywhere, toAuthUser } from './users.ts';
import { fail } from './util.ts';
import { type FakeContext, requireCapability, type Session, type UserRow } from './world.ts';

/** The signed-in user, when the provider offers `operation` (else `operation-not-allowed`). */
function accountRow(ctx: FakeContext, s: Session, operation: AccountOperation): UserRow {
  requireCapability((ctx.world.capabilities.account ?? []).includes(operation));
  return currentRow(ctx.world, s);
}

/** `account.updateProfile`: sets (or, blank, clears) the display name. */
export function updateProfile(
  ctx: FakeContext,
  s: Session,
  profile: { displayName: string | null },
): AuthUser {
  const row = accountRow(ctx, s, 'updateProfile');
  const name = profile.displayName?.trim();
  row.displayName = name ? name : null;
  return toAuthUser(row);
}

/**
 * `account.changeEmail`: mails a verifyAndChangeEmail code to the new address; the address changes when the
 * code is applied, and the old address then gets a recoverEmail code to undo it.
 */
export function changeEmail(
  ctx: FakeContext,
  s: Session,
  newEmail: string,
  settings: ActionLinkSettings | undefined,
): PendingEmailChange {
  const row = accountRow(ctx, s, 'changeEmail');
  const address = freeEmail(ctx.world, newEmail, row.tenantId, row);
  const info: ActionCodeInfo = {
    operation: 'verifyAndChangeEmail',
    email: address,
    previousEmail: row.email,
  };
  const mail = { kind: 'verifyAndChangeEmail', to: address, uid: row.uid, info } as const;
  const { oobCode } = issueCode(ctx, s.tenantId, mail, settings);
  const code = ctx.world.codes.get(oobCode);
  if (code !== undefined) code.recoverable = row.email !== null;
  return { pendingEmail: address, confirmBy: 'new' };
}

/** `account.changePassword`: checks `currentPassword` (when the account has one), then sets the new one. */
export function changePassword(
  ctx: FakeContext,
  s: Session,
  newPassword: string,
  currentPassword: string | undefined,
): void {
  const row = accountRow(ctx, s, 'changePassword');
  if (currentPassword !== undefined && row.password !== null && row.password !== currentPassword)
    fail('wrong-password');
  if (newPassword.length < PASSWORD_MIN_LENGTH) fail('weak-password');
  row.password = newPassword;
  // A password signs in with the account's email: without one it adds no sign-in method.
  if (row.email !== null) addProvider(row, 'password');
}

/** `account.listMethods`. */
export function listMethods(ctx: FakeContext, s: Session): SignInMethod[] {
  return [...accountRow(ctx, s, 'listMethods').providerIds];
}

/** `account.unlink`: removes a linked method, never the last one (`last-sign-in-method`). */
export function unlink(ctx: FakeContext, s: Session, method: SignInMethod): AuthUser {
  const row = accountRow(ctx, s, 'unlink');
  if (!row.providerIds.includes(method)) fail('operation-not-allowed');
  if (row.providerIds.length <= 1) fail('last-sign-in-method');
  row.providerIds = row.providerIds.filter((id) => id !== method);
  if (method === 'password') row.password = null;
  else if (method === 'phone') row.phoneNumber = null;
  else row.federated = row.federated.filter((f) => f.providerId !== method);
  return toAuthUser(row);
}

/** `account.signOutOtherSessions`: every other session of the user is signed out; `s` stays. */
export function signOutOtherSessions(ctx: FakeContext, s: Session): void {
  const row = accountRow(ctx, s, 'signOutOtherSessions');
  signOutEverywhere(ctx.world, row.uid, s);
}

/** `account.deleteAccount`: removes the user (and its passkeys) and signs it out everywhere. */
export function deleteAccount(ctx: FakeContext, s: Session): void {
  const row = accountRow(ctx, s, 'deleteAccount');
  deleteUser(ctx.world, row.uid);
  s.currentUid = null;
}
