/**
 * Users: lookups, creation (admin and sign-up), signing a user in on a session (or holding the sign-in for
 * its second factor), and the admin's changes. Emails are stored and compared as accounts are
 * (`accountEmail`: trimmed, lower-cased).
 * @module
 */
import {
  type AuthCredential,
  type AuthUser,
  accountEmail,
  isEmailAddress,
  requireEmail,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SignInResult,
} from '@doorway/auth-core';
import { SECOND_FACTOR_SIGN_IN_TTL_MS } from './config.ts';
import { normalizeTotpSecret } from './totp.ts';
import type {
  FakeFederatedLink,
  FakeSecondFactor,
  FakeSecondFactorInput,
  FakeUserInput,
  FakeUserPatch,
  FakeUserRecord,
} from './types.ts';
import { fail, maskPhone, normalizePhone } from './util.ts';
import { type FakeContext, nextId, type Session, sessionStamp, type UserRow, type World } from './world.ts';

/** Users of a tenant, oldest first. */
export function usersOf(world: World, tenant: string | null): UserRow[] {
  return [...world.users.values()].filter((u) => u.tenantId === tenant);
}

/** The user of a tenant with this email. */
export function byEmail(world: World, tenant: string | null, email: string): UserRow | undefined {
  const wanted = accountEmail(email);
  return usersOf(world, tenant).find((u) => u.email === wanted);
}

/** The user of a tenant with this (E.164) phone number. */
export function byPhone(world: World, tenant: string | null, phone: string): UserRow | undefined {
  return usersOf(world, tenant).find((u) => u.phoneNumber === phone);
}

/** The user of a tenant linked to this federated identity. */
export function byFederated(
  world: World,
  tenant: string | null,
  providerId: string,
  sub: string,
): UserRow | undefined {
  return usersOf(world, tenant).find((u) =>
    u.federated.some((f) => f.providerId === providerId && f.sub === sub),
  );
}

/** The user, or `user-not-found`. */
export function requireUser(world: World, uid: string): UserRow {
  return world.users.get(uid) ?? fail('user-not-found');
}

/** The address as an account stores it, or `invalid-email`. */
export function checkEmail(email: string): string {
  return accountEmail(requireEmail(email));
}

/** The user's email, or `invalid-email` when it has none. */
export function emailOf(row: UserRow): string {
  return row.email ?? fail('invalid-email');
}

/** `email` checked and free in `tenant` (or already `except`'s), or `email-already-in-use`. */
export function freeEmail(world: World, email: string, tenant: string | null, except: UserRow): string {
  const address = checkEmail(email);
  const owner = byEmail(world, tenant, address);
  if (owner !== undefined && owner !== except) fail('email-already-in-use');
  return address;
}

/** Adds a sign-in method to a user; any sign-in method makes an anonymous user permanent. */
export function addProvider(row: UserRow, providerId: string): void {
  if (!row.providerIds.includes(providerId)) row.providerIds.push(providerId);
  row.isAnonymous = false;
}

function isLinkList(
  value: FakeFederatedLink | readonly FakeFederatedLink[],
): value is readonly FakeFederatedLink[] {
  return Array.isArray(value);
}

function federatedOf(input: FakeUserInput): FakeFederatedLink[] {
  const { federated } = input;
  if (federated === undefined) return [];
  // `Array.isArray` does not narrow a readonly array out of a union.
  return isLinkList(federated) ? [...federated] : [federated];
}

function providerIdsOf(input: FakeUserInput, phone: string | null, federated: FakeFederatedLink[]): string[] {
  const providerIds: string[] = [];
  if (input.password !== undefined) providerIds.push('password');
  if (input.emailLink === true) providerIds.push('emailLink');
  if (phone !== null) providerIds.push('phone');
  for (const f of federated) if (!providerIds.includes(f.providerId)) providerIds.push(f.providerId);
  return providerIds;
}

// Refuses an input whose email, phone or federated identity another user of the tenant holds.
function checkNewUser(world: World, input: FakeUserInput, tenant: string | null) {
  const email = input.email === undefined ? null : accountEmail(input.email);
  if (email !== null && !isEmailAddress(email)) fail('invalid-email');
  if (email !== null && byEmail(world, tenant, email)) fail('email-already-in-use');
  const phone = input.phoneNumber === undefined ? null : normalizePhone(input.phoneNumber);
  if (input.phoneNumber !== undefined && phone === null) fail('invalid-phone-number');
  if (phone !== null && byPhone(world, tenant, phone)) fail('credential-already-in-use');
  const federated = federatedOf(input);
  for (const f of federated)
    if (byFederated(world, tenant, f.providerId, f.sub)) fail('credential-already-in-use');
  return { email, phone, federated };
}

