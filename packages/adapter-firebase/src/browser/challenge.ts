/**
 * The second-factor challenge a first-factor sign-in meets: Firebase's `auth/multi-factor-auth-required`
 * becomes `AuthError('second-factor-required', { challenge })`. The challenge is plain JSON (a server may
 * keep it in a sealed cookie): its `session` is `{ resolverId }`, a random id under which the SDK's
 * `MultiFactorResolver` waits in memory ({@link BrowserContext.pendingSignIns}); nothing secret leaves.
 * A server's challenge (the form provider's REST `session`) is adopted too: see `adoptRestChallenge`.
 * @module
 */
import {
  AuthError,
  type SecondFactorChallenge,
  type SecondFactorInfo,
  type SecondFactorKind,
} from '@doorway/auth-core';
import {
  getMultiFactorResolver,
  type MultiFactorError,
  type MultiFactorInfo,
  type MultiFactorResolver,
} from 'firebase/auth';
import { type AttemptedSignIn, type FirebaseErrorContext, toAuthError } from '../shared/errors.ts';
import type { BrowserContext, PendingSignIn } from './context.ts';

/**
 * How long a pending sign-in is kept. Firebase's pending credential lives a few minutes; past this the
 * resolver is dropped and a late `finishSignIn` gets `code-expired`, as Firebase would answer.
 */
export const PENDING_SIGN_IN_TTL_MS = 60 * 60 * 1000;

/** What a sign-in's first factor was, for the result its second factor finishes with. */
export interface FirstFactor {
  /** The provider id the result reports; `null` when only the finished credential knows (redirects). */
  providerId: string | null;
  /** Whether it was federated (the result then carries the IdP credential). */
  federated?: boolean;
}

/** A random id (hex, 128 bits), also outside secure contexts where `crypto.randomUUID` is missing. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A Firebase factor as the widget shows it; the enrolment time is a UTC string in the SDK. */
export function toSecondFactorInfo(info: MultiFactorInfo): SecondFactorInfo {
  const kind: SecondFactorKind = info.factorId === 'totp' ? 'totp' : 'phone';
  const phoneNumber = 'phoneNumber' in info && typeof info.phoneNumber === 'string' ? info.phoneNumber : null;
  const enrolledAt = Date.parse(info.enrollmentTime);
  return {
    uid: info.uid,
    kind,
    displayName: info.displayName || null,
    phoneNumber: kind === 'phone' ? phoneNumber : null,
    enrolledAt: Number.isNaN(enrolledAt) ? null : enrolledAt,
  };
}

function isMultiFactorError(error: unknown): error is MultiFactorError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === 'auth/multi-factor-auth-required'
  );
}

// Drops pending sign-ins older than the TTL (their pending credential has expired at Firebase too).
function dropExpired(ctx: BrowserContext, now: number): void {
  for (const [id, pending] of ctx.pendingSignIns) {
    if (now - pending.startedAt >= PENDING_SIGN_IN_TTL_MS) ctx.pendingSignIns.delete(id);
  }
}

/** Keeps the resolver of a `multi-factor-auth-required` error and returns the rejection carrying its challenge. */
function challengeFor(ctx: BrowserContext, error: MultiFactorError, first: FirstFactor): AuthError {
  const resolver = getMultiFactorResolver(ctx.auth, error);
  const now = Date.now();
  dropExpired(ctx, now);
  const resolverId = randomId();
  ctx.pendingSignIns.set(resolverId, {
    resolver,
    providerId: first.providerId,
    federated: first.federated ?? false,
    totpChecks: new Map(),
    startedAt: now,
  });
  const challenge: SecondFactorChallenge = {
    factors: resolver.hints.map(toSecondFactorInfo),
    session: { resolverId },
  };
  return new AuthError('second-factor-required', { challenge });
}

/**
 * The rejection of a failed first-factor sign-in: `second-factor-required` with its challenge when the
 * account has a second factor, else the catalogue error of `context` (see `toAuthError`).
 */
export function signInError(
  ctx: BrowserContext,
  error: unknown,
  context: FirebaseErrorContext,
  first: FirstFactor,
  attempted: AttemptedSignIn = {},
): AuthError {
  if (!isMultiFactorError(error)) return toAuthError(error, context, attempted);
  try {
    return challengeFor(ctx, error, first);
  } catch (e) {
    // The SDK could not read the error's pending credential: nothing to challenge with.
    return toAuthError(e, context, attempted);
  }
}

/** Runs a first-factor sign-in; whatever it throws rejects through {@link signInError}. */
export async function withSignInErrors<T>(
  ctx: BrowserContext,
  context: FirebaseErrorContext,
  first: FirstFactor,
  call: () => Promise<T>,
  attempted: AttemptedSignIn = {},
): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw signInError(ctx, e, context, first, attempted);
  }
}

/**
 * The id a challenge's `session` carries, or `null` when it is none of ours (it may come back from a
 * cookie or a form: nothing about it is trusted, not even that it is an object).
 */
function resolverIdOf(challenge: SecondFactorChallenge): string | null {
  const session: unknown = (challenge as Partial<SecondFactorChallenge> | null | undefined)?.session;
  if (typeof session !== 'object' || session === null || !('resolverId' in session)) return null;
  return typeof session.resolverId === 'string' ? session.resolverId : null;
}

