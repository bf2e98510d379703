/**
 * Firebase Auth's Identity Toolkit REST API (v1, API-key calls; v2 for second factors), one small
 * function per endpoint over a {@link RestContext}: what the server's form provider calls instead of the
 * browser SDK.
 *
 * A failure throws an {@link IdentityToolkitError} whose `code` is the `auth/…` code the Firebase JS SDK
 * raises for the same REST answer (its own table, copied in {@link IDENTITY_TOOLKIT_ERRORS}), so it goes
 * through the adapter's one catalogue table (`toAuthError`) and ends as the same catalogue code as in the
 * browser. The server's detail text (after ` : `) is dropped, and nothing sent (passwords, tokens, codes)
 * ever appears in an error.
 * @module
 */

/** Where and how the REST calls go. */
export interface RestContext {
  /** The project's web API key (any value on the emulator). */
  readonly apiKey: string;
  /** The API root without the version: {@link PRODUCTION_BASE_URL} or {@link emulatorBaseUrl}'s. */
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  /** The tenant the calls act in; `null` is the project's default tenant. */
  readonly tenantId: string | null;
  /** Language of the emails Firebase sends (`X-Firebase-Locale`); `null` leaves Firebase's default. */
  readonly languageCode?: string | null;
  /** How long one call may take before it fails as `auth/network-request-failed`. Default 30 s, as the SDK. */
  readonly timeoutMs?: number;
}

/** The API root of the real service. */
export const PRODUCTION_BASE_URL = 'https://identitytoolkit.googleapis.com';

