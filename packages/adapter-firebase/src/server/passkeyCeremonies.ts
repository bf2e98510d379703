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
import type { PasskeyAuthenticationStart, PasskeyRegistrationStart } from '../shared/passkeyWire.ts';
import type { PasskeyChallenge, PasskeyChallengeStore } from './passkeyChallenges.ts';
import {
  claimsFit,
  decodePasskeys,
  passkeyInfo,
  passkeyName,
  type StoredPasskey,
  withPasskeys,
} from './passkeyClaims.ts';
import { type Bearer, type PasskeyAdminAuth, refuse, userRecord } from './passkeyHttp.ts';

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
  /** How recent the sign-in of a registration's ID token must be (its `auth_time`), in ms. */
  readonly recentSignInMs: number;
  /** Whether removing a passkey revokes every session of its user. */
  readonly endSessionsOnRemoval: boolean;
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

/**
 * Changes a user's passkeys and writes them, from a read of their claims made right before the write
 * (issue 24): `change` gets the user's record and passkeys as they are now, so what another write did
 * since this operation began (a passkey removed, a claim an admin set) is kept, not undone by a stale copy.
 * `requires-recent-login` when the user is gone.
 */
async function updatePasskeys(
  ctx: PasskeyServerContext,
  uid: string,
  change: (user: UserRecord, passkeys: StoredPasskey[]) => StoredPasskey[],
): Promise<void> {
  const user = await signedInUser(ctx, uid);
  const passkeys = change(user, passkeysOf(ctx, user));
  await ctx.auth.setCustomUserClaims(uid, withPasskeys(user.customClaims, ctx.claim, passkeys));
}

/** The signed-in user's record; `requires-recent-login` when it is gone. */
async function signedInUser(ctx: PasskeyServerContext, uid: string): Promise<UserRecord> {
  return (await userRecord(ctx.auth, uid)) ?? refuse('requires-recent-login');
}

/**
 * `requires-recent-login` unless the bearer's sign-in (`auth_time`) was made within
 * `recentSignInMs` (issue 24): a passkey is a way in that outlives any session, so adding one asks for a
 * sign-in made just now, not for whatever session a stolen cookie or token stands for.
 */
