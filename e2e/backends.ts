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
import { accountOf, type HostWidget, submitSignUp, toPasswordSignIn, uiText } from './host-pages.ts';
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
  { backend: Backend; widget: HostWidget; account: ReturnType<typeof accountOf> },
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
});

export { expect };
