/**
 * The host's backends for the journeys in e2e/journeys/, which both host projects run: `firebase` (the
 * `remix-host` project: the Firebase Auth emulator) and `supabase` (`remix-host-supabase`: the GoTrue TEST
 * DOUBLE, not Supabase). The project picks one with its `backend` option; the `backend` fixture is what a
 * journey asks of it (accounts, the emails it "sent") and what differs between the two, each difference
 * named with its reason.
 */
import { type Browser, test as base, expect, type Page } from '@playwright/test';
import { hostWidgetOf } from './fixtures.ts';
import * as firebase from './host/fixtures.ts';
import {
  accountOf,
  enterEmail,
  type HostWidget,
  requestPasswordReset,
  submitSignUp,
  toPasswordSignIn,
  uiText,
} from './host-pages.ts';
import * as supabase from './host-supabase/fixtures.ts';

export type BackendName = 'firebase' | 'supabase';

/** A new password account. */
export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

export interface Backend {
  readonly name: BackendName;
  /** The options of the host's chooser, by their buttons' names, with scripts or without. */
  chooser(scripts: boolean): readonly string[];
  /**
   * Whether the backend tells the widget if an email has an account. Firebase does (its sign-in-method
   * lookup: a new address goes straight to the sign-up card); Supabase has no lookup, so every address
   * gets the combined, enumeration-safe sign-in card with its Create account button.
   */
  readonly lookup: boolean;
  /**
   * Whether the emailed links are Doorway's templates pointing at the host's /action page. The GoTrue
   * double sends them so; the emulator's links go to its own handler page (not part of the product), for
   * which the host's action page is opened as a custom action URL would open it.
   */
  readonly linksToHost: boolean;
  /**
   * The Terms of Service link the host's widget shows, or null: the emulator's host is configured with one
   * (scripts/e2e-host.mjs sets DOORWAY_TOS_URL), the GoTrue double's host with none.
   */
  readonly termsUrl: string | null;
  /**
   * The account page's "Linked sign-in methods" of a password account. A GoTrue email identity signs in
   * by password and by the emailed link alike, so the host lists both; Firebase's is the password alone.
   */
  readonly passwordMethods: string;
  /**
   * The session cookie's lifetime in seconds, from just after sign-in, at least and at most. Firebase's
   * session cookie is the host's five days (Max-Age); Supabase's is as long as the access token it holds
   * (an hour on the double).
   */
  readonly sessionSeconds: { min: number; max: number };
  /**
   * Whether revoking sessions applies only to those that started in an earlier whole second: Firebase
   * compares the revocation with the sign-in time in whole seconds, so a sign-out in the sign-in's own
   * second would leave that session valid. GoTrue ends the sessions themselves.
   */
  readonly revokesWholeSeconds: boolean;
  /** A password account made for the test, not signed in in `page`'s browser. */
  createAccount(browser: Browser, account: NewAccount): Promise<void>;
  /** The link of the newest password-reset email to `email`, as the browser opens it (absolute). */
  lastResetLink(email: string): Promise<string>;
}

/**
 * Signs up a password account through the widget on /login, with scripts or without, and waits for
 * /account: the email, then (Supabase, no lookup) the combined card's Create account, then name and password.
 */
export async function signUp(page: Page, widget: HostWidget, backend: Backend, account: NewAccount) {
  await page.goto('/login');
  if (backend.lookup) {
    // To the email card only: the lookup sends a new address straight to the sign-up card.
    await widget.card('providerChooser', uiText.providerChooserTitle);
    await widget.button(uiText.signInWithEmail).click();
    await widget.card('emailEntry', uiText.emailEntryTitle);
    await widget.field(uiText.emailLabel).fill(account.email);
    await widget.button(uiText.next).click();
  } else {
    await toPasswordSignIn(widget, account.email);
    await widget.button(uiText.createAccount).click();
  }
  await submitSignUp(widget, account.name, account.password);
  await page.waitForURL('/account');
  await expect(accountOf(page).value('Email')).toHaveText(account.email);
}

/**
 * From the chooser on /login to the sign-up card of `email` (which it keeps): the email card, then on a
 * backend without a lookup the combined, enumeration-safe card, whose Create account opens the sign-up card.
 */
export async function toSignUpCard(widget: HostWidget, backend: Backend, email: string): Promise<void> {
  await widget.card('providerChooser', uiText.providerChooserTitle);
  await enterEmail(widget, email, { card: true });
  if (!backend.lookup) {
    await widget.card('passwordSignIn', uiText.combinedSignInTitle);
    await expect(widget.root).toContainText(uiText.combinedSignInText);
    await widget.button(uiText.createAccount).click();
  }
  await widget.card('passwordSignUp', uiText.passwordSignUpTitle);
  await expect(widget.field(uiText.emailLabel)).toHaveValue(email);
}

