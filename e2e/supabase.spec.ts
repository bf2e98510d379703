/**
 * The playground's Supabase mode (`?provider=supabase`): the widget on adapter-supabase, whose supabase-js
 * client talks over HTTP to the GoTrue TEST DOUBLE that the playground's dev and preview server serves for
 * the world (not Supabase). Password and email-link flows, as a person would go through them.
 */
import { expect, test, widgetOf } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

const NEW_PERSON = { email: 'new.person@example.com', name: 'New Person', password: 'n3w-secret' };

test.describe('Supabase mode (local GoTrue double)', () => {
  test('the panel names the double and the adapter decides the cards', async ({ page, world, panel }) => {
    await page.goto(`/?provider=supabase&world=${world}`);
    await expect(page.getByText('Doorway playground: Supabase (local GoTrue double)')).toBeVisible();
    await expect(panel.panel.getByLabel('Supabase (local GoTrue double)', { exact: true })).toBeChecked();
    // No tenants and no federated options: Supabase has none, and the double's IdP is not a page here.
    await expect(panel.panel.getByLabel('Tenants', { exact: true })).toHaveCount(0);
  });

  test('password: create an account on the combined card, sign out, sign in again', async ({
    page,
    world,
    widget,
    panel,
  }) => {
    const home = `/?provider=supabase&world=${world}`;
    await page.goto(home);
    await widget.card('providerChooser', 'Sign in');
    await enterEmail(widget, NEW_PERSON.email);
    // No lookup in Supabase: the enumeration-safe combined card.
    await widget.card('passwordSignIn', 'Sign in');
    await expect(widget.root).toContainText('Enter your password, or create an account if you are new here.');
    await widget.button('Create account').click();
    await widget.card('passwordSignUp', 'Create account');
    await expect(widget.field('Email')).toHaveValue(NEW_PERSON.email);
    await widget.field('First & last name').fill(NEW_PERSON.name);
    await widget.field('Choose password').fill(NEW_PERSON.password);
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${NEW_PERSON.email}`);

    // The session survives a reload (supabase-js's storage; the world's double lives on the preview server).
    await page.reload();
    await expect(panel.panel).toContainText(`Signed in: ${NEW_PERSON.email}`);

    await panel.button('Sign out (app)').click();
    await expect(panel.panel).toContainText('Nobody is signed in.');
    await page.reload();
    await expect(panel.panel).toContainText('Nobody is signed in.');

    await enterEmail(widget, NEW_PERSON.email);
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('wrong-password1');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await widget.field('Password').fill(NEW_PERSON.password);
    await widget.button('Sign in').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${NEW_PERSON.email}`);
  });

  test('password: an unknown email gets the same error as a wrong password', async ({
    page,
    world,
    widget,
  }) => {
    await page.goto(`/?provider=supabase&world=${world}`);
    await enterEmail(widget, 'nobody.here@example.com');
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('whatever1');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
  });

  test.describe('email link', () => {
    test.beforeEach(async ({ page, world, panel, widget }) => {
      await page.goto(`/?provider=supabase&world=${world}`);
      await panel.check('Email link');
      await widget.ready();
    });

    test('same browser: request the link, open it from the outbox', async ({ widget, panel }) => {
      await enterEmail(widget, NEW_PERSON.email);
      await widget.card('emailLinkSent', 'Sign-in email sent');
      await expect(widget.root).toContainText(
        `A sign-in email with additional instructions was sent to ${NEW_PERSON.email}`,
      );
      // The navigation reloads the page: the double's state must come back with the link's token.
      await panel.emailLink('magiclink', NEW_PERSON.email).click();
      await widget.card('signedIn', 'Signed in!');
      await expect(panel.panel).toContainText(`Signed in: ${NEW_PERSON.email}`);
    });

    test('another browser (new context): the confirmation card asks for the email', async ({
      browser,
      baseURL,
      widget,
      panel,
    }) => {
      await enterEmail(widget, NEW_PERSON.email);
      await widget.card('emailLinkSent', undefined);
      const href = await panel.emailLink('magiclink', NEW_PERSON.email).getAttribute('href');
      expect(href).toContain('provider=supabase');

      const other = await browser.newContext({ baseURL, viewport: { width: 400, height: 900 } });
      try {
        const page = await other.newPage();
        await page.goto(href ?? '');
        const device = widgetOf(page);
        await device.card('emailLinkConfirmation', 'Confirm email');
        await device.field('Email').fill(NEW_PERSON.email);
        await device.button('Next').click();
        await device.card('signedIn', 'Signed in!');
        await expect(page.getByRole('complementary', { name: 'Playground controls' })).toContainText(
          `Signed in: ${NEW_PERSON.email}`,
        );
      } finally {
        await other.close();
      }
    });
  });
});
