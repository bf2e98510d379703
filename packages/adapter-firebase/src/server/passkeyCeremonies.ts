/**
 * The passkey server's operations, each over one {@link PasskeyServerContext}: registration and
 * authentication options and their verification by `@simplewebauthn/server`, and the user's passkeys
 * (list, remove) in their custom claims. Authentication ends with a firebase-admin custom token for the
 * passkey's user; the browser signs in with it (`signInWithCustomToken`).
 * @module
 */
import type { PasskeyInfo } from '@doorway/auth-core';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { UserRecord } from 'firebase-admin/auth';
import type { PasskeyAuthenticationStart, PasskeyRegistrationStart } from '../passkeyWire.ts';
import type { PasskeyChallenge, PasskeyChallengeStore } from './passkeyChallenges.ts';
import {
  claimsFit,
  decodePasskeys,
  passkeyInfo,
  passkeyName,
  type StoredPasskey,
  withPasskeys,
} from './passkeyClaims.ts';
import { type PasskeyAdminAuth, refuse, userRecord } from './passkeyHttp.ts';

/** The algorithms new passkeys may use, preferred first: ES256 and EdDSA (compact keys), then RS256. */
export const PASSKEY_ALGORITHMS = [-7, -8, -257];

/** The settings every operation reads. */
export interface PasskeyServerContext {
  readonly auth: PasskeyAdminAuth;
  readonly rpId: string;
  readonly rpName: string;
  readonly origins: string[];
  readonly challengeTtlMs: number;
  readonly store: PasskeyChallengeStore;
  readonly now: () => number;
  readonly claim: string;
}

/** The smallest passkey a registration can add (an ES256 key, a 16-byte id, no name): checked up front. */
const SMALLEST_PASSKEY: StoredPasskey = {
  id: 'A'.repeat(22),
  publicKey: 'A'.repeat(103),
  counter: 0,
  backedUp: false,
  backupEligible: false,
  createdAt: 1_800_000_000,
  lastUsedAt: 0,
  name: null,
};

/** A random id for a waiting challenge. */
function challengeId(): string {
  return isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(24)));
}

/** Keeps a ceremony's challenge; resolves the id its answer must come back with. */
async function openChallenge(
  ctx: PasskeyServerContext,
  kind: PasskeyChallenge['kind'],
  challenge: string,
  uid: string | null,
): Promise<string> {
  const id = challengeId();
  await ctx.store.put(id, { kind, challenge, uid, expiresAt: ctx.now() + ctx.challengeTtlMs });
  return id;
}

/** Takes the challenge of `id` (once); `session-expired` when it is unknown, used, expired or of another kind. */
async function takeChallenge(
  ctx: PasskeyServerContext,
  id: unknown,
  kind: PasskeyChallenge['kind'],
): Promise<PasskeyChallenge> {
  if (typeof id !== 'string' || id === '') refuse('session-expired');
  const waiting = await ctx.store.take(id);
  if (waiting === null || waiting.kind !== kind || ctx.now() >= waiting.expiresAt) refuse('session-expired');
  return waiting;
}

/** The claims-held passkeys of a user. */
function passkeysOf(ctx: PasskeyServerContext, user: UserRecord): StoredPasskey[] {
  return decodePasskeys(user.customClaims, ctx.claim);
}

/** Writes a user's passkeys into their claims, keeping their other claims. */
async function savePasskeys(
  ctx: PasskeyServerContext,
  user: UserRecord,
  passkeys: readonly StoredPasskey[],
): Promise<void> {
  await ctx.auth.setCustomUserClaims(user.uid, withPasskeys(user.customClaims, ctx.claim, passkeys));
}

/** The signed-in user's record; `requires-recent-login` when it is gone. */
async function signedInUser(ctx: PasskeyServerContext, uid: string): Promise<UserRecord> {
  return (await userRecord(ctx.auth, uid)) ?? refuse('requires-recent-login');
}

/** A passkey as large as it can grow by signing in: a 10-digit counter and a last use. */
function grown(passkey: StoredPasskey): StoredPasskey {
  return { ...passkey, counter: 0xffff_ffff, lastUsedAt: 9_999_999_999 };
}

/**
 * `passkey-limit` unless `passkeys` fit in the user's claims, each as
 * large as sign-ins can make it: a sign-in that updates the counter never meets the limit.
 */
function requireRoom(ctx: PasskeyServerContext, user: UserRecord, passkeys: readonly StoredPasskey[]): void {
  if (!claimsFit(withPasskeys(user.customClaims, ctx.claim, passkeys.map(grown)))) {
    refuse('passkey-limit');
  }
}

