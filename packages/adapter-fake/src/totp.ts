/**
 * TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps) on the fake's clock, by `otpauth`: secrets, the
 * code an authenticator app shows, the check a sign-in makes (the current step and one either side) and
 * the `otpauth://` URI of the enrolment's QR code.
 * @module
 */
import { Secret, TOTP } from 'otpauth';

/** The issuer an authenticator app lists the fake's accounts under. */
export const TOTP_ISSUER = 'Doorway';

const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_S = 30;
/** Steps either side of the current one a code may come from (clock drift, a code typed as it rolls over). */
const WINDOW = 1;
/** 160 bits, as RFC 4226 recommends. */
const SECRET_BYTES = 20;

/** A new base32 secret from 32-bit words (the world's seeded source, so runs are reproducible). */
export function newTotpSecret(words: () => number): string {
  const bytes = new DataView(new ArrayBuffer(SECRET_BYTES));
  for (let offset = 0; offset < SECRET_BYTES; offset += 4) bytes.setUint32(offset, words());
  return new Secret({ buffer: bytes.buffer }).base32;
}

/** `secret` as stored (upper case, no spaces or padding), or `null` when it is not base32. */
export function normalizeTotpSecret(secret: string): string | null {
  const compact = secret.replace(/\s/g, '').replace(/=+$/, '').toUpperCase();
  return /^[A-Z2-7]+$/.test(compact) ? compact : null;
}

/** The code of `secret` at `now` (ms since the epoch). */
export function totpCodeAt(secret: string, now: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_S,
    timestamp: now,
  });
}

/** Whether `code` is the code of `secret` at `now`, or of the step just before or after it. */
export function isTotpCode(secret: string, code: string, now: number): boolean {
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_S,
    timestamp: now,
    window: WINDOW,
  });
  return delta !== null;
}

/** `otpauth://totp/Doorway:<account>?secret=…&issuer=Doorway&…`, what an authenticator app scans. */
export function totpUri(secret: string, account: string): string {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: account,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_S,
  }).toString();
}
