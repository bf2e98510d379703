/**
 * What a running flow remembers between its provider calls (one per flow, owned by the runner), and the
 * two reads both the runner and the provider calls make: the flow's provider (a lazy one loads once) and
 * the redirect flow's stored state.
 * @module
 */
import type { WidgetConfig } from './config.ts';
import type { KeyValueStorage } from './emailLinkStore.ts';
import { type Clock, type LazyProvider, waitForProvider } from './loader.ts';
import type { AuthCredential, AuthProvider, CaptchaVerifier, SignInResult } from './provider.ts';

/** What a running flow's provider calls read and remember (one per flow, owned by the runner). */
export interface FlowRuntime {
  /** The provider once loaded (`null` while a lazy one loads). */
  provider: AuthProvider | null;
  /** What the flow was created with: the provider or the lazy one to load. */
  readonly source: AuthProvider | LazyProvider;
  readonly config: WidgetConfig;
  readonly clock: Clock;
  readonly storage: KeyValueStorage | null;
  readonly createId: () => string;
  readonly signOut: boolean;
  /** The captcha verifier of the last phone submission (a resend reuses it). */
  lastVerifier: CaptchaVerifier | null;
  /**
   * An email link signs in once. When linking the pending credential fails after that sign-in, the retry
   * links on the sign-in already made instead of spending the used link again.
   */
  linkSignIn: { link: string; result: SignInResult } | null;
  /** A lazy provider's load in progress, shared by whatever waits for it (`providerOf`). */
  loading?: Promise<AuthProvider> | null;
}

/** Where the redirect flow keeps its pending credential while the page is away. */
export const REDIRECT_KEY = 'doorway.redirect';

/** The pending credential the redirect flow stored before leaving, if any. */
export function readRedirectState(
  storage: KeyValueStorage | null,
): { pendingCredential: AuthCredential | null } | null {
  try {
    const raw = storage?.getItem(REDIRECT_KEY);
    return raw ? (JSON.parse(raw) as { pendingCredential: AuthCredential | null }) : null;
  } catch {
    return null;
  }
}

/**
 * The flow's provider: at once when it is there; else a lazy provider's load (5 s script, 10 s library),
 * started once and shared by everything that waits for it. A failed load is tried again by the next caller.
 */
export function providerOf(rt: FlowRuntime): Promise<AuthProvider> {
  if (rt.provider) return Promise.resolve(rt.provider);
  rt.loading ??= waitForProvider(rt.source as LazyProvider, rt.clock).then(
    (provider) => {
      rt.provider = provider;
      return provider;
    },
    (error: unknown) => {
      rt.loading = null;
      throw error;
    },
  );
  return rt.loading;
}
