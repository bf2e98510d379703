/**
 * Every number the spec fixes (§9), named after the spec.
 * @module
 */

/** Phone confirmation codes are exactly this many digits. */
export const PHONE_CODE_LENGTH = 6;
/** Seconds before "Resend" becomes available on the phone code card; shown as `0:NN`. */
export const RESEND_COUNTDOWN_SECONDS = 15;
/** How long "Signed in!" / "Verified!" shows before the redirect, in ms. */
export const SUCCESS_DISPLAY_DELAY_MS = 1000;
/** A provider call must be pending this long (ms) before the busy spinner shows. */
export const BUSY_SPINNER_DELAY_MS = 500;
/** Federated popup window size in CSS pixels. */
export const POPUP_WIDTH = 500;
/** Federated popup window size in CSS pixels. */
export const POPUP_HEIGHT = 600;
/** Minimum length of a new password (the hint also asks for letters and numbers). */
export const PASSWORD_MIN_LENGTH = 6;
/** Lifetime of the email-link session (and of cookies holding it), in seconds. */
export const EMAIL_LINK_STORAGE_TTL_SECONDS = 3600;
/** How long a lazily loaded provider script may take to load, in ms. */
export const SCRIPT_LOAD_TIMEOUT_MS = 5000;
/** How long to wait for the identity library to become available after its script loaded, in ms. */
export const IDENTITY_LIBRARY_WAIT_MS = 10_000;
/** The widget language is forced to English. */
export const WIDGET_LANGUAGE = 'en';
/** Query parameter carrying the email-link session id inside the continue URL. */
export const EMAIL_LINK_SESSION_PARAM = 'doorway_sid';

/**
 * Formats a countdown as the spec shows it, `0:NN` (minutes without padding, seconds padded to 2).
 * @example formatCountdown(15) // "0:15"
 */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
