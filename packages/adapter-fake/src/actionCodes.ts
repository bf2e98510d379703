/**
 * Action codes: the emails that carry them (sign-in links, password resets, the admin's verification and
 * email-change emails; `secondFactors.ts` sends the second-factor one) and the operations that check, apply
 * and redeem them.
 * @module
 */
import { type ActionCodeInfo, type ActionLinkSettings, PASSWORD_MIN_LENGTH } from '@doorway/auth-core';
import type { FakeEmailKind, OutboxEmail } from './types.ts';
import { addProvider, byEmail, checkEmail, emailOf, freeEmail, requireUser } from './users.ts';
import { appendParams, fail, isContinueUrl } from './util.ts';
import type { CodeRow, FakeContext, Session, UserRow } from './world.ts';
import { nextId } from './world.ts';

/** What an action-code email says: its kind, recipient, user (if any) and what the code does. */
export interface CodeMail {
  kind: FakeEmailKind;
  to: string;
  uid: string | null;
  info: ActionCodeInfo;
  /** The enrolment id of the second factor a revertSecondFactorAddition code removes. */
  factor?: string;
}

/**
 * Stores a new code and "sends" its email: the link is the continue URL (or the action URL) with `mode`,
 * `oobCode`, `apiKey` and the owner's `tenantId`. The code belongs to its user's tenant, else `tenantId`.
 */
export function issueCode(
  ctx: FakeContext,
  tenantId: string | null,
  mail: CodeMail,
  settings: ActionLinkSettings | undefined,
): OutboxEmail {
  if (settings !== undefined && !isContinueUrl(settings.url)) fail('invalid-continue-uri');
  const { world, config } = ctx;
  const code = nextId(ctx, 'oob');
  const owner = mail.uid === null ? tenantId : (world.users.get(mail.uid)?.tenantId ?? tenantId);
  const now = config.clock.now();
  world.codes.set(code, {
    code,
    kind: mail.kind,
    tenantId: owner,
    uid: mail.uid,
    info: mail.info,
    factor: mail.factor ?? null,
    expiresAt: now + config.actionCodeTtl,
    used: false,
  });
  const params: Record<string, string> = { mode: mail.kind, oobCode: code, apiKey: 'fake' };
  if (owner !== null) params.tenantId = owner;
  const link = appendParams(settings?.url ?? config.actionUrl, params);
  const email: OutboxEmail = {
    to: mail.to,
    kind: mail.kind,
    link,
    oobCode: code,
    sentAt: now,
    tenantId: owner,
  };
  world.emails.push(email);
  return email;
}

/** A live code of the session's tenant (of one of `kinds`), or `invalid-action-code` / `expired-action-code`. */
export function lookupCode(
  { world, config }: FakeContext,
  s: Session,
  code: string,
  kinds?: readonly FakeEmailKind[],
): CodeRow {
  const row = world.codes.get(code);
  if (row === undefined || row.used || row.tenantId !== s.tenantId) fail('invalid-action-code');
  if (kinds !== undefined && !kinds.includes(row.kind)) fail('invalid-action-code');
  if (config.clock.now() >= row.expiresAt) fail('expired-action-code');
  if (row.uid !== null && !world.users.has(row.uid)) fail('invalid-action-code');
  return row;
}

function codeUser({ world }: FakeContext, row: CodeRow): UserRow {
  return (row.uid === null ? undefined : world.users.get(row.uid)) ?? fail('invalid-action-code');
}

/** `sendPasswordResetEmail`: under enumeration protection an unknown email resolves without sending. */
export function sendPasswordResetEmail(
  ctx: FakeContext,
  s: Session,
  email: string,
  settings: ActionLinkSettings | undefined,
): void {
  const address = checkEmail(email);
  if (settings !== undefined && !isContinueUrl(settings.url)) fail('invalid-continue-uri');
  const row = byEmail(ctx.world, s.tenantId, address);
  if (row === undefined) {
    if (ctx.world.faults.switches.enumerationProtection) return;
    fail('user-not-found');
  }
  const info: ActionCodeInfo = { operation: 'resetPassword', email: address, previousEmail: null };
  issueCode(ctx, s.tenantId, { kind: 'resetPassword', to: address, uid: row.uid, info }, settings);
}

/** `verifyPasswordResetCode`: the email of the code's user. */
export function verifyPasswordResetCode(ctx: FakeContext, s: Session, code: string): string {
  return emailOf(codeUser(ctx, lookupCode(ctx, s, code, ['resetPassword'])));
}

