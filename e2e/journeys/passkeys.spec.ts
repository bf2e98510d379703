/**
 * Passkeys on the host, on either backend (e2e/backends.ts), in Chromium with a virtual authenticator
 * (e2e/webauthn.ts): an account made with a password is offered a passkey once on /account and adds it
 * there, then signs in with "Sign in with a passkey" and by the email field's passkey autofill (each session
 * saying "passkey"), removes it (which ends the session: the page goes to the sign-in page), and a passkey
 * sign-in is then refused with the catalogue's message, nobody signed in. WebAuthn takes no IP address as
 * relying party id: the host is opened on `localhost`. (Supabase's passkey with an authenticator app:
 * e2e/host-supabase/passkeys.spec.ts.)
 */
import type { Page } from '@playwright/test';
import { errorMessages } from '../../packages/auth-core/src/messages.ts';
import { type Backend, expect, signUp, test } from '../backends.ts';
import { expectNoAxeViolations, passkeysCardOf } from '../fixtures.ts';
import { type HostWidget, hasSession, signOutToChooser, uiText, uniqueEmail } from '../host-pages.ts';
import { addAuthenticator } from '../webauthn.ts';

test.use({ baseURL: async ({ baseURL }, use) => use(baseURL?.replace('127.0.0.1', 'localhost')) });

/** The account page's passkey card (`<Passkeys>`) and the offer above it (`<PasskeyOffer>`). */
function passkeysOf(page: Page) {
  const root = page.locator('.host-passkeys');
  const card = passkeysCardOf(page, root);
  const offer = root.getByRole('region', { name: 'Sign in faster next time' });
  return { root, card: card.root, offer, button: card.button, list: card.list };
}

/** Signs out from /account, then "Sign in again": the chooser. */
async function signOut(page: Page, widget: HostWidget, backend: Backend): Promise<void> {
  // So that the next sign-in is not taken for one made before the revocation (a wait, not a timed
  // assertion): `revokesWholeSeconds`.
  if (backend.revokesWholeSeconds) await page.waitForTimeout(1100);
  await signOutToChooser(page, widget);
}

test('a passkey: offered once after a password sign-in, added, signed in with (button and autofill), removed, then refused', async ({
  page,
  backend,
  widget,
  account,
}) => {
  test.setTimeout(120_000);
  const authenticator = await addAuthenticator(page);
  const email = uniqueEmail('passkey');
  await signUp(page, widget, backend, { email, name: 'Passkey Person', password: 'secret123' });
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
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // Answered: not offered again in this browser.
  await page.reload();
  await expect(passkeys.list).toContainText('Passkey');
  await expect(passkeys.offer).toHaveCount(0);

  await signOut(page, widget, backend);
  await widget.button(uiText.signInWithPasskey).click();
  await page.waitForURL('/account');
  await expect(account.value('Email')).toHaveText(email);
  await expect(account.value('Signed in with')).toHaveText('passkey');
  await expect(passkeys.list).toContainText('Passkey');
  await expect(passkeys.offer).toHaveCount(0);

  // Autofill: the email card asks for a passkey with conditional mediation (`autocomplete="username
  // webauthn"`); the virtual authenticator, present and verifying, answers it as a person's pick would.
  await signOut(page, widget, backend);
  await widget.button(uiText.signInWithEmail).click();
  await page.waitForURL('/account');
  await expect(account.value('Email')).toHaveText(email);
  await expect(account.value('Signed in with')).toHaveText('passkey');

  await passkeys.button('Remove Passkey').click();
  await passkeys.button('Yes, remove it').click();
  // Issue 24: removing a passkey ends every session of the user, this one included: the account page
  // goes on to the sign-in page, and the session cookie is gone.
  await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
  expect(await hasSession(page)).toBe(false);

  // The authenticator still holds the passkey; the backend no longer knows it.
  await page.goto('/login');
  await widget.button(uiText.signInWithPasskey).click();
  await widget.expectError(errorMessages['passkey-not-found']);
  await expect(widget.root).toHaveAttribute('data-card', 'providerChooser');
  await page.goto('/account');
  await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
});
