/**
 * GoTrue's MFA models, as the double keeps them: a user's factors and their challenges, the checks before
 * a new factor (validateFactors), and what a verified or removed factor does to the user's sessions
 * (updateMFASessionAndClaims, InvalidateSessionsWithAALLessThan, DowngradeSessionsToAAL1).
 * @module
 */
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError } from './errors.ts';
import { randomUUID } from './hash.ts';
import { endSession, issueSession } from './tokens.ts';
import type { ChallengeRecord, FactorRecord, SessionRecord, UserRecord } from './types.ts';

/** GoTrue's UUID check of `factor_id` and `challenge_id`. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** loadFactor: the user's own factor `id` (404 for another user's, as for none). */
export function ownedFactor(user: UserRecord, id: string): FactorRecord {
  if (!UUID.test(id)) throw new GoTrueDoubleError(404, 'validation_failed', 'factor_id must be an UUID');
  const factor = user.factors.find((f) => f.id === id);
  if (!factor) throw new GoTrueDoubleError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** DeleteExpiredFactors: unverified factors never challenged, older than MFA_FACTOR_EXPIRY_DURATION. */
function deleteExpiredFactors(ctx: DoubleContext): void {
  const oldest = ctx.clock.now() - ctx.config.mfa.factorExpiryMs;
  for (const user of ctx.store.users.values()) {
    user.factors = user.factors.filter(
      (f) => f.status === 'verified' || f.challenges.length > 0 || f.createdAt >= oldest,
    );
  }
}

/**
 * validateFactors: the friendly name is free, the user has room for another factor, and a user with a
 * verified factor enrols another only at aal2.
 */
export function validateFactors(
  ctx: DoubleContext,
  user: UserRecord,
  friendlyName: string,
  session: SessionRecord,
): void {
  deleteExpiredFactors(ctx);
  if (user.factors.some((f) => f.friendlyName === friendlyName)) {
    throw new GoTrueDoubleError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  const verified = user.factors.filter((f) => f.status === 'verified').length;
  if (user.factors.length >= ctx.config.mfa.maxFactors || verified >= ctx.config.mfa.maxFactors) {
    throw new GoTrueDoubleError(
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  if (verified > 0 && !session.mfa) {
    throw new GoTrueDoubleError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
}

/** A new unverified factor of `user`. */
export function newFactor(
  ctx: DoubleContext,
  user: UserRecord,
  fields: Pick<FactorRecord, 'factorType' | 'friendlyName' | 'secret' | 'phone'>,
): FactorRecord {
  const t = ctx.clock.now();
  const factor: FactorRecord = {
    id: randomUUID(),
    status: 'unverified',
    createdAt: t,
    updatedAt: t,
    lastChallengedAt: null,
    challenges: [],
    ...fields,
  };
  user.factors.push(factor);
  return factor;
}

/** WriteChallengeToDatabase: a new challenge of `factor` (with the code texted, for a phone factor). */
export function newChallenge(ctx: DoubleContext, factor: FactorRecord, otpCode: string): ChallengeRecord {
  const t = ctx.clock.now();
  const challenge: ChallengeRecord = { id: randomUUID(), createdAt: t, verifiedAt: null, otpCode };
  factor.challenges.push(challenge);
  factor.lastChallengedAt = t;
  return challenge;
}

/** When a challenge expires (MFA_CHALLENGE_EXPIRY_DURATION after it was made), ms. */
export const challengeExpiry = (ctx: DoubleContext, challenge: ChallengeRecord): number =>
  challenge.createdAt + ctx.config.mfa.challengeExpiryMs;

/** validateChallenge: the factor's unverified, unexpired challenge `id` (an expired one is deleted). */
export function liveChallenge(ctx: DoubleContext, factor: FactorRecord, id: string): ChallengeRecord {
  const challenge = factor.challenges.find((c) => c.id === id);
  if (!challenge) {
    throw new GoTrueDoubleError(
      422,
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    );
  }
  // GoTrue compares the IP addresses of challenge and verify here too; the double has one client.
  if (challenge.verifiedAt !== null) {
    throw new GoTrueDoubleError(
      422,
      'mfa_ip_address_mismatch',
      'Challenge and verify IP addresses mismatch.',
    );
  }
  if (ctx.clock.now() > challengeExpiry(ctx, challenge)) {
    factor.challenges = factor.challenges.filter((c) => c !== challenge);
    throw new GoTrueDoubleError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  return challenge;
}

/**
 * A right code: the challenge is verified, the factor too (its enrolment is complete), the session moves to
 * aal2 with a new token pair (the old refresh tokens of the session are spent, as GoTrue swaps them), the
 * user's aal1 sessions end, and the user's other unverified factors of this type go. Answers the session.
 */
export function verifiedFactor(
  ctx: DoubleContext,
  user: UserRecord,
  session: SessionRecord,
  factor: FactorRecord,
  challenge: ChallengeRecord,
): Record<string, unknown> {
  const t = ctx.clock.now();
  challenge.verifiedAt = t;
  if (factor.status !== 'verified') {
    factor.status = 'verified';
    factor.updatedAt = t;
  }
  user.factors = user.factors.filter(
    (f) => f === factor || f.status === 'verified' || f.factorType !== factor.factorType,
  );
  session.mfa = { factorId: factor.id, method: factor.factorType === 'totp' ? 'totp' : 'mfa/phone', at: t };
  // GoTrue moves the session's refresh token counter by 2: no token from before is reusable.
  for (const r of ctx.store.refreshTokens.values()) {
    if (r.sessionId === session.id) Object.assign(r, { revoked: true, updatedAt: 0 });
  }
  const tokens = issueSession(ctx, user, session.amr, session.id);
  for (const s of [...ctx.store.sessions.values()]) {
    if (s.userId === user.id && !s.mfa) endSession(ctx, s.id);
  }
  return tokens;
}

/** Removes a factor; the sessions it brought to aal2 go back to aal1 (DowngradeSessionsToAAL1). */
export function removeFactor(ctx: DoubleContext, user: UserRecord, factor: FactorRecord): void {
  user.factors = user.factors.filter((f) => f !== factor);
  for (const s of ctx.store.sessions.values()) {
    if (s.mfa?.factorId === factor.id) delete s.mfa;
  }
}
