/**
 * POST /otp (otp.go, magic_link.go): a magic link / email code, or an SMS code; a new or unconfirmed address
 * gets the signup confirmation instead (unless `create_user` is false).
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, signupDisabled, validationFailed } from '../errors.ts';
import { randomUUID } from '../hash.ts';
import { sendConfirmation, sendRecovery, sendSms } from '../mailer.ts';
import { type PkceChallenge, startEmailFlow, validatePkce } from '../pkce.ts';
import { json } from '../responses.ts';
import { confirmEmail, findByEmail, findByPhone, signupEmailUser, signupPhoneUser } from '../users.ts';
import { isObject, str } from '../util.ts';
import { checkCaptcha, readJson, referrer, validateEmail, validatePhone } from '../validate.ts';
import { applyVerification } from '../verification.ts';

/** What the email and phone branches share. */
interface OtpRequest {
  createUser: boolean;
  data: Record<string, unknown>;
  pkce: PkceChallenge | null;
}

const otpDisabled = () => new GoTrueDoubleError(422, 'otp_disabled', 'Signups not allowed for otp');

function emailOtp(ctx: DoubleContext, email: string, request: OtpRequest, redirectTo: string): Response {
  const address = validateEmail(email);
  if (!request.createUser && !findByEmail(ctx, address)) throw otpDisabled();
  let user = findByEmail(ctx, address);
  if (!user || user.emailConfirmedAt === null) {
    if (ctx.config.disableSignup) throw signupDisabled();
    user ??= signupEmailUser(ctx, address, randomUUID(), request.data);
    if (!ctx.config.mailerAutoconfirm) {
      startEmailFlow(ctx, request.pkce, user, 'email', 'email/signup');
      // "otherwise confirmation email already contains 'magic link'"
      sendConfirmation(ctx, user, redirectTo, request.pkce !== null);
      return json({});
    }
    confirmEmail(ctx, user);
  }
  startEmailFlow(ctx, request.pkce, user, 'magiclink');
  sendRecovery(ctx, user, redirectTo, request.pkce !== null, 'magiclink');
  return json({});
}

function phoneOtp(ctx: DoubleContext, phone: string, request: OtpRequest): Response {
  const number = validatePhone(phone);
  let user = findByPhone(ctx, number);
  if (!request.createUser && !user) throw otpDisabled();
  if (!user || user.phoneConfirmedAt === null) {
    if (ctx.config.disableSignup) throw signupDisabled();
    user ??= signupPhoneUser(ctx, number, randomUUID(), request.data);
    if (ctx.config.smsAutoconfirm) applyVerification(ctx, user, 'sms', '');
    sendSms(ctx, user, number, 'sms');
    return json({});
  }
  sendSms(ctx, user, number, 'sms');
  return json({ message_id: `double-${ctx.store.sms.length}` });
}

/** POST /otp. */
export async function otpRoute(ctx: DoubleContext, request: Request, q: URLSearchParams): Promise<Response> {
  const b = await readJson(request);
  checkCaptcha(ctx, b);
  const email = str(b.email);
  const phone = str(b.phone);
  const createUser = b.create_user !== false;
  const data = isObject(b.data) ? b.data : {};
  if (email !== '' && phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided');
  }
  const pkce = validatePkce(b);
  const otpRequest = { createUser, data, pkce };
  if (email !== '')
    return emailOtp(
      ctx,
      email,
      otpRequest,
      referrer(ctx, q.get('redirect_to'), request.headers.get('referer')),
    );
  if (phone !== '') return phoneOtp(ctx, phone, otpRequest);
  throw validationFailed('One of email or phone must be set');
}
