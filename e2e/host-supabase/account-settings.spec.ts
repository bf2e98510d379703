/**
 * The account page's own forms on the Supabase host (GoTrue test double), with JavaScript and without:
 * the display name, a password change (then only the new one signs in), signing out every other device (a
 * second browser's session ends, this one stays), and deleting the account (then signing in fails with
 * the catalogue's message). Each form is a plain POST run on the server.
 */
import type { Browser, Page } from '@playwright/test';
import { errorMessages } from '../../packages/auth-core/src/messages.ts';
import { hasSession, signInWithPassword, uiText } from '../host-pages.ts';
import { accountValue, expect, hostWidgetOf, signUp, test, uniqueEmail } from './fixtures.ts';

const section = (page: Page, title: string) => page.getByRole('region', { name: title });

/** A second browser signed in to the same account; resolves its page. */
async function elsewhere(
  browser: Browser,
  baseURL: string,
  scripts: boolean,
  email: string,
  password: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: scripts });
  const page = await context.newPage();
  await page.goto('/account');
  await signInWithPassword(hostWidgetOf(page, { scripts }), email, password);
  await page.waitForURL('/account');
  return page;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`account page forms, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    test.describe.configure({ timeout: 120_000 });

    test('display name, password change, then sign in with the new password only', async ({
      page,
      widget,
    }) => {
      const email = uniqueEmail(`settings-${javaScriptEnabled ? 'js' : 'nojs'}`);
      await signUp(page, widget, { email, name: 'Ada', password: 'secret123' });

      const profile = section(page, 'Profile');
      await profile.getByLabel('Display name').fill('Ada Lovelace');
      await profile.getByRole('button', { name: 'Save' }).click();
      await expect(profile.getByRole('status')).toHaveText('Display name saved.');
      await expect(accountValue(page, 'Name')).toHaveText('Ada Lovelace');

      const password = section(page, 'Password');
      await password.getByLabel('Current password').fill('wrong-one1');
      await password.getByLabel('New password').fill('better456');
      await password.getByRole('button', { name: 'Change password' }).click();
      await expect(section(page, 'Password').getByRole('alert')).toHaveText(errorMessages['wrong-password']);

      await section(page, 'Password').getByLabel('Current password').fill('secret123');
      await section(page, 'Password').getByLabel('New password').fill('better456');
      await section(page, 'Password').getByRole('button', { name: 'Change password' }).click();
      await expect(section(page, 'Password').getByRole('status')).toHaveText('Password changed.');
      expect(await hasSession(page)).toBe(true);

      await page.getByRole('button', { name: uiText.signOut, exact: true }).click();
      await page.goto('/login');
      await signInWithPassword(widget, email, 'secret123');
      await widget.expectError(errorMessages['wrong-password']);
      await widget.field(uiText.passwordLabel).fill('better456');
      await widget.button(uiText.signIn).click();
      await page.waitForURL(/\/account|\/$/);
      expect(await hasSession(page)).toBe(true);
    });

    test('sign out everywhere else: the other browser is signed out, this one is not; then delete the account', async ({
      page,
      widget,
      browser,
      baseURL,
    }) => {
      const email = uniqueEmail(`devices-${javaScriptEnabled ? 'js' : 'nojs'}`);
      await signUp(page, widget, { email, name: 'Grace', password: 'secret123' });
      const other = await elsewhere(browser, baseURL ?? '', javaScriptEnabled, email, 'secret123');

      const devices = section(page, 'Devices');
      await devices.getByRole('button', { name: 'Sign out of all other devices' }).click();
      await expect(section(page, 'Devices').getByRole('status')).toHaveText(
        'You are signed out of all other devices.',
      );
      await other.goto('/account');
      await expect(other).toHaveURL('/login?signInSuccessUrl=%2Faccount');
      await other.context().close();
      await page.reload();
      await expect(accountValue(page, 'Email')).toHaveText(email);

      const remove = section(page, 'Delete account');
      await remove.getByLabel('To confirm, type delete').fill('nope');
      await remove.getByRole('button', { name: 'Delete my account' }).click();
      await expect(section(page, 'Delete account').getByRole('alert')).toHaveText('Type delete to confirm');
      await section(page, 'Delete account').getByLabel('To confirm, type delete').fill('delete');
      await section(page, 'Delete account').getByRole('button', { name: 'Delete my account' }).click();
      await expect(page).toHaveURL('/account/deleted');
      await expect(page.getByRole('heading', { name: 'Your account has been deleted' })).toBeVisible();
      expect(await hasSession(page)).toBe(false);

      await page.goto('/login');
      await signInWithPassword(widget, email, 'secret123');
      await widget.expectError(errorMessages['wrong-password']);
    });
  });
}
