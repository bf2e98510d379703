import { expect, signUp, test, uniqueEmail } from './fixtures.ts';

test.describe('sign out', () => {
  test('a cross-origin sign-out is refused with 403 and changes nothing', async ({
    page,
    context,
    account,
  }) => {
    await signUp(page, uniqueEmail('csrf'), 'secret123');
    const response = await page.request.post('/logout', {
      headers: { origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    await page.goto('/account');
    await expect(account.heading).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === 'doorway_session')).toBe(true);
  });

  test('GET /logout signs nobody out', async ({ page, account }) => {
    await signUp(page, uniqueEmail('get'), 'secret123');
    await page.goto('/logout');
    await expect(page).toHaveURL('/account');
    await expect(account.heading).toBeVisible();
  });
});
