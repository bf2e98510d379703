import { createAccount, expect, signIn, test, uniqueEmail } from './fixtures.ts';

test.describe('sign in', () => {
  test('a safe signInSuccessUrl is honoured', async ({ page }) => {
    const email = uniqueEmail('safe');
    await createAccount(email, 'secret123');
    await signIn(page, email, 'secret123', '/login?signInSuccessUrl=%2F%3Fwelcome%3D1');
    await page.waitForURL('/?welcome=1');
  });

  for (const hostile of [
    'https://evil.example/steal',
    '//evil.example',
    'javascript:alert(1)',
    '/\\evil.example',
  ]) {
    test(`an unsafe signInSuccessUrl ${JSON.stringify(hostile)} is replaced by the configured one`, async ({
      page,
      account,
    }) => {
      const email = uniqueEmail('hostile');
      await createAccount(email, 'secret123');
      const from = `/login?signInSuccessUrl=${encodeURIComponent(hostile)}`;
      await page.goto(from);
      // Nothing on the page points off this origin.
      for (const href of await page
        .locator('a[href]')
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
        expect(new URL(href).origin).toBe('http://127.0.0.1:4320');
      }
      await signIn(page, email, 'secret123', from);
      await page.waitForURL('/account');
      await expect(account.heading).toBeVisible();
    });
  }
});
