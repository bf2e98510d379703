/**
 * Validation rules of spec §5: pure `(value, ctx) → ValidationKey | null`. User input never throws.
 * @module
 */
import { PASSWORD_MIN_LENGTH, PHONE_CODE_LENGTH } from './constants.ts';
import { AuthError } from './errors.ts';
import type { ValidationKey } from './messages.ts';

/** A validation rule. */
export type Rule<C = undefined> = (value: string, ctx: C) => ValidationKey | null;

// The one email rule of every package: the WHATWG `input type=email` pattern, with a dotted domain and
// the 254-character cap of RFC 5321's path limit.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Whether `value` (trimmed) is an email address by Doorway's one rule. */
export function isEmailAddress(value: string): boolean {
  const v = typeof value === 'string' ? value.trim() : '';
  return v.length <= 254 && EMAIL.test(v);
}

/** An address as accounts are stored and compared: trimmed and lower-cased, as hosted identity providers do. */
export function accountEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Whether two addresses are the same account's. */
export function sameEmail(a: string, b: string): boolean {
  return accountEmail(a) === accountEmail(b);
}

/**
 * For adapters: the address trimmed (case kept), or an `AuthError('invalid-email')` thrown when `value` is
 * not an address by {@link isEmailAddress}.
 */
export function requireEmail(value: string): string {
  if (!isEmailAddress(value)) throw new AuthError('invalid-email');
  return value.trim();
}

/** Email: required, then {@link isEmailAddress}. */
export const validateEmail: Rule = (value) => {
  const v = typeof value === 'string' ? value.trim() : '';
  if (v === '') return 'email-required';
  return isEmailAddress(v) ? null : 'email-invalid';
};

/** Password on sign-in: required. */
export const validatePassword: Rule = (value) =>
  typeof value === 'string' && value !== '' ? null : 'password-required';

/** New password: required, at least {@link PASSWORD_MIN_LENGTH} characters. */
export const validateNewPassword: Rule = (value) => {
  if (typeof value !== 'string' || value === '') return 'password-required';
  return [...value].length < PASSWORD_MIN_LENGTH ? 'password-weak' : null;
};

/** Account name: required when the name field is enabled. */
export const validateName: Rule<{ required: boolean }> = (value, ctx) =>
  ctx.required && (typeof value !== 'string' || value.trim() === '') ? 'name-required' : null;

/** Phone confirmation code: exactly {@link PHONE_CODE_LENGTH} digits. */
export const validateCode: Rule = (value) =>
  typeof value === 'string' && new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`).test(value.trim())
    ? null
    : 'code-invalid';

/** Phone number in E.164 form (the UI parses local input into it). */
export const validatePhoneNumber: Rule = (value) =>
  typeof value === 'string' && /^\+[1-9]\d{6,14}$/.test(value) ? null : 'phone-invalid';

/** Country: must be supported by the phone option. */
export const validateCountry: Rule<{ allowed: readonly string[] | null; blocked: readonly string[] }> = (
  value,
  ctx,
) => {
  const c = typeof value === 'string' ? value.toUpperCase() : '';
  if (!/^[A-Z]{2}$/.test(c)) return 'country-unsupported';
  if (ctx.allowed && !ctx.allowed.includes(c)) return 'country-unsupported';
  return ctx.blocked.includes(c) ? 'country-unsupported' : null;
};

/** Captcha: must be solved. */
export function validateCaptcha(solved: boolean): ValidationKey | null {
  return solved ? null : 'captcha-required';
}

/** Normalises an email for comparison and sending (trimmed; case kept, as providers compare case-insensitively). */
export function normalizeEmail(value: string): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A typed email as the cards keep it (trimmed) and its validation message, if any. */
export function typedEmail(raw: string): { email: string; invalid: ValidationKey | null } {
  const email = normalizeEmail(raw);
  return { email, invalid: validateEmail(email, undefined) };
}
