/**
 * The fault matrix: every flow the fake provider supports × every provider call it makes, driven through
 * the real `<SignInWidget>`. A clean run of each flow records the calls the widget makes (on a wrapped
 * provider) and must equal the flow's declared `calls`; each declared call is a cell, run once per fault
 * kind with that one call failing:
 *
 * - network failure → "A network error has occurred" is shown, what the person typed is still there, and a
 *   retry (the same button again, or Retry on the error card) completes the flow;
 * - rate limit → the spec's too-many-requests text for that call, the input kept, and a retry once the limit
 *   lifts completes the flow.
 *
 * Storage that throws (denied or full) is run on every flow: flows that must remember something show the
 * web-storage-unsupported card before calling the provider for it; the others complete.
 *
 * A call a flow starts making without a cell fails the clean-run test; a provider method no flow calls fails
 * the coverage test unless it is listed, with the reason, in `NOT_CALLED`.
 */
import type { ProviderMethod } from '@doorway/adapter-fake';
import {
  createMemoryStorage,
  type ErrorCode,
  type KeyValueStorage,
  messageFor,
  uiText,
} from '@doorway/auth-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doStep, expectEnd, FLOWS, type FlowSpec, start } from './flows.tsx';

/** Every provider method: `null` when some flow must call it, else why the widget never does. */
const NOT_CALLED: Record<ProviderMethod, string | null> = {
  setTenant: null,
  fetchSignInMethodsForEmail: null,
  signInWithEmailAndPassword: null,
  createUser: null,
  signInWithCredential:
    'the widget never calls it: pending credentials are linked with linkWithCredential after sign-in',
  signInWithFederated: null,
  getRedirectResult: null,
  signInAnonymously: null,
  startPhoneSignIn: null,
  confirmPhoneCode: null,
  sendSignInLinkToEmail: null,
  signInWithEmailLink: null,
  sendPasswordResetEmail: null,
  verifyPasswordResetCode: null,
  confirmPasswordReset: null,
  checkActionCode: null,
  applyActionCode: null,
  linkWithCredential: null,
  signOut: null,
};

/** The spec's rate-limit code for a call (the fake's documented mapping). */
function rateLimitCode(method: ProviderMethod): ErrorCode {
  if (method === 'createUser') return 'sign-up-too-many-requests';
  if (method === 'startPhoneSignIn') return 'phone-too-many-requests';
  return 'too-many-requests';
}

const FAULTS = {
  network: (_: ProviderMethod): ErrorCode => 'network-request-failed',
  'rate limit': rateLimitCode,
} as const;

/** A matrix cell: the nth call (1-based) of `method` in the flow's clean run. */
interface Cell {
  method: ProviderMethod;
  nth: number;
}

function cellsOf(flow: FlowSpec): Cell[] {
  const seen = new Map<ProviderMethod, number>();
  return flow.calls.map((method) => {
    const nth = (seen.get(method) ?? 0) + 1;
    seen.set(method, nth);
    return { method, nth };
  });
}

for (const flow of FLOWS) {
  describe(`fault matrix: ${flow.name}`, () => {
    it('a clean run makes exactly the declared calls (one matrix cell each)', async () => {
      const { s, ctx } = await start(flow);
      for (const step of flow.steps) await doStep(s, ctx, step);
      expectEnd(s, flow);
      expect(s.log.map((c) => c.method)).toEqual(flow.calls);
      expect(s.log.every((c) => c.settled)).toBe(true);
    });

    for (const [kind, codeFor] of Object.entries(FAULTS)) {
      for (const { method, nth } of cellsOf(flow)) {
        it(`${kind} at ${method} #${nth}: message shown, input kept, a retry completes`, async () => {
          const code = codeFor(method);
          const { s, ctx } = await start(flow);
          s.fake.backend.faults.failNth(method, nth, code);
          const failed = () => s.log.filter((c) => c.method === method)[nth - 1]?.error === code;
          let shown = false;
          for (const step of flow.steps) {
            const filled = await doStep(s, ctx, step);
            if (shown || !failed()) continue;
            shown = true;
            expect(s.visibleText()).toContain(messageFor(code));
            for (const [label, value] of filled) expect((await s.field(label)).value).toBe(value);
            if (s.card() === 'recoverableError') await s.press(uiText.retry);
            else if (step.press !== undefined) await s.press(step.press);
            else throw new Error(`no way to retry on the ${s.card()} card`);
          }
          expect(shown).toBe(true);
          expectEnd(s, flow);
        });
      }
    }
  });
}

const STORAGE_FAULTS: Record<string, () => KeyValueStorage | undefined> = {
  // The widget's default storage: localStorage, which here throws on access (storage blocked).
  'no web storage (window.localStorage throws, the widget default)': () => undefined,
  'storage denied (every access throws)': () => {
    const deny = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    return { getItem: deny, setItem: deny, removeItem: deny };
  },
  'storage full (writes throw)': () => {
    const memory = createMemoryStorage();
    return {
      getItem: (key) => memory.getItem(key),
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: (key) => memory.removeItem(key),
    };
  },
};

for (const [fault, createStorage] of Object.entries(STORAGE_FAULTS)) {
  describe(fault, () => {
    // Only the default storage reads it; the others show that the widget never falls back to it.
    const original = Object.getOwnPropertyDescriptor(window, 'localStorage');
    beforeAll(() => {
      Object.defineProperty(window, 'localStorage', {
        configurable: true,
        get() {
          throw new DOMException('Access is denied for this document.', 'SecurityError');
        },
      });
    });
    afterAll(() => {
      if (original) Object.defineProperty(window, 'localStorage', original);
      else Reflect.deleteProperty(window, 'localStorage');
    });
    for (const flow of FLOWS) {
      it(`${flow.name}: web storage unsupported card where storage is needed, else completes`, async () => {
        const { s, ctx } = await start(flow, createStorage);
        for (const step of flow.steps) {
          await doStep(s, ctx, step);
          if (s.card() === 'unrecoverableError') break;
        }
        const made = s.log.map((c) => c.method);
        if (flow.needsStorage) {
          expect(s.card()).toBe('unrecoverableError');
          expect(s.visibleText()).toContain(messageFor('web-storage-unsupported'));
          // It stops before the call that needed the storage.
          expect(made.length).toBeLessThan(flow.calls.length);
          expect(flow.calls.slice(0, made.length)).toEqual(made);
        } else {
          expectEnd(s, flow);
          expect(made).toEqual(flow.calls);
        }
      });
    }
  });
}

describe('fault matrix coverage', () => {
  it('every provider method is a cell of some flow, or is listed with the reason no flow calls it', () => {
    const called = new Set(FLOWS.flatMap((f) => f.calls));
    const missing = Object.entries(NOT_CALLED)
      .filter(([method, reason]) => reason === null && !called.has(method as ProviderMethod))
      .map(([method]) => method);
    expect(missing).toEqual([]);
    const listedButCalled = Object.entries(NOT_CALLED)
      .filter(([method, reason]) => reason !== null && called.has(method as ProviderMethod))
      .map(([method]) => method);
    expect(listedButCalled).toEqual([]);
  });

  it('the matrix has a cell per declared call for each fault kind', () => {
    const cells = FLOWS.flatMap((f) => cellsOf(f).map((c) => `${f.name} / ${c.method} #${c.nth}`));
    expect(new Set(cells).size).toBe(FLOWS.reduce((n, f) => n + f.calls.length, 0));
  });
});
