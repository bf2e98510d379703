/**
 * Second factors (SMS and TOTP): the challenge a sign-in waits on after its first factor (see
 * `signInFirstFactor` in `users.ts`), the signed-in user's enrolments and their removal, the "second factor
 * added" email, and the admin's view of an authenticator app.
 * @module
 */
import type {
  ActionCodeInfo,
  ActionLinkSettings,
  CaptchaVerifier,
  SecondFactorChallenge,
  SecondFactorInfo,
  SecondFactorKind,
  SignInResult,
  TotpEnrollment,
} from '@doorway/auth-core';
import { type CodeMail, issueCode } from './actionCodes.ts';
import { checkPhoneNumber, sendSmsCode } from './phone.ts';
import { isTotpCode, newTotpSecret, totpCodeAt, totpUri } from './totp.ts';
import type { FakeSecondFactor, OutboxEmail } from './types.ts';
import {
  currentRow,
  enabledFactors,
  factorInfo,
  newPhoneFactor,
  newTotpFactor,
  requireUser,
  signInAs,
} from './users.ts';
import { fail, maskPhone } from './util.ts';
import {
  type FakeContext,
  nextId,
  type PendingSignIn,
  requireCapability,
  type Session,
  type UserRow,
  type World,
} from './world.ts';

type PhoneFactor = Extract<FakeSecondFactor, { kind: 'phone' }>;

/** Rejects `operation-not-allowed` unless the provider offers second factors of `kind` (or any). */
function requireFactorKind(world: World, kind?: SecondFactorKind): void {
  const kinds = world.capabilities.secondFactors ?? [];
  requireCapability(kind === undefined ? kinds.length > 0 : kinds.includes(kind));
}

/**
 * The id a challenge's `session` carries, or `null` when it is not one of the fake's (it may come back from
 * a cookie or a form, so nothing about it is trusted, not even that it is an object).
 */
function pendingIdOf(challenge: SecondFactorChallenge): string | null {
  const session: unknown = (challenge as Partial<SecondFactorChallenge> | null | undefined)?.session;
  if (typeof session !== 'object' || session === null || !('pendingId' in session)) return null;
  return typeof session.pendingId === 'string' ? session.pendingId : null;
}

// Forgets a pending sign-in and the codes asked for it.
function dropPending(world: World, pendingId: string): void {
  world.secondFactors.pending.delete(pendingId);
  for (const [id, challenge] of world.secondFactors.challenges) {
    if (challenge.pendingId === pendingId) world.secondFactors.challenges.delete(id);
  }
}

/** The live pending sign-in of `challenge` on `s` and its user, or `code-expired` (start over). */
function livePending(
  { world, config }: FakeContext,
  s: Session,
  challenge: SecondFactorChallenge,
): { pendingId: string; pending: PendingSignIn; row: UserRow } {
  const pendingId = pendingIdOf(challenge) ?? fail('code-expired');
  const pending = world.secondFactors.pending.get(pendingId);
  if (pending === undefined || pending.tenantId !== s.tenantId) fail('code-expired');
  const row = world.users.get(pending.uid);
  if (row === undefined || config.clock.now() >= pending.expiresAt) {
    dropPending(world, pendingId);
    fail('code-expired');
  }
  return { pendingId, pending, row };
}

/** One of the account's factors, or `code-expired` (the challenge no longer matches the account). */
function challengedFactor(world: World, row: UserRow, factorUid: string): FakeSecondFactor {
  return enabledFactors(world, row).find((f) => f.uid === factorUid) ?? fail('code-expired');
}

/** `secondFactors.startSignIn`: texts a code to a phone factor, or opens a TOTP factor's check. */
export function startSecondFactorSignIn(
  ctx: FakeContext,
  s: Session,
  challenge: SecondFactorChallenge,
  factorUid: string,
  verifier: CaptchaVerifier | undefined,
): { verificationId: string } {
  const { world } = ctx;
  requireFactorKind(world);
  const { pendingId, pending, row } = livePending(ctx, s, challenge);
  const factor = challengedFactor(world, row, factorUid);
  if (factor.kind === 'totp') {
    const verificationId = nextId(ctx, 'vid');
    const check = { pendingId, factorUid, code: null, expiresAt: pending.expiresAt };
    world.secondFactors.challenges.set(verificationId, check);
    return { verificationId };
  }
  // A server has no captcha to pass: only a verifier that is there can be unsolved.
  if (verifier !== undefined && !verifier.isSolved()) fail('captcha-check-failed');
  const { verificationId, code, expiresAt } = sendSmsCode(ctx, s, factor.phoneNumber);
  world.secondFactors.challenges.set(verificationId, { pendingId, factorUid, code, expiresAt });
  return { verificationId };
}

