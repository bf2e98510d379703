import { expect, signUp, test, uniqueEmail } from './fixtures.ts';

test.describe('sign out', () => {
  test('revokes the session everywhere, clears the cookie, signs the SDK out and shows the card', async ({
    page,
    context,
    widget,
    account,
  }) => {
    await signUp(page, uniqueEmail('out'), 'secret123');
    const cookie = (await context.cookies()).find((c) => c.name === 'doorway_session');
    expect(cookie).toBeDefined();
    // Firebase compares revocation with the sign-in time in whole seconds: let the sign-in's second pass so
    // the revocation below applies to this session (a wait, not a timed assertion).
    await page.waitForTimeout(1100);

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', 'Signed out');
    await expect(widget.root).toContainText('You are now signed out.');
    expect((await context.cookies()).find((c) => c.name === 'doorway_session')).toBeUndefined();

    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    // The browser's SDK is signed out too: the widget starts on the provider chooser.
    await widget.card('providerChooser', 'Sign in');

    // The old cookie, replayed, is revoked.
    if (cookie) await context.addCookies([cookie]);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    expect((await context.cookies()).find((c) => c.name === 'doorway_session')).toBeUndefined();

    await widget.button('Sign in with email').click();
    await widget.card('emailEntry');
  });

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
