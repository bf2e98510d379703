/**
 * The MFA routes (mfa.go), behind requireAuthentication and requireNotAnonymous: `POST /factors` (enrol a
 * TOTP or phone factor), `POST /factors/{factor_id}/challenge` (a phone factor is texted its code),
 * `POST /factors/{factor_id}/verify` (the code: the session moves to aal2) and `DELETE /factors/{factor_id}`
 * (a verified factor only at aal2).
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, validationFailed } from '../errors.ts';
import {
  challengeExpiry,
  liveChallenge,
  newChallenge,
  newFactor,
  ownedFactor,
  removeFactor,
  UUID,
  validateFactors,
  verifiedFactor,
} from '../factors.ts';
import { limitRequest } from '../limits.ts';
import { sendFactorSms } from '../mailer.ts';
import { json } from '../responses.ts';
import { authenticate, sessionOf } from '../tokens.ts';
import { isTotpCode, newTotpSecret, qrCodeSvg, totpUri } from '../totp.ts';
import type { FactorRecord, SessionRecord, UserRecord } from '../types.ts';
import { str } from '../util.ts';
import { readJson, validatePhone } from '../validate.ts';

/** The authenticated, non-anonymous user of a factors request and its session. */
interface FactorCaller {
  user: UserRecord;
  session: SessionRecord;
}

/** requireAuthentication, then requireNotAnonymous. */
function caller(ctx: DoubleContext, request: Request): FactorCaller {
  const { user, sessionId } = authenticate(ctx, request);
  if (user.isAnonymous) {
    throw new GoTrueDoubleError(
      403,
      'no_authorization',
      'Anonymous user not allowed to perform these actions',
    );
  }
  return { user, session: sessionOf(ctx, sessionId) };
}

/** The switch of a factor type (enrol or verify: the double has one for both). */
function requireEnabled(
  ctx: DoubleContext,
  type: FactorRecord['factorType'],
  step: 'enroll' | 'verify',
): void {
  if (ctx.config.mfa[type]) return;
  const name = type === 'totp' ? 'TOTP' : 'Phone';
  throw new GoTrueDoubleError(
    422,
    `mfa_${type}_${step}_not_enabled`,
    step === 'enroll' ? `MFA enroll is disabled for ${name}` : `MFA verification is disabled for ${name}`,
  );
}

function enrollTotp(
  ctx: DoubleContext,
  { user, session }: FactorCaller,
  b: Record<string, unknown>,
): Response {
  const friendlyName = str(b.friendly_name);
  const issuer = str(b.issuer) || new URL(ctx.config.siteUrl).host;
  validateFactors(ctx, user, friendlyName, session);
  const secret = newTotpSecret();
  const factor = newFactor(ctx, user, { factorType: 'totp', friendlyName, secret, phone: '' });
  return json({
    id: factor.id,
    type: 'totp',
    friendly_name: friendlyName,
    totp: { qr_code: qrCodeSvg(), secret, uri: totpUri(secret, issuer, user.email) },
  });
}

function enrollPhone(
  ctx: DoubleContext,
  { user, session }: FactorCaller,
  b: Record<string, unknown>,
): Response {
  const given = str(b.phone);
  if (given === '') throw validationFailed('Phone number required to enroll Phone factor');
  const phone = validatePhone(given);
  const same = user.factors.filter((f) => f.factorType === 'phone' && f.phone === phone);
  if (same.some((f) => f.status === 'verified')) {
    throw new GoTrueDoubleError(
      422,
      'mfa_verified_factor_exists',
      'A verified phone factor already exists, unenroll the existing factor to continue',
    );
  }
  user.factors = user.factors.filter((f) => !same.includes(f));
  const friendlyName = str(b.friendly_name);
  validateFactors(ctx, user, friendlyName, session);
  const factor = newFactor(ctx, user, { factorType: 'phone', friendlyName, secret: '', phone });
  return json({ id: factor.id, type: 'phone', friendly_name: friendlyName, phone: given });
}

/** POST /factors. */
export async function enrollFactor(ctx: DoubleContext, request: Request): Promise<Response> {
  const who = caller(ctx, request);
  const b = await readJson(request);
  const type = str(b.factor_type);
  if (type !== 'totp' && type !== 'phone') {
    throw validationFailed('factor_type needs to be totp, phone, or webauthn');
  }
  requireEnabled(ctx, type, 'enroll');
  return type === 'totp' ? enrollTotp(ctx, who, b) : enrollPhone(ctx, who, b);
}

/** POST /factors/{factor_id}/challenge: a phone factor's code goes out by SMS. */
export async function challengeFactor(
  ctx: DoubleContext,
  request: Request,
  factorId: string,
): Promise<Response> {
  const { user } = caller(ctx, request);
  limitRequest(ctx, request, 'factorChallenge');
  const factor = ownedFactor(user, factorId);
  requireEnabled(ctx, factor.factorType, 'verify');
  let code = '';
  if (factor.factorType === 'phone') {
    const channel = str((await readJson(request)).channel) || 'sms';
    if (channel !== 'sms') {
      throw validationFailed("Invalid channel, supported values are 'sms' or 'whatsapp'");
    }
    code = sendFactorSms(ctx, factor.phone, factor.lastChallengedAt);
  }
  const challenge = newChallenge(ctx, factor, code);
  return json({
    id: challenge.id,
    type: factor.factorType,
    expires_at: Math.floor(challengeExpiry(ctx, challenge) / 1000),
  });
}

/** POST /factors/{factor_id}/verify: the right code answers a session at aal2. */
export async function verifyFactor(
  ctx: DoubleContext,
  request: Request,
  factorId: string,
): Promise<Response> {
  const { user, session } = caller(ctx, request);
  limitRequest(ctx, request, 'factorVerify');
  const factor = ownedFactor(user, factorId);
  const b = await readJson(request);
  const code = str(b.code);
  if (code === '') throw validationFailed('Code needs to be non-empty');
  const challengeId = str(b.challenge_id);
  // GoTrue decodes `challenge_id` into a UUID: anything else fails as the JSON body does.
  if (!UUID.test(challengeId))
    throw new GoTrueDoubleError(400, 'bad_json', 'Could not parse request body as JSON');
  requireEnabled(ctx, factor.factorType, 'verify');
  const challenge = liveChallenge(ctx, factor, challengeId);
  const right =
    factor.factorType === 'totp'
      ? isTotpCode(factor.secret, code, ctx.clock.now())
      : challenge.otpCode !== '' && challenge.otpCode === code;
  if (!right) {
    const what = factor.factorType === 'totp' ? 'TOTP' : 'MFA Phone';
    throw new GoTrueDoubleError(422, 'mfa_verification_failed', `Invalid ${what} code entered`);
  }
  return json(verifiedFactor(ctx, user, session, factor, challenge));
}

/** DELETE /factors/{factor_id}: a verified factor needs a session at aal2. */
export function unenrollFactor(ctx: DoubleContext, request: Request, factorId: string): Response {
  const { user, session } = caller(ctx, request);
  const factor = ownedFactor(user, factorId);
  if (factor.status === 'verified' && !session.mfa) {
    throw new GoTrueDoubleError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  removeFactor(ctx, user, factor);
  return json({ id: factor.id });
}
