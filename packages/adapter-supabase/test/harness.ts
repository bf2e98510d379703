/**
 * The adapter on a fresh GoTrue double: msw server, a fake browser that follows the double's redirects, and
 * the contract harness (`inspect` reads the double's outbox and drives its admin side and IdP).
 */

import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleOptions } from '@doorway/gotrue-double';
import type { ContractHarness } from '@doorway/testing';
import { createSoftAuthenticator, type SoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { setupServer } from 'msw/node';
import {
  createSupabaseProvider,
  type SupabaseBrowser,
  type SupabaseProvider,
  type SupabaseProviderSettings,
} from '../src/index.ts';
import { CONTRACT_PROJECT, doubleInspect } from './inspect.ts';

/** One msw server per test file; each double adds its own handlers (every double has its own origin). */
export const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

/** The page the fake browser starts on. */
export const APP_URL = 'http://localhost/app';
/** Where emailed links land. */
export const ACTION_URL = 'http://localhost/__/auth/action';

/** A browser whose navigations and popups go through the double (and its IdP) synchronously. */
export interface DoubleBrowser extends SupabaseBrowser {
  /** The address bar. */
  url: string;
  /** The next `openPopup` returns `null`. */
  blockNextPopup(): void;
  /** Every popup opened, with where it ended up. */
  popups: { url: string | null; closed: boolean }[];
}

/** A fake browser on the double. */
export function createDoubleBrowser(double: GoTrueDouble, start = APP_URL): DoubleBrowser {
  let blocked = 0;
  const browser: DoubleBrowser = {
    url: start,
    popups: [],
    blockNextPopup() {
      blocked += 1;
    },
    openPopup() {
      if (blocked > 0) {
        blocked -= 1;
        return null;
      }
      const state = { url: null as string | null, closed: false };
      browser.popups.push(state);
      return {
        get closed() {
          return state.closed;
        },
        navigate(url) {
          state.url = double.follow(url);
        },
        currentUrl: () => (state.url?.startsWith('http://localhost') ? state.url : null),
        close() {
          state.closed = true;
        },
      };
    },
    navigate(url) {
      browser.url = double.follow(url);
    },
    currentUrl: () => browser.url,
    replaceUrl(url) {
      browser.url = url;
    },
  };
  return browser;
}

/** Options of {@link createSupabaseHarness}. */
export interface SupabaseHarnessOptions {
  double?: GoTrueDoubleOptions;
  settings?: SupabaseProviderSettings;
  flowType?: 'implicit' | 'pkce';
  /** Reuse a double (another "browser" on the same project). */
  on?: GoTrueDouble;
}

/** The adapter, its double and its browser. */
export interface SupabaseHarness {
  provider: SupabaseProvider;
  double: GoTrueDouble;
  browser: DoubleBrowser;
  /** The software authenticator the provider's passkey ceremonies run on (origin `http://localhost`). */
  authenticator: SoftAuthenticator;
  /** The contract suite's view. */
  contract: ContractHarness;
}

/** A fresh double (unless `on` is given) and a provider on it. */
export function createSupabaseHarness(options: SupabaseHarnessOptions = {}): SupabaseHarness {
  const double = options.on ?? createGoTrueDouble({ ...CONTRACT_PROJECT, ...options.double });
  if (!options.on) server.use(...double.handlers);
  const browser = createDoubleBrowser(double);
  const authenticator = createSoftAuthenticator({ origin: new URL(APP_URL).origin });
  const provider = createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { flowType: options.flowType ?? 'implicit' } },
    {
      federatedProviders: ['google.com', 'github.com'],
      actionUrl: ACTION_URL,
      browser,
      popupPollIntervalMs: 1,
      passkeys: true,
      webAuthn: { client: authenticator },
      // What account.changeEmail answers follows the double's project setting.
      // (with "Confirm email" off, GoTrue takes one confirmation even then).
      secureEmailChange:
        (options.double?.secureEmailChange ?? CONTRACT_PROJECT.secureEmailChange ?? true) &&
        !(options.double?.mailerAutoconfirm ?? CONTRACT_PROJECT.mailerAutoconfirm),
      ...options.settings,
    },
  );
  const contract: ContractHarness = {
    provider,
    inspect: {
      ...doubleInspect(double, () => provider.createCaptchaVerifier(null)),
      idp: {
        queue: (identity) => double.idp.queue(identity),
        cancelNext: () => double.idp.cancelNext(),
        blockPopup: () => browser.blockNextPopup(),
      },
      authenticator,
    },
    dispose: () => provider.dispose(),
  };
  return { provider, double, browser, authenticator, contract };
}
