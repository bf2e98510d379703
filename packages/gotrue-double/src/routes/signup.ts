/**
 * POST /signup (signup.go, anonymous.go): anonymous users, email and phone sign-ups, with GoTrue's decoy answer
 * for an address that already has a confirmed account.
 * @module
 */
import type { DoubleContext } from '../context.ts';
import { GoTrueDoubleError, signupDisabled, validationFailed } from '../errors.ts';
import { randomUUID } from '../hash.ts';
import { limitRequest } from '../limits.ts';
import { sendConfirmation, sendSms } from '../mailer.ts';
import { type PkceChallenge, startEmailFlow, validatePkce } from '../pkce.ts';
import { json } from '../responses.ts';
import { issueSession } from '../tokens.ts';
import {
  confirmEmail,
  findByEmail,
  findByPhone,
  newUser,
  signupEmailUser,
  signupPhoneUser,
  userJson,
} from '../users.ts';
import { isObject, iso, str } from '../util.ts';
import {
  checkCaptcha,
  checkPassword,
  readJson,
  referrer,
  validateEmail,
  validatePhone,
} from '../validate.ts';
import { applyVerification } from '../verification.ts';

/** What the email and phone sign-ups share. */
interface SignupRequest {
  password: string;
  data: Record<string, unknown>;
  pkce: PkceChallenge | null;
  redirectTo: string;
}

/** With autoconfirm on, signing up an existing address says so; else GoTrue answers a decoy. */
function refuseExisting(ctx: DoubleContext): void {
  if (ctx.config.mailerAutoconfirm || ctx.config.smsAutoconfirm) {
    throw new GoTrueDoubleError(422, 'user_already_exists', 'User already registered');
  }
}

function anonymousSignup(ctx: DoubleContext, request: Request, data: Record<string, unknown>): Response {
  if (!ctx.config.anonymousUsers)
    throw new GoTrueDoubleError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  limitRequest(ctx, request, 'anonymous');
  if (ctx.config.disableSignup) throw signupDisabled();
  const user = newUser(ctx, { isAnonymous: true, userMetadata: { ...data } });
  return json(issueSession(ctx, user, 'anonymous'));
}

function emailSignup(ctx: DoubleContext, email: string, request: SignupRequest): Response {
  const address = validateEmail(email);
  let user = findByEmail(ctx, address);
  if (user?.emailConfirmedAt) {
    refuseExisting(ctx);
    // sanitizeUser: a decoy that reveals nothing about the existing account.
    const t = ctx.clock.now();
    return json({
      id: randomUUID(),
      aud: 'authenticated',
      role: '',
      email: address,
      phone: '',
      confirmation_sent_at: iso(t),
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: request.data,
      identities: [],
      created_at: iso(t),
      updated_at: iso(t),
      is_anonymous: false,
    });
  }
  user ??= signupEmailUser(ctx, address, request.password, request.data);
  if (ctx.config.mailerAutoconfirm) {
    confirmEmail(ctx, user);
    return json(issueSession(ctx, user, 'password'));
  }
  startEmailFlow(ctx, request.pkce, user, 'email', 'email/signup');
  sendConfirmation(ctx, user, request.redirectTo, request.pkce !== null);
  return json(userJson(user));
}

function phoneSignup(ctx: DoubleContext, phone: string, request: SignupRequest): Response {
  const number = validatePhone(phone);
  let user = findByPhone(ctx, number);
  if (user?.phoneConfirmedAt) {
    refuseExisting(ctx);
    return json({
      id: randomUUID(),
      aud: 'authenticated',
      email: '',
      phone: number,
      identities: [],
      app_metadata: {},
      user_metadata: request.data,
      created_at: iso(ctx.clock.now()),
    });
  }
  user ??= signupPhoneUser(ctx, number, request.password, request.data);
  if (ctx.config.smsAutoconfirm) {
    applyVerification(ctx, user, 'sms', '');
    return json(issueSession(ctx, user, 'password'));
  }
  sendSms(ctx, user, number, 'sms');
  return json(userJson(user));
}

/** POST /signup. */
export async function signup(ctx: DoubleContext, request: Request, q: URLSearchParams): Promise<Response> {
  const b = await readJson(request);
  checkCaptcha(ctx, b);
  const email = str(b.email);
  const phone = str(b.phone);
  const data = isObject(b.data) ? b.data : {};
  if (email === '' && phone === '') return anonymousSignup(ctx, request, data);
  limitRequest(ctx, request, 'signup');
  if (ctx.config.disableSignup) throw signupDisabled();
  const password = str(b.password);
  if (password === '') throw validationFailed('Signup requires a valid password');
  checkPassword(ctx, password);
  if (email !== '' && phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided on signup.');
  }
  // "PKCE not needed as phone signups already return access token in body"
  if (phone !== '' && str(b.code_challenge) !== '') {
    throw validationFailed('PKCE not supported for phone signups');
  }
  const pkce = validatePkce(b);
  const redirectTo = referrer(ctx, q.get('redirect_to'), request.headers.get('referer'));
  const signupRequest = { password, data, pkce, redirectTo };
  return email !== '' ? emailSignup(ctx, email, signupRequest) : phoneSignup(ctx, phone, signupRequest);
}
