/**
 * The host's backends for the journeys in e2e/journeys/, which both host projects run: `firebase` (the
 * `remix-host` project: the Firebase Auth emulator) and `supabase` (`remix-host-supabase`: the GoTrue TEST
 * DOUBLE, not Supabase). The project picks one with its `backend` option; the `backend` fixture is what a
 * journey asks of it (accounts, the emails it "sent") and what differs between the two, each difference
 * named with its reason.
 */
import { type Browser, test as base, expect, type Page } from '@playwright/test';
import { errorMessages } from '../packages/auth-core/src/messages.ts';
import { expectNoAxeViolations, hostWidgetOf } from './fixtures.ts';
import {
  accountWithPhoneFactor,
  PHONE_FACTOR_NAME,
  pressUntil,
  sendSmsCode,
  verifyEmail,
} from './host/factors.ts';
import * as firebase from './host/fixtures.ts';
import {
  accountOf,
  accountText,
  enterEmail,
  factorsOf,
  type HostWidget,
  requestPasswordReset,
  signInWithPassword,
  signOutToChooser,
  submitSignUp,
  toPasswordSignIn,
  uiText,
  uniquePhone,
} from './host-pages.ts';
import * as supabase from './host-supabase/fixtures.ts';

export type BackendName = 'firebase' | 'supabase';

/** A new password account. */
export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

