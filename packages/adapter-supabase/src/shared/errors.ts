/**
 * Supabase Auth (GoTrue) errors → Doorway catalogue codes. One table, keyed by the `code` GoTrue puts in its
 * error bodies (`error.code` of supabase-js's `AuthApiError`); a few codes mean different things depending on
 * what the adapter was doing, so an entry may depend on the {@link SupabaseErrorContext}.
 * @module
 */
import { AuthError, type AuthErrorDetails, type ErrorCode } from '@doorway/auth-core';

/** What the adapter was doing when Supabase failed. */
export type SupabaseErrorContext =
  /** `signInWithPassword`. */
  | 'password'
  /** `signUp` (creating a password account). */
  | 'signUp'
  /** Sending an email: magic link (`signInWithOtp`) or recovery (`resetPasswordForEmail`). */
  | 'email'
  /** Verifying an emailed token (`verifyOtp` with `token_hash`) or exchanging an emailed PKCE code. */
  | 'link'
  /** Sending an SMS code (`signInWithOtp({ phone })`, `updateUser({ phone })`). */
  | 'phone'
  /** Verifying an SMS code (`verifyOtp({ phone, token })`). */
  | 'sms'
  /** OAuth, ID-token sign-in and identity linking. */
  | 'federated'
  /** `signInAnonymously`. */
  | 'anonymous'
  /** `updateUser` on the signed-in user (upgrade, linking, new password). */
  | 'update'
  /** Account management: unlinking an identity (`unlinkIdentity`). */
  | 'account'
  /** Enrolling a second factor (`mfa.enroll`, and the challenge and verification that finish it). */
  | 'mfaEnroll'
  /** A sign-in's second factor (`mfa.challenge` and `mfa.verify` on the pending aal1 session). */
  | 'mfaSignIn'
  /** Passkeys (`auth.passkey.*`): sign-in, registration, list, rename, removal. */
  | 'passkey'
  /** Anything else. */
  | 'other';

/** A table entry: one code everywhere, or a code per context with a default. */
export type SupabaseErrorMapping =
  | ErrorCode
  | ({ default: ErrorCode } & Partial<Record<SupabaseErrorContext, ErrorCode>>);

const RATE_LIMIT: SupabaseErrorMapping = {
  default: 'too-many-requests',
  signUp: 'sign-up-too-many-requests',
  phone: 'phone-too-many-requests',
  sms: 'phone-too-many-requests',
};
const SESSION_GONE: SupabaseErrorMapping = {
  default: 'requires-recent-login',
  link: 'invalid-action-code',
  mfaSignIn: 'code-expired',
};

/**
 * The error table: Supabase Auth error code → catalogue code. Codes not listed map to `generic`.
 *
 * - `otp_expired` is what GoTrue answers for an unknown, used *or* expired email token and for a wrong or
 *   expired SMS code ("Email link is invalid or has expired", "Token has expired or is invalid"). For links it
 *   is therefore `invalid-action-code` (whose text covers expiry); for SMS it is `code-expired`, which the
 *   adapter narrows to `invalid-verification-code` while the code is still within its lifetime.
 * - A missing or mismatched PKCE code verifier (the link or OAuth return opened in another browser, or storage
 *   cleared) is `session-expired`: "Your sign-in session has expired. Please try again."
 * - "Confirm email" style refusals (`email_not_confirmed`, …) are `operation-not-allowed`: the catalogue has
 *   no "check your email" code.
 * - Second factors: a wrong code is `mfa_verification_failed`; an expired or spent challenge, a factor gone or
 *   a pending sign-in whose aal1 session ended are `code-expired` (start over); GoTrue's `insufficient_aal`
 *   (enrolling or removing at aal1) is `requires-recent-login`.
 * - Passkeys: a challenge used, unknown or expired is `session-expired`; `webauthn_verification_failed` is
 *   `passkey-invalid` (a sign-in narrows it to `passkey-not-found` when the assertion was made for this very
 *   ceremony, see `browser/passkeys.ts`); GoTrue's "Passkey not found" (404 `validation_failed`) is
 *   `passkey-not-found`; passkeys off (`passkey_disabled`) or too many (`too_many_passkeys`) are
 *   `operation-not-allowed`.
 */
