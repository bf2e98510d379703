/**
 * Second factors as both providers read them from GoTrue: the user's factors (`user.factors`), whether a
 * session waits for its second factor (an aal1 token of an account with a verified factor), the challenge
 * a `second-factor-required` rejection carries (in the browser its `session` holds the aal1 session's tokens
 * and the first factor; on the server only the aal1 access token, in `serverSession`), the verification id
 * of a factor's challenge, and the names the adapter gives new factors.
 * @module
 */
import type {
  AuthCredential,
  SecondFactorChallenge,
  SecondFactorInfo,
  SecondFactorKind,
} from '@doorway/auth-core';
import { claimsOf } from './jwt.ts';

/** A factor of a GoTrue user, as `user.factors` lists it. */
export interface GoTrueFactor {
  id: string;
  /** `totp`, `phone` (or `webauthn`, which the adapter does not offer). */
  type: string;
  verified: boolean;
  /** `''` when the factor has none. */
  friendlyName: string;
  /** `phone`: the number as GoTrue keeps it (digits, maybe with `+`). */
  phone: string;
  /** When it was enrolled (ms since the epoch), if GoTrue says. */
  createdAt: number | null;
}

/** The pending sign-in a challenge carries: the aal1 session and how it was signed in. */
export interface PendingSignIn {
  /** The aal1 session's access token (never logged). */
  accessToken: string;
  /**
   * Its refresh token, in a browser's challenge (kept in memory, as supabase-js keeps it); always `null` on
   * the server, whose challenge keeps only the access token (issue 24: a refresh token there would outlive
   * the flow, and the page would carry it).
   */
  refreshToken: string | null;
  /** The first factor's provider id, for the sign-in's result. */
  providerId: string;
  /** The federated credential of the first factor, if there was one. */
  credential?: AuthCredential;
}

/** Marks a challenge `session` as the Supabase adapter's. */
const PENDING_KIND = 'supabase-aal1';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The factors of a GoTrue user (anything unreadable left out). */
export function factorsOf(user: unknown): GoTrueFactor[] {
  const list: unknown = isObject(user) ? user.factors : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((f: unknown) => {
    if (!isObject(f) || typeof f.id !== 'string') return [];
    const created = Date.parse(text(f.created_at));
    return [
      {
        id: f.id,
        type: text(f.factor_type),
        verified: f.status === 'verified',
        friendlyName: text(f.friendly_name),
        phone: text(f.phone),
        createdAt: Number.isFinite(created) ? created : null,
      },
    ];
  });
}

/** The factor kinds Doorway offers on Supabase. */
const isKind = (type: string): type is SecondFactorKind => type === 'totp' || type === 'phone';

/**
 * Whether a session waits for its second factor, as supabase-js's `getAuthenticatorAssuranceLevel` judges
 * it: its token is at aal1 and its user has a verified factor (of any type), so the next level is aal2.
 */
export function awaitsSecondFactor(accessToken: string, user: unknown): boolean {
  return claimsOf(accessToken)?.aal === 'aal1' && factorsOf(user).some((f) => f.verified);
}

/** A number masked as a challenge shows it: `+*******1234`. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `+${digits.slice(0, -4).replace(/\d/g, '*')}${digits.slice(-4)}`;
}

/** A factor as Doorway shows it; `masked` hides all but the last four digits of a number. */
export function factorInfo(factor: GoTrueFactor, masked: boolean): SecondFactorInfo {
  const kind: SecondFactorKind = factor.type === 'phone' ? 'phone' : 'totp';
  const digits = factor.phone.replace(/\D/g, '');
  const phoneNumber = kind === 'phone' && digits !== '' ? (masked ? maskPhone(digits) : `+${digits}`) : null;
  return {
    uid: factor.id,
    kind,
    displayName: factor.friendlyName === '' ? null : factor.friendlyName,
    phoneNumber,
    enrolledAt: factor.createdAt,
  };
}

/** The user's verified factors Doorway offers (TOTP and phone), as Doorway shows them. */
export function verifiedFactors(user: unknown, masked: boolean): SecondFactorInfo[] {
  return factorsOf(user)
    .filter((f) => f.verified && isKind(f.type))
    .map((f) => factorInfo(f, masked));
}

/**
 * The browser's challenge of a sign-in that waits for its second factor: the verified factors, masked, and
 * `pending` (its tokens too: the challenge stays in the browser's memory).
 */
export function secondFactorChallenge(user: unknown, pending: PendingSignIn): SecondFactorChallenge {
  return {
    factors: verifiedFactors(user, true),
    session: { kind: PENDING_KIND, ...pending },
  };
}

