/**
 * Fixtures for the host on the GoTrue TEST DOUBLE (not Supabase): the widget page object (axe-core on every
 * card; with scripts off, on a copy of the page's markup), the account page's values, and the double's
 * outbox.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { hostWidgetOf } from '../fixtures.ts';

export { hostWidgetOf };

/** The GoTrue test double of this project's web server (GOTRUE_DOUBLE_PORT in e2e/playwright.config.ts). */
export const DOUBLE = 'http://127.0.0.1:4331';

export const test = base.extend<{ widget: ReturnType<typeof hostWidgetOf> }>({
  widget: async ({ page, javaScriptEnabled }, use) => {
    await use(hostWidgetOf(page, { scripts: javaScriptEnabled }));
  },
});

/** The account page's value for a term ("Email", "Name", "Signed in with", …). */
export const accountValue = (page: Page, term: string) =>
  page
    .locator('.host-account > div')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole('definition');

/**
 * From the sign-in page's chooser (email and passkey: the options scripts/host-supabase.mjs serves) to the email
 * card, with scripts or without (the chooser's buttons are a form).
 */
export async function toEmailEntry(widget: Pick<ReturnType<typeof hostWidgetOf>, 'card' | 'button'>) {
  await widget.card('providerChooser', 'Sign in');
  await widget.button('Sign in with email').click();
  await widget.card('emailEntry', 'Sign in with email');
}

/**
 * Signs up a new password account on /login (the chooser's email, the combined card's "Create account")
 * and waits for /account.
 */
export async function signUp(
  page: Page,
  widget: ReturnType<typeof hostWidgetOf>,
  account: { email: string; name: string; password: string },
): Promise<void> {
  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field('Email').fill(account.email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  await widget.button('Create account').click();
  await widget.card('passwordSignUp', 'Create account');
  await widget.field('First & last name').fill(account.name);
  await widget.field('Choose password').fill(account.password);
  await widget.button('Save').click();
  await page.waitForURL('/account');
}

/** A unique address for one test. */
export const uniqueEmail = (label: string) =>
  `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** The newest recovery link the double sent to an address (waits for it). */
export async function lastRecoveryLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(`${DOUBLE}/__double/outbox`);
      const { emails } = (await response.json()) as { emails: { to: string; type: string; link: string }[] };
      link = emails.filter((e) => e.to === email && e.type === 'recovery').at(-1)?.link;
      return link !== undefined;
    }, `a recovery email to ${email}`)
    .toBe(true);
  return link as string;
}

export { expect };
