/**
 * The Remix host with DOORWAY_PROVIDER=supabase, served by scripts/host-supabase.mjs on the GoTrue TEST
 * DOUBLE over HTTP (not Supabase: no Supabase Auth server can run here). Password sign-up on the combined
 * card, the session cookie, sign-out everywhere and signing in again, in Debian's Chromium.
 */
import { accountValue, expect, test, toEmailEntry, uniqueEmail } from './fixtures.ts';

test.describe('remix-host on Supabase (GoTrue test double)', () => {
  test('sign up on the combined card, /account, cookie flags, sign out, wrong password, sign in again', async ({
    page,
    context,
    widget,
  }) => {
    const email = uniqueEmail('ada');
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    // The test double's host offers email and passkeys (scripts/host-supabase.mjs): the chooser first.
    await toEmailEntry(widget);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    // Supabase has no sign-in-method lookup: the combined, enumeration-safe card.
    await widget.card('passwordSignIn', 'Sign in');
    await expect(widget.root).toContainText('Enter your password, or create an account if you are new here.');
    await widget.button('Create account').click();
    await widget.card('passwordSignUp', 'Create account');
    await expect(widget.field('Email')).toHaveValue(email);
    await widget.field('First & last name').fill('Ada Lovelace');
    await widget.field('Choose password').fill('secret123');
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');
    await page.waitForURL('/account');
    await expect(accountValue(page, 'Email')).toHaveText(email);
    await expect(accountValue(page, 'Name')).toHaveText('Ada Lovelace');
    await expect(accountValue(page, 'Signed in with')).toHaveText('password');
    await expect(accountValue(page, 'Linked sign-in methods')).toHaveText('emailLink, password');

    // The session cookie: the host's flags, as on Firebase; its value is the Supabase access token.
    const session = (await context.cookies()).find((c) => c.name === 'doorway_session');
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: false,
      domain: '127.0.0.1',
    });
    // As long as the access token it holds (an hour on the double), not the host's five days.
    expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(session?.expires).toBeLessThan(Date.now() / 1000 + 3610);
    expect(await page.evaluate(() => document.cookie)).not.toContain('doorway_session');

    // Sign out: every session of the user ends at GoTrue, the cookie is cleared, supabase-js signs out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await widget.card('signOut', 'Signed out');
    expect((await context.cookies()).find((c) => c.name === 'doorway_session')).toBeUndefined();
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    await toEmailEntry(widget);
    // The old cookie, replayed, is revoked.
    if (session) await context.addCookies([session]);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');

    // Sign in again: a wrong password first.
    await toEmailEntry(widget);
    await widget.field('Email').fill(email);
    await widget.button('Next').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.field('Password').fill('not-the-password1');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await expect(widget.field('Password')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('Password').fill('secret123');
    await widget.button('Sign in').click();
    await widget.card('signedIn', 'Signed in!');
    await page.waitForURL('/account');
    await expect(accountValue(page, 'Email')).toHaveText(email);
  });

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
