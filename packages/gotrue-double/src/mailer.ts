/**
 * GoTrue's mailer and SMS sender, as the double does them: one-time tokens stored hashed on the user, mails
 * rendered from the templates and SMS put in the outbox, with SMTP_MAX_FREQUENCY / SMS_MAX_FREQUENCY.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { GoTrueDoubleError } from './errors.ts';
import { limitEmailSent, limitSmsSent } from './limits.ts';
import { decodeHtml, render } from './templates.ts';
import type { DoubleEmail, DoubleSms, DoubleTemplateName, GoTrueDouble, UserRecord } from './types.ts';
import { otp, sha224 } from './util.ts';

interface MailFields {
  token: string;
  tokenHash: string;
  redirectTo: string;
  newEmail?: string;
  email?: string;
}

function sendMail(
  ctx: DoubleContext,
  to: string,
  template: DoubleTemplateName,
  type: DoubleEmail['type'],
  fields: MailFields,
): void {
  const confirmationUrl = `${ctx.authUrl}/verify?token=${fields.tokenHash}&type=${type}&redirect_to=${encodeURIComponent(fields.redirectTo)}`;
  const data: Record<string, string> = {
    SiteURL: ctx.config.siteUrl,
    ConfirmationURL: confirmationUrl,
    Email: fields.email ?? to,
    NewEmail: fields.newEmail ?? '',
    Token: fields.token,
    TokenHash: fields.tokenHash,
    RedirectTo: fields.redirectTo,
  };
  const html = render(ctx.config.templates[template], data);
  const href = /href="([^"]*)"/.exec(html)?.[1];
  ctx.store.emails.push({
    to,
    template,
    type,
    html,
    link: href === undefined ? null : decodeHtml(href),
    data,
    sentAt: ctx.clock.now(),
  });
}

/** 429 when the last message went out less than `maxFrequencyMs` ago. */
function checkFrequency(ctx: DoubleContext, sentAt: number | null, maxFrequencyMs: number, code: string) {
  const now = ctx.clock.now();
  if (sentAt !== null && now - sentAt < maxFrequencyMs) {
    const left = Math.ceil((sentAt + maxFrequencyMs - now) / 1000);
    throw new GoTrueDoubleError(
      429,
      code,
      `For security purposes, you can only request this after ${left} seconds.`,
    );
  }
}

/** The token GoTrue stores for `address` and `code` (`pkce_` in front in PKCE flows). */
function tokenFor(address: string, code: string, pkce: boolean): string {
  const hash = sha224(address + code);
  return pkce ? `pkce_${hash}` : hash;
}

/** The signup confirmation mail. */
export function sendConfirmation(ctx: DoubleContext, user: UserRecord, redirectTo: string, pkce: boolean) {
  checkFrequency(ctx, user.confirmationSentAt, ctx.config.smtpMaxFrequencyMs, 'over_email_send_rate_limit');
  limitEmailSent(ctx);
  const code = otp();
  user.confirmationToken = tokenFor(user.email, code, pkce);
  user.confirmationSentAt = ctx.clock.now();
  sendMail(ctx, user.email, 'confirmation', 'signup', {
    token: code,
    tokenHash: user.confirmationToken,
    redirectTo,
  });
}

/** The recovery or magic-link mail (both use the recovery token). */
export function sendRecovery(
  ctx: DoubleContext,
  user: UserRecord,
  redirectTo: string,
  pkce: boolean,
  kind: 'recovery' | 'magiclink',
) {
  checkFrequency(ctx, user.recoverySentAt, ctx.config.smtpMaxFrequencyMs, 'over_email_send_rate_limit');
  limitEmailSent(ctx);
  const code = otp();
  user.recoveryToken = tokenFor(user.email, code, pkce);
  user.recoverySentAt = ctx.clock.now();
  sendMail(ctx, user.email, kind === 'recovery' ? 'recovery' : 'magicLink', kind, {
    token: code,
    tokenHash: user.recoveryToken,
    redirectTo,
  });
}

/** The email-change mail to the new address, and with secure email change one to the current address. */
export function sendEmailChange(
  ctx: DoubleContext,
  user: UserRecord,
  newEmail: string,
  redirectTo: string,
  pkce: boolean,
) {
  checkFrequency(ctx, user.emailChangeSentAt, ctx.config.smtpMaxFrequencyMs, 'over_email_send_rate_limit');
  limitEmailSent(ctx);
  const codeNew = otp();
  user.emailChange = newEmail;
  user.emailChangeTokenNew = tokenFor(newEmail, codeNew, pkce);
  user.emailChangeTokenCurrent = '';
  user.emailChangeConfirmStatus = 0;
  user.emailChangeSentAt = ctx.clock.now();
  sendMail(ctx, newEmail, 'emailChange', 'email_change', {
    token: codeNew,
    tokenHash: user.emailChangeTokenNew,
    redirectTo,
    email: user.email,
    newEmail,
  });
  if (ctx.config.secureEmailChange && user.email !== '') {
    const codeCurrent = otp();
    user.emailChangeTokenCurrent = tokenFor(user.email, codeCurrent, pkce);
    sendMail(ctx, user.email, 'emailChange', 'email_change', {
      token: codeCurrent,
      tokenHash: user.emailChangeTokenCurrent,
      redirectTo,
      newEmail,
    });
  }
}

/** A one-time code by SMS: to confirm the phone (`sms`) or a new number (`phone_change`). */
export function sendSms(ctx: DoubleContext, user: UserRecord, phone: string, type: 'sms' | 'phone_change') {
  const sentAt = type === 'sms' ? user.confirmationSentAt : user.phoneChangeSentAt;
  checkFrequency(ctx, sentAt, ctx.config.smsMaxFrequencyMs, 'over_sms_send_rate_limit');
  limitSmsSent(ctx);
  const code = otp();
  const now = ctx.clock.now();
  if (type === 'sms') {
    user.confirmationToken = sha224(phone + code);
    user.confirmationSentAt = now;
  } else {
    user.phoneChangeToken = sha224(phone + code);
    user.phoneChangeSentAt = now;
  }
  ctx.store.sms.push({ to: `+${phone}`, otp: code, type, sentAt: now });
}

/**
 * A phone factor's challenge code by SMS (MFA_PHONE_MAX_FREQUENCY since the factor's last challenge):
 * resolves the code, for the challenge to keep.
 */
export function sendFactorSms(ctx: DoubleContext, phone: string, lastChallengedAt: number | null): string {
  checkFrequency(ctx, lastChallengedAt, ctx.config.mfa.phoneMaxFrequencyMs, 'over_sms_send_rate_limit');
  const code = otp();
  ctx.store.sms.push({ to: `+${phone}`, otp: code, type: 'mfa', sentAt: ctx.clock.now() });
  return code;
}

/** The outbox tests read (the store's emails and SMS). */
export function outboxOf(ctx: DoubleContext): GoTrueDouble['outbox'] {
  const { emails, sms } = ctx.store;
  return {
    emails,
    sms,
    lastEmail(to: string, type?: DoubleEmail['type']): DoubleEmail | null {
      const t = to.toLowerCase();
      return [...emails].reverse().find((e) => e.to === t && (type === undefined || e.type === type)) ?? null;
    },
    lastSms(to: string): DoubleSms | null {
      return [...sms].reverse().find((s) => s.to === to) ?? null;
    },
    clear() {
      emails.length = 0;
      sms.length = 0;
    },
  };
}