/**
 * A new password account for `email` (password `secret123`), its reset asked for on /login, and the link
 * of the email that came, opened: the reset card for `email`. The link continues to the page that asked,
 * and on a backend whose links go to the host (`linksToHost`) it is the host's action page itself.
 */
async function openResetLink(
  { page, browser, baseURL, backend, widget }: ResetFixtures,
  email: string,
): Promise<URL> {
  await backend.createAccount(browser, { email, name: 'Reset Person', password: 'secret123' });
  await page.goto('/login');
  await requestPasswordReset(widget, email);
  const link = new URL(await backend.lastResetLink(email));
  expect(link.searchParams.get('continueUrl')).toBe(`${baseURL}/login`);
  if (backend.linksToHost) expect(`${link.origin}${link.pathname}`).toBe(`${baseURL}/action`);
  await page.goto(link.href);
  await widget.card('passwordReset', uiText.passwordResetTitle);
  await expect(widget.root).toContainText(uiText.passwordResetFor(email));
  return link;
}

/** What `openResetLink` uses of a test's fixtures. */
interface ResetFixtures {
  page: Page;
  browser: Browser;
  baseURL: string | undefined;
  backend: Backend;
  widget: HostWidget;
}

const backends: Record<BackendName, (origin: string) => Backend> = {
  firebase: (origin) => ({
    name: 'firebase',
    // Without scripts too: phone and Google then open a card that says they need JavaScript.
    chooser: () => [
      uiText.signInWithEmail,
      uiText.signInWithPhone,
      uiText.signInWith('Google'),
      uiText.continueAsGuest,
    ],
    lookup: true,
    linksToHost: false,
    termsUrl: '/terms',
    passwordMethods: 'password',
    // Five days (Max-Age), give or take the test's own duration.
    sessionSeconds: { min: 4.9 * 24 * 3600, max: 5 * 24 * 3600 + 60 },
    revokesWholeSeconds: true,
    async createAccount(_browser, { email, password }) {
      await firebase.createAccount(email, password);
    },
    async lastResetLink(email) {
      const code = await firebase.lastOobCode(email, 'PASSWORD_RESET');
      // The continue URL the email carries, on the host's action page.
      const continueUrl = new URL(code.oobLink).searchParams.get('continueUrl') ?? '';
      return `${origin}${firebase.actionUrl(code, { continueUrl })}`;
    },
  }),
  supabase: (origin) => ({
    name: 'supabase',
    // scripts/host-supabase.mjs serves email and passkeys; a passkey needs scripts (WebAuthn), so the
    // chooser served to a browser without them leaves it out.
    chooser: (scripts) =>
      scripts ? [uiText.signInWithEmail, uiText.signInWithPasskey] : [uiText.signInWithEmail],
    lookup: false,
    linksToHost: true,
    termsUrl: null,
    passwordMethods: 'emailLink, password',
    sessionSeconds: { min: 3500, max: 3610 },
    revokesWholeSeconds: false,
    async createAccount(browser, account) {
      // The double's REST API wants the project's anon key, which only the host holds: sign up in a
      // browser of its own, as a person would.
      const context = await browser.newContext({ baseURL: origin, javaScriptEnabled: true });
      const page = await context.newPage();
      await signUp(page, hostWidgetOf(page), this, account);
      await context.close();
    },
    lastResetLink: (email) => supabase.lastRecoveryLink(email),
  }),
};

/** The backend option of a host project (e2e/playwright.config.ts). */
export interface BackendOptions {
  backendName: BackendName;
}

export const test = base.extend<
  {
    backend: Backend;
    widget: HostWidget;
    account: ReturnType<typeof accountOf>;
    /**
     * A new password account for an email (password `secret123`), its reset asked for on /login, and the
     * emailed link opened: the reset card (its link, checked, returned).
     */
    openResetLink: (email: string) => Promise<URL>;
  },
  BackendOptions
>({
  backendName: ['firebase', { option: true, scope: 'worker' }],
  backend: async ({ backendName, baseURL }, use) => {
    await use(backends[backendName](baseURL ?? ''));
  },
  widget: async ({ page, javaScriptEnabled }, use) => {
    await use(hostWidgetOf(page, { scripts: javaScriptEnabled }));
  },
  account: async ({ page }, use) => {
    await use(accountOf(page));
  },
  openResetLink: async ({ page, browser, baseURL, backend, widget }, use) => {
    await use((email) => openResetLink({ page, browser, baseURL, backend, widget }, email));
  },
});

export { expect };
