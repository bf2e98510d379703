/**
 * Passkeys on the host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (not Supabase), in Chromium
 * with a virtual authenticator (e2e/webauthn.ts): an account made with a password adds a passkey on
 * /account (the card's operations run on the server with the session's token, `POST /account/passkeys`;
 * the browser's dialog runs between GoTrue's options and its verification), signs out, signs in with "Sign in
 * with a passkey", then with the email field's passkey autofill, removes it, and a passkey sign-in then fails
 * with the catalogue's message and nobody signed in. WebAuthn takes no IP address as relying party id: the
 * host is opened on `localhost` (the double's relying party, scripts/host-supabase.mjs).
 */
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from '../fixtures.ts';
import { SUPABASE_HOST_PORT } from '../playwright.config.ts';
import { addAuthenticator } from '../webauthn.ts';
import { accountValue, expect, type hostWidgetOf, test, uniqueEmail } from './fixtures.ts';

const PASSWORD = 'secret123';

test.use({ baseURL: `http://localhost:${SUPABASE_HOST_PORT}` });

/** The account page's passkeys card (`<Passkeys>`). */
function passkeysOf(page: Page) {
  const root = page
    .locator('.doorway-account')
    .filter({ has: page.getByRole('heading', { name: 'Passkeys', exact: true }) });
  return {
    root,
    field: (label: string) => root.getByLabel(label, { exact: true }),
    button: (name: string) => root.getByRole('button', { name, exact: true }),
    list: root.getByRole('list', { name: 'Your passkeys' }),
  };
}

/** Signs out from /account, then "Sign in again": the chooser offers the email and the passkey. */
async function signOut(page: Page, widget: ReturnType<typeof hostWidgetOf>) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await widget.card('signOut', 'Signed out');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
}

test('a passkey: added on /account, signed in with (button and autofill), removed, then refused', async ({
  page,
  widget,
}) => {
  test.setTimeout(120_000);
  const authenticator = await addAuthenticator(page);
  const email = uniqueEmail('passkey');
  await page.goto('/login');
  await widget.card('providerChooser', 'Sign in');
  await widget.button('Sign in with email').click();
  await widget.card('emailEntry', 'Sign in with email');
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  await widget.button('Create account').click();
  await widget.field('First & last name').fill('Passkey Person');
  await widget.field('Choose password').fill(PASSWORD);
  await widget.button('Save').click();
  await page.waitForURL('/account');

  const passkeys = passkeysOf(page);
  await expect(passkeys.root).toContainText('You have not added a passkey yet.');
  await passkeys.field('Name for this passkey (optional)').fill('Laptop');
  await passkeys.button('Add a passkey').click();
  await expect(passkeys.list).toContainText('Laptop');
  await expectNoAxeViolations(page);
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  await signOut(page, widget);
  await widget.button('Sign in with a passkey').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);
  await expect(accountValue(page, 'Signed in with')).toContainText(/passkey/i);

  // Autofill: the email card asks for a passkey with conditional mediation (`autocomplete="username
  // webauthn"`); the virtual authenticator, present and verifying, answers it as a person's pick would.
  await signOut(page, widget);
  await widget.button('Sign in with email').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);

  await expect(passkeys.list).toContainText('Laptop');
  await passkeys.button('Remove Laptop').click();
  await passkeys.button('Yes, remove it').click();
  await expect(passkeys.root).toContainText('You have not added a passkey yet.');

  // The authenticator still holds the passkey; GoTrue no longer knows it.
  await signOut(page, widget);
  await widget.button('Sign in with a passkey').click();
  await widget.expectError("That passkey isn't recognized. Try another way to sign in.");
  await expect(widget.root).toHaveAttribute('data-card', 'providerChooser');
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?signInSuccessUrl=%2Faccount$/);
});
