/**
 * GoTrue's rate limits (`apilimiter.go`, `ratelimit/interval.go`, `middleware.go`): per-client token buckets
 * in front of the routes (tollbooth, a burst of 30 refilled at the configured rate), and the project-wide
 * counts of emails and SMS sent per hour.
 * @module
 */
import type { RateLimitConfig } from './config.ts';
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError } from './errors.ts';

/** One limiter of `apilimiter.go`: refill rate per ms and bucket size. */
interface Bucket {
  perMs: number;
  burst: number;
}

/** The per-client limiter a route is behind (its tollbooth limiter in `apilimiter.New`). */
export type LimiterName =
  | 'token'
  | 'verify'
  | 'signup'
  | 'otp'
  | 'recover'
  | 'user'
  | 'anonymous'
  | 'factorChallenge'
  | 'factorVerify'
  | 'passkey';

const FIVE_MINUTES = 300_000;

function bucketOf(c: RateLimitConfig, name: LimiterName): Bucket {
  switch (name) {
    case 'token':
      return { perMs: c.tokenRefresh / FIVE_MINUTES, burst: 30 };
    case 'verify':
      return { perMs: c.verify / FIVE_MINUTES, burst: 30 };
    case 'anonymous':
      // The one limiter whose burst is its hourly number.
      return { perMs: c.anonymousUsers / 3_600_000, burst: Math.floor(c.anonymousUsers) };
    case 'factorChallenge':
    case 'factorVerify':
      return { perMs: c.mfaChallengeAndVerify / 60_000, burst: 30 };
    case 'passkey':
      return { perMs: c.passkey / FIVE_MINUTES, burst: 30 };
    default:
      // signup, otp, recover, user: newLimiterPer5mOver1h(RATE_LIMIT_OTP).
      return { perMs: c.otp / FIVE_MINUTES, burst: 30 };
  }
}

/**
 * The header an HTTP front end sets to the peer's address (the double's HTTP server sets it, and drops one a
 * client sent); a request without it comes from the one in-process client.
 */
export const PEER_HEADER = 'x-gotrue-double-peer';

/**
 * The client key GoTrue limits a request by: the first value of RATE_LIMIT_HEADER when configured (none:
 * not limited, as GoTrue logs and lets it through), else the peer address.
 */
function clientKey(ctx: DoubleContext, request: Request): string | null {
  const header = ctx.config.rateLimits.header;
  if (header === null) return request.headers.get(PEER_HEADER) ?? 'in-process';
  const first = (request.headers.get(header) ?? '').split(',')[0]?.trim() ?? '';
  return first === '' ? null : first;
}

const overRequestRateLimit = () =>
  new GoTrueDoubleError(429, 'over_request_rate_limit', 'Request rate limit reached');

/** tollbooth's LimitByKeys: takes a token of `name`'s bucket for the request's client, or 429. */
export function limitRequest(ctx: DoubleContext, request: Request, name: LimiterName): void {
  const key = clientKey(ctx, request);
  if (key === null) return;
  const { perMs, burst } = bucketOf(ctx.config.rateLimits, name);
  const now = ctx.clock.now();
  const id = `${name} ${key}`;
  const bucket = ctx.limits.buckets.get(id) ?? { tokens: burst, at: now };
  bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
  bucket.at = now;
  ctx.limits.buckets.set(id, bucket);
  if (bucket.tokens < 1) throw overRequestRateLimit();
  bucket.tokens -= 1;
}

/**
 * The project-wide hourly count of emails (or SMS) sent, an interval limiter: `false` once this hour's are
 * spent. GoTrue skips it while MAILER_AUTOCONFIRM (SMS_AUTOCONFIRM) is on.
 */
function allowSend(ctx: DoubleContext, kind: 'email' | 'sms'): boolean {
  const events = kind === 'email' ? ctx.config.rateLimits.emailSent : ctx.config.rateLimits.smsSent;
  const window = ctx.limits.sent[kind];
  const hours = Math.floor((ctx.clock.now() - window.windowStart) / 3_600_000);
  if (hours > 0) {
    window.windowStart += hours * 3_600_000;
    window.count = 0;
  }
  if (window.count < events) {
    window.count += 1;
    return true;
  }
  return false;
}

/** RATE_LIMIT_EMAIL_SENT before a mail goes out (429 over_email_send_rate_limit). */
export function limitEmailSent(ctx: DoubleContext): void {
  if (ctx.config.mailerAutoconfirm || allowSend(ctx, 'email')) return;
  throw new GoTrueDoubleError(429, 'over_email_send_rate_limit', 'email rate limit exceeded');
}

/** RATE_LIMIT_SMS_SENT before an SMS goes out (429 over_sms_send_rate_limit). */
export function limitSmsSent(ctx: DoubleContext): void {
  if (ctx.config.smsAutoconfirm || allowSend(ctx, 'sms')) return;
  throw new GoTrueDoubleError(429, 'over_sms_send_rate_limit', 'SMS rate limit exceeded');
}
