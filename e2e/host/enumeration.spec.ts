/**
 * Email enumeration protection applied by the host (issue 24, item 5): a host started here with
 * DOORWAY_EMAIL_ENUMERATION_PROTECTION=true on the Auth emulator, whose own protection is off (its
 * default). Before, a wrong password for an unknown address and a recovery email to it said "That email
 * address doesn't match an existing account". Now an unknown address reads exactly as a known one, with
 * scripts (the browser's provider) and without (the form path). The shared e2e hosts keep their
 * configuration.
 */
import type { Page } from '@playwright/test';
import { uiText } from '../host-pages.ts';
import { createAccount, expect, hostWidgetOf, serveOwnHost, test, uniqueEmail } from './fixtures.ts';

const PORT = 4326;
const HOST = `http://127.0.0.1:${PORT}`;
const WRONG = "The email and password you entered don't match";
const UNKNOWN = "That email address doesn't match an existing account";

let server: { stop(): void } | null = null;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: HOST });

test.beforeAll(async () => {
  server = await serveOwnHost(PORT, {
    DOORWAY_SIGN_IN_OPTIONS: 'email',
    DOORWAY_EMAIL_ENUMERATION_PROTECTION: 'true',
  });
});

test.afterAll(() => {
  server?.stop();
});

/** A wrong password for `email` on the combined sign-in card; resolves the widget on that card. */
async function wrongPassword(page: Page, scripts: boolean, email: string) {
  const widget = hostWidgetOf(page, { scripts });
  await page.goto('/login');
  await widget.card('emailEntry', uiText.emailEntryTitle);
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  // No lookup under protection: the same combined card for every address.
  await widget.card('passwordSignIn', 'Sign in');
  await widget.field('Password').fill('not-the-password');
  await widget.button('Sign in').click();
  return widget;
}

for (const scripts of [true, false]) {
  test.describe(`with JavaScript ${scripts ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: scripts });

    test('a wrong password for an unknown address reads as one for a known address', async ({ page }) => {
      const known = uniqueEmail('enum-known');
      await createAccount(known, 'secret123');
      for (const email of [known, uniqueEmail('enum-unknown')]) {
        const widget = await wrongPassword(page, scripts, email);
        await widget.expectError(WRONG);
        await expect(widget.field('Password')).toHaveAttribute('aria-invalid', 'true');
        await expect(widget.root).not.toContainText(UNKNOWN);
      }
    });

    test('recovery says the email was sent for an unknown address too', async ({ page }) => {
      const email = uniqueEmail('enum-recovery');
      const widget = await wrongPassword(page, scripts, email);
      await widget.expectError(WRONG);
      await widget.button('Trouble signing in?').click();
      await widget.card('passwordRecovery', 'Recover password');
      await widget.button('Send').click();
      await widget.card('recoveryEmailSent', 'Check your email');
      await expect(widget.root).toContainText(
        `Follow the instructions sent to ${email} to recover your password`,
      );
    });
  });
}
