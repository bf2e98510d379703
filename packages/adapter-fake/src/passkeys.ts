/**
 * Passkeys: sign-in with a discoverable WebAuthn credential, and the signed-in user's passkeys (add, list,
 * remove). The fake is the relying party: options, attestation and assertion checks are
 * `@simplewebauthn/server`'s (loaded on first use), the ceremony is the injected `WebAuthnClient`'s.
 * Challenges are single-use, bound to their ceremony and session, and expire on the fake's clock. Nothing
 * here logs credential material.
 * @module
 */
import {
  AuthError,
  type PasskeyInfo,
  passkeyCeremonyCode,
  type SignInResult,
  type WebAuthnAuthenticationJSON,
} from '@doorway/auth-core';
import type { FakePasskeyRecord } from './types.ts';
import { byEmail, currentRow, signInAs } from './users.ts';
import { fail } from './util.ts';
import {
  type FakeContext,
  type PasskeyCeremony,
  type PasskeyRow,
  requireCapability,
  type Session,
  type UserRow,
  type World,
} from './world.ts';

type Server = typeof import('@simplewebauthn/server');

let loading: Promise<Server> | undefined;

/**
 * `@simplewebauthn/server`, loaded once (it stays out of the fake's own chunk). A load that failed (the
 * network dropped the chunk) is not kept: the next passkey call tries again instead of failing until reload.
 */
function server(): Promise<Server> {
  loading ??= import('@simplewebauthn/server').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The algorithms new passkeys may use: ES256, EdDSA, RS256. */
const ALGORITHMS = [-7, -8, -257];

/** Rejects `operation-not-allowed` unless the provider offers passkeys. */
function requirePasskeys(world: World): void {
  requireCapability(world.capabilities.passkeys === true);
}

/**
 * Runs the ceremony of `challenge` on the client, its rejections turned into catalogue codes; a rejected
 * ceremony's challenge is dropped at once.
 */
async function ceremony<T>(ctx: FakeContext, challenge: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    ctx.world.passkeys.ceremonies.delete(challenge);
    if (error instanceof AuthError) throw error;
    return fail(passkeyCeremonyCode(error));
  }
}

/** Starts a ceremony: its challenge waits in the world, bound to `s` (expired ones are dropped). */
function openCeremony(
  ctx: FakeContext,
  challenge: string,
  ceremonyOf: Omit<PasskeyCeremony, 'expiresAt'>,
): void {
  const now = ctx.config.clock.now();
  const { ceremonies } = ctx.world.passkeys;
  for (const [key, waiting] of ceremonies) if (waiting.expiresAt <= now) ceremonies.delete(key);
  ceremonies.set(challenge, { ...ceremonyOf, expiresAt: now + ctx.config.webAuthn.challengeTtl });
}

/**
 * Takes the ceremony of `challenge` (once: a second answer to it finds nothing), on session `s`.
 * `session-expired` when it is gone, expired, or was opened on another session.
 */
function takeCeremony(ctx: FakeContext, s: Session, challenge: string): PasskeyCeremony {
  const { ceremonies } = ctx.world.passkeys;
  const waiting = ceremonies.get(challenge);
  ceremonies.delete(challenge);
  if (waiting === undefined || waiting.session !== s) fail('session-expired');
  if (ctx.config.clock.now() >= waiting.expiresAt) fail('session-expired');
  return waiting;
}

/** A passkey as the provider interface lists it. */
function passkeyInfo(row: PasskeyRow): PasskeyInfo {
  const { id, name, createdAt, lastUsedAt, backedUp } = row;
  return { id, name, createdAt, lastUsedAt, backedUp };
}

/** The passkeys of user `uid`, oldest first. */
function passkeysOf(world: World, uid: string): PasskeyRow[] {
  return [...world.passkeys.credentials.values()].filter((row) => row.uid === uid);
}

/** The user handle of a user (`user.id` of the options): its uid, UTF-8. */
function userHandle(uid: string): ReturnType<Uint8Array['slice']> {
  return new TextEncoder().encode(uid);
}

/** Bytes as base64url without padding (how the JSON forms carry them). */
function base64url(bytes: Uint8Array): string {
  const binary = Array.from(bytes, (byte) => String.fromCharCode(byte)).join('');
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `passkey-invalid` unless the assertion's user handle, when it gives one, is the passkey's user's. */
function checkUserHandle(row: UserRow, response: WebAuthnAuthenticationJSON): void {
  const given = response.response.userHandle;
  if (given !== undefined && given.replace(/=+$/, '') !== base64url(userHandle(row.uid))) {
    fail('passkey-invalid');
  }
}

/** The passkey and user an assertion names, or `passkey-not-found` (removed, another tenant's, unknown). */
function assertedPasskey(
  world: World,
  s: Session,
  response: WebAuthnAuthenticationJSON,
): [PasskeyRow, UserRow] {
  const passkey = world.passkeys.credentials.get(response.id) ?? fail('passkey-not-found');
  const row = world.users.get(passkey.uid);
  if (row === undefined || row.tenantId !== s.tenantId) fail('passkey-not-found');
  return [passkey, row];
}

/** Verifies an assertion against its ceremony's challenge and the passkey's key and counter. */
async function verifyAssertion(
  ctx: FakeContext,
  passkey: PasskeyRow,
  challenge: string,
  response: WebAuthnAuthenticationJSON,
): Promise<{ newCounter: number; credentialBackedUp: boolean }> {
  const { rpId, origin } = ctx.config.webAuthn;
  const { verifyAuthenticationResponse } = await server();
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      credential: { id: passkey.id, publicKey: passkey.publicKey, counter: passkey.counter },
      requireUserVerification: true,
    });
    if (!result.verified) fail('passkey-invalid');
    return result.authenticationInfo;
  } catch (error) {
    // A wrong origin, RP id, challenge or signature, a counter that did not rise: no details leave here.
    if (error instanceof AuthError) throw error;
    return fail('passkey-invalid');
  }
}