/**
 * The server's challenge of a sign-in that waits for its second factor: the verified factors, masked; the
 * first factor's provider id in `session`; and in `serverSession` only the aal1 access token (no refresh
 * token: nothing can renew the aal1 session, which ends with its token). The server runner seals
 * `serverSession` and leaves it out of the page; only the server finishes this challenge.
 */
export function serverSecondFactorChallenge(
  user: unknown,
  pending: { accessToken: string; providerId: string },
): SecondFactorChallenge {
  return {
    factors: verifiedFactors(user, true),
    session: { kind: PENDING_KIND, providerId: pending.providerId },
    serverSession: { kind: PENDING_KIND, accessToken: pending.accessToken },
  };
}

/** The federated credential a pending sign-in carries, if it is one (nothing from outside is trusted). */
function credentialOf(value: unknown): AuthCredential | undefined {
  if (!isObject(value) || value.kind !== 'federated' || typeof value.providerId !== 'string')
    return undefined;
  const credential: AuthCredential = { kind: 'federated', providerId: value.providerId };
  for (const key of ['idToken', 'accessToken', 'raw'] as const) {
    if (typeof value[key] === 'string') credential[key] = value[key];
  }
  return credential;
}

/** The adapter's `session` and `serverSession` of a challenge (anything else: `null`). */
function partsOf(challenge: SecondFactorChallenge): {
  session: Record<string, unknown> | null;
  serverSession: unknown;
} {
  const c: Partial<SecondFactorChallenge> | null | undefined = challenge;
  const session: unknown = c?.session;
  return {
    session: isObject(session) && session.kind === PENDING_KIND ? session : null,
    serverSession: c?.serverSession,
  };
}

/** `token` if it is an access token (a JWT with claims), else `null`. */
const tokenOf = (token: unknown): string | null =>
  typeof token === 'string' && claimsOf(token) !== null ? token : null;

/**
 * The pending sign-in of a browser's challenge, or `null` when it is not one of the adapter's, or it is a
 * server's (which the browser cannot finish: it has no tokens of it). It comes back from memory: nothing
 * about it is trusted, not even that it is an object.
 */
export function pendingOf(challenge: SecondFactorChallenge): PendingSignIn | null {
  const { session, serverSession } = partsOf(challenge);
  if (session === null || serverSession !== undefined) return null;
  const accessToken = tokenOf(session.accessToken);
  const { refreshToken, providerId } = session;
  if (accessToken === null || typeof providerId !== 'string') return null;
  const credential = credentialOf(session.credential);
  return {
    accessToken,
    refreshToken: typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : null,
    providerId,
    ...(credential ? { credential } : {}),
  };
}

/**
 * The pending sign-in of a server's challenge ({@link serverSecondFactorChallenge}), as it comes back from
 * the sealed flow state, or `null` (a browser's challenge, or the page's copy, which has no token).
 */
export function serverPendingOf(challenge: SecondFactorChallenge): PendingSignIn | null {
  const { session, serverSession } = partsOf(challenge);
  if (session === null || !isObject(serverSession) || serverSession.kind !== PENDING_KIND) return null;
  const accessToken = tokenOf(serverSession.accessToken);
  const { providerId } = session;
  if (accessToken === null || typeof providerId !== 'string') return null;
  return { accessToken, refreshToken: null, providerId };
}

/** The GoTrue session id of an access token, or `null`. */
export function sessionIdOf(accessToken: string): string | null {
  const id = claimsOf(accessToken)?.session_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** A factor's challenge, as the verification id the flow keeps. */
export interface FactorChallenge {
  factorId: string;
  challengeId: string;
}

/** The verification id of a factor's challenge: `mfa:<factor id>:<challenge id>`. */
export function encodeFactorChallenge({ factorId, challengeId }: FactorChallenge): string {
  return `mfa:${factorId}:${challengeId}`;
}

/** What a verification id of a factor's challenge says, or `null` when it is not one. */
export function decodeFactorChallenge(id: string): FactorChallenge | null {
  const [tag, factorId, challengeId, extra] = id.split(':');
  if (tag !== 'mfa' || !factorId || !challengeId || extra !== undefined) return null;
  return { factorId, challengeId };
}

/** The name GoTrue gets for a new authenticator app (GoTrue wants every factor of a user named apart). */
export const TOTP_FACTOR_NAME = 'Authenticator app';

/** The name GoTrue gets for a new phone factor. */
export const phoneFactorName = (phone: string): string =>
  `Phone ending ${phone.replace(/\D/g, '').slice(-4)}`;

/** `base`, or `base 2`, `base 3`, … : the first that none of `factors` is named. */
export function freeFactorName(base: string, factors: readonly GoTrueFactor[]): string {
  const taken = new Set(factors.map((f) => f.friendlyName));
  let name = base;
  for (let n = 2; taken.has(name); n += 1) name = `${base} ${n}`;
  return name;
}
