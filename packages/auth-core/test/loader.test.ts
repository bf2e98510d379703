import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthError } from '../src/errors.ts';
import { type Clock, waitForProvider } from '../src/loader.ts';
import type { AuthProvider } from '../src/provider.ts';

const fakeClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
const provider = { capabilities: {} } as unknown as AuthProvider;

async function outcome(p: Promise<AuthProvider>) {
  return p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, code: e instanceof AuthError ? e.code : String(e) }),
  );
}

describe('lazy provider loading (5 s script load, 10 s library wait)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times out when the script does not load within 5 s', async () => {
    const settled = outcome(
      waitForProvider({ loadScript: () => new Promise(() => {}), getProvider: () => null }, fakeClock),
    );
    await vi.advanceTimersByTimeAsync(4999);
    let done = false;
    void settled.then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toEqual({ ok: false, code: 'provider-load-timeout' });
  });

  it('waits up to 10 s for the identity library after the script loaded', async () => {
    let ready: AuthProvider | null = null;
    const settled = outcome(
      waitForProvider({ loadScript: async () => {}, getProvider: () => ready }, fakeClock),
    );
    await vi.advanceTimersByTimeAsync(9000);
    ready = provider;
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled).toEqual({ ok: true, v: provider });
  });

  it('gives up 10 s after the script loaded when the library never appears', async () => {
    const settled = outcome(
      waitForProvider({ loadScript: async () => {}, getProvider: () => null }, fakeClock),
    );
    await vi.advanceTimersByTimeAsync(9_900);
    let done = false;
    void settled.then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled).toEqual({ ok: false, code: 'provider-load-timeout' });
  });

  it('a script that fails to load is a network error', async () => {
    const settled = outcome(
      waitForProvider(
        { loadScript: () => Promise.reject(new Error('404')), getProvider: () => null },
        fakeClock,
      ),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(await settled).toEqual({ ok: false, code: 'network-request-failed' });
  });
});