/**
 * `passkeys.signIn`: a discoverable-credential assertion. The user is the passkey's, `providerId`
 * `passkey`; no second factor is asked (the authenticator verified the person).
 */
export async function passkeySignIn(
  ctx: FakeContext,
  s: Session,
  options: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<SignInResult> {
  const { world, config } = ctx;
  requirePasskeys(world);
  const { generateAuthenticationOptions } = await server();
  const request = await generateAuthenticationOptions({
    rpID: config.webAuthn.rpId,
    userVerification: 'required',
    timeout: config.webAuthn.challengeTtl,
  });
  openCeremony(ctx, request.challenge, { kind: 'get', uid: null, session: s });
  const how = { conditional: options.conditional === true, signal: options.signal };
  const response = await ceremony(ctx, request.challenge, () => config.webAuthn.client.get(request, how));
  takeCeremony(ctx, s, request.challenge);
  const [passkey, row] = assertedPasskey(world, s, response);
  checkUserHandle(row, response);
  const verified = await verifyAssertion(ctx, passkey, request.challenge, response);
  passkey.counter = verified.newCounter;
  passkey.backedUp = verified.credentialBackedUp;
  passkey.lastUsedAt = config.clock.now();
  return signInAs(s, row, 'passkey', false);
}

/** `passkeys.list`: the signed-in user's passkeys, oldest first. */
export function listPasskeys({ world }: FakeContext, s: Session): PasskeyInfo[] {
  requirePasskeys(world);
  return passkeysOf(world, currentRow(world, s).uid).map(passkeyInfo);
}

/** `passkeys.add`: registers a passkey for the signed-in user, its attestation verified. */
export async function addPasskey(
  ctx: FakeContext,
  s: Session,
  name: string | undefined,
): Promise<PasskeyInfo> {
  const { world, config } = ctx;
  requirePasskeys(world);
  const row = currentRow(world, s);
  const existing = passkeysOf(world, row.uid);
  const { generateRegistrationOptions, verifyRegistrationResponse } = await server();
  const creation = await generateRegistrationOptions({
    rpName: config.webAuthn.rpName,
    rpID: config.webAuthn.rpId,
    userID: userHandle(row.uid),
    userName: row.email ?? row.phoneNumber ?? row.uid,
    userDisplayName: row.displayName ?? '',
    attestationType: 'none',
    excludeCredentials: existing.map(({ id }) => ({ id })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: config.webAuthn.challengeTtl,
  });
  openCeremony(ctx, creation.challenge, { kind: 'create', uid: row.uid, session: s });
  const response = await ceremony(ctx, creation.challenge, () => config.webAuthn.client.create(creation));
  const waiting = takeCeremony(ctx, s, creation.challenge);
  // Signed out or someone else signed in while the authenticator was asked.
  if (s.currentUid !== waiting.uid) fail('requires-recent-login');
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: creation.challenge,
    expectedOrigin: config.webAuthn.origin,
    expectedRPID: config.webAuthn.rpId,
    requireUserVerification: true,
    supportedAlgorithmIDs: ALGORITHMS,
  }).catch(() => fail('passkey-invalid'));
  const info = verification.registrationInfo;
  if (!verification.verified || info === undefined) fail('passkey-invalid');
  if (world.passkeys.credentials.has(info.credential.id)) fail('credential-already-in-use');
  const passkey: PasskeyRow = {
    id: info.credential.id,
    uid: row.uid,
    name: name?.trim() || null,
    publicKey: info.credential.publicKey,
    counter: info.credential.counter,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    transports: [...(info.credential.transports ?? [])],
    createdAt: config.clock.now(),
    lastUsedAt: null,
  };
  world.passkeys.credentials.set(passkey.id, passkey);
  return passkeyInfo(passkey);
}

/** `passkeys.remove`: removes one of the signed-in user's passkeys (`passkey-not-found` when not theirs). */
export function removePasskey({ world }: FakeContext, s: Session, id: string): void {
  requirePasskeys(world);
  const row = currentRow(world, s);
  const passkey = world.passkeys.credentials.get(id);
  if (passkey === undefined || passkey.uid !== row.uid) fail('passkey-not-found');
  world.passkeys.credentials.delete(id);
}

/** The admin's `passkeys(email)`: the user's passkeys without their keys, for a demo panel. */
export function passkeyRecords(world: World, email: string, tenantId: string | null): FakePasskeyRecord[] {
  const row = byEmail(world, tenantId, email);
  if (row === undefined) return [];
  return passkeysOf(world, row.uid).map(({ publicKey: _key, transports, ...rest }) => ({
    ...rest,
    transports: [...transports],
  }));
}
