import { test } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

test('tenants: choose a tenant, then sign in to it', async ({ page, home, widget, panel }) => {
  await page.goto(home);
  await panel.check('Tenants');
  await widget.card('tenantChooser', 'Choose where to sign in');
  await widget.button('Acme Corp').click();
  await widget.card('providerChooser', 'Sign in');
  await enterEmail(widget, 'ken@acme.com');
  await widget.field('Password').fill('secret123');
  await widget.button('Sign in').click();
  await widget.card('signedIn', 'Signed in!');
});