/** `secondFactors.finishSignIn`: the right code signs the pending sign-in in, as its first factor said. */
export function finishSecondFactorSignIn(
  ctx: FakeContext,
  s: Session,
  challenge: SecondFactorChallenge,
  verificationId: string,
  code: string,
): SignInResult {
  const { world, config } = ctx;
  requireFactorKind(world);
  const { pendingId, pending, row } = livePending(ctx, s, challenge);
  const asked = world.secondFactors.challenges.get(verificationId);
  if (asked === undefined || asked.pendingId !== pendingId) fail('code-expired');
  const now = config.clock.now();
  if (now >= asked.expiresAt) fail('code-expired');
  const factor = challengedFactor(world, row, asked.factorUid);
  const right = factor.kind === 'totp' ? isTotpCode(factor.secret, code, now) : asked.code === code;
  if (!right) fail('invalid-verification-code');
  dropPending(world, pendingId);
  return signInAs(s, row, pending.providerId, false, pending.credential);
}

/** `secondFactors.cancelSignIn`: forgets the pending sign-in (whatever the challenge holds). */
export function cancelSecondFactorSignIn({ world }: FakeContext, challenge: SecondFactorChallenge): void {
  const pendingId = pendingIdOf(challenge);
  if (pendingId !== null) dropPending(world, pendingId);
}

/** `secondFactors.list`: the signed-in user's factors, phone numbers in full. */
export function listSecondFactors({ world }: FakeContext, s: Session): SecondFactorInfo[] {
  requireFactorKind(world);
  return enabledFactors(world, currentRow(world, s)).map((factor) => factorInfo(factor, false));
}

/** `secondFactors.startPhoneEnrollment`: texts a code to the number to enrol. */
export function startPhoneEnrollment(
  ctx: FakeContext,
  s: Session,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): { verificationId: string } {
  const { world } = ctx;
  requireFactorKind(world, 'phone');
  const row = currentRow(world, s);
  const phone = checkPhoneNumber(ctx, phoneNumber);
  if (!verifier.isSolved()) fail('captcha-check-failed');
  if (row.secondFactors.some((f) => f.kind === 'phone' && f.phoneNumber === phone)) {
    fail('credential-already-in-use');
  }
  const { verificationId, code, expiresAt } = sendSmsCode(ctx, s, phone);
  world.secondFactors.enrollments.set(verificationId, {
    kind: 'phone',
    uid: row.uid,
    phoneNumber: phone,
    code,
    expiresAt,
  });
  return { verificationId };
}

/**
 * Emails the user a revertSecondFactorAddition link for a new phone factor ("a second factor was added to
 * your account"); `null` when the user has no email.
 */
function mailFactorAdded(
  ctx: FakeContext,
  tenantId: string | null,
  row: UserRow,
  factor: PhoneFactor,
  settings: ActionLinkSettings | undefined,
): OutboxEmail | null {
  const { email } = row;
  if (email === null) return null;
  const info: ActionCodeInfo = {
    operation: 'revertSecondFactorAddition',
    email,
    previousEmail: null,
    factor: maskPhone(factor.phoneNumber),
  };
  const mail: CodeMail = { kind: info.operation, to: email, uid: row.uid, info, factor: factor.uid };
  return issueCode(ctx, tenantId, mail, settings);
}

/** `secondFactors.finishPhoneEnrollment`: the right code enrols the number and emails the user about it. */
export function finishPhoneEnrollment(
  ctx: FakeContext,
  s: Session,
  verificationId: string,
  code: string,
  displayName: string | undefined,
): SecondFactorInfo {
  const { world, config } = ctx;
  requireFactorKind(world, 'phone');
  const row = currentRow(world, s);
  const enrolling = world.secondFactors.enrollments.get(verificationId);
  if (enrolling?.kind !== 'phone' || enrolling.uid !== row.uid) fail('code-expired');
  if (config.clock.now() >= enrolling.expiresAt) fail('code-expired');
  if (enrolling.code !== code) fail('invalid-verification-code');
  world.secondFactors.enrollments.delete(verificationId);
  const factor = newPhoneFactor(ctx, enrolling.phoneNumber, displayName);
  row.secondFactors.push(factor);
  mailFactorAdded(ctx, s.tenantId, row, factor, undefined);
  return factorInfo(factor, false);
}

