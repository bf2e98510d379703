/**
 * Phone sign-in: the reCAPTCHA verifier, sending the SMS code, and confirming (or linking) with it.
 * @module
 */
import { type AuthCredential, AuthError, type CaptchaVerifier, type SignInResult } from '@doorway/auth-core';
import {
  type ApplicationVerifier,
  linkWithCredential,
  RecaptchaVerifier,
  signInWithCredential,
  signInWithPhoneNumber,
  type UserCredential,
} from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import { toAuthError } from '../shared/errors.ts';
import { signInError } from './challenge.ts';
import { type BrowserContext, firebaseCredential, keepPhoneProof, requireUser } from './context.ts';
import { signInResult } from './results.ts';

/**
 * In emulator mode without a DOM (Node tests) the SDK's own mock reCAPTCHA cannot render, so the
 * verifier is the equivalent mock: solved at once, its token accepted only because app verification is
 * disabled for testing (the emulator, which ignores it). In a browser the real RecaptchaVerifier is used;
 * in emulator mode the SDK itself swaps in its mock reCAPTCHA there.
 */
function emulatorVerifier(ctx: BrowserContext): CaptchaVerifier {
  const handle: CaptchaVerifier = {
    kind: 'firebase-emulator',
    render: async () => {},
    isSolved: () => true,
    clear: () => {},
  };
  const appVerifier: ApplicationVerifier & { _reset(): void } = {
    type: 'recaptcha',
    verify: async () => 'doorway-emulator-recaptcha-token',
    _reset: () => {},
  };
  ctx.verifiers.set(handle, { get: () => appVerifier, used: () => {} });
  return handle;
}

/**
 * A handle on a `RecaptchaVerifier` in `container`. The verifier is created on first use, not here: the
 * constructor asserts a DOM (SSR renders the widget). `clear()` drops it, so the next use creates a new
 * one: a RecaptchaVerifier cannot be reused once cleared.
 */
function recaptchaVerifier(ctx: BrowserContext, container: unknown): CaptchaVerifier {
  const size = ctx.settings.recaptcha?.size ?? 'normal';
  let recaptcha: RecaptchaVerifier | null = null;
  let solved = false;
  const ensure = (): RecaptchaVerifier => {
    recaptcha ??= new RecaptchaVerifier(ctx.auth, container as HTMLElement | string, {
      ...ctx.settings.recaptcha,
      size,
      callback: () => {
        solved = true;
      },
      'expired-callback': () => {
        solved = false;
      },
    });
    return recaptcha;
  };
  const handle: CaptchaVerifier = {
    kind: 'firebase-recaptcha',
    async render() {
      try {
        await ensure().render();
      } catch (e) {
        const error = toAuthError(e, 'phone');
        throw error.code === 'network-request-failed' ? error : new AuthError('captcha-check-failed');
      }
    },
    isSolved: () => size === 'invisible' || solved,
    clear() {
      try {
        recaptcha?.clear();
      } catch {
        // Already cleared: nothing to release.
      }
      recaptcha = null;
      solved = false;
    },
  };
  ctx.verifiers.set(handle, {
    get: ensure,
    used: () => {
      solved = false;
    },
  });
  return handle;
}

/** The captcha phone sign-in needs: the emulator's mock outside a page, else a reCAPTCHA in `container`. */
export function createCaptchaVerifier(ctx: BrowserContext, container: unknown): CaptchaVerifier {
  if (typeof document === 'undefined' && ctx.auth.settings.appVerificationDisabledForTesting) {
    return emulatorVerifier(ctx);
  }
  return recaptchaVerifier(ctx, container);
}

/**
 * Runs one SMS send with the application verifier behind `verifier`, once it is solved (and one this
 * provider made: else `captcha-check-failed`). The SDK resets the verifier after each send, so the captcha
 * counts as used whatever the answer: the next send needs it solved again, or a fresh one.
 */
export async function withVerifier<T>(
  ctx: BrowserContext,
  verifier: CaptchaVerifier,
  send: (appVerifier: ApplicationVerifier) => Promise<T>,
): Promise<T> {
  const entry = ctx.verifiers.get(verifier);
  if (entry === undefined || !verifier.isSolved()) throw new AuthError('captcha-check-failed');
  try {
    return await send(entry.get());
  } finally {
    entry.used();
  }
}

/**
 * Sends the SMS code, once the captcha (one this provider made) is solved; the pending confirmation is
 * kept by its verification id.
 */
export function startPhoneSignIn(
  ctx: BrowserContext,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): Promise<{ verificationId: string }> {
  return withVerifier(ctx, verifier, async (appVerifier) => {
    const confirmation = await withAuthErrors('phone', async () =>
      signInWithPhoneNumber(ctx.auth, phoneNumber, appVerifier),
    );
    ctx.confirmations.set(confirmation.verificationId, confirmation);
    return { verificationId: confirmation.verificationId };
  });
}

function confirmation(
  ctx: BrowserContext,
  attempted: Extract<AuthCredential, { kind: 'phone' }>,
  link: boolean,
): Promise<UserCredential> {
  if (link) return linkWithCredential(requireUser(ctx), firebaseCredential(ctx, attempted));
  const pending = ctx.confirmations.get(attempted.verificationId);
  return pending
    ? pending.confirm(attempted.code)
    : signInWithCredential(ctx.auth, firebaseCredential(ctx, attempted));
}

/**
 * Signs in with the SMS code (through the pending confirmation when this provider sent it) or, with
 * `link`, links the number to the signed-in user. A failed link keeps Firebase's temporary proof; an
 * account with a second factor rejects `second-factor-required`.
 */
export async function confirmPhoneCode(
  ctx: BrowserContext,
  verificationId: string,
  code: string,
  link: boolean,
): Promise<SignInResult> {
  const attempted = { kind: 'phone', verificationId, code } as const;
  try {
    const credential = await confirmation(ctx, attempted, link);
    ctx.confirmations.delete(verificationId);
    return signInResult(credential, 'phone');
  } catch (e) {
    keepPhoneProof(ctx, verificationId, e);
    throw signInError(ctx, e, 'phone', { providerId: 'phone' }, { credential: attempted });
  }
}
