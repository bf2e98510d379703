// Passkeys on the Firebase host (the Auth emulator, the host's passkey server at /passkeys), in Chromium
// with a virtual authenticator: an account made with a password is offered a passkey once on /account and
// adds it there, then signs in with "Sign in with a passkey" and by the email field's passkey autofill
// (each session saying "passkey"), removes it (which ends the session: the page goes to the sign-in page),
// and a passkey sign-in is then refused with a clear message, nobody signed in. WebAuthn takes no IP address as relying party id: the pages are opened on `localhost`.
import type { Page } from '@playwright/test';
import { HOST_PORT } from '../playwright.config.ts';
import { addAuthenticator } from '../webauthn.ts';
import {
  accountOf,
  expect,
  expectNoAxeViolations,
  passkeysCardOf,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

const PASSWORD = 'Secret-123';

test.use({ baseURL: `http://localhost:${HOST_PORT}` });

/** The account page's passkey card (`<Passkeys>`) and the offer above it (`<PasskeyOffer>`). */
function passkeysOf(page: Page) {
  const root = page.locator('.host-passkeys');
  const card = passkeysCardOf(page, root);
  const offer = root.getByRole('region', { name: 'Sign in faster next time' });
  return { root, card: card.root, offer, button: card.button, list: card.list };
}

/** Signs out from /account and waits for the signed-out card (the browser's SDK signed out too). */
async function signOut(page: Page): Promise<void> {
  // Firebase compares revocation with sign-in times in whole seconds: let this sign-in's second pass, so
  // the next sign-in is not taken for one made before the revocation (a wait, not a timed assertion).
  await page.waitForTimeout(1100);
  await accountOf(page).signOut.click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await expect(page.locator('[data-card="signOut"]')).toBeVisible();
}

test('a passkey: offered once after a password sign-in, added, signed in with (button and autofill), removed, then refused', async ({
  page,
  widget,
  account,
}) => {
  test.setTimeout(120_000);
  const authenticator = await addAuthenticator(page);
  const email = uniqueEmail('passkey');
  await signUp(page, email, PASSWORD);
  await expect(account.value('Signed in with')).toHaveText('password');

  const passkeys = passkeysOf(page);
  await expect(passkeys.offer).toBeVisible();
  await expect(passkeys.card).toContainText('You have not added a passkey yet.');
  await expectNoAxeViolations(page);
  await passkeys.offer.getByRole('button', { name: 'Add a passkey', exact: true }).click();
  await expect(passkeys.offer).toContainText('Passkey added.');
  await expect(passkeys.offer.getByRole('button')).toHaveCount(0);
  await expect(passkeys.list.getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.list).toContainText('Passkey');
  await expectNoAxeViolations(page);
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.rpId).toBe('localhost');

  // Answered: not offered again in this browser.
  await page.reload();
  await expect(passkeys.list).toContainText('Passkey');
  await expect(passkeys.offer).toHaveCount(0);

  await signOut(page);
  await page.goto('/login');
  await widget.button('Sign in with a passkey').click();
  await page.waitForURL('**/account');
  await expect(account.value('Email')).toHaveText(email);
  await expect(account.value('Signed in with')).toHaveText('passkey');
  await expect(passkeys.list).toContainText('Passkey');
  await expect(passkeys.offer).toHaveCount(0);

  // Autofill: the email card asks for a passkey with conditional mediation; the virtual authenticator,
  // present and verifying, answers it as a person's pick from the field's suggestions would.
  await signOut(page);
  await page.goto('/login');
  await widget.button('Sign in with email').click();
  await page.waitForURL('**/account');
  await expect(account.value('Email')).toHaveText(email);
  await expect(account.value('Signed in with')).toHaveText('passkey');

  await passkeys.button('Remove Passkey').click();
  await passkeys.button('Yes, remove it').click();
  // Issue 24: removing a passkey ends every session of the user, this one included: the account page
  // goes on to the sign-in page, and the session cookie is gone.
  await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
  expect((await page.context().cookies()).some((c) => c.name === 'doorway_session')).toBe(false);

  // The authenticator still holds the passkey; the host no longer knows it.
  await page.goto('/login');
  await widget.button('Sign in with a passkey').click();
  await widget.expectError("That passkey isn't recognized. Try another way to sign in.");
  await expect(widget.root).toHaveAttribute('data-card', 'providerChooser');
  await page.goto('/account');
  await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
});
