/**
 * Phone sign-in in the browser: sending an SMS code (or an anonymous user's upgrade code) and confirming it.
 * @module
 */
import { type AuthCredential, AuthError, type CaptchaVerifier, type SignInResult } from '@doorway/auth-core';
import { toAuthError } from '../shared/errors.ts';
import { upgradeWithPhone } from './anonymous.ts';
import { firstFactorSignedIn } from './assurance.ts';
import { captchaToken, type ProviderContext } from './context.ts';
import { decodeVerification, E164, encodeVerification } from './verificationId.ts';

/** `startPhoneSignIn`. */
export async function startPhoneSignIn(
  ctx: ProviderContext,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): Promise<{ verificationId: string }> {
  if (!ctx.capabilities.phone) throw new AuthError('operation-not-allowed');
  if (!E164.test(phoneNumber)) throw new AuthError('invalid-phone-number');
  if (ctx.settings.captcha && !verifier.isSolved()) throw new AuthError('captcha-check-failed');
  const upgrade = await upgradeWithPhone(ctx, phoneNumber);
  return { verificationId: upgrade ?? (await sendSmsCode(ctx, phoneNumber)) };
}

/** A sign-in code, creating the account only when GoTrue says the number is unknown (and sign-up is on). */
async function sendSmsCode(ctx: ProviderContext, phone: string): Promise<string> {
  const sentAt = ctx.clock.now();
  const send = (shouldCreateUser: boolean) =>
    ctx.auth.signInWithOtp({ phone, options: { shouldCreateUser, captchaToken: captchaToken(ctx) } });
  const existing = await send(false);
  if (!existing.error) return encodeVerification({ phone, type: 'sms', isNew: false, sentAt });
  if (existing.error.code !== 'otp_disabled' || ctx.settings.phoneSignUp === false) {
    throw toAuthError(existing.error, 'phone');
  }
  const created = await send(true);
  if (created.error) throw toAuthError(created.error, 'phone');
  return encodeVerification({ phone, type: 'sms', isNew: true, sentAt });
}

/** `confirmPhoneCode` (and linking with a phone credential). */
export async function confirmPhoneCode(
  ctx: ProviderContext,
  verificationId: string,
  code: string,
  options?: { link?: boolean },
): Promise<SignInResult> {
  const v = decodeVerification(verificationId);
  if (!v) throw new AuthError('code-expired');
  const credential: AuthCredential = { kind: 'phone', verificationId, code };
  if (options?.link) {
    const me = ctx.current;
    if (!me) throw new AuthError('requires-recent-login', { credential });
    if (v.type === 'sms' && me.phoneNumber !== v.phone) {
      throw new AuthError('credential-already-in-use', { credential });
    }
  }
  const { data, error } = await ctx.auth.verifyOtp({ phone: v.phone, token: code, type: v.type });
  if (error) {
    // GoTrue says otp_expired for a wrong code too: within the code's lifetime it is a typo.
    const lifetimeMs = (ctx.settings.smsCodeLifetimeSeconds ?? 60) * 1000;
    if (error.code === 'otp_expired' && ctx.clock.now() - v.sentAt < lifetimeMs) {
      throw new AuthError('invalid-verification-code');
    }
    throw toAuthError(error, 'sms');
  }
  if (!data.user) throw new AuthError('generic');
  return firstFactorSignedIn(ctx, data.user, 'phone', !options?.link && v.type === 'sms' && v.isNew);
}
