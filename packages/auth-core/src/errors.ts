import { type ErrorCode, isErrorCode, messageFor } from './messages.ts';
import type { AuthCredential, SecondFactorChallenge } from './provider.ts';

/** Extra data an {@link AuthError} may carry for the flow (never shown as text). */
export interface AuthErrorDetails {
  /** The email involved, e.g. for `account-exists-with-different-credential`. */
  email?: string;
  /** The credential that could not be used and may be linked later, or handed to the failure callback. */
  credential?: AuthCredential;
  /** `second-factor-required`: the factors and the pending sign-in. */
  challenge?: SecondFactorChallenge;
}

/**
 * The only error an {@link AuthProvider} rejects with. `message` is always the catalogue text for `code`,
 * never a raw provider message.
 */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: ErrorCode;
  readonly email: string | undefined;
  readonly credential: AuthCredential | undefined;
  readonly challenge: SecondFactorChallenge | undefined;
  constructor(code: ErrorCode, details: AuthErrorDetails = {}) {
    super(messageFor(code));
    this.code = code;
    this.email = details.email;
    this.credential = details.credential;
    this.challenge = details.challenge;
  }
}

/** Plain-data form of an error as it travels through flow events. */
export interface ErrorInfo {
  code: ErrorCode;
  email?: string;
  credential?: AuthCredential;
  challenge?: SecondFactorChallenge;
}

/** Turns anything thrown into {@link ErrorInfo}; unknown errors become `generic`. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof AuthError) {
    const info: ErrorInfo = { code: error.code };
    if (error.email !== undefined) info.email = error.email;
    if (error.credential !== undefined) info.credential = error.credential;
    if (error.challenge !== undefined) info.challenge = error.challenge;
    return info;
  }
  if (typeof error === 'object' && error !== null && 'code' in error && isErrorCode(error.code)) {
    return { code: error.code };
  }
  return { code: 'generic' };
}

const RETRYABLE: ReadonlySet<string> = new Set([
  'network-request-failed',
  'too-many-requests',
  'sign-up-too-many-requests',
  'phone-too-many-requests',
]);

/**
 * Whether a failure is transient (network, rate limit): the same request may work on a retry, so it is no
 * proof that a code or link is bad, and the widget offers Retry instead of a failure card.
 */
export function isRetryableError(code: string): boolean {
  return RETRYABLE.has(code);
}