type PhoneFactor = Extract<FakeSecondFactor, { kind: 'phone' }>;
type TotpFactor = Extract<FakeSecondFactor, { kind: 'totp' }>;

// What every new factor has: its enrolment id (`mfa-1`, …), name and time.
function factorBase(ctx: FakeContext, displayName: string | undefined) {
  const name = displayName?.trim();
  return { uid: ctx.world.ids('mfa'), displayName: name ? name : null, enrolledAt: ctx.config.clock.now() };
}

/** A new phone factor (not yet enrolled on anyone), or `invalid-phone-number`. */
export function newPhoneFactor(ctx: FakeContext, phoneNumber: string, displayName?: string): PhoneFactor {
  const phone = normalizePhone(phoneNumber) ?? fail('invalid-phone-number');
  return { ...factorBase(ctx, displayName), kind: 'phone', phoneNumber: phone };
}

/** A new TOTP factor (not yet enrolled on anyone); throws a `TypeError` when the secret is not base32. */
export function newTotpFactor(ctx: FakeContext, secret: string, displayName?: string): TotpFactor {
  const base32 = normalizeTotpSecret(secret);
  if (base32 === null) throw new TypeError('secondFactors: a TOTP secret must be base32 (A–Z, 2–7)');
  return { ...factorBase(ctx, displayName), kind: 'totp', secret: base32 };
}

function newSecondFactor(ctx: FakeContext, input: FakeSecondFactorInput): FakeSecondFactor {
  return input.kind === 'phone'
    ? newPhoneFactor(ctx, input.phoneNumber, input.displayName)
    : newTotpFactor(ctx, input.secret, input.displayName);
}

/** Creates a user in `tenant` (the admin way: `signUpDisabled` does not apply). */
export function insertUser(ctx: FakeContext, input: FakeUserInput, tenant: string | null): UserRow {
  const { email, phone, federated } = checkNewUser(ctx.world, input, tenant);
  // Checked before the user exists, so a bad factor leaves nothing behind.
  const secondFactors = (input.secondFactors ?? []).map((factor) => newSecondFactor(ctx, factor));
  const row: UserRow = {
    uid: nextId(ctx, 'uid'),
    tenantId: tenant,
    email,
    password: input.password ?? null,
    displayName: input.displayName ?? null,
    phoneNumber: phone,
    emailVerified: input.emailVerified ?? false,
    isAnonymous: input.isAnonymous ?? false,
    disabled: input.disabled ?? false,
    providerIds: providerIdsOf(input, phone, federated),
    federated: federated.map((f) => ({ providerId: f.providerId, sub: f.sub })),
    secondFactors,
    createdAt: ctx.config.clock.now(),
  };
  ctx.world.users.set(row.uid, row);
  return row;
}

/** Client-side account creation: subject to `signUpDisabled` (the admin's createUser is not). */
export function signUp(ctx: FakeContext, input: FakeUserInput, tenant: string | null): UserRow {
  if (ctx.world.faults.switches.signUpDisabled) fail('sign-up-disabled');
  return insertUser(ctx, input, tenant);
}

/** Creates the users of the `users` option, in their own tenants. */
export function seedUsers(ctx: FakeContext): void {
  for (const input of ctx.config.options.users ?? []) insertUser(ctx, input, input.tenantId ?? null);
}

/** What a client sees of a user. */
export function toAuthUser(row: UserRow): AuthUser {
  return {
    uid: row.uid,
    email: row.email,
    displayName: row.displayName,
    phoneNumber: row.phoneNumber,
    emailVerified: row.emailVerified,
    isAnonymous: row.isAnonymous,
    providerIds: [...row.providerIds],
    tenantId: row.tenantId,
  };
}

/** A copy of the stored user, for the admin API. */
export function copyUser(row: UserRow): FakeUserRecord {
  return {
    ...row,
    providerIds: [...row.providerIds],
    federated: row.federated.map((f) => ({ ...f })),
    secondFactors: row.secondFactors.map((factor) => ({ ...factor })),
  };
}

/** Signs `row` in on session `s` (unless disabled) and returns the result. */
export function signInAs(
  s: Session,
  row: UserRow,
  providerId: string,
  isNewUser: boolean,
  credential?: AuthCredential,
): SignInResult {
  if (row.disabled) fail('user-disabled');
  s.currentUid = row.uid;
  s.signedInAt = sessionStamp();
  const result: SignInResult = { user: toAuthUser(row), isNewUser, providerId };
  if (credential !== undefined) result.credential = credential;
  return result;
}

