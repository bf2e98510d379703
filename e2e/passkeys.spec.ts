/**
 * Passkeys on the playground (the fake, verifying with @simplewebauthn/server), in Chromium with a virtual
 * authenticator (CDP `WebAuthn.addVirtualAuthenticator`: CTAP2, internal, resident keys, user verification,
 * automatic presence): an account made with a password adds a passkey on its account card, signs out,
 * signs in with "Sign in with a passkey", removes it, and a passkey sign-in then fails with a clear
 * message. WebAuthn takes no IP address as relying party id: the page is opened on `localhost`.
 */
import { expect, expectNoAxeViolations, passkeysCardOf as passkeysOf, test, uiText } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';
import { PORT } from './playwright.config.ts';
import { addAuthenticator } from './webauthn.ts';

const PASSWORD = 'secret123';

test('a passkey: added on the account card, signed in with, removed, then refused', async ({
  page,
  home,
  widget,
  panel,
}) => {
  test.setTimeout(90_000);
  const authenticator = await addAuthenticator(page);
  const email = 'passkey.person@example.com';
  await page.goto(`http://localhost:${PORT}${home}`);
  await enterEmail(widget, email);
  await widget.card('passwordSignUp', 'Create account');
  await widget.field('First & last name').fill('Passkey Person');
  await widget.field('Choose password').fill(PASSWORD);
  await widget.button('Save').click();
  await widget.card('signedIn', 'Signed in!');

  const passkeys = passkeysOf(page);
  await expect(passkeys.root).toContainText('You have not added a passkey yet.');
  await expect(panel.passkeys).toContainText('No passkeys yet.');
  await expectNoAxeViolations(page);
  await passkeys.field('Name for this passkey (optional)').fill('Laptop');
  await passkeys.button('Add a passkey').click();
  await expect(passkeys.list).toContainText('Laptop');
  await expectNoAxeViolations(page);
  const credentials = await authenticator.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  // The panel lists what the backend stored: never used yet, no key material, the id only begun.
  const stored = panel.passkeys.getByRole('listitem');
  await expect(stored).toHaveCount(1);
  await expect(stored).toContainText(`${email}, Laptop: added `);
  await expect(stored).toContainText('last used never, counter 1, not synced');
  await expect(stored.locator('code')).toHaveText(/^[\w-]{8}…$/);

  await panel.button('Sign out (app)').click();
  await expect(panel.panel).toContainText('Nobody is signed in.');
  await widget.card('providerChooser', 'Sign in');
  await expectNoAxeViolations(page);
  await widget.button('Sign in with a passkey').click();
  await widget.card('signedIn', 'Signed in!');
  await expect(panel.panel).toContainText(`Signed in: ${email}`);
  await expect(stored).not.toContainText('last used never');
  await expect(stored).toContainText(/last used .+, counter 2, /);

  // Autofill: the email card asks for a passkey with conditional mediation (`autocomplete="username
  // webauthn"`); the virtual authenticator, present and verifying, answers it as a person's pick would.
  await panel.button('Sign out (app)').click();
  await expect(panel.panel).toContainText('Nobody is signed in.');
  await widget.button(uiText.signInWithEmail).click();
  await widget.card('signedIn', 'Signed in!');
  await expect(panel.panel).toContainText(`Signed in: ${email}`);

  await expect(passkeys.list).toContainText('Laptop');
  await passkeys.button('Remove Laptop').click();
  await passkeys.button('Yes, remove it').click();
  await expect(passkeys.root).toContainText('You have not added a passkey yet.');
  await expect(panel.passkeys).toContainText('No passkeys yet.');
  await expect(stored).toHaveCount(0);

  // The authenticator still holds the passkey; the app no longer knows it.
  await panel.button('Sign out (app)').click();
  await expect(panel.panel).toContainText('Nobody is signed in.');
  await widget.button('Sign in with a passkey').click();
  await widget.expectError("That passkey isn't recognized. Try another way to sign in.");
  await expect(widget.root).toHaveAttribute('data-card', 'providerChooser');
  await expect(panel.panel).toContainText('Nobody is signed in.');
});