/** The API root the Auth emulator serves (it speaks the same REST API), from its `host:port`. */
export function emulatorBaseUrl(host: string): string {
  return `http://${host}/identitytoolkit.googleapis.com`;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * REST error names → the Firebase Auth codes the JS SDK (v12) raises for them: its `SERVER_ERROR_MAP`,
 * plus the three names it checks before that map (`EMAIL_EXISTS`, `USER_DISABLED`,
 * `FEDERATED_USER_ID_ALREADY_LINKED`). Other names become `auth/` + the name in lower case with `-` for `_`
 * (`INVALID_EMAIL` → `auth/invalid-email`, `WEAK_PASSWORD` → `auth/weak-password`), as in the SDK.
 */
export const IDENTITY_TOOLKIT_ERRORS: Readonly<Record<string, string>> = {
  EMAIL_EXISTS: 'auth/email-already-in-use',
  USER_DISABLED: 'auth/user-disabled',
  FEDERATED_USER_ID_ALREADY_LINKED: 'auth/credential-already-in-use',
  CREDENTIAL_MISMATCH: 'auth/custom-token-mismatch',
  MISSING_CUSTOM_TOKEN: 'auth/internal-error',
  INVALID_IDENTIFIER: 'auth/invalid-email',
  MISSING_CONTINUE_URI: 'auth/internal-error',
  INVALID_PASSWORD: 'auth/wrong-password',
  MISSING_PASSWORD: 'auth/missing-password',
  INVALID_LOGIN_CREDENTIALS: 'auth/invalid-credential',
  PASSWORD_LOGIN_DISABLED: 'auth/operation-not-allowed',
  INVALID_IDP_RESPONSE: 'auth/invalid-credential',
  INVALID_PENDING_TOKEN: 'auth/invalid-credential',
  MISSING_REQ_TYPE: 'auth/internal-error',
  EMAIL_NOT_FOUND: 'auth/user-not-found',
  RESET_PASSWORD_EXCEED_LIMIT: 'auth/too-many-requests',
  EXPIRED_OOB_CODE: 'auth/expired-action-code',
  INVALID_OOB_CODE: 'auth/invalid-action-code',
  MISSING_OOB_CODE: 'auth/internal-error',
  CREDENTIAL_TOO_OLD_LOGIN_AGAIN: 'auth/requires-recent-login',
  INVALID_ID_TOKEN: 'auth/invalid-user-token',
  TOKEN_EXPIRED: 'auth/user-token-expired',
  USER_NOT_FOUND: 'auth/user-token-expired',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'auth/too-many-requests',
  PASSWORD_DOES_NOT_MEET_REQUIREMENTS: 'auth/password-does-not-meet-requirements',
  INVALID_CODE: 'auth/invalid-verification-code',
  INVALID_SESSION_INFO: 'auth/invalid-verification-id',
  INVALID_TEMPORARY_PROOF: 'auth/invalid-credential',
  MISSING_SESSION_INFO: 'auth/missing-verification-id',
  SESSION_EXPIRED: 'auth/code-expired',
  MISSING_ANDROID_PACKAGE_NAME: 'auth/missing-android-pkg-name',
  UNAUTHORIZED_DOMAIN: 'auth/unauthorized-continue-uri',
  INVALID_OAUTH_CLIENT_ID: 'auth/invalid-oauth-client-id',
  ADMIN_ONLY_OPERATION: 'auth/admin-restricted-operation',
  INVALID_MFA_PENDING_CREDENTIAL: 'auth/invalid-multi-factor-session',
  MFA_ENROLLMENT_NOT_FOUND: 'auth/multi-factor-info-not-found',
  MISSING_MFA_ENROLLMENT_ID: 'auth/missing-multi-factor-info',
  MISSING_MFA_PENDING_CREDENTIAL: 'auth/missing-multi-factor-session',
  SECOND_FACTOR_EXISTS: 'auth/second-factor-already-in-use',
  SECOND_FACTOR_LIMIT_EXCEEDED: 'auth/maximum-second-factor-count-exceeded',
  BLOCKING_FUNCTION_ERROR_RESPONSE: 'auth/internal-error',
  RECAPTCHA_NOT_ENABLED: 'auth/recaptcha-not-enabled',
  MISSING_RECAPTCHA_TOKEN: 'auth/missing-recaptcha-token',
  INVALID_RECAPTCHA_TOKEN: 'auth/invalid-recaptcha-token',
  INVALID_RECAPTCHA_ACTION: 'auth/invalid-recaptcha-action',
  MISSING_CLIENT_TYPE: 'auth/missing-client-type',
  MISSING_RECAPTCHA_VERSION: 'auth/missing-recaptcha-version',
  INVALID_RECAPTCHA_VERSION: 'auth/invalid-recaptcha-version',
  INVALID_REQ_TYPE: 'auth/invalid-req-type',
};

/**
 * The Firebase Auth code for a REST error message such as `WEAK_PASSWORD : Password should be at least
 * 6 characters` (the name before ` : ` decides).
 * @example restErrorCode('INVALID_LOGIN_CREDENTIALS') // 'auth/invalid-credential'
 */
export function restErrorCode(message: string): string {
  const name = message.split(' : ')[0] ?? '';
  if (Object.hasOwn(IDENTITY_TOOLKIT_ERRORS, name)) return IDENTITY_TOOLKIT_ERRORS[name] as string;
  return `auth/${name.toLowerCase().replace(/[_\s]+/g, '-')}`;
}

/** A sign-in's answer when the account has a second factor: what finishing it needs, and the factors. */
export interface MfaPending {
  /** Firebase's pending credential: `accounts/mfaSignIn:finalize` completes the sign-in with it. */
  mfaPendingCredential: string;
  /** The account's factors, phone numbers masked. */
  mfaInfo: MfaEnrollment[];
}

/** A failed REST call, named by the Firebase Auth code the SDK would raise (`auth/wrong-password`, …). */
export class IdentityToolkitError extends Error {
  override readonly name = 'IdentityToolkitError';
  /** The Firebase Auth code; `toAuthError` turns it into a catalogue code. */
  readonly code: string;
  /** The REST error name (`INVALID_PASSWORD`), without the server's detail text; `null` for no answer. */
  readonly serverCode: string | null;
  /** `auth/multi-factor-auth-required`: the pending sign-in, for its challenge; else `null`. */
  readonly mfa: MfaPending | null;
  constructor(code: string, serverCode: string | null = null, mfa: MfaPending | null = null) {
    super(code);
    this.code = code;
    this.serverCode = serverCode;
    this.mfa = mfa;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failure(json: Record<string, unknown>, ok: boolean): IdentityToolkitError {
  const message = ok ? json.errorMessage : isRecord(json.error) ? json.error.message : undefined;
  // No error name at all: as the SDK, count it as no answer.
  if (typeof message !== 'string') return new IdentityToolkitError('auth/network-request-failed');
  return new IdentityToolkitError(restErrorCode(message), message.split(' : ')[0] ?? null);
}

/**
 * POSTs one call to `path` (`/v1/accounts:lookup`, `/v2/accounts/mfaSignIn:finalize`) and returns its
 * JSON. `tenant`: whether the call carries the context's tenant (as the SDK's `_addTidIfNecessary`; calls
 * made with an ID token act in the token's tenant).
 */
async function postTo<T>(
  ctx: RestContext,
  path: string,
  body: Record<string, unknown>,
  tenant: boolean,
): Promise<T> {
  const url = `${ctx.baseUrl}${path}?key=${encodeURIComponent(ctx.apiKey)}`;
  const payload = tenant && ctx.tenantId !== null ? { ...body, tenantId: ctx.tenantId } : body;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (ctx.languageCode) headers['X-Firebase-Locale'] = ctx.languageCode;
  const { fetch: send } = ctx;
  let ok: boolean;
  let json: unknown;
  try {
    const response = await send(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    ok = response.ok;
    json = await response.json();
  } catch {
    // Unreachable, timed out, or not JSON (a proxy's error page): the SDK's network-request-failed.
    throw new IdentityToolkitError('auth/network-request-failed');
  }
  if (!isRecord(json)) throw new IdentityToolkitError('auth/network-request-failed');
  if ('needConfirmation' in json)
    throw new IdentityToolkitError('auth/account-exists-with-different-credential');
  if (!ok || 'errorMessage' in json) throw failure(json, ok);
  return json as T;
}

/** POSTs one `/v1/accounts:<endpoint>` call (see {@link postTo}). */
function post<T>(
  ctx: RestContext,
  endpoint: string,
  body: Record<string, unknown>,
  tenant = true,
): Promise<T> {
  return postTo(ctx, `/v1/accounts:${endpoint}`, body, tenant);
}

/** POSTs one `/v2/accounts/<endpoint>` call, the multi-factor API (see {@link postTo}). */
function postV2<T>(ctx: RestContext, endpoint: string, body: Record<string, unknown>): Promise<T> {
  return postTo(ctx, `/v2/accounts/${endpoint}`, body, true);
}

/** A sign-in's answer: the account and its fresh ID token. */
export interface IdTokenResponse {
  localId: string;
  idToken: string;
  email?: string;
  displayName?: string;
  /** Set by `signInWithEmailLink`. */
  isNewUser?: boolean;
}

async function signIn<T extends IdTokenResponse>(
  ctx: RestContext,
  endpoint: string,
  body: Record<string, unknown>,
  tenant = true,
): Promise<T> {
  const response = await post<T & Partial<MfaPending>>(ctx, endpoint, body, tenant);
  // A second factor is due: the SDK raises this code, with what finishing the sign-in needs.
  if (typeof response.mfaPendingCredential === 'string') {
    const mfa = { mfaPendingCredential: response.mfaPendingCredential, mfaInfo: response.mfaInfo ?? [] };
    throw new IdentityToolkitError('auth/multi-factor-auth-required', null, mfa);
  }
  if (typeof response.idToken !== 'string' || typeof response.localId !== 'string') {
    throw new IdentityToolkitError('auth/internal-error');
  }
  return response;
}

/** `accounts:createAuthUri`: the sign-in methods of an email (none under email enumeration protection). */
export function createAuthUri(
  ctx: RestContext,
  body: { identifier: string; continueUri: string },
): Promise<{ signinMethods?: string[] }> {
  return post(ctx, 'createAuthUri', body);
}

/** `accounts:signInWithPassword`. */
export function signInWithPassword(
  ctx: RestContext,
  body: { email: string; password: string },
): Promise<IdTokenResponse> {
  return signIn(ctx, 'signInWithPassword', {
    ...body,
    returnSecureToken: true,
    clientType: 'CLIENT_TYPE_WEB',
  });
}

/**
 * `accounts:signUp`: an email/password account (with an optional display name), or an anonymous one when
 * no email is given.
 */
export function signUp(
  ctx: RestContext,
  body: { email?: string; password?: string; displayName?: string },
): Promise<IdTokenResponse> {
  return signIn(ctx, 'signUp', { ...body, returnSecureToken: true, clientType: 'CLIENT_TYPE_WEB' });
}

/** `accounts:update` with an `oobCode`: applies a verifyEmail / recoverEmail / verifyAndChangeEmail / revert code. */
export function update(ctx: RestContext, body: { oobCode: string }): Promise<Record<string, unknown>> {
  return post(ctx, 'update', body);
}

/** `accounts:sendOobCode`: emails a password reset or a sign-in link. */
export function sendOobCode(
  ctx: RestContext,
  body: {
    requestType: 'PASSWORD_RESET' | 'EMAIL_SIGNIN';
    email: string;
    continueUrl?: string;
    canHandleCodeInApp?: boolean;
  },
): Promise<{ email?: string }> {
  return post(ctx, 'sendOobCode', { ...body, clientType: 'CLIENT_TYPE_WEB' });
}

/**
 * `accounts:signInWithEmailLink`: signs in (creating the account when new) with the code of a sign-in
 * link, or with `idToken` links the email to that user.
 */
export function signInWithEmailLink(
  ctx: RestContext,
  body: { email: string; oobCode: string; idToken?: string },
): Promise<IdTokenResponse> {
  return signIn(ctx, 'signInWithEmailLink', body);
}

/**
 * A multi-factor enrolment as Firebase reports it: in a sign-in's `mfaInfo` (phone masked), an account's
 * (`accounts:lookup`, phone in full), and for a revert code (`accounts:resetPassword`).
 */
export interface MfaEnrollment {
  mfaEnrollmentId?: string;
  displayName?: string;
  phoneInfo?: string;
  totpInfo?: Record<string, unknown>;
  /** When it was enrolled (RFC 3339). */
  enrolledAt?: string;
}

/** What `accounts:resetPassword` tells about a code. */
export interface OobCodeInfo {
  requestType?: string;
  email?: string;
  newEmail?: string;
  mfaInfo?: MfaEnrollment;
}

/**
 * `accounts:resetPassword`: with the code only, describes it (check / verify); with `newPassword`,
 * sets the password (confirm).
 */
export function resetPassword(
  ctx: RestContext,
  body: { oobCode: string; newPassword?: string },
): Promise<OobCodeInfo> {
  return post(ctx, 'resetPassword', body);
}

/** An account as `accounts:lookup` returns it (the fields the adapter reads). */
export interface AccountInfo {
  localId: string;
  email?: string;
  displayName?: string;
  phoneNumber?: string;
  emailVerified?: boolean;
  tenantId?: string;
  providerUserInfo?: { providerId: string }[];
  /** The account's second factors. */
  mfaInfo?: MfaEnrollment[];
}

/** `accounts:lookup`: the account of an ID token. */
export async function lookup(ctx: RestContext, body: { idToken: string }): Promise<AccountInfo> {
  const response = await post<{ users?: AccountInfo[] }>(ctx, 'lookup', body, false);
  const user = response.users?.[0];
  if (user === undefined || typeof user.localId !== 'string') {
    throw new IdentityToolkitError('auth/internal-error');
  }
  return user;
}

/** What a multi-factor call that signs in (or refreshes the sign-in) answers. */
export interface MfaTokenResponse {
  idToken: string;
  refreshToken?: string;
}

async function tokens(pending: Promise<MfaTokenResponse>): Promise<MfaTokenResponse> {
  const response = await pending;
  if (typeof response.idToken !== 'string') throw new IdentityToolkitError('auth/internal-error');
  return response;
}

/**
 * `accounts/mfaSignIn:finalize` (v2): finishes a pending sign-in with an authenticator-app code
 * (`totpVerificationInfo` and the factor's `mfaEnrollmentId`) or an SMS code (`phoneVerificationInfo`,
 * the session a `mfaSignIn:start` answered).
 */
export function mfaSignInFinalize(
  ctx: RestContext,
  body: { mfaPendingCredential: string } & (
    | { mfaEnrollmentId: string; totpVerificationInfo: { verificationCode: string } }
    | { phoneVerificationInfo: { sessionInfo: string; code: string } }
  ),
): Promise<MfaTokenResponse> {
  return tokens(postV2(ctx, 'mfaSignIn:finalize', body));
}

/** The TOTP secret `accounts/mfaEnrollment:start` answers. */
export interface TotpSessionInfo {
  sharedSecretKey: string;
  verificationCodeLength?: number;
  hashingAlgorithm?: string;
  periodSec?: number;
  /** Hands the enrolment to `mfaEnrollment:finalize`. */
  sessionInfo: string;
}

/** `accounts/mfaEnrollment:start` (v2) for an authenticator app: a new secret for the user of `idToken`. */
export async function mfaEnrollmentStartTotp(
  ctx: RestContext,
  body: { idToken: string },
): Promise<TotpSessionInfo> {
  const response = await postV2<{ totpSessionInfo?: TotpSessionInfo }>(ctx, 'mfaEnrollment:start', {
    ...body,
    totpEnrollmentInfo: {},
  });
  const info = response.totpSessionInfo;
  if (typeof info?.sharedSecretKey !== 'string' || typeof info.sessionInfo !== 'string') {
    throw new IdentityToolkitError('auth/internal-error');
  }
  return info;
}

/** `accounts/mfaEnrollment:finalize` (v2) for an authenticator app: a code of the new secret enrols it. */
export function mfaEnrollmentFinalizeTotp(
  ctx: RestContext,
  body: {
    idToken: string;
    displayName?: string;
    totpVerificationInfo: { sessionInfo: string; verificationCode: string };
  },
): Promise<MfaTokenResponse> {
  return tokens(postV2(ctx, 'mfaEnrollment:finalize', body));
}

/** `accounts/mfaEnrollment:withdraw` (v2): removes one factor of the user of `idToken`. */
export function mfaEnrollmentWithdraw(
  ctx: RestContext,
  body: { idToken: string; mfaEnrollmentId: string },
): Promise<MfaTokenResponse> {
  return tokens(postV2(ctx, 'mfaEnrollment:withdraw', body));
}
