import { ADA, answerPopup, expect, test, uiText, type widgetOf } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

const OPTIONS = [
  uiText.signInWithEmail,
  'Sign in with phone',
  'Sign in with Google',
  'Sign in with GitHub',
  'Continue as guest',
];

/** The chooser marks `name` "Last used" (its description; its name stays the same), and no other option. */
async function expectMarked(widget: ReturnType<typeof widgetOf>, name: string) {
  await expect(widget.button(name)).toHaveAccessibleName(name);
  await expect(widget.button(name)).toHaveAccessibleDescription('Last used');
  for (const other of OPTIONS.filter((n) => n !== name)) {
    await expect(widget.button(other)).toHaveAccessibleDescription('');
  }
  await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(1);
}

/** From "Signed in!": Sign out, then Sign in again, to the chooser. */
async function signOutToChooser(widget: ReturnType<typeof widgetOf>) {
  await widget.button('Sign out').click();
  await widget.card('signOut', 'Signed out');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
}

test('"Last used": the chooser after sign-out marks the option of the last sign-in', async ({
  page,
  home,
  widget,
}) => {
  await page.goto(home);
  await widget.card('providerChooser', 'Sign in');
  await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(0);

  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    widget.button('Sign in with GitHub').click(),
  ]);
  await popup.getByLabel('Account email').fill('octo@example.com');
  await answerPopup(popup, 'Continue');
  await widget.card('signedIn', 'Signed in!');
  await signOutToChooser(widget);
  await expectMarked(widget, 'Sign in with GitHub');

  await enterEmail(widget, ADA.email);
  await widget.card('passwordSignIn', 'Sign in');
  await widget.field('Password').fill(ADA.password);
  await widget.button('Sign in').click();
  await widget.card('signedIn', 'Signed in!');
  await signOutToChooser(widget);
  await expectMarked(widget, uiText.signInWithEmail);

  // Kept in the browser: a later visit marks it too.
  await page.goto(home);
  await widget.card('providerChooser', 'Sign in');
  await expectMarked(widget, uiText.signInWithEmail);
});
