/**
 * Lazily loaded providers: a script that must load within {@link SCRIPT_LOAD_TIMEOUT_MS}, then an identity
 * library that must appear within {@link IDENTITY_LIBRARY_WAIT_MS}.
 * @module
 */
import { IDENTITY_LIBRARY_WAIT_MS, SCRIPT_LOAD_TIMEOUT_MS } from './constants.ts';
import { AuthError } from './errors.ts';
import type { AuthProvider } from './provider.ts';

/** Timer functions, injectable so tests run on fake time. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** A provider whose SDK arrives later, e.g. from a script tag. */
export interface LazyProvider {
  /** Loads the provider's script (or chunk). */
  loadScript(): Promise<void>;
  /** The provider once its identity library is ready, else `null`. Polled every 100 ms. */
  getProvider(): AuthProvider | null | undefined;
}

/** Whether a value is a {@link LazyProvider} rather than a ready provider. */
export function isLazyProvider(p: AuthProvider | LazyProvider): p is LazyProvider {
  return (
    typeof (p as LazyProvider).loadScript === 'function' &&
    typeof (p as LazyProvider).getProvider === 'function'
  );
}

const POLL_MS = 100;

/**
 * Loads a {@link LazyProvider}: the script within 5 s, then the library within 10 s. Rejects with
 * `AuthError('provider-load-timeout')` (shown as the unrecoverable error card) when either runs out, and with
 * `network-request-failed` when the script fails to load.
 */
export function waitForProvider(lazy: LazyProvider, clock: Clock = systemClock): Promise<AuthProvider> {
  return new Promise<AuthProvider>((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => {
      if (!done) {
        done = true;
        fn();
      }
    };
    const loadTimer = clock.setTimeout(
      () => finish(() => reject(new AuthError('provider-load-timeout'))),
      SCRIPT_LOAD_TIMEOUT_MS,
    );
    let loading: Promise<void>;
    try {
      loading = Promise.resolve(lazy.loadScript());
    } catch (e) {
      loading = Promise.reject(e);
    }
    loading.then(
      () => {
        clock.clearTimeout(loadTimer);
        if (done) return;
        const started = clock.now();
        const poll = () => {
          if (done) return;
          const provider = lazy.getProvider();
          if (provider) return finish(() => resolve(provider));
          if (clock.now() - started >= IDENTITY_LIBRARY_WAIT_MS) {
            return finish(() => reject(new AuthError('provider-load-timeout')));
          }
          clock.setTimeout(poll, POLL_MS);
        };
        poll();
      },
      () => {
        clock.clearTimeout(loadTimer);
        finish(() => reject(new AuthError('network-request-failed')));
      },
    );
  });
}
