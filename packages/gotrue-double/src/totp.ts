/**
 * TOTP as GoTrue does it with pquerna/otp (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps, a 160-bit
 * secret), by `otpauth`, on the double's clock: new secrets, the `otpauth://` URI GoTrue answers an
 * enrolment with, and its check of a code (the current step and one either side).
 * @module
 */
import { Secret, TOTP } from 'otpauth';

const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_S = 30;
/** GoTrue's `Skew: 1`: a code of the step before or after the current one is accepted too. */
const SKEW = 1;
/** pquerna/otp's default secret size. */
const SECRET_BYTES = 20;

/** A new base32 secret (no padding: 20 bytes are 32 characters). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/**
 * The key's URI as pquerna/otp's `key.URL()` writes it: `otpauth://totp/<issuer>:<account>` and the
 * parameters in key order.
 */
export function totpUri(secret: string, issuer: string, account: string): string {
  const query = new URLSearchParams({
    algorithm: ALGORITHM,
    digits: String(DIGITS),
    issuer,
    period: String(PERIOD_S),
    secret,
  });
  return `otpauth://totp/${encodeURIComponent(`${issuer}:${account}`)}?${query}`;
}

/** Whether `code` is the code of `secret` at `now` (ms), or of the step just before or after it. */
export function isTotpCode(secret: string, code: string, now: number): boolean {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_S,
    timestamp: now,
    window: SKEW,
  });
  return delta !== null;
}

/**
 * What GoTrue puts in `totp.qr_code`: an SVG (supabase-js prefixes the data URL). GoTrue draws the QR code
 * of the URI; the double draws an empty picture that says it is not one.
 */
export function qrCodeSvg(): string {
  return '<svg xmlns="http://www.w3.org/2000/svg" width="29" height="29" viewBox="0 0 29 29"><title>Not a QR code: the GoTrue double draws none</title></svg>';
}
