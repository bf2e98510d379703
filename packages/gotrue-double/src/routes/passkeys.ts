/**
 * The passkey routes (passkey_registration.go, passkey_authentication.go, passkey_manage.go), behind
 * requirePasskeyEnabled: `POST /passkeys/registration/options` and `/verify` (requireAuthentication,
 * requireNotAnonymous), `POST /passkeys/authentication/options` (captcha) and `/verify` (a session, `amr`
 * `passkey`), `GET /passkeys`, `PATCH /passkeys/{passkey_id}` (`friendly_name`) and
 * `DELETE /passkeys/{passkey_id}` (204).
 * @module
 */
import { HttpResponse } from 'msw';
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, userBanned, validationFailed } from '../errors.ts';
import { UUID } from '../factors.ts';
import {
  consumeChallenge,
  findPasskey,
  finishAuthentication,
  finishRegistration,
  passkeyJson,
  type Started,
  startAuthentication,
  startRegistration,
} from '../passkeys.ts';
import { json } from '../responses.ts';
import { authenticate, issueSession, sessionOf } from '../tokens.ts';
import type { PasskeyRecord, UserRecord } from '../types.ts';
import { isBanned } from '../users.ts';
import { str } from '../util.ts';
import { checkCaptcha, readJson } from '../validate.ts';

/** requirePasskeyEnabled: 404 passkey_disabled while passkeys are off. */
function requireEnabled(ctx: DoubleContext): void {
  if (!ctx.config.passkey.enabled) {
    throw new GoTrueDoubleError(404, 'passkey_disabled', 'Passkeys are disabled');
  }
}

/** requireAuthentication (after requirePasskeyEnabled): the user and whether its session is at aal2. */
function caller(ctx: DoubleContext, request: Request): { user: UserRecord; aal2: boolean } {
  requireEnabled(ctx);
  const { user, sessionId } = authenticate(ctx, request);
  return { user, aal2: sessionOf(ctx, sessionId).mfa !== undefined };
}

/** requireNotAnonymous. */
function requireNotAnonymous(user: UserRecord): void {
  if (user.isAnonymous) {
    throw new GoTrueDoubleError(
      403,
      'no_authorization',
      'Anonymous user not allowed to perform these actions',
    );
  }
}

/** requirePasskeyManagementAAL: a user with a verified factor manages passkeys only at aal2. */
function requireManagementAal(user: UserRecord, aal2: boolean): void {
  if (user.factors.some((f) => f.status === 'verified') && !aal2) {
    throw new GoTrueDoubleError(
      403,
      'insufficient_aal',
      'AAL2 session is required to manage passkeys when MFA is enabled',
    );
  }
}

/** The room for another passkey (PASSKEY_MAX_PASSKEYS_PER_USER). */
function requireRoom(ctx: DoubleContext, user: UserRecord): void {
  if (user.passkeys.length >= ctx.config.passkey.maxPerUser) {
    throw new GoTrueDoubleError(422, 'too_many_passkeys', 'Maximum number of passkeys reached');
  }
}

/** The options response: the challenge's id, the options and when the challenge expires (s). */
const optionsJson = ({ challenge, options }: Started<unknown>) =>
  json({ challenge_id: challenge.id, options, expires_at: Math.floor(challenge.expiresAt / 1000) });

/** A verify body's `challenge_id` (a UUID) and `credential`, as GoTrue checks them. */
async function verifyParams(request: Request): Promise<{ challengeId: string; credential: unknown }> {
  const b = await readJson(request);
  const challengeId = str(b.challenge_id);
  if (challengeId === '') throw validationFailed('challenge_id is required');
  if (b.credential === undefined || b.credential === null) throw validationFailed('credential is required');
  if (!UUID.test(challengeId)) throw validationFailed('challenge_id must be a valid UUID');
  return { challengeId: challengeId.toLowerCase(), credential: b.credential };
}

/** SSO users cannot register passkeys; the double has none. Anonymous users are refused by the router. */
function registrationCaller(ctx: DoubleContext, request: Request): UserRecord {
  const { user, aal2 } = caller(ctx, request);
  requireNotAnonymous(user);
  requireManagementAal(user, aal2);
  return user;
}

