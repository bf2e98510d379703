/**
 * Page objects of the Remix host's pages, whatever its backend (the Firebase Auth emulator or the GoTrue
 * test double): the sign-in widget's steps a person takes on /login, the account page, and the unique
 * accounts each host test makes for itself (the host tests run side by side on one backend).
 * Texts are the catalogue's (`@doorway/auth-core`), as the widget shows them.
 */
// The catalogue's source (the e2e step runs before the packages are built, so not the package's dist).

import { type BrowserContext, expect, type Page } from '@playwright/test';
import { uiText } from '../packages/auth-core/src/cardText.ts';
import { errorMessages } from '../packages/auth-core/src/messages.ts';
import { accountText } from '../packages/ui-cards/src/account/text.ts';
import type { hostWidgetOf } from './fixtures.ts';

export { accountText, uiText };

/** The host's widget page object (axe-core on every card; with scripts off, on a copy of the markup). */
export type HostWidget = ReturnType<typeof hostWidgetOf>;

const unique = () => Math.random().toString(36).slice(2, 10);

/** A unique address for one test. */
export function uniqueEmail(label: string): string {
  return `${label}-${unique()}@example.com`;
}

/** A unique federated identity (the `sub` of the emulator's Google claims) for one test. */
export function uniqueSub(label: string): string {
  return `${label}-${unique()}`;
}

/**
 * A unique US number for one test, E.164 (`+1201555` and four digits: the emulator keeps every code it
 * sent, so a number of its own keeps a test from reading another test's code).
 */
