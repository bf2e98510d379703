/**
 * The Remix host with DOORWAY_PROVIDER=supabase, served by scripts/host-supabase.mjs on the GoTrue TEST
 * DOUBLE over HTTP (not Supabase: no Supabase Auth server can run here), in Debian's Chromium. Password
 * sign-up, sign-in and sign-out, which both backends share: e2e/journeys/password.spec.ts.
 */
import { expect, test, toEmailEntry, uniqueEmail } from './fixtures.ts';

test.describe('remix-host on Supabase (GoTrue test double)', () => {
  test('an unknown email gets the same message as a wrong password', async ({ page, widget }) => {
    await page.goto('/login');
    await toEmailEntry(widget);
    await widget.field('Email').fill(uniqueEmail('nobody'));
    await widget.button('Next').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('whatever1');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
  });

  test('the home page names the provider', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByText('A sign-in widget on Supabase Auth, with server-side sessions'),
    ).toBeVisible();
  });

  test('a cross-origin POST /session is refused and sets no cookie', async ({ page, context }) => {
    const response = await page.request.post('/session', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      data: { idToken: 'a.b.c' },
    });
    expect(response.status()).toBe(403);
    expect((await context.cookies()).some((c) => c.name === 'doorway_session')).toBe(false);
  });
});
