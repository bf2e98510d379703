/**
 * Faults: the wrapper every asynchronous provider call runs through (logged, delayed, failed on demand,
 * errors normalised to `AuthError`) and the run-time fault switches of `backend.faults`.
 * @module
 */
import { AuthError, type ErrorCode } from '@doorway/auth-core';
import type { FakeFaultControl, FakeMethod, MethodSelector } from './types.ts';
import { fail } from './util.ts';
import { admin, type FakeContext, type FaultState, notify, refreshCapabilities } from './world.ts';

// Local in a real SDK (no request), so blanket faults leave them alone.
const LOCAL_METHODS: readonly FakeMethod[] = ['signOut', 'setTenant', 'secondFactors.cancelSignIn'];

function selects(selector: MethodSelector, method: FakeMethod): boolean {
  if (selector === true) return !LOCAL_METHODS.includes(method);
  if (selector === false) return false;
  return selector.methods.includes(method);
}

// The calls that send an SMS: their rate limit is the phone's.
const SMS_METHODS: readonly FakeMethod[] = [
  'startPhoneSignIn',
  'secondFactors.startSignIn',
  'secondFactors.startPhoneEnrollment',
];

function rateLimitCode(method: FakeMethod): ErrorCode {
  if (method === 'createUser') return 'sign-up-too-many-requests';
  if (SMS_METHODS.includes(method)) return 'phone-too-many-requests';
  return 'too-many-requests';
}

// Counts the call and takes the failNth failure planned for it, if any.
function takePlanned(faults: FaultState, method: FakeMethod): AuthError | undefined {
  const count = (faults.counts.get(method) ?? 0) + 1;
  faults.counts.set(method, count);
  const planned = faults.planned.find((f) => f.method === method && f.at === count);
  if (planned === undefined) return undefined;
  faults.planned = faults.planned.filter((f) => f !== planned);
  return planned.error;
}

/** Throws the fault a call of `method` meets now, if any: planned, queued, network, rate limit. */
function injectFault(faults: FaultState, method: FakeMethod, planned: AuthError | undefined): void {
  if (planned !== undefined) throw planned;
  const queued = faults.next.get(method)?.shift();
  if (queued !== undefined) throw queued;
  if (selects(faults.switches.network, method)) fail('network-request-failed');
  if (selects(faults.switches.rateLimit, method)) fail(rateLimitCode(method));
}

/** Runs one asynchronous provider call: logged, delayed, faulted, errors normalised to `AuthError`. */
export async function call<T>(
  { world, config }: FakeContext,
  method: FakeMethod,
  run: () => T | Promise<T>,
): Promise<T> {
  const { faults } = world;
  world.calls.push({ method, at: config.clock.now() });
  const planned = takePlanned(faults, method);
  try {
    if (faults.switches.latencyMs > 0) await config.sleep(faults.switches.latencyMs);
    injectFault(faults, method, planned);
    return await run();
  } catch (error) {
    throw error instanceof AuthError ? error : new AuthError('generic');
  } finally {
    notify(world);
  }
}

/** `backend.faults`: the switches and one-shot failures of `ctx`'s world. */
export function createFaultControl(ctx: FakeContext): FakeFaultControl {
  const { faults } = ctx.world;
  return {
    set: (patch) =>
      admin(ctx.world, () => {
        faults.switches = { ...faults.switches, ...patch };
        refreshCapabilities(ctx);
      }),
    get: () => ({ ...faults.switches }),
    reset: () =>
      admin(ctx.world, () => {
        faults.switches = { ...ctx.config.initialFaults };
        faults.next.clear();
        faults.planned = [];
        refreshCapabilities(ctx);
      }),
    failNext: (method, code, details) => {
      const queue = faults.next.get(method) ?? [];
      queue.push(new AuthError(code, details));
      faults.next.set(method, queue);
    },
    failNth: (method, nth, code, details) => {
      if (!Number.isInteger(nth) || nth < 1) throw new RangeError('failNth: nth must be a positive integer');
      const at = (faults.counts.get(method) ?? 0) + nth;
      faults.planned.push({ method, at, error: new AuthError(code, details) });
    },
  };
}
