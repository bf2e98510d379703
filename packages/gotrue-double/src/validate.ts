/**
 * GoTrue's request checks (its api helpers): addresses, phone numbers, passwords, captcha, redirect targets
 * and the JSON body.
 * @module
 */
import { isEmailAddress } from '@doorway/auth-core';
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError, validationFailed } from './errors.ts';
import { formatPhone, isObject, str } from './util.ts';

// GoTrue's E.164 check (after formatPhone).
const E164 = /^[1-9]\d{1,14}$/;

/** The address lower-cased, or GoTrue's validation_failed answer. */
export function validateEmail(email: string): string {
  if (email === '') throw validationFailed('An email address is required');
  if (email.length > 255) throw validationFailed('An email address is too long');
  // Doorway's one email rule (GoTrue's checkmail pattern); it trims, GoTrue does not.
  if (email.trim() !== email || !isEmailAddress(email)) {
    throw validationFailed('Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}

/** The number's digits, or GoTrue's validation_failed answer. */
export function validatePhone(phone: string): string {
  const formatted = formatPhone(phone);
  if (!E164.test(formatted)) throw validationFailed('Invalid phone number format (E.164 required)');
  return formatted;
}

/** PASSWORD_MIN_LENGTH, answered as weak_password. */
export function checkPassword(ctx: DoubleContext, password: string): void {
  const min = ctx.config.passwordMinLength;
  if (password.length < min) {
    throw new GoTrueDoubleError(422, 'weak_password', `Password should be at least ${min} characters.`, true);
  }
}

/** SECURITY_CAPTCHA_ENABLED: the body's `gotrue_meta_security.captcha_token` must be the one accepted. */
export function checkCaptcha(ctx: DoubleContext, body: Record<string, unknown>): void {
  if (ctx.config.captchaToken === null) return;
  const security = isObject(body.gotrue_meta_security) ? body.gotrue_meta_security : {};
  const token = str(security.captcha_token).trim();
  if (token === '' || token !== ctx.config.captchaToken) {
    const reason = token === '' ? 'no captcha_token found' : 'invalid-input-response';
    throw new GoTrueDoubleError(400, 'captcha_failed', `captcha protection: request disallowed (${reason})`);
  }
}

function isRedirectValid(ctx: DoubleContext, url: string): boolean {
  try {
    if (new URL(url).hostname === new URL(ctx.config.siteUrl).hostname) return true;
  } catch {
    return false;
  }
  return ctx.config.uriAllowList.some((re) => re.test(url));
}

/** GoTrue's GetReferrer: `redirect_to` if allowed, else the Site URL. */
export function referrer(ctx: DoubleContext, redirectTo: string | null): string {
  return redirectTo && isRedirectValid(ctx, redirectTo) ? redirectTo : ctx.config.siteUrl;
}

/** The request's JSON object body (`{}` for another JSON value), or 400 bad_json. */
export async function readJson(request: Request): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = await request.json();
    return isObject(parsed) ? parsed : {};
  } catch {
    throw new GoTrueDoubleError(400, 'bad_json', 'Could not parse request body as JSON');
  }
}
