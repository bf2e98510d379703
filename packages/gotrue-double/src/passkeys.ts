/**
 * GoTrue's passkeys (passkey_*.go, models/webauthn_*.go), as the double keeps them: single-use WebAuthn
 * challenges on the double's clock (a registration's bound to its user, a sign-in's to nobody), and the
 * attestation and assertion checks, which are `@simplewebauthn/server`'s where GoTrue's are go-webauthn's
 * (loaded on first use). Options as go-webauthn builds them from GoTrue's configuration: no attestation, a
 * resident key required, user verification preferred.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError } from './errors.ts';
import { randomUUID, toBase64Url } from './hash.ts';
import type { PasskeyRecord, UserRecord, WebAuthnChallengeRecord } from './types.ts';
import { isObject, str } from './util.ts';

type Server = typeof import('@simplewebauthn/server');

let loading: Promise<Server> | undefined;

/** `@simplewebauthn/server`, loaded once (it stays out of the double's first chunk). */
function server(): Promise<Server> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}

/** go-webauthn's default credential algorithms: ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA. */
const ALGORITHMS = [-7, -35, -36, -257, -258, -259, -37, -38, -39, -8];

/** GoTrue's user verification for passkeys (protocol.VerificationPreferred). */
const USER_VERIFICATION = 'preferred';

/** 400 webauthn_verification_failed, GoTrue's answer to any credential that does not verify. */
export const verificationFailed = (message = 'Credential verification failed') =>
  new GoTrueDoubleError(400, 'webauthn_verification_failed', message);

/** GoTrue's WebAuthnID of a user: its id's text, as the user handle. */
const userHandle = (user: UserRecord) => new TextEncoder().encode(user.id);

/** Stores a challenge of `type` for `userId` (expired ones are dropped first). */
function storeChallenge(
  ctx: DoubleContext,
  type: WebAuthnChallengeRecord['type'],
  userId: string | null,
  challenge: string,
): WebAuthnChallengeRecord {
  const now = ctx.clock.now();
  const challenges = ctx.store.webauthnChallenges;
  for (const [id, c] of challenges) if (c.expiresAt < now) challenges.delete(id);
  const record: WebAuthnChallengeRecord = {
    id: randomUUID(),
    type,
    userId,
    challenge,
    userVerification: USER_VERIFICATION,
    createdAt: now,
    expiresAt: now + ctx.config.passkey.challengeExpiryMs,
  };
  challenges.set(record.id, record);
  return record;
}

/**
 * ConsumeWebAuthnChallengeByID: takes challenge `id` of `type` (and, for a registration, of `userId`) out
 * of the store, so that it answers once; then refuses it if it has expired.
 */
export function consumeChallenge(
  ctx: DoubleContext,
  id: string,
  type: WebAuthnChallengeRecord['type'],
  userId: string | null,
): WebAuthnChallengeRecord {
  const challenges = ctx.store.webauthnChallenges;
  const challenge = challenges.get(id);
  if (!challenge || challenge.type !== type || challenge.userId !== userId) {
    throw new GoTrueDoubleError(400, 'webauthn_challenge_not_found', 'Challenge not found or already used');
  }
  challenges.delete(id);
  if (ctx.clock.now() > challenge.expiresAt) {
    throw new GoTrueDoubleError(400, 'webauthn_challenge_expired', 'Challenge has expired');
  }
  return challenge;
}

/** What the options' response carries besides the options. */
export interface Started<T> {
  challenge: WebAuthnChallengeRecord;
  options: T;
}

/** BeginRegistration for `user`: its passkeys excluded, a resident key required. */
export async function startRegistration(
  ctx: DoubleContext,
  user: UserRecord,
): Promise<Started<Awaited<ReturnType<Server['generateRegistrationOptions']>>>> {
  const { rpId, rpDisplayName, challengeExpiryMs } = ctx.config.passkey;
  const name = user.email || user.phone;
  const display = str(user.userMetadata.name) || name;
  const { generateRegistrationOptions } = await server();
  const options = await generateRegistrationOptions({
    rpName: rpDisplayName,
    rpID: rpId,
    userID: userHandle(user),
    userName: name,
    userDisplayName: display,
    timeout: challengeExpiryMs,
    attestationType: 'none',
    excludeCredentials: user.passkeys.map((p) => ({ id: p.credentialId })),
    authenticatorSelection: { residentKey: 'required', userVerification: USER_VERIFICATION },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  return { challenge: storeChallenge(ctx, 'registration', user.id, options.challenge), options };
}

/** BeginDiscoverableLogin: no allowed credentials, no user. */
export async function startAuthentication(
  ctx: DoubleContext,
): Promise<Started<Awaited<ReturnType<Server['generateAuthenticationOptions']>>>> {
  const { rpId, challengeExpiryMs } = ctx.config.passkey;
  const { generateAuthenticationOptions } = await server();
  const options = await generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials: [],
    userVerification: USER_VERIFICATION,
    timeout: challengeExpiryMs,
  });
  return { challenge: storeChallenge(ctx, 'authentication', null, options.challenge), options };
}

/** The credential of a verify request as the library takes it (GoTrue's Parse: an object with an id). */
function credentialOf<T>(credential: unknown): T {
  if (!isObject(credential) || str(credential.id) === '' || !isObject(credential.response)) {
    throw verificationFailed('Invalid credential response');
  }
  return credential as T;
}