export const SUPABASE_ERROR_TABLE: Readonly<Record<string, SupabaseErrorMapping>> = {
  invalid_credentials: 'wrong-password',
  user_already_exists: 'email-already-in-use',
  email_exists: 'email-already-in-use',
  phone_exists: 'credential-already-in-use',
  identity_already_exists: 'credential-already-in-use',
  weak_password: 'weak-password',
  same_password: 'weak-password',
  over_request_rate_limit: RATE_LIMIT,
  over_email_send_rate_limit: RATE_LIMIT,
  over_sms_send_rate_limit: 'phone-too-many-requests',
  otp_expired: { default: 'invalid-action-code', sms: 'code-expired' },
  signup_disabled: 'sign-up-disabled',
  otp_disabled: 'sign-up-disabled',
  email_address_invalid: 'invalid-email',
  validation_failed: {
    default: 'invalid-email',
    phone: 'invalid-phone-number',
    sms: 'invalid-verification-code',
    link: 'invalid-action-code',
    federated: 'operation-not-allowed',
    anonymous: 'generic',
    other: 'generic',
    mfaEnroll: 'invalid-phone-number',
    mfaSignIn: 'invalid-verification-code',
    passkey: 'passkey-not-found',
  },
  email_provider_disabled: 'operation-not-allowed',
  phone_provider_disabled: 'operation-not-allowed',
  provider_disabled: 'operation-not-allowed',
  anonymous_provider_disabled: 'operation-not-allowed',
  manual_linking_disabled: 'operation-not-allowed',
  oauth_provider_not_supported: 'operation-not-allowed',
  email_address_not_authorized: 'operation-not-allowed',
  email_not_confirmed: 'operation-not-allowed',
  phone_not_confirmed: 'operation-not-allowed',
  provider_email_needs_verification: 'operation-not-allowed',
  user_banned: 'user-disabled',
  user_not_found: 'user-not-found',
  captcha_failed: 'captcha-check-failed',
  reauthentication_needed: 'requires-recent-login',
  reauthentication_not_valid: 'requires-recent-login',
  session_not_found: SESSION_GONE,
  session_expired: SESSION_GONE,
  refresh_token_not_found: SESSION_GONE,
  refresh_token_already_used: SESSION_GONE,
  bad_jwt: SESSION_GONE,
  no_authorization: SESSION_GONE,
  bad_code_verifier: 'session-expired',
  pkce_code_verifier_not_found: 'session-expired',
  flow_state_not_found: { default: 'session-expired', link: 'invalid-action-code' },
  flow_state_expired: { default: 'session-expired', link: 'expired-action-code' },
  bad_oauth_state: 'session-expired',
  bad_oauth_callback: 'session-expired',
  request_timeout: 'network-request-failed',
  mfa_verification_failed: 'invalid-verification-code',
  mfa_challenge_expired: 'code-expired',
  mfa_ip_address_mismatch: 'code-expired',
  mfa_factor_not_found: { default: 'generic', mfaEnroll: 'code-expired', mfaSignIn: 'code-expired' },
  mfa_verified_factor_exists: 'credential-already-in-use',
  insufficient_aal: 'requires-recent-login',
  too_many_enrolled_mfa_factors: 'operation-not-allowed',
  mfa_totp_enroll_not_enabled: 'operation-not-allowed',
  mfa_totp_verify_not_enabled: 'operation-not-allowed',
  mfa_phone_enroll_not_enabled: 'operation-not-allowed',
  mfa_phone_verify_not_enabled: 'operation-not-allowed',
  passkey_disabled: 'operation-not-allowed',
  too_many_passkeys: 'operation-not-allowed',
  webauthn_challenge_not_found: 'session-expired',
  webauthn_challenge_expired: 'session-expired',
  webauthn_verification_failed: 'passkey-invalid',
  webauthn_credential_exists: 'credential-already-in-use',
  single_identity_not_deletable: 'last-sign-in-method',
  identity_not_found: 'operation-not-allowed',
  email_conflict_identity_not_deletable: 'operation-not-allowed',
};

/** The catalogue code for a Supabase error code in a context (`generic` when the code is unknown). */
export function mapSupabaseErrorCode(
  code: string | undefined,
  context: SupabaseErrorContext = 'other',
): ErrorCode {
  if (code === undefined || !Object.hasOwn(SUPABASE_ERROR_TABLE, code)) return 'generic';
  const entry = SUPABASE_ERROR_TABLE[code] as SupabaseErrorMapping;
  return typeof entry === 'string' ? entry : (entry[context] ?? entry.default);
}

interface SupabaseLikeError {
  name?: unknown;
  code?: unknown;
  status?: unknown;
  details?: unknown;
}

const isObject = (v: unknown): v is SupabaseLikeError => typeof v === 'object' && v !== null;

/** The GoTrue error code of anything supabase-js (or a redirect URL) produced, if it carries one. */
function supabaseCode(error: SupabaseLikeError): string | undefined {
  if (typeof error.code === 'string' && error.code !== '') return error.code;
  // AuthImplicitGrantRedirectError / AuthPKCEGrantCodeExchangeError carry the server's code in `details`.
  if (isObject(error.details) && typeof error.details.code === 'string') return error.details.code;
  return undefined;
}

/**
 * Turns anything a supabase-js call threw or returned as `error` into a Doorway {@link AuthError}. The
 * message is always the catalogue text: a Supabase message never reaches a person.
 *
 * @param context what the adapter was doing (see {@link SUPABASE_ERROR_TABLE})
 * @param details email / pending credential to carry for the flow
 * @example toAuthError(new AuthApiError('Invalid login credentials', 400, 'invalid_credentials'), 'password').code // 'wrong-password'
 */
export function toAuthError(
  error: unknown,
  context: SupabaseErrorContext = 'other',
  details: AuthErrorDetails = {},
): AuthError {
  if (error instanceof AuthError) return error;
  if (!isObject(error)) return new AuthError('generic', details);
  switch (error.name) {
    case 'AuthRetryableFetchError':
      // status 0: fetch failed; 5xx: the server or its gateway failed. Both are worth a retry.
      return new AuthError('network-request-failed', details);
    case 'AuthSessionMissingError':
      return new AuthError(mapSupabaseErrorCode('session_not_found', context), details);
    case 'AuthPKCECodeVerifierMissingError':
      return new AuthError('session-expired', details);
  }
  return new AuthError(mapSupabaseErrorCode(supabaseCode(error), context), details);
}