function requireRecentSignIn(ctx: PasskeyServerContext, bearer: Bearer): void {
  if (ctx.now() - bearer.authTime * 1000 > ctx.recentSignInMs) refuse('requires-recent-login');
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

/**
 * Registration options for the signed-in user of `bearer`, whose sign-in must be recent: a discoverable
 * credential that verifies its user, their other passkeys excluded.
 */
export async function registrationOptions(
  ctx: PasskeyServerContext,
  bearer: Bearer,
): Promise<PasskeyRegistrationStart> {
  requireRecentSignIn(ctx, bearer);
  const { uid } = bearer;
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
    // A passkey verifies its user (biometrics or a PIN): with the device, two factors in one step, so a
    // passkey sign-in stands beside a password and a second factor rather than below them.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
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

/**
 * Verifies a registration answered for the bearer's challenge (their sign-in still recent, the user
 * verified by the authenticator) and keeps the new passkey in their claims.
 */
export async function registrationVerify(
  ctx: PasskeyServerContext,
  bearer: Bearer,
  body: Record<string, unknown>,
): Promise<PasskeyInfo> {
  const { uid } = bearer;
  const waiting = await takeChallenge(ctx, body.challengeId, 'registration');
  // Asked for another user (someone else signed in meanwhile).
  if (waiting.uid !== uid) refuse('requires-recent-login');
  requireRecentSignIn(ctx, bearer);
  if (!isCredentialJSON(body.response)) refuse('passkey-invalid');
  const verification = await verifyRegistrationResponse({
    response: body.response as RegistrationResponseJSON,
    expectedChallenge: waiting.challenge,
    expectedOrigin: ctx.origins,
    expectedRPID: ctx.rpId,
    requireUserVerification: true,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(() => refuse('passkey-invalid'));
  const info = verification.registrationInfo;
  if (!verification.verified || info === undefined) refuse('passkey-invalid');
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
  await updatePasskeys(ctx, uid, (user, existing) => {
    if (existing.some((p) => p.id === passkey.id)) refuse('credential-already-in-use');
    const passkeys = [...existing, passkey];
    requireRoom(ctx, user, passkeys);
    return passkeys;
  });
  return passkeyInfo(passkey);
}

/** Authentication options: any discoverable credential of the RP (no user named), user verification required. */
export async function authenticationOptions(ctx: PasskeyServerContext): Promise<PasskeyAuthenticationStart> {
  const options = await generateAuthenticationOptions({
    rpID: ctx.rpId,
    allowCredentials: [],
    userVerification: 'required',
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
): Promise<{ user: UserRecord; passkey: StoredPasskey }> {
  const uid = uidOfHandle(response.response.userHandle) ?? refuse('passkey-not-found');
  const user = (await userRecord(ctx.auth, uid)) ?? refuse('passkey-not-found');
  const passkey = passkeysOf(ctx, user).find((p) => p.id === response.id) ?? refuse('passkey-not-found');
  return { user, passkey };
}

/**
 * Verifies an assertion answered for its challenge (RP id, origin, signature, a counter that rose, the
 * user verified), records the new counter, backup state and use, and resolves a custom token for the
 * passkey's user. The record is written from a fresh read, changing this passkey's use only: a passkey
 * removed meanwhile stays removed (and signs nobody in), another write's claims are kept (issue 24).
 */
export async function authenticationVerify(
  ctx: PasskeyServerContext,
  body: Record<string, unknown>,
): Promise<string> {
  const waiting = await takeChallenge(ctx, body.challengeId, 'authentication');
  if (!isCredentialJSON(body.response)) refuse('passkey-invalid');
  const response = body.response as AuthenticationResponseJSON;
  const { user, passkey } = await assertedPasskey(ctx, response);
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
    requireUserVerification: true,
  }).catch(() => refuse('passkey-invalid'));
  if (!verification.verified) refuse('passkey-invalid');
  // Only a verified assertion learns that the account is disabled.
  if (user.disabled) refuse('user-disabled');
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const lastUsedAt = Math.max(1, Math.floor(ctx.now() / 1000));
  await updatePasskeys(ctx, user.uid, (_, passkeys) => {
    const now = passkeys.find((p) => p.id === passkey.id) ?? refuse('passkey-not-found');
    const used = {
      ...now,
      counter: Math.max(now.counter, newCounter),
      backedUp: credentialBackedUp,
      lastUsedAt,
    };
    return passkeys.map((p) => (p.id === used.id ? used : p));
  });
  return ctx.auth.createCustomToken(user.uid);
}

/** The signed-in user's passkeys, oldest first. */
export async function listPasskeys(ctx: PasskeyServerContext, uid: string): Promise<PasskeyInfo[]> {
  return passkeysOf(ctx, await signedInUser(ctx, uid)).map(passkeyInfo);
}

/**
 * Removes one of the signed-in user's passkeys (`passkey-not-found` when they have none with `id`), then
 * (unless `endSessionsOnRemoval` is off) ends every session of the user (issue 24): whoever signed in with that passkey, or holds a session
 * stolen with it, signs in again. Firebase keeps a session signed in when its sign-in falls in the second
 * of the revocation (`auth_time < validSince`, whole seconds), so the revocation waits for the second
 * after the bearer's sign-in (at most a second; the session cookie's sign-in is never later).
 */
export async function removePasskey(ctx: PasskeyServerContext, bearer: Bearer, id: string): Promise<void> {
  await updatePasskeys(ctx, bearer.uid, (_, passkeys) => {
    if (!passkeys.some((p) => p.id === id)) refuse('passkey-not-found');
    return passkeys.filter((p) => p.id !== id);
  });
  if (!ctx.endSessionsOnRemoval) return;
  const wait = Math.min(1000, (bearer.authTime + 1) * 1000 - Date.now());
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await ctx.auth.revokeRefreshTokens(bearer.uid);
}
