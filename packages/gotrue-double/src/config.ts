/**
 * The double's project settings, resolved once from {@link GoTrueDoubleOptions} (defaults are Supabase's
 * hosted ones), with times in milliseconds and URI_ALLOW_LIST compiled.
 * @module
 */
import { GOTRUE_DEFAULT_TEMPLATES } from './templates.ts';
import type { DoubleTemplateName, GoTrueDoubleOptions } from './types.ts';

/** The settings the handlers read. */
export interface DoubleConfig {
  siteUrl: string;
  uriAllowList: RegExp[];
  mailerAutoconfirm: boolean;
  smsAutoconfirm: boolean;
  disableSignup: boolean;
  anonymousUsers: boolean;
  manualLinking: boolean;
  secureEmailChange: boolean;
  externalProviders: Set<string>;
  passwordMinLength: number;
  mailerOtpExpMs: number;
  smsOtpExpMs: number;
  smtpMaxFrequencyMs: number;
  smsMaxFrequencyMs: number;
  templates: Record<DoubleTemplateName, string>;
  captchaToken: string | null;
  apiVersioning: boolean;
  jwtExpSeconds: number;
  mfa: MfaConfig;
  passkey: PasskeyConfig;
  rateLimits: RateLimitConfig;
  /** SECURITY_REFRESH_TOKEN_REUSE_INTERVAL (10 s), ms. */
  refreshTokenReuseIntervalMs: number;
}

/** GoTrue's passkey settings (PASSKEY_* and WEBAUTHN_*). */
export interface PasskeyConfig {
  enabled: boolean;
  rpId: string;
  rpDisplayName: string;
  rpOrigins: string[];
  /** WEBAUTHN_CHALLENGE_EXPIRY_DURATION (5 min). */
  challengeExpiryMs: number;
  /** PASSKEY_MAX_PASSKEYS_PER_USER (10). */
  maxPerUser: number;
  /** Double-only: refuse a signature counter that did not rise (GoTrue accepts it). */
  refuseCounterRegression: boolean;
}

/** GoTrue's MFA settings (GOTRUE_MFA_*), with its defaults. */
export interface MfaConfig {
  totp: boolean;
  phone: boolean;
  phoneMaxFrequencyMs: number;
  /** MFA_CHALLENGE_EXPIRY_DURATION (300 s; GoTrue raises anything lower to it). */
  challengeExpiryMs: number;
  /** MFA_FACTOR_EXPIRY_DURATION: unverified, never challenged factors older than this go (300 s). */
  factorExpiryMs: number;
  /** MFA_MAX_ENROLLED_FACTORS and MFA_MAX_VERIFIED_FACTORS (10 each). */
  maxFactors: number;
}

/** The limits, named after GOTRUE_RATE_LIMIT_* and GOTRUE_MFA_RATE_LIMIT_*, with GoTrue's defaults. */
export interface RateLimitConfig {
  /** RATE_LIMIT_HEADER: the header whose first value is the client's address (`null`: the peer address). */
  header: string | null;
  /** RATE_LIMIT_TOKEN_REFRESH: `/token` requests per 5 minutes per client (150). */
  tokenRefresh: number;
  /** RATE_LIMIT_VERIFY: `/verify` requests per 5 minutes per client (30). */
  verify: number;
  /** RATE_LIMIT_OTP: `/signup`, `/otp`, `/recover`, `PUT /user` requests per 5 minutes per client (30). */
  otp: number;
  /** RATE_LIMIT_ANONYMOUS_USERS: anonymous sign-ups per hour per client (30). */
  anonymousUsers: number;
  /** MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: factor challenges, and verifies, per minute per client (15). */
  mfaChallengeAndVerify: number;
  /** RATE_LIMIT_PASSKEY: passkey sign-in options per 5 minutes per client (30). */
  passkey: number;
  /** RATE_LIMIT_EMAIL_SENT: emails the project sends per hour, all clients together (30). */
  emailSent: number;
  /** RATE_LIMIT_SMS_SENT: SMS the project sends per hour, all clients together (30). */
  smsSent: number;
}

/** The limits of `options`, defaults filled in. */
export function rateLimitConfig(options: GoTrueDoubleOptions): RateLimitConfig {
  const r = options.rateLimits ?? {};
  return {
    header: r.header ?? null,
    tokenRefresh: r.tokenRefresh ?? 150,
    verify: r.verify ?? 30,
    otp: r.otp ?? 30,
    anonymousUsers: r.anonymousUsers ?? 30,
    mfaChallengeAndVerify: r.mfaChallengeAndVerify ?? 15,
    passkey: r.passkey ?? 30,
    emailSent: r.emailSent ?? 30,
    smsSent: r.smsSent ?? 30,
  };
}

/** GoTrue's URI_ALLOW_LIST globs: `**` any characters, `*` any but `/` and `.`. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/.]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The passkey settings of `options`: the relying party is the Site URL's unless told. */
function passkeyConfig(options: GoTrueDoubleOptions, siteUrl: string): PasskeyConfig {
  const site = new URL(siteUrl);
  const p = options.passkey ?? {};
  return {
    enabled: p.enabled ?? true,
    rpId: p.rpId ?? site.hostname,
    rpDisplayName: p.rpDisplayName ?? site.hostname,
    rpOrigins: [...(p.rpOrigins ?? [site.origin])],
    challengeExpiryMs: (p.challengeExpirySeconds ?? 300) * 1000,
    maxPerUser: p.maxPasskeysPerUser ?? 10,
    refuseCounterRegression: p.refuseCounterRegression ?? false,
  };
}

/** The settings of `options`, defaults filled in. */
export function configFrom(options: GoTrueDoubleOptions): DoubleConfig {
  const siteUrl = options.siteUrl ?? 'http://localhost:3000';
  return {
    siteUrl,
    uriAllowList: (options.uriAllowList ?? []).map(globToRegExp),
    mailerAutoconfirm: options.mailerAutoconfirm ?? false,
    smsAutoconfirm: options.smsAutoconfirm ?? false,
    disableSignup: options.disableSignup ?? false,
    anonymousUsers: options.anonymousUsers ?? false,
    manualLinking: options.manualLinking ?? false,
    secureEmailChange: options.secureEmailChange ?? true,
    externalProviders: new Set(options.externalProviders ?? ['google', 'github']),
    passwordMinLength: options.passwordMinLength ?? 6,
    mailerOtpExpMs: (options.mailerOtpExpSeconds ?? 3600) * 1000,
    smsOtpExpMs: (options.smsOtpExpSeconds ?? 60) * 1000,
    smtpMaxFrequencyMs: (options.smtpMaxFrequencySeconds ?? 60) * 1000,
    smsMaxFrequencyMs: (options.smsMaxFrequencySeconds ?? 60) * 1000,
    templates: { ...GOTRUE_DEFAULT_TEMPLATES, ...options.templates },
    captchaToken: options.captchaToken ?? null,
    apiVersioning: options.apiVersioning ?? true,
    jwtExpSeconds: 3600,
    mfa: {
      totp: options.mfa?.totp ?? true,
      phone: options.mfa?.phone ?? false,
      phoneMaxFrequencyMs: (options.mfa?.phoneMaxFrequencySeconds ?? 60) * 1000,
      challengeExpiryMs: 300_000,
      factorExpiryMs: 300_000,
      maxFactors: 10,
    },
    passkey: passkeyConfig(options, siteUrl),
    rateLimits: rateLimitConfig(options),
    refreshTokenReuseIntervalMs: (options.refreshTokenReuseIntervalSeconds ?? 10) * 1000,
  };
}
