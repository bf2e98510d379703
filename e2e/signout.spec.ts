import { ADA, expect, test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test('sign out, then sign in again', async ({ page, home, widget, panel }) => {
  await page.goto(home);
  await enterEmail(widget, ADA.email);
  await widget.field('Password').fill(ADA.password);
  await widget.button('Sign in').click();
  await widget.card('signedIn', 'Signed in!');
  await expect(panel.panel).toContainText(`Signed in: ${ADA.email}`);
  await widget.button('Sign out').click();
  await widget.card('signOut', 'Signed out');
  await expect(panel.panel).toContainText('Nobody is signed in.');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
});