export function uniquePhone(): string {
  return `+1201555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

/** The account page, by its definition list. */
export function accountOf(page: Page) {
  const list = page.getByRole('definition');
  return {
    heading: page.getByRole('heading', { level: 1, name: 'Your account' }),
    /** The value shown for a term ("Email", "User ID", "Signed in with", "Linked sign-in methods"…). */
    value: (term: string) =>
      page
        .locator('.host-account > div')
        .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
        .getByRole('definition'),
    list,
    signOut: page.getByRole('button', { name: uiText.signOut, exact: true }),
  };
}

/**
 * The account page's second-factor section: its heading (the server renders it) and the card that arrives
 * with the page's scripts (`<SecondFactors>`: its buttons, fields and list of factors).
 */
export function factorsOf(page: Page) {
  const root = page.locator('.host-second-factors');
  return {
    root,
    heading: page.getByRole('heading', { level: 2, name: 'Second factors' }),
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    field: (name: string) => root.getByLabel(name, { exact: true }),
    list: root.getByRole('list', { name: accountText.yourFactors }),
  };
}

/** From the chooser shown on /login to the email card, with scripts or without (the chooser is a form). */
export async function toEmailEntry(widget: Pick<HostWidget, 'card' | 'button'>): Promise<void> {
  await widget.card('providerChooser', uiText.providerChooserTitle);
  await widget.button(uiText.signInWithEmail).click();
  await widget.card('emailEntry', uiText.emailEntryTitle);
}

/**
 * From the chooser: Sign in with email, the address, Next, each clicked as soon as it shows; `{ card: true }`
 * checks the email card (its heading, axe-core) on the way.
 */
export async function enterEmail(
  widget: Pick<HostWidget, 'card' | 'button' | 'field'>,
  email: string,
  options: { card?: boolean } = {},
): Promise<void> {
  await widget.button(uiText.signInWithEmail).click();
  if (options.card) await widget.card('emailEntry', uiText.emailEntryTitle);
  await widget.field(uiText.emailLabel).fill(email);
  await widget.button(uiText.next).click();
}

/** From the chooser to the password card of `email` (on Supabase, the combined sign-in or sign-up card). */
export async function toPasswordSignIn(widget: HostWidget, email: string): Promise<void> {
  await toEmailEntry(widget);
  await widget.field(uiText.emailLabel).fill(email);
  await widget.button(uiText.next).click();
  await widget.card('passwordSignIn', uiText.passwordSignInTitle);
}

/** On the password card: the password, then Sign in. */
export async function submitPassword(widget: HostWidget, password: string): Promise<void> {
  await widget.field(uiText.passwordLabel).fill(password);
  await widget.button(uiText.signIn).click();
}

/** From the chooser: the password card of `email`, its password, then Sign in. */
export async function signInWithPassword(widget: HostWidget, email: string, password: string): Promise<void> {
  await toPasswordSignIn(widget, email);
  await submitPassword(widget, password);
}

/** On the sign-up card: name and password, then Save. */
export async function submitSignUp(widget: HostWidget, name: string, password: string): Promise<void> {
  await widget.card('passwordSignUp', uiText.passwordSignUpTitle);
  await widget.field(uiText.nameLabel).fill(name);
  await widget.field(uiText.newPasswordLabel).fill(password);
  await widget.button(uiText.save).click();
}

/** Signs out from the account page and goes on from the sign-out card to the chooser. */
export async function signOutToChooser(page: Page, widget: HostWidget): Promise<void> {
  await accountOf(page).signOut.click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await widget.card('signOut', uiText.signOutTitle);
  await widget.button(uiText.signInAgain).click();
  await widget.card('providerChooser', uiText.providerChooserTitle);
}

/** The chooser marks `name` "Last used" (its description), and no other of its options (`chooser`). */
export async function expectMarked(widget: HostWidget, name: string, chooser: readonly string[]) {
  await expect(widget.button(name)).toHaveAccessibleName(name);
  await expect(widget.button(name)).toHaveAccessibleDescription(uiText.lastUsed);
  for (const other of chooser.filter((n) => n !== name)) {
    await expect(widget.button(other)).toHaveAccessibleDescription('');
  }
  await expect(widget.root.getByText(uiText.lastUsed, { exact: true })).toHaveCount(1);
}

/** The "Last used" cookie's value (the option's id, nothing about the person): HttpOnly, SameSite=Lax. */
export async function lastUsedCookie(context: BrowserContext): Promise<string | undefined> {
  const cookie = (await context.cookies()).find((c) => c.name === 'doorway_last_used');
  expect(cookie, 'the "Last used" cookie').toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  return cookie?.value;
}

/** Whether `page`'s browser holds the host's session cookie (HttpOnly). */
export async function hasSession(page: Page): Promise<boolean> {
  return (await page.context().cookies()).some((c) => c.name === 'doorway_session' && c.httpOnly);
}

/**
 * From the chooser: the password card of `email`, Trouble signing in?, the recovery card (the email kept),
 * Send, and the card that says where the email went.
 */
export async function requestPasswordReset(widget: HostWidget, email: string): Promise<void> {
  await toPasswordSignIn(widget, email);
  await widget.button(uiText.troubleSigningIn).click();
  await widget.card('passwordRecovery', uiText.passwordRecoveryTitle);
  await expect(widget.field(uiText.emailLabel)).toHaveValue(email);
  await widget.button(uiText.send).click();
  await widget.card('recoveryEmailSent', uiText.recoveryEmailSentTitle);
  await expect(widget.root).toContainText(uiText.recoveryEmailSentText(email));
}

/** After a reset, on /login: the old password no longer signs `email` in; the new one does. */
export async function signInWithNewPassword(
  page: Page,
  widget: HostWidget,
  email: string,
  passwords: { old: string; new: string },
): Promise<void> {
  await page.goto('/login');
  await toPasswordSignIn(widget, email);
  await submitPassword(widget, passwords.old);
  await widget.expectError(errorMessages['wrong-password']);
  await submitPassword(widget, passwords.new);
  await page.waitForURL('/account');
  await expect(accountOf(page).value('Email')).toHaveText(email);
}

/** A visitor opens /account: sent to /login to sign in, then on to the password card of `email`. */
export async function toPasswordSignInFromAccount(page: Page, widget: HostWidget, email: string) {
  await page.goto('/account');
  await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
  await widget.card('providerChooser', uiText.providerChooserTitle);
  await enterEmail(widget, email);
  await widget.card('passwordSignIn', uiText.passwordSignInTitle);
}