/** `confirmPasswordReset`: sets the password (which proves the email) and uses the code up. */
export function confirmPasswordReset(ctx: FakeContext, s: Session, code: string, newPassword: string): void {
  const row = lookupCode(ctx, s, code, ['resetPassword']);
  const user = codeUser(ctx, row);
  if (newPassword.length < PASSWORD_MIN_LENGTH) fail('weak-password');
  row.used = true;
  user.password = newPassword;
  user.emailVerified = true;
  addProvider(user, 'password');
}

/** `checkActionCode`: what a live code does, without using it. */
export function checkActionCode(ctx: FakeContext, s: Session, code: string): ActionCodeInfo {
  return { ...lookupCode(ctx, s, code).info };
}

const APPLIED_KINDS: readonly FakeEmailKind[] = [
  'verifyEmail',
  'recoverEmail',
  'verifyAndChangeEmail',
  'revertSecondFactorAddition',
];

/** `applyActionCode`: verifies the email, restores or changes it, or removes the second factor. */
export function applyActionCode(ctx: FakeContext, s: Session, code: string): void {
  const row = lookupCode(ctx, s, code, APPLIED_KINDS);
  const user = codeUser(ctx, row);
  switch (row.kind) {
    case 'verifyEmail':
      if (user.email !== row.info.email) fail('invalid-action-code');
      user.emailVerified = true;
      break;
    case 'recoverEmail':
    case 'verifyAndChangeEmail': {
      const target = row.info.email ?? fail('invalid-action-code');
      const old = user.email;
      user.email = freeEmail(ctx.world, target, user.tenantId, user);
      user.emailVerified = true;
      if (row.recoverable === true && old !== null) mailRecovery(ctx, s, user, old);
      break;
    }
    default:
      user.secondFactors = user.secondFactors.filter((f) => f.uid !== row.factor);
  }
  row.used = true;
}

// After the user's own email change: the old address may undo it.
function mailRecovery(ctx: FakeContext, s: Session, user: UserRow, old: string): void {
  const info: ActionCodeInfo = { operation: 'recoverEmail', email: old, previousEmail: user.email };
  issueCode(ctx, s.tenantId, { kind: 'recoverEmail', to: old, uid: user.uid, info }, undefined);
}

// Admin emails are issued from the main session (the code still belongs to its user's tenant).
function adminMail(ctx: FakeContext, mail: CodeMail, settings: ActionLinkSettings | undefined): OutboxEmail {
  return issueCode(ctx, ctx.world.main.tenantId, mail, settings);
}

/** The admin's `sendVerificationEmail` / `sendPasswordReset`: a code for the user's own address. */
export function mailUser(
  ctx: FakeContext,
  uid: string,
  kind: 'verifyEmail' | 'resetPassword',
  settings: ActionLinkSettings | undefined,
): OutboxEmail {
  const email = emailOf(requireUser(ctx.world, uid));
  const info: ActionCodeInfo = { operation: kind, email, previousEmail: null };
  return adminMail(ctx, { kind, to: email, uid, info }, settings);
}

// The user, its current address and the new one (checked and free in its tenant).
function emailChange(ctx: FakeContext, uid: string, newEmail: string) {
  const row = requireUser(ctx.world, uid);
  const old = emailOf(row);
  return { row, old, address: freeEmail(ctx.world, newEmail, row.tenantId, row) };
}

/** The admin's `changeEmail`: changes the address at once and mails a recoverEmail code to the old one. */
export function changeEmail(
  ctx: FakeContext,
  uid: string,
  newEmail: string,
  settings: ActionLinkSettings | undefined,
): OutboxEmail {
  const { row, old, address } = emailChange(ctx, uid, newEmail);
  row.email = address;
  row.emailVerified = false;
  const info: ActionCodeInfo = { operation: 'recoverEmail', email: old, previousEmail: address };
  return adminMail(ctx, { kind: 'recoverEmail', to: old, uid, info }, settings);
}

/** The admin's `verifyAndChangeEmail`: mails a code to the new address; applying it changes the email. */
export function verifyAndChangeEmail(
  ctx: FakeContext,
  uid: string,
  newEmail: string,
  settings: ActionLinkSettings | undefined,
): OutboxEmail {
  const { old, address } = emailChange(ctx, uid, newEmail);
  const info: ActionCodeInfo = { operation: 'verifyAndChangeEmail', email: address, previousEmail: old };
  return adminMail(ctx, { kind: 'verifyAndChangeEmail', to: address, uid, info }, settings);
}
