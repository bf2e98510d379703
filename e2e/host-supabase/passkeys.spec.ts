/**
 * Passkeys on the host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (not Supabase), in Chromium
 * with a virtual authenticator (e2e/webauthn.ts): a passkey named on /account's card (its operations run on
 * the server with the session's token, `POST /account/passkeys`), and an account that also has an
 * authenticator app is asked for its code after the passkey (GoTrue's passkey session is aal1). The passkey
 * journey both backends share: e2e/journeys/passkeys.spec.ts. WebAuthn takes no IP address as relying party
 * id: the host is opened on `localhost` (the double's relying party, scripts/host-supabase.mjs).
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations, passkeysCardOf as passkeysOf } from '../fixtures.ts';
import { SUPABASE_HOST_PORT } from '../playwright.config.ts';
import { addAuthenticator } from '../webauthn.ts';
import { accountValue, expect, type hostWidgetOf, signUp, test, totpAt, uniqueEmail } from './fixtures.ts';

const PASSWORD = 'secret123';

test.use({ baseURL: `http://localhost:${SUPABASE_HOST_PORT}` });

/** The code an authenticator app with `secret` shows now. */
const totpNow = (secret: string) => totpAt(secret, Date.now());

/** Signs out from /account, then "Sign in again": the chooser offers the email and the passkey. */
async function signOut(page: Page, widget: ReturnType<typeof hostWidgetOf>) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await widget.card('signOut', 'Signed out');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
}

/**
 * A new password account signed up on /login (the chooser's email, then "Create account"), with a passkey
 * named "Laptop" added on /account: its email.
 */
async function signUpWithPasskey(page: Page, widget: ReturnType<typeof hostWidgetOf>): Promise<string> {
  const email = uniqueEmail('passkey');
  await signUp(page, widget, { email, name: 'Passkey Person', password: PASSWORD });

  const passkeys = passkeysOf(page);
  await expect(passkeys.root).toContainText('You have not added a passkey yet.');
  await passkeys.field('Name for this passkey (optional)').fill('Laptop');
  await passkeys.button('Add a passkey').click();
  await expect(passkeys.list).toContainText('Laptop');
  return email;
}

test("a passkey of an account with an authenticator app: GoTrue's passkey session is aal1, so the code is asked", async ({
  page,
  widget,
}) => {
  test.setTimeout(120_000);
  await addAuthenticator(page);
  // The passkey first: with a verified factor, GoTrue adds passkeys only at aal2.
  const email = await signUpWithPasskey(page, widget);
  const factors = page.locator('.host-second-factors');
  await factors.getByRole('button', { name: 'Add authenticator app', exact: true }).click();
  const secret = (await factors.getByRole('definition').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await factors.getByLabel('6-digit code', { exact: true }).fill(totpNow(secret));
  await factors.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(factors.getByRole('list', { name: 'Your second steps' })).toContainText('Authenticator app');

  await signOut(page, widget);
  await widget.button('Sign in with a passkey').click();
  await widget.card('secondFactorCode', 'Enter your code');
  await expectNoAxeViolations(page);
  await widget.field('6-digit code').fill(totpNow(secret));
  await widget.button('Verify').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);
  await expect(accountValue(page, 'Signed in with')).toContainText(/passkey/i);
});
