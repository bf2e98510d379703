/**
 * The adapter on a fresh GoTrue double: msw server, a fake browser that follows the double's redirects, and
 * the contract harness (`inspect` reads the double's outbox and drives its admin side and IdP).
 */

import {
  createGoTrueDouble,
  type GoTrueDouble,
  type GoTrueDoubleOptions,
} from '@doorway/adapter-supabase/testing';
import type { ContractEmailKind, ContractHarness } from '@doorway/auth-core/testing';
import { setupServer } from 'msw/node';
import {
  createSupabaseProvider,
  formatActionCode,
  SUPABASE_EMAIL_TEMPLATES,
  type SupabaseBrowser,
  type SupabaseProvider,
  type SupabaseProviderSettings,
  toSupabaseProvider,
} from '../src/index.ts';

/** One msw server per test file; each double adds its own handlers (every double has its own origin). */
export const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

/** The page the fake browser starts on. */
export const APP_URL = 'http://localhost/app';
/** Where emailed links land. */
export const ACTION_URL = 'http://localhost/__/auth/action';

/** Doorway's templates, in the double's template names. */
export const DOORWAY_TEMPLATES = {
  confirmation: SUPABASE_EMAIL_TEMPLATES.confirmation,
  magicLink: SUPABASE_EMAIL_TEMPLATES.magicLink,
  recovery: SUPABASE_EMAIL_TEMPLATES.recovery,
  emailChange: SUPABASE_EMAIL_TEMPLATES.emailChange,
  invite: SUPABASE_EMAIL_TEMPLATES.invite,
} as const;

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
  /** The contract suite's view. */
  contract: ContractHarness;
}

/** The project settings the contract runs with (see the README for why each). */
export const CONTRACT_PROJECT: GoTrueDoubleOptions = {
  mailerAutoconfirm: true,
  smsAutoconfirm: false,
  anonymousUsers: true,
  manualLinking: true,
  secureEmailChange: false,
  uriAllowList: ['http://localhost/**'],
  templates: DOORWAY_TEMPLATES,
};

const KIND_TYPES: Record<ContractEmailKind, readonly string[]> = {
  signIn: ['magiclink', 'signup', 'email_change'],
  resetPassword: ['recovery'],
  verifyEmail: ['signup'],
  recoverEmail: [],
  verifyAndChangeEmail: ['email_change'],
};

/** A fresh double (unless `on` is given) and a provider on it. */
export function createSupabaseHarness(options: SupabaseHarnessOptions = {}): SupabaseHarness {
  const double = options.on ?? createGoTrueDouble({ ...CONTRACT_PROJECT, ...options.double });
  if (!options.on) server.use(...double.handlers);
  const browser = createDoubleBrowser(double);
  const provider = createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { flowType: options.flowType ?? 'implicit' } },
    {
      federatedProviders: ['google.com', 'github.com'],
      actionUrl: ACTION_URL,
      browser,
      popupPollIntervalMs: 1,
      ...options.settings,
    },
  );
  const contract: ContractHarness = {
    provider,
    inspect: {
      lastEmailLink: async (email, kind) => {
        const types = KIND_TYPES[kind];
        const mail = [...double.outbox.emails]
          .reverse()
          .find((m) => m.to === email.toLowerCase() && types.includes(m.type));
        return mail?.link ?? null;
      },
      lastSmsCode: async (phoneNumber) => double.outbox.lastSms(phoneNumber)?.otp ?? null,
      createUser: async (user) => {
        if (user.federated) {
          const created = double.admin.createFederatedUser(toSupabaseProvider(user.federated.providerId), {
            sub: user.federated.sub,
            email: user.email ?? `${user.federated.sub}@idp.example`,
          });
          return String(created.id);
        }
        const created = double.admin.createUser({
          ...(user.email ? { email: user.email, email_confirm: user.emailVerified ?? true } : {}),
          ...(user.phoneNumber ? { phone: user.phoneNumber, phone_confirm: true } : {}),
          ...(user.password ? { password: user.password } : {}),
          ...(user.displayName ? { user_metadata: { full_name: user.displayName } } : {}),
        });
        return String(created.id);
      },
      actionCode: async (email, kind, extra) => {
        // GoTrue's admin generate_link, turned into the oobCode Doorway's templates would put in the mail.
        if (kind === 'recoverEmail') return null; // Supabase has no "undo email change" link.
        const type =
          kind === 'verifyEmail'
            ? 'signup'
            : kind === 'resetPassword'
              ? 'recovery'
              : ('email_change_new' as const);
        // GoTrue mints no confirmation for an address that is already confirmed (generate_link answers
        // email_exists): the contract then skips, saying the backend cannot produce the code.
        const target = double.admin.listUsers().find((u) => u.email === email.toLowerCase());
        if (type === 'signup' && target?.email_confirmed_at !== undefined) return null;
        const link = double.admin.generateLink({
          type,
          email,
          ...(extra?.newEmail ? { new_email: extra.newEmail } : {}),
        });
        return formatActionCode(link.verification_type as 'signup', link.hashed_token);
      },
      federatedCredential: (providerId, identity) => ({
        kind: 'federated',
        providerId,
        idToken: double.idp.idToken(toSupabaseProvider(providerId), identity),
      }),
      solvedVerifier: () => provider.createCaptchaVerifier(null),
      disableUser: async (uid) => {
        double.admin.updateUserById(uid, { ban_duration: '876000h' });
      },
      idp: {
        queue: (identity) => double.idp.queue(identity),
        cancelNext: () => double.idp.cancelNext(),
        blockPopup: () => browser.blockNextPopup(),
      },
    },
    dispose: () => provider.dispose(),
  };
  return { provider, double, browser, contract };
}
