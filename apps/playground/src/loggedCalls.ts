/**
 * What the world log keeps of a provider call and how a replay calls it again: the arguments as JSON (a
 * captcha verifier as a placeholder, solved on replay), and `provider.secondFactors` with its calls logged.
 * @module
 */
import type {
  AccountMethod,
  FakeMethod,
  FakeProvider,
  PasskeyMethod,
  SecondFactorMethod,
} from '@doorway/adapter-fake';
import { AuthError, type SecondFactorOperations } from '@doorway/auth-core';

/** Records one call in the log, with the arguments it was called with. */
export type RecordCall = (method: FakeMethod, args: unknown[]) => void;

/** The argument that is a captcha verifier, by method (the verifier is not JSON: it is solved on replay). */
const VERIFIER_ARG: Partial<Record<FakeMethod, number>> = {
  startPhoneSignIn: 1,
  'secondFactors.startSignIn': 2,
  'secondFactors.startPhoneEnrollment': 1,
};

/**
 * The arguments as the log keeps them: JSON, a verifier as `null` (a call without one, e.g. the
 * challenge of an authenticator app, keeps none).
 */
export function savedArgs(method: FakeMethod, args: readonly unknown[]): unknown[] {
  const at = VERIFIER_ARG[method];
  const saved = at === undefined ? [...args] : args.slice(0, at);
  if (at !== undefined && args[at] !== undefined) saved.push(null);
  return JSON.parse(JSON.stringify(saved)) as unknown[];
}

/** The logged arguments for a replay: a solved captcha verifier where the call had one. */
export function replayArgs(fake: FakeProvider, method: FakeMethod, args: readonly unknown[]): unknown[] {
  const replayed = [...args];
  const at = VERIFIER_ARG[method];
  if (at !== undefined && replayed.length > at) {
    const verifier = fake.createCaptchaVerifier(null);
    fake.backend.captcha.solve(verifier);
    replayed[at] = verifier;
  }
  return replayed;
}

/** The fake's method of a logged call (`secondFactors.*` on `fake.secondFactors`). */
export function methodOf(fake: FakeProvider, method: FakeMethod): (...args: unknown[]) => Promise<unknown> {
  // Passkey calls are never logged (the browser's authenticator cannot be replayed), nor are account
  // operations (the world log replays sign-in and second factors).
  if (method.startsWith('passkeys.') || method.startsWith('account.'))
    throw new AuthError('operation-not-allowed');
  if (!method.startsWith('secondFactors.')) {
    return fake[method as Exclude<FakeMethod, SecondFactorMethod | PasskeyMethod | AccountMethod>] as (
      ...a: unknown[]
    ) => Promise<unknown>;
  }
  const ops = fake.secondFactors;
  if (!ops) throw new AuthError('operation-not-allowed');
  const name = method.slice('secondFactors.'.length) as keyof SecondFactorOperations;
  return ops[name] as (...a: unknown[]) => Promise<unknown>;
}

/**
 * Whether a failed call still changed the backend, so the log keeps it: a right first factor of an account
 * with second factors leaves a pending sign-in (and its id) behind.
 */
export function changedTheBackend(error: unknown): boolean {
  return error instanceof AuthError && error.code === 'second-factor-required';
}

type Ops = SecondFactorOperations;

/** `ops` with every call that changes the backend recorded (`list` only reads). */
export function loggedSecondFactors(ops: Ops, record: RecordCall): Ops {
  const wrap =
    <K extends keyof Ops>(name: K) =>
    async (...args: Parameters<Ops[K]>): Promise<Awaited<ReturnType<Ops[K]>>> => {
      const run = ops[name] as (...a: Parameters<Ops[K]>) => Promise<Awaited<ReturnType<Ops[K]>>>;
      const result = await run(...args);
      const method: SecondFactorMethod = `secondFactors.${name}`;
      if (name !== 'list') record(method, savedArgs(method, args));
      return result;
    };
  return {
    startSignIn: wrap('startSignIn'),
    finishSignIn: wrap('finishSignIn'),
    cancelSignIn: wrap('cancelSignIn'),
    list: wrap('list'),
    startPhoneEnrollment: wrap('startPhoneEnrollment'),
    finishPhoneEnrollment: wrap('finishPhoneEnrollment'),
    startTotpEnrollment: wrap('startTotpEnrollment'),
    finishTotpEnrollment: wrap('finishTotpEnrollment'),
    unenroll: wrap('unenroll'),
  };
}