/** POST /passkeys/registration/options. */
export async function passkeyRegistrationOptions(ctx: DoubleContext, request: Request): Promise<Response> {
  const user = registrationCaller(ctx, request);
  requireRoom(ctx, user);
  return optionsJson(await startRegistration(ctx, user));
}

/** POST /passkeys/registration/verify: the new passkey's id, name and creation time. */
export async function passkeyRegistrationVerify(ctx: DoubleContext, request: Request): Promise<Response> {
  const user = registrationCaller(ctx, request);
  const { challengeId, credential } = await verifyParams(request);
  const challenge = consumeChallenge(ctx, challengeId, 'registration', user.id);
  const passkey = await finishRegistration(ctx, challenge, credential);
  requireRoom(ctx, user);
  if (findPasskey(ctx, passkey.credentialId)) {
    throw new GoTrueDoubleError(422, 'webauthn_credential_exists', 'This credential is already registered');
  }
  user.passkeys.push(passkey);
  const { id, friendly_name, created_at } = passkeyJson(passkey);
  return json({ id, friendly_name, created_at });
}

/** POST /passkeys/authentication/options (anon; the captcha, when one is configured). */
export async function passkeyAuthenticationOptions(ctx: DoubleContext, request: Request): Promise<Response> {
  requireEnabled(ctx);
  checkCaptcha(ctx, await readJson(request));
  return optionsJson(await startAuthentication(ctx));
}

/** POST /passkeys/authentication/verify: a session for the passkey's user, as the password grant answers. */
export async function passkeyAuthenticationVerify(ctx: DoubleContext, request: Request): Promise<Response> {
  requireEnabled(ctx);
  const { challengeId, credential } = await verifyParams(request);
  const challenge = consumeChallenge(ctx, challengeId, 'authentication', null);
  const { user } = await finishAuthentication(ctx, challenge, credential);
  if (user.email !== '' && user.emailConfirmedAt === null) {
    throw new GoTrueDoubleError(403, 'email_not_confirmed', 'Email not confirmed');
  }
  if (user.phone !== '' && user.phoneConfirmedAt === null) {
    throw new GoTrueDoubleError(403, 'phone_not_confirmed', 'Phone not confirmed');
  }
  if (isBanned(ctx, user)) throw userBanned();
  return json(issueSession(ctx, user, 'passkey'));
}

/** GET /passkeys: the user's passkeys, oldest first. */
export function listPasskeys(ctx: DoubleContext, request: Request): Response {
  const { user } = caller(ctx, request);
  return json(user.passkeys.map(passkeyJson));
}

/** The user's passkey `id` (404 validation_failed for another user's, none, or an id that is no UUID). */
function ownedPasskey(user: UserRecord, id: string): PasskeyRecord {
  const passkey = UUID.test(id) ? user.passkeys.find((p) => p.id === id.toLowerCase()) : undefined;
  if (!passkey) throw new GoTrueDoubleError(404, 'validation_failed', 'Passkey not found');
  return passkey;
}

/** PATCH /passkeys/{passkey_id}: a new `friendly_name` (1 to 120 characters). */
export async function updatePasskey(ctx: DoubleContext, request: Request, id: string): Promise<Response> {
  const { user } = caller(ctx, request);
  if (!UUID.test(id)) throw new GoTrueDoubleError(404, 'validation_failed', 'Passkey not found');
  const name = str((await readJson(request)).friendly_name);
  if (name === '') throw validationFailed('friendly_name is required');
  if (new TextEncoder().encode(name).length > 120) {
    throw validationFailed('friendly_name must be 120 characters or less');
  }
  const passkey = ownedPasskey(user, id);
  passkey.friendlyName = name;
  passkey.updatedAt = ctx.clock.now();
  return json(passkeyJson(passkey));
}

/** DELETE /passkeys/{passkey_id}: 204, no body. */
export function deletePasskey(ctx: DoubleContext, request: Request, id: string): Response {
  const { user, aal2 } = caller(ctx, request);
  requireManagementAal(user, aal2);
  const passkey = ownedPasskey(user, id);
  user.passkeys = user.passkeys.filter((p) => p !== passkey);
  return new HttpResponse(null, { status: 204 });
}
