/**
 * The errors the double's handlers throw, and the ones GoTrue answers from many routes (so that each is
 * worded once, as GoTrue words it).
 * @module
 */

/** A GoTrue error while handling a request (its HTTP status, error code and message). */
export class GoTrueDoubleError extends Error {
  readonly status: number;
  readonly code: string;
  readonly weakPassword: boolean;
  constructor(status: number, code: string, message: string, weakPassword = false) {
    super(message);
    this.status = status;
    this.code = code;
    this.weakPassword = weakPassword;
  }
}

/** An OAuth-style error body (`{ error, error_description }`), as GoTrue answers some /token failures. */
export class OAuthDoubleError extends Error {
  readonly error: string;
  constructor(error: string, description: string) {
    super(description);
    this.error = error;
  }
}

/** 400 validation_failed: GoTrue's answer to a malformed request. */
export const validationFailed = (message: string, status = 400) =>
  new GoTrueDoubleError(status, 'validation_failed', message);

/** An address another account already has (422 on most routes; identity linking answers 400). */
export const emailExists = (status = 422) =>
  new GoTrueDoubleError(status, 'email_exists', 'A user with this email address has already been registered');

/** A phone number another account already has. */
export const phoneExists = () =>
  new GoTrueDoubleError(422, 'phone_exists', 'A user with this phone number has already been registered');

/** DISABLE_SIGNUP refused a new account. */
export const signupDisabled = () =>
  new GoTrueDoubleError(422, 'signup_disabled', 'Signups not allowed for this instance');

/** The account is banned (403 on most routes; the password grant answers 400). */
export const userBanned = (status = 403) => new GoTrueDoubleError(status, 'user_banned', 'User is banned');

/** No account with this id or address. */
export const userNotFound = (message = 'User not found') =>
  new GoTrueDoubleError(404, 'user_not_found', message);

/** SECURITY_MANUAL_LINKING_ENABLED is off. */
export const manualLinkingDisabled = () =>
  new GoTrueDoubleError(404, 'manual_linking_disabled', 'Manual linking is disabled');