/** The user's second factors of the kinds the provider offers (`capabilities.secondFactors`). */
export function enabledFactors(world: World, row: UserRow): FakeSecondFactor[] {
  const kinds = world.capabilities.secondFactors ?? [];
  return row.secondFactors.filter((factor) => kinds.includes(factor.kind));
}

/** A factor as the provider interface shows it: to a challenge, with the phone number masked. */
export function factorInfo(factor: FakeSecondFactor, masked: boolean): SecondFactorInfo {
  const phone = factor.kind === 'phone' ? factor.phoneNumber : null;
  return {
    uid: factor.uid,
    kind: factor.kind,
    displayName: factor.displayName,
    phoneNumber: phone !== null && masked ? maskPhone(phone) : phone,
    enrolledAt: factor.enrolledAt,
  };
}

/**
 * Ends a right first factor for an existing account: signs `row` in on `s`, or, when it has second
 * factors, keeps the sign-in pending in the world and rejects `second-factor-required` with the challenge
 * (its `session` is `{ pendingId }`), leaving the session as it was.
 */
export function signInFirstFactor(
  { world, config }: FakeContext,
  s: Session,
  row: UserRow,
  providerId: string,
  credential?: AuthCredential,
): SignInResult {
  if (row.disabled) fail('user-disabled');
  const factors = enabledFactors(world, row);
  if (factors.length === 0) return signInAs(s, row, providerId, false, credential);
  const now = config.clock.now();
  const { pending } = world.secondFactors;
  for (const [id, waiting] of pending) if (now >= waiting.expiresAt) pending.delete(id);
  const pendingId = world.ids('pending');
  const expiresAt = now + SECOND_FACTOR_SIGN_IN_TTL_MS;
  pending.set(pendingId, { uid: row.uid, tenantId: s.tenantId, providerId, credential, expiresAt });
  const challenge: SecondFactorChallenge = {
    factors: factors.map((factor) => factorInfo(factor, true)),
    session: { pendingId },
  };
  return fail('second-factor-required', { challenge });
}

/**
 * The user signed in on `s`, if any: a session the user signed out of everywhere since (or whose user was
 * deleted) is signed out.
 */
export function signedInRow(world: World, s: Session): UserRow | undefined {
  const row = s.currentUid === null ? undefined : world.users.get(s.currentUid);
  if (row !== undefined && s.signedInAt >= (world.signedOutBefore.get(row.uid) ?? 0)) return row;
  s.currentUid = null;
  return undefined;
}

/** Signs the user out of every session but `keep` (none: all). */
export function signOutEverywhere(world: World, uid: string, keep?: Session): void {
  world.signedOutBefore.set(uid, sessionStamp());
  if (keep !== undefined) keep.signedInAt = sessionStamp();
}

/** The user signed in on `s`, or `requires-recent-login` (what linking needs). */
export function currentRow(world: World, s: Session): UserRow {
  return signedInRow(world, s) ?? fail('requires-recent-login');
}

/** The admin's `updateUser`: changes the given fields; emails and phones are checked as on creation. */
export function updateUser(world: World, uid: string, patch: FakeUserPatch): void {
  const row = requireUser(world, uid);
  if (patch.email !== undefined)
    row.email = patch.email === null ? null : freeEmail(world, patch.email, row.tenantId, row);
  if (patch.phoneNumber !== undefined) {
    row.phoneNumber =
      patch.phoneNumber === null ? null : (normalizePhone(patch.phoneNumber) ?? fail('invalid-phone-number'));
  }
  if (patch.password !== undefined) {
    row.password = patch.password;
    if (patch.password !== null) addProvider(row, 'password');
  }
  if (patch.displayName !== undefined) row.displayName = patch.displayName;
  if (patch.disabled !== undefined) row.disabled = patch.disabled;
  if (patch.emailVerified !== undefined) row.emailVerified = patch.emailVerified;
}

/** The admin's `deleteUser`: removes the user and its passkeys, and signs it out of the main session. */
export function deleteUser(world: World, uid: string): void {
  world.users.delete(uid);
  for (const [id, passkey] of world.passkeys.credentials) {
    if (passkey.uid === uid) world.passkeys.credentials.delete(id);
  }
  if (world.main.currentUid === uid) world.main.currentUid = null;
  signOutEverywhere(world, uid);
}
