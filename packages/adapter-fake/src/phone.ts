/**
 * Phone: captcha verifiers, sending the SMS code, and signing in (or linking) with it.
 * @module
 */
import type { CaptchaVerifier, SignInResult } from '@doorway/auth-core';
import type { FakeCaptchaControl } from './types.ts';
import { addProvider, byPhone, currentRow, signInAs, signInFirstFactor, signUp } from './users.ts';
import { fail, normalizePhone } from './util.ts';
import {
  type CaptchaState,
  type FakeContext,
  nextId,
  requireCapability,
  type Session,
  type SmsSession,
  type World,
} from './world.ts';

/** `createCaptchaVerifier`: solved at once under `autoSolve`, else when `backend.captcha.solve` says. */
export function createCaptchaVerifier(world: World): CaptchaVerifier {
  const state: CaptchaState = { solved: false, cleared: false };
  world.captcha.live.add(state);
  const verifier: CaptchaVerifier = {
    kind: 'fake',
    render: async () => {
      if (state.cleared) fail('captcha-check-failed');
    },
    isSolved: () => !state.cleared && (world.captcha.autoSolve || state.solved),
    clear: () => {
      state.cleared = true;
      world.captcha.live.delete(state);
    },
  };
  world.captcha.states.set(verifier, state);
  return verifier;
}

/** `backend.captcha`: the `autoSolve` switch and solving by hand. */
export function createCaptchaControl(world: World): FakeCaptchaControl {
  return {
    get autoSolve() {
      return world.captcha.autoSolve;
    },
    set autoSolve(value: boolean) {
      world.captcha.autoSolve = value;
    },
    solve: (verifier) => {
      if (verifier === undefined) {
        for (const state of world.captcha.live) state.solved = true;
        return;
      }
      const state =
        typeof verifier === 'object' && verifier !== null ? world.captcha.states.get(verifier) : undefined;
      if (state !== undefined) state.solved = true;
    },
  };
}

/** The number in E.164, or `invalid-phone-number` / `unsupported-country` (a blocked prefix). */
export function checkPhoneNumber({ config }: FakeContext, phoneNumber: string): string {
  const phone = normalizePhone(phoneNumber) ?? fail('invalid-phone-number');
  if ((config.options.blockedCountryPrefixes ?? []).some((prefix) => phone.startsWith(prefix))) {
    fail('unsupported-country');
  }
  return phone;
}

/** "Sends" a seeded six-digit code to `phone` (into the outbox) under a new verification id. */
export function sendSmsCode(
  ctx: FakeContext,
  s: Session,
  phone: string,
): { verificationId: string; code: string; expiresAt: number } {
  const { world, config } = ctx;
  const verificationId = nextId(ctx, 'vid');
  const code = world.smsCodes();
  const now = config.clock.now();
  world.sms.push({ to: phone, code, verificationId, sentAt: now, tenantId: s.tenantId });
  return { verificationId, code, expiresAt: now + config.smsCodeTtl };
}

/** `startPhoneSignIn`: checks number, country and captcha, then "sends" a seeded six-digit code. */
export function startPhoneSignIn(
  ctx: FakeContext,
  s: Session,
  phoneNumber: string,
  verifier: CaptchaVerifier,
): { verificationId: string } {
  requireCapability(ctx.world.capabilities.phone);
  const phone = checkPhoneNumber(ctx, phoneNumber);
  if (!verifier.isSolved()) fail('captcha-check-failed');
  const { verificationId, code, expiresAt } = sendSmsCode(ctx, s, phone);
  ctx.world.smsSessions.set(verificationId, {
    phoneNumber: phone,
    code,
    tenantId: s.tenantId,
    expiresAt,
    used: false,
  });
  return { verificationId };
}

function phoneSession(
  { world, config }: FakeContext,
  s: Session,
  verificationId: string,
  code: string,
): SmsSession {
  const session = world.smsSessions.get(verificationId);
  if (session === undefined || session.used || session.tenantId !== s.tenantId) fail('code-expired');
  if (config.clock.now() >= session.expiresAt) fail('code-expired');
  if (session.code !== code) fail('invalid-verification-code');
  return session;
}

/**
 * `confirmPhoneCode` (or linking the phone): signs the owner in (or asks for its second factor), or signs a
 * new account up.
 */
export function phoneSignIn(
  ctx: FakeContext,
  s: Session,
  verificationId: string,
  code: string,
  linking: boolean,
): SignInResult {
  const { world } = ctx;
  requireCapability(world.capabilities.phone);
  const session = phoneSession(ctx, s, verificationId, code);
  const owner = byPhone(world, s.tenantId, session.phoneNumber);
  if (linking) {
    const current = currentRow(world, s);
    if (owner !== undefined && owner !== current) {
      fail('credential-already-in-use', { credential: { kind: 'phone', verificationId, code } });
    }
    session.used = true;
    current.phoneNumber = session.phoneNumber;
    addProvider(current, 'phone');
    return signInAs(s, current, 'phone', false);
  }
  if (owner !== undefined) {
    if (owner.disabled) fail('user-disabled');
    session.used = true;
    return signInFirstFactor(ctx, s, owner, 'phone');
  }
  const row = signUp(ctx, { phoneNumber: session.phoneNumber }, s.tenantId);
  session.used = true;
  return signInAs(s, row, 'phone', true);
}
