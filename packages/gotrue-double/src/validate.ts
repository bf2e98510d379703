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

/** A URL's scheme, host name (brackets dropped) and port as Go's url.Parse reads them, or `null`. */
function parseUrl(url: string): { scheme: string; host: string; port: string } | null {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d*))?)?/.exec(url);
  if (!m) return null;
  const host = (m[2] ?? '').replace(/^\[(.*)\]$/, '$1');
  return { scheme: (m[1] as string).toLowerCase(), host, port: m[3] ?? '' };
}

/** isLocalhost (url_validator.go). */
const isLocalhost = (host: string) =>
  ['localhost', '127.0.0.1', '::1', '0.0.0.0', '::'].includes(host.toLowerCase()) ||
  host.toLowerCase().endsWith('.localhost');

/** net.ParseIP(host).IsLoopback(), or `null` when the host is no IP address. */
function loopbackIp(host: string): boolean | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return v4.slice(1).every((n) => Number(n) <= 255) ? v4[1] === '127' : null;
  if (!host.includes(':')) return null;
  return /^(0{0,4}:){2,7}0{0,3}1$/.test(host) || host === '::1';
}

/**
 * IsRedirectURLValid (utilities/request.go): back to the Site URL (same scheme, host and port; any port on
 * localhost), a loopback IP address, or a URI_ALLOW_LIST match (fragment left out); never a decimal IP
 * address or an HTTP host name with unusual characters.
 */
export function isRedirectValid(ctx: DoubleContext, url: string): boolean {
  const base = parseUrl(ctx.config.siteUrl);
  const ref = parseUrl(url);
  if (url === '' || !base || !ref) return false;
  if (
    base.host === ref.host &&
    base.scheme === ref.scheme &&
    (base.port === ref.port || isLocalhost(ref.host))
  ) {
    return true;
  }
  if (/^[0-9]+$/.test(ref.host)) return false;
  const loopback = loopbackIp(ref.host);
  if (loopback !== null) return loopback;
  const http = ref.scheme === 'http' || ref.scheme === 'https';
  if (http && !/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/.test(ref.host)) return false;
  const withoutFragment = url.split('#')[0] as string;
  return ctx.config.uriAllowList.some((re) => re.test(withoutFragment));
}

/** GoTrue's GetReferrer: `redirect_to` if allowed, else the request's `Referer` if allowed, else the Site URL. */
export function referrer(
  ctx: DoubleContext,
  redirectTo: string | null,
  refererHeader?: string | null,
): string {
  if (redirectTo && isRedirectValid(ctx, redirectTo)) return redirectTo;
  if (refererHeader && isRedirectValid(ctx, refererHeader)) return refererHeader;
  return ctx.config.siteUrl;
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