/** Registration options for the signed-in user `uid`: a discoverable credential, their others excluded. */
export async function registrationOptions(
  ctx: PasskeyServerContext,
  uid: string,
): Promise<PasskeyRegistrationStart> {
  const user = await signedInUser(ctx, uid);
  const existing = passkeysOf(ctx, user);
  requireRoom(ctx, user, [...existing, SMALLEST_PASSKEY]);
  const options = await generateRegistrationOptions({
    rpName: ctx.rpName,
    rpID: ctx.rpId,
    userID: new TextEncoder().encode(uid),
    userName: user.email ?? user.phoneNumber ?? uid,
    userDisplayName: user.displayName ?? '',
    attestationType: 'none',
    excludeCredentials: existing.map(({ id }) => ({ id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    timeout: ctx.challengeTtlMs,
  });
  return { challengeId: await openChallenge(ctx, 'registration', options.challenge, uid), options };
}

/** Whether a value looks like a WebAuthn JSON answer (the library checks the rest). */
function isCredentialJSON(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof value.id === 'string' &&
    'response' in value &&
    typeof value.response === 'object' &&
    value.response !== null
  );
}

/** Verifies a registration answered for `uid`'s challenge and keeps the new passkey in their claims. */
export async function registrationVerify(
  ctx: PasskeyServerContext,
  uid: string,
  body: Record<string, unknown>,
): Promise<PasskeyInfo> {
  const waiting = await takeChallenge(ctx, body.challengeId, 'registration');
  // Asked for another user (someone else signed in meanwhile).
  if (waiting.uid !== uid) refuse('requires-recent-login');
  if (!isCredentialJSON(body.response)) refuse('passkey-invalid');
  const verification = await verifyRegistrationResponse({
    response: body.response as RegistrationResponseJSON,
    expectedChallenge: waiting.challenge,
    expectedOrigin: ctx.origins,
    expectedRPID: ctx.rpId,
    requireUserVerification: false,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(() => refuse('passkey-invalid'));
  const info = verification.registrationInfo;
  if (!verification.verified || info === undefined) refuse('passkey-invalid');
  const user = await signedInUser(ctx, uid);
  const existing = passkeysOf(ctx, user);
  if (existing.some((p) => p.id === info.credential.id)) refuse('credential-already-in-use');
  const passkey: StoredPasskey = {
    id: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    backedUp: info.credentialBackedUp,
    backupEligible: info.credentialDeviceType === 'multiDevice',
    createdAt: Math.floor(ctx.now() / 1000),
    lastUsedAt: 0,
    name: passkeyName(body.name),
  };
  const passkeys = [...existing, passkey];
  requireRoom(ctx, user, passkeys);
  await savePasskeys(ctx, user, passkeys);
  return passkeyInfo(passkey);
}

/** Authentication options: any discoverable credential of the RP (no user named), user verification preferred. */
export async function authenticationOptions(ctx: PasskeyServerContext): Promise<PasskeyAuthenticationStart> {
  const options = await generateAuthenticationOptions({
    rpID: ctx.rpId,
    allowCredentials: [],
    userVerification: 'preferred',
    timeout: ctx.challengeTtlMs,
  });
  return { challengeId: await openChallenge(ctx, 'authentication', options.challenge, null), options };
}

/** The uid a user handle names (the UTF-8 uid set at registration), or `null`. */
function uidOfHandle(handle: unknown): string | null {
  if (typeof handle !== 'string' || handle === '' || !isoBase64URL.isBase64URL(handle)) return null;
  const uid = isoBase64URL.toUTF8String(handle);
  return uid === '' || uid.length > 128 ? null : uid;
}

/** The user and passkey an assertion names; `passkey-not-found` when either is gone. */
async function assertedPasskey(
  ctx: PasskeyServerContext,
  response: AuthenticationResponseJSON,
): Promise<{ user: UserRecord; passkeys: StoredPasskey[]; passkey: StoredPasskey }> {
  const uid = uidOfHandle(response.response.userHandle) ?? refuse('passkey-not-found');
  const user = (await userRecord(ctx.auth, uid)) ?? refuse('passkey-not-found');
  const passkeys = passkeysOf(ctx, user);
  const passkey = passkeys.find((p) => p.id === response.id) ?? refuse('passkey-not-found');
  return { user, passkeys, passkey };
}

/**
 * Verifies an assertion answered for its challenge (RP id, origin, signature, a counter that rose),
 * records the new counter, backup state and use, and resolves a custom token for the passkey's user.
 */
export async function authenticationVerify(
  ctx: PasskeyServerContext,
  body: Record<string, unknown>,
): Promise<string> {
  const waiting = await takeChallenge(ctx, body.challengeId, 'authentication');
  if (!isCredentialJSON(body.response)) refuse('passkey-invalid');
  const response = body.response as AuthenticationResponseJSON;
  const { user, passkeys, passkey } = await assertedPasskey(ctx, response);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: waiting.challenge,
    expectedOrigin: ctx.origins,
    expectedRPID: ctx.rpId,
    credential: {
      id: passkey.id,
      publicKey: isoBase64URL.toBuffer(passkey.publicKey),
      counter: passkey.counter,
    },
    requireUserVerification: false,
  }).catch(() => refuse('passkey-invalid'));
  if (!verification.verified) refuse('passkey-invalid');
  // Only a verified assertion learns that the account is disabled.
  if (user.disabled) refuse('user-disabled');
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const used: StoredPasskey = {
    ...passkey,
    counter: newCounter,
    backedUp: credentialBackedUp,
    lastUsedAt: Math.max(1, Math.floor(ctx.now() / 1000)),
  };
  await savePasskeys(
    ctx,
    user,
    passkeys.map((p) => (p.id === used.id ? used : p)),
  );
  return ctx.auth.createCustomToken(user.uid);
}

/** The signed-in user's passkeys, oldest first. */
export async function listPasskeys(ctx: PasskeyServerContext, uid: string): Promise<PasskeyInfo[]> {
  return passkeysOf(ctx, await signedInUser(ctx, uid)).map(passkeyInfo);
}

/** Removes one of the signed-in user's passkeys; `passkey-not-found` when they have none with `id`. */
export async function removePasskey(ctx: PasskeyServerContext, uid: string, id: string): Promise<void> {
  const user = await signedInUser(ctx, uid);
  const passkeys = passkeysOf(ctx, user);
  if (!passkeys.some((p) => p.id === id)) refuse('passkey-not-found');
  await savePasskeys(
    ctx,
    user,
    passkeys.filter((p) => p.id !== id),
  );
}
