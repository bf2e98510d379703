/**
 * Where a keyboard or screen-reader user is after each step of the password sign-in, with JavaScript and
 * without, on either backend (e2e/backends.ts): focus on the new card's heading or on the field in error,
 * never on <body>, and the page title naming the card, "Error: " first on an error (issue 32). Without
 * scripts every step is a page the server renders with `autofocus` on that element.
 */

import { titleText } from '../../packages/auth-core/src/cardText.ts';
import { errorMessages, validationMessages } from '../../packages/auth-core/src/messages.ts';
import { expect, test } from '../backends.ts';
import { uiText, uniqueEmail } from '../host-pages.ts';

const title = (card: string) => `${card} – Sign in – Doorway`;

for (const scripts of [true, false]) {
  test.describe(`focus and title after each step, JavaScript ${scripts ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: scripts });

    test('the password sign-in: each card’s heading, the field in error, never <body>', async ({
      page,
      browser,
      backend,
      widget,
    }) => {
      const email = uniqueEmail(scripts ? 'focus-js' : 'focus-nojs');
      await backend.createAccount(browser, { email, name: 'Ada Lovelace', password: 'secret123' });
      const heading = (name: string) => widget.root.getByRole('heading', { level: 1, name, exact: true });
      const notOnBody = async () =>
        expect(await page.evaluate(() => document.activeElement?.tagName ?? 'BODY')).not.toBe('BODY');

      await page.goto('/login');
      await widget.card('providerChooser', uiText.providerChooserTitle);
      await expect(page).toHaveTitle(title(titleText.providerChooser));
      await expect(heading(uiText.providerChooserTitle)).toBeFocused();

      await widget.button(uiText.signInWithEmail).click();
      await widget.card('emailEntry', uiText.emailEntryTitle);
      await expect(heading(uiText.emailEntryTitle)).toBeFocused();
      await expect(page).toHaveTitle(title(titleText.emailEntry));

      await widget.button(uiText.next).click();
      await widget.expectError(validationMessages['email-required']);
      await expect(widget.field(uiText.emailLabel)).toBeFocused();
      await expect(widget.field(uiText.emailLabel)).toHaveAttribute('aria-invalid', 'true');
      await expect(page).toHaveTitle(title(titleText.error(titleText.emailEntry)));

      await widget.field(uiText.emailLabel).fill(email);
      await widget.button(uiText.next).click();
      // Supabase tells no one whether an address has an account: its password card is the combined one.
      const passwordTitle = backend.lookup ? titleText.passwordSignIn : titleText.combinedSignIn;
      const passwordHeading = backend.lookup ? uiText.passwordSignInTitle : uiText.combinedSignInTitle;
      await widget.card('passwordSignIn', passwordHeading);
      await expect(heading(passwordHeading)).toBeFocused();
      await expect(page).toHaveTitle(title(passwordTitle));

      await widget.field(uiText.passwordLabel).fill('not-the-password1');
      await widget.button(uiText.signIn).click();
      await widget.expectError(errorMessages['wrong-password']);
      await expect(widget.field(uiText.passwordLabel)).toBeFocused();
      await expect(widget.field(uiText.passwordLabel)).toHaveAttribute('aria-invalid', 'true');
      await expect(page).toHaveTitle(title(titleText.error(passwordTitle)));
      await notOnBody();

      await widget.field(uiText.passwordLabel).fill('secret123');
      await widget.button(uiText.signIn).click();
      await page.waitForURL('/account');
    });
  });
}