/** CreateCredential: the attestation of a registration checked against its challenge; a new passkey row. */
export async function finishRegistration(
  ctx: DoubleContext,
  challenge: WebAuthnChallengeRecord,
  credential: unknown,
): Promise<PasskeyRecord> {
  const { rpId, rpOrigins } = ctx.config.passkey;
  const { verifyRegistrationResponse } = await server();
  const verification = await verifyRegistrationResponse({
    response: credentialOf(credential),
    expectedChallenge: challenge.challenge,
    expectedOrigin: rpOrigins,
    expectedRPID: rpId,
    requireUserVerification: challenge.userVerification === 'required',
    supportedAlgorithmIDs: ALGORITHMS,
  }).catch(() => {
    throw verificationFailed();
  });
  const info = verification.registrationInfo;
  if (!verification.verified || !info) throw verificationFailed();
  const t = ctx.clock.now();
  return {
    id: randomUUID(),
    credentialId: info.credential.id,
    publicKey: toBase64Url(info.credential.publicKey),
    attestationType: info.fmt,
    aaguid: info.aaguid,
    signCount: info.credential.counter,
    transports: [...(info.credential.transports ?? [])],
    backupEligible: info.credentialDeviceType === 'multiDevice',
    backedUp: info.credentialBackedUp,
    // GoTrue names a passkey after its authenticator's AAGUID (a list of known ones); the double knows none.
    friendlyName: 'Passkey',
    createdAt: t,
    updatedAt: t,
    lastUsedAt: null,
  };
}

/** The passkey of credential `credentialId`, and its user, wherever it is. */
export function findPasskey(
  ctx: DoubleContext,
  credentialId: string,
): { user: UserRecord; passkey: PasskeyRecord } | null {
  for (const user of ctx.store.users.values()) {
    const passkey = user.passkeys.find((p) => p.credentialId === credentialId);
    if (passkey) return { user, passkey };
  }
  return null;
}

/** base64url without padding, from base64url or base64 with or without it. */
const unpadded = (s: string) => s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * ValidatePasskeyLogin: the user from the assertion's user handle, the credential among that user's
 * passkeys, then the assertion against the challenge, the RP id and origins and the stored key.
 */
async function validateLogin(
  ctx: DoubleContext,
  challenge: WebAuthnChallengeRecord,
  response: { id: string; response: { userHandle?: string } },
): Promise<{ user: UserRecord; passkey: PasskeyRecord; counter: number; flags: [boolean, boolean] }> {
  const handle = unpadded(str(response.response.userHandle));
  if (handle === '') throw verificationFailed();
  const user = [...ctx.store.users.values()].find((u) => toBase64Url(u.id) === handle);
  const passkey = user?.passkeys.find((p) => p.credentialId === unpadded(response.id));
  if (!user || !passkey) throw verificationFailed();
  const { rpId, rpOrigins } = ctx.config.passkey;
  const { verifyAuthenticationResponse } = await server();
  const { isoBase64URL } = await import('@simplewebauthn/server/helpers');
  const verification = await verifyAuthenticationResponse({
    response: response as Parameters<Server['verifyAuthenticationResponse']>[0]['response'],
    expectedChallenge: challenge.challenge,
    expectedOrigin: rpOrigins,
    expectedRPID: rpId,
    // go-webauthn only flags a counter that did not rise (CloneWarning, which GoTrue does not read): the
    // library is given no stored counter, and the double applies go-webauthn's rule below.
    credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: 0 },
    requireUserVerification: challenge.userVerification === 'required',
  }).catch(() => {
    throw verificationFailed();
  });
  if (!verification.verified) throw verificationFailed();
  const { newCounter, credentialDeviceType, credentialBackedUp } = verification.authenticationInfo;
  // "Backup Eligible flag inconsistency detected during login validation".
  if ((credentialDeviceType === 'multiDevice') !== passkey.backupEligible) throw verificationFailed();
  return {
    user,
    passkey,
    counter: newCounter,
    flags: [credentialDeviceType === 'multiDevice', credentialBackedUp],
  };
}

/**
 * An assertion of a discoverable passkey, verified: the user it signs in. The passkey's counter moves as
 * go-webauthn's UpdateCounter moves it (a counter that did not rise is kept, not refused, unless
 * `passkey.refuseCounterRegression`); its last use is now.
 */
export async function finishAuthentication(
  ctx: DoubleContext,
  challenge: WebAuthnChallengeRecord,
  credential: unknown,
): Promise<{ user: UserRecord; passkey: PasskeyRecord }> {
  const response = credentialOf<{ id: string; response: { userHandle?: string } }>(credential);
  const { user, passkey, counter, flags } = await validateLogin(ctx, challenge, response);
  const regressed = counter <= passkey.signCount && (counter !== 0 || passkey.signCount !== 0);
  if (regressed && ctx.config.passkey.refuseCounterRegression) throw verificationFailed();
  if (!regressed) passkey.signCount = counter;
  [passkey.backupEligible, passkey.backedUp] = flags;
  passkey.lastUsedAt = ctx.clock.now();
  passkey.updatedAt = passkey.lastUsedAt;
  return { user, passkey };
}

/** A passkey as GoTrue lists it (PasskeyListItem). */
export function passkeyJson(p: PasskeyRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: p.id,
    friendly_name: p.friendlyName || undefined,
    created_at: new Date(p.createdAt).toISOString(),
    last_used_at: p.lastUsedAt === null ? undefined : new Date(p.lastUsedAt).toISOString(),
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}