/** A second factor of a test's account, as a journey adds it and signs in with it. */
export interface SecondFactor {
  /** A text message (its code read from the backend's outbox) or an authenticator app (its code computed). */
  readonly kind: 'phone' | 'totp';
  /** The name the account page lists it by. */
  readonly name: string;
  /** The sign-in widget's first card of its challenge. */
  readonly challengeCard: 'secondFactorPhone' | 'secondFactorCode';
  /**
   * Whether its challenge needs the page's scripts: a text message is sent past the browser's reCAPTCHA;
   * an authenticator app's code card is a plain form.
   */
  readonly needsScripts: boolean;
  /** The code it shows now: the newest text message to its number, or the authenticator app's code. */
  code(): Promise<string>;
  /** A code it does not show now. */
  wrongCode(): Promise<string>;
  /** At sign-in, from the challenge's first card to the code card (a text message is sent first). */
  toCodeCard(widget: HostWidget): Promise<void>;
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
  /**
   * The kinds of second factor the account page's card offers, by its buttons' names. The host on
   * Firebase offers both of Firebase's; the host on Supabase runs the card's operations on the server
   * with authenticator apps only.
   */
  readonly factorButtons: readonly string[];
  /** A password account made for the test, not signed in in `page`'s browser. */
  createAccount(browser: Browser, account: NewAccount): Promise<void>;
  /**
   * What an account signed in on /account needs before it may add a second factor. Firebase asks for a
   * verified email (verified here over the emulator's REST API), which a session knows from its next
   * sign-in: signed out and in again. GoTrue asks nothing.
   */
  readyForFactors(page: Page, widget: HostWidget, account: NewAccount): Promise<void>;
  /**
   * On /account's second-factor card: Add, up to its code field. The factor each backend's journeys add:
   * a text message on the emulator (it keeps the codes it "sent" at /verificationCodes; it has no
   * authenticator apps), an authenticator app on the GoTrue double (its secret read from the card).
   */
  startFactor(page: Page): Promise<SecondFactor>;
  /** A password account with a second factor, made outside `page`'s browser. */
  createAccountWithFactor(browser: Browser, account: NewAccount): Promise<SecondFactor>;
  /**
   * Whether the widget, hydrated on a challenge the server met, finishes it through the server: GoTrue's
   * pending (aal1) session stays on the server, so the code card posts there; Firebase's SDK finishes it
   * in the browser with the text message it sends.
   */
  readonly serverFinishesChallenge: boolean;
  /**
   * What the page of a challenge the server met carries of the pending sign-in, by name: Firebase's
   * `mfaPendingCredential` (an opaque credential, no session token: its SDK finishes the challenge with it
   * in the browser); on Supabase only the adapter's marker `supabase-aal1`, the aal1 session kept on the
   * server.
   */
  readonly challengeSession: string;
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

/**
 * On /account, with no second factor yet: the card offers the backend's kinds; one added (`startFactor`),
 * a wrong code refused, the right one and a name taken, and the factor listed.
 */
export async function addFactor(page: Page, backend: Backend): Promise<SecondFactor> {
  const factors = factorsOf(page);
  await expect(factors.heading).toBeVisible();
  await expect(factors.root).toContainText(accountText.none);
  await expect(factors.root.getByRole('button')).toHaveText(backend.factorButtons);
  const factor = await backend.startFactor(page);
  await expectNoAxeViolations(page);
  const code = factors.field(accountText.codeLabel);
  await code.fill(await factor.wrongCode());
  await factors.button(accountText.verify).click();
  await expect(code).toHaveAccessibleDescription(new RegExp(errorMessages['invalid-verification-code']));
  await code.fill(await factor.code());
  await factors.field(accountText.nameLabel).fill(factor.name);
  await factors.button(accountText.verify).click();
  await expect(factors.list).toContainText(factor.name);
  return factor;
}

/** A text-message factor of `phone` on the emulator. */
function phoneFactor(phone: string): SecondFactor {
  const code = () => firebase.lastSmsCode(phone);
  return {
    kind: 'phone',
    name: PHONE_FACTOR_NAME,
    challengeCard: 'secondFactorPhone',
    needsScripts: true,
    code,
    wrongCode: async () => ((await code()) === '000000' ? '111111' : '000000'),
    async toCodeCard(widget) {
      await widget.card('secondFactorPhone', uiText.secondFactorPhoneTitle);
      await sendSmsCode(widget, phone);
      await widget.card('secondFactorCode', uiText.secondFactorCodeTitle);
    },
  };
}

/**
 * An authenticator app of `secret`. GoTrue names a factor when it is started (a name given at the end is
 * not used: the adapter's README), so it is listed by its kind.
 */
function totpFactor(secret: string): SecondFactor {
  return {
    kind: 'totp',
    name: accountText.kindTotp,
    challengeCard: 'secondFactorCode',
    needsScripts: false,
    code: async () => supabase.totpAt(secret, Date.now()),
    wrongCode: async () => supabase.farTotp(secret, Date.now()),
    async toCodeCard(widget) {
      await widget.card('secondFactorCode', uiText.secondFactorCodeTitle);
      await expect(widget.root).toContainText(uiText.secondFactorTotpText);
    },
  };
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
    factorButtons: [accountText.addPhone, accountText.addTotp],
    serverFinishesChallenge: false,
    challengeSession: 'mfaPendingCredential',
    async createAccount(_browser, { email, password }) {
      await firebase.createAccount(email, password);
    },
    async readyForFactors(page, widget, { email, password }) {
      await verifyEmail(email, password);
      await signOutToChooser(page, widget);
      await signInWithPassword(widget, email, password);
      await page.waitForURL('/account');
    },
    async startFactor(page) {
      const factors = factorsOf(page);
      const phone = uniquePhone();
      await factors.button(accountText.addPhone).click();
      await factors.field(accountText.phoneLabel).fill(phone);
      await expectNoAxeViolations(page);
      await pressUntil(
        () => factors.button(accountText.sendCode).click({ timeout: 2000 }),
        () => expect(factors.field(accountText.codeLabel)).toBeVisible({ timeout: 1500 }),
      );
      return phoneFactor(phone);
    },
    createAccountWithFactor: async (_browser, { email, password }) =>
      phoneFactor(await accountWithPhoneFactor(email, password)),
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
    factorButtons: [accountText.addTotp],
    serverFinishesChallenge: true,
    challengeSession: 'supabase-aal1',
    async readyForFactors() {},
    async startFactor(page) {
      const factors = factorsOf(page);
      await factors.button(accountText.addTotp).click();
      const secret = (await factors.root.getByRole('definition').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await expect(factors.root.getByRole('img', { name: accountText.qrAlt })).toBeVisible();
      return totpFactor(secret);
    },
    async createAccountWithFactor(browser, account) {
      const context = await browser.newContext({ baseURL: origin, javaScriptEnabled: true });
      const page = await context.newPage();
      await signUp(page, hostWidgetOf(page), this, account);
      const factor = await addFactor(page, this);
      await context.close();
      return factor;
    },
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