/** `secondFactors.startTotpEnrollment`: a new secret and its `otpauth://` URI, for the signed-in user. */
export function startTotpEnrollment(ctx: FakeContext, s: Session): TotpEnrollment {
  const { world } = ctx;
  requireFactorKind(world, 'totp');
  const row = currentRow(world, s);
  const { enrollments } = world.secondFactors;
  // One enrolment in progress per user: a new one replaces it, as a new QR code would.
  for (const [id, e] of enrollments) if (e.kind === 'totp' && e.uid === row.uid) enrollments.delete(id);
  const secret = newTotpSecret(world.secondFactors.secretWords);
  const enrollmentId = world.ids('totp');
  enrollments.set(enrollmentId, { kind: 'totp', uid: row.uid, secret });
  const account = row.email ?? row.phoneNumber ?? row.uid;
  return { enrollmentId, secret, uri: totpUri(secret, account) };
}

/** `secondFactors.finishTotpEnrollment`: a code of the new secret (on the fake's clock) enrols it. */
export function finishTotpEnrollment(
  ctx: FakeContext,
  s: Session,
  enrollmentId: string,
  code: string,
  displayName: string | undefined,
): SecondFactorInfo {
  const { world, config } = ctx;
  requireFactorKind(world, 'totp');
  const row = currentRow(world, s);
  const enrolling = world.secondFactors.enrollments.get(enrollmentId);
  if (enrolling?.kind !== 'totp' || enrolling.uid !== row.uid) fail('code-expired');
  if (!isTotpCode(enrolling.secret, code, config.clock.now())) fail('invalid-verification-code');
  world.secondFactors.enrollments.delete(enrollmentId);
  const factor = newTotpFactor(ctx, enrolling.secret, displayName);
  row.secondFactors.push(factor);
  return factorInfo(factor, false);
}

/** `secondFactors.unenroll`: removes one of the signed-in user's factors (`generic` when it has no such one). */
export function unenrollSecondFactor({ world }: FakeContext, s: Session, factorUid: string): void {
  requireFactorKind(world);
  const row = currentRow(world, s);
  if (!row.secondFactors.some((f) => f.uid === factorUid)) fail('generic');
  row.secondFactors = row.secondFactors.filter((f) => f.uid !== factorUid);
}

/** The admin's `addSecondFactor`: enrols the phone and mails a revertSecondFactorAddition code. */
export function addSecondFactor(
  ctx: FakeContext,
  uid: string,
  phoneNumber: string,
  settings: ActionLinkSettings | undefined,
): OutboxEmail {
  const row = requireUser(ctx.world, uid);
  if (row.email === null) fail('invalid-email');
  const factor = newPhoneFactor(ctx, phoneNumber);
  row.secondFactors.push(factor);
  // Admin emails are issued from the main session (the code still belongs to its user's tenant).
  return mailFactorAdded(ctx, ctx.world.main.tenantId, row, factor, settings) ?? fail('invalid-email');
}

/** The admin's `totpCode`: what the user's authenticator app shows now (see `FakeBackend.totpCode`). */
export function currentTotpCode(ctx: FakeContext, uid: string, factorUid: string | undefined): string | null {
  const secret = authenticatorSecret(ctx.world, uid, factorUid);
  return secret === null ? null : totpCodeAt(secret, ctx.config.clock.now());
}

// The secret of TOTP factor `factorUid`, else of the enrolment in progress, else of the latest factor.
function authenticatorSecret(world: World, uid: string, factorUid: string | undefined): string | null {
  const factors = (world.users.get(uid)?.secondFactors ?? []).flatMap((f) => (f.kind === 'totp' ? [f] : []));
  if (factorUid !== undefined) return factors.find((f) => f.uid === factorUid)?.secret ?? null;
  for (const enrolling of world.secondFactors.enrollments.values()) {
    if (enrolling.kind === 'totp' && enrolling.uid === uid) return enrolling.secret;
  }
  return factors.at(-1)?.secret ?? null;
}
