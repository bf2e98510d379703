/**
 * "Last used" after a Google sign-in, which the emulator's host alone offers (the GoTrue double's host
 * serves email and passkeys): the chooser marks Google, from the page the server sends. The email
 * journeys, on both backends: e2e/journeys/last-used.spec.ts.
 */
import { expectMarked, lastUsedCookie, signOutToChooser, uiText } from '../host-pages.ts';
import { expect, test, uniqueEmail, uniqueSub } from './fixtures.ts';

/** The chooser of the default e2e host (scripts/e2e-host.mjs). */
const CHOOSER = [
  uiText.signInWithEmail,
  uiText.signInWithPhone,
  uiText.signInWith('Google'),
  uiText.continueAsGuest,
];

test.describe('"Last used" on the host', () => {
  test('Google, then sign out: the chooser marks Google, from the page the server sends', async ({
    page,
    context,
    widget,
    account,
  }) => {
    const email = uniqueEmail('last-google');
    const google = uiText.signInWith('Google');
    await page.goto('/login');
    await widget.card('providerChooser', uiText.providerChooserTitle);
    await expect(widget.root.getByText(uiText.lastUsed, { exact: true })).toHaveCount(0);
    page.once('dialog', (dialog) =>
      dialog.accept(JSON.stringify({ sub: uniqueSub('g-last'), email, email_verified: true })),
    );
    await widget.button(google).click();
    await page.waitForURL('/account');
    await expect(account.value('Signed in with')).toHaveText('google.com');
    expect(await lastUsedCookie(context)).toBe('google.com');

    await signOutToChooser(page, widget);
    await expectMarked(widget, google, CHOOSER);
    expect(await lastUsedCookie(context)).toBe('google.com');

    // Without what the widget kept in this browser, the server's cookie alone marks it.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto('/login');
    await widget.card('providerChooser', uiText.providerChooserTitle);
    await expectMarked(widget, google, CHOOSER);
  });
});