/** The prefix of the key under which a server's (REST) challenge waits, by its pending credential. */
const REST_KEY = 'rest:';

/** What a server's challenge carries (see the form provider's `FormPendingSignIn`), checked. */
interface RestPending {
  mfaPendingCredential: string;
  providerId: string;
  mfaInfo: Record<string, unknown>[];
}

/**
 * The REST pending sign-in a challenge's `session` holds (`{ mfaPendingCredential, providerId, mfaInfo }`,
 * as the form provider makes it), or `null`. Only the factor kinds the SDK reads (`phoneInfo`,
 * `totpInfo`) with an enrolment id are kept: the SDK fails on any other.
 */
function restPendingOf(challenge: SecondFactorChallenge): RestPending | null {
  const session: unknown = (challenge as Partial<SecondFactorChallenge> | null | undefined)?.session;
  if (typeof session !== 'object' || session === null) return null;
  const { mfaPendingCredential, providerId, mfaInfo } = session as Record<string, unknown>;
  if (typeof mfaPendingCredential !== 'string' || mfaPendingCredential === '') return null;
  if (!Array.isArray(mfaInfo)) return null;
  const enrollments = (mfaInfo as unknown[]).filter(
    (e): e is Record<string, unknown> =>
      typeof e === 'object' &&
      e !== null &&
      typeof (e as Record<string, unknown>).mfaEnrollmentId === 'string' &&
      ('phoneInfo' in e || 'totpInfo' in e),
  );
  return {
    mfaPendingCredential,
    providerId: typeof providerId === 'string' ? providerId : 'password',
    // Copies: the SDK deletes fields of the response it was given once the sign-in resolves.
    mfaInfo: enrollments.map((e) => ({ ...e })),
  };
}

/**
 * Adopts a server's challenge (made by the form provider over REST before the page hydrated): the SDK's
 * own `getMultiFactorResolver`, given an error shaped as the SDK's `auth/multi-factor-auth-required`
 * (`operationType` and `customData._serverResponse` with `mfaPendingCredential` and `mfaInfo`, what
 * `MultiFactorResolverImpl._fromError` reads; an internal shape of the SDK, pinned by the emulator test
 * "a server's challenge"), builds a real resolver, kept under the pending credential. `null` when the SDK
 * refuses it.
 */
function adoptRestChallenge(
  ctx: BrowserContext,
  challenge: SecondFactorChallenge,
): { resolverId: string; pending: PendingSignIn } | null {
  const rest = restPendingOf(challenge);
  if (rest === null) return null;
  const resolverId = `${REST_KEY}${rest.mfaPendingCredential}`;
  const known = ctx.pendingSignIns.get(resolverId);
  if (known !== undefined) return { resolverId, pending: known };
  const error = {
    code: 'auth/multi-factor-auth-required',
    name: 'FirebaseError',
    message: 'multi-factor-auth-required',
    operationType: 'signIn',
    customData: {
      appName: ctx.auth.app.name,
      operationType: 'signIn',
      _serverResponse: { mfaPendingCredential: rest.mfaPendingCredential, mfaInfo: rest.mfaInfo },
    },
  };
  let resolver: MultiFactorResolver;
  try {
    resolver = getMultiFactorResolver(ctx.auth, error as unknown as MultiFactorError);
  } catch {
    return null;
  }
  const now = Date.now();
  dropExpired(ctx, now);
  const pending: PendingSignIn = {
    resolver,
    providerId: rest.providerId,
    federated: false,
    totpChecks: new Map(),
    startedAt: now,
  };
  ctx.pendingSignIns.set(resolverId, pending);
  return { resolverId, pending };
}

/**
 * The pending sign-in of a challenge and its id, or `code-expired` (unknown, forgotten or too old). A
 * server's challenge (REST `session`) is adopted on first use (see {@link adoptRestChallenge}).
 */
export function pendingSignIn(
  ctx: BrowserContext,
  challenge: SecondFactorChallenge,
): { resolverId: string; pending: PendingSignIn } {
  const resolverId = resolverIdOf(challenge);
  if (resolverId === null) {
    const adopted = adoptRestChallenge(ctx, challenge);
    if (adopted === null) throw new AuthError('code-expired');
    return adopted;
  }
  const pending = ctx.pendingSignIns.get(resolverId);
  if (pending === undefined) throw new AuthError('code-expired');
  if (Date.now() - pending.startedAt >= PENDING_SIGN_IN_TTL_MS) {
    ctx.pendingSignIns.delete(resolverId);
    throw new AuthError('code-expired');
  }
  return { resolverId, pending };
}

/** Forgets the pending sign-in of a challenge (whatever the challenge holds). */
export function forgetSignIn(ctx: BrowserContext, challenge: SecondFactorChallenge): void {
  const resolverId = resolverIdOf(challenge);
  if (resolverId !== null) ctx.pendingSignIns.delete(resolverId);
  const rest = restPendingOf(challenge);
  if (rest !== null) ctx.pendingSignIns.delete(`${REST_KEY}${rest.mfaPendingCredential}`);
}
