/**
 * Fixtures for the host on the GoTrue TEST DOUBLE (not Supabase): the widget page object (axe-core on every
 * card; with scripts off, on a copy of the page's markup), the account page's values, and the double's
 * outbox.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { hostWidgetOf } from '../fixtures.ts';
import {
  accountOf,
  type HostWidget,
  submitSignUp,
  toEmailEntry,
  toPasswordSignIn,
  uiText,
  uniqueEmail,
} from '../host-pages.ts';

export { hostWidgetOf, toEmailEntry, uniqueEmail };

/** The GoTrue test double of this project's web server (GOTRUE_DOUBLE_PORT in e2e/playwright.config.ts). */
export const DOUBLE = 'http://127.0.0.1:4331';

export const test = base.extend<{ widget: ReturnType<typeof hostWidgetOf> }>({
  widget: async ({ page, javaScriptEnabled }, use) => {
    await use(hostWidgetOf(page, { scripts: javaScriptEnabled }));
  },
});

/** The account page's value for a term ("Email", "Name", "Signed in with", …). */
export const accountValue = (page: Page, term: string) => accountOf(page).value(term);

/**
 * Signs up a new password account on /login (the chooser's email, the combined card's "Create account")
 * and waits for /account.
 */
export async function signUp(
  page: Page,
  widget: HostWidget,
  account: { email: string; name: string; password: string },
): Promise<void> {
  await page.goto('/login');
  await toPasswordSignIn(widget, account.email);
  await widget.button(uiText.createAccount).click();
  await submitSignUp(widget, account.name, account.password);
  await page.waitForURL('/account');
}

/** The newest email of a type (`recovery`, `magiclink`…) the double sent to an address (waits for it); its link. */
export async function lastEmailLink(email: string, type: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(`${DOUBLE}/__double/outbox`);
      const { emails } = (await response.json()) as { emails: { to: string; type: string; link: string }[] };
      link = emails.filter((e) => e.to === email && e.type === type).at(-1)?.link;
      return link !== undefined;
    }, `a ${type} email to ${email}`)
    .toBe(true);
  return link as string;
}

/** The newest recovery link the double sent to an address (waits for it). */
export const lastRecoveryLink = (email: string) => lastEmailLink(email, 'recovery');

const TOTP_STEP_MS = 30_000;

/**
 * The code an authenticator app with `secret` shows at `at` (RFC 6238: SHA-1, 6 digits, 30 s). The double
 * runs on the real clock and accepts the code of the step before and after.
 */
export const totpAt = (secret: string, at: number) =>
  TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_STEP_MS / 1000,
    timestamp: at,
  });

/** A code of `secret` from ten minutes or more before `now` that no step near now shows. */
export function farTotp(secret: string, now: number): string {
  const near = [-2, -1, 0, 1, 2].map((step) => totpAt(secret, now + step * TOTP_STEP_MS));
  for (let minutes = 10; ; minutes++) {
    const code = totpAt(secret, now - minutes * 60_000);
    if (!near.includes(code)) return code;
  }
}

export { expect };
