import { createAccount, EMAIL_LINK_HOST, expect, test, uniqueEmail } from './fixtures.ts';

test.describe('POST /session', () => {
  test('a cross-origin POST is refused with 403, even with a valid ID token', async ({ request }) => {
    const { idToken } = await createAccount(uniqueEmail('csrf'), 'secret123');
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:4320.evil.example']) {
      const response = await request.post('/session', { headers: { origin }, data: { idToken } });
      expect(response.status(), origin).toBe(403);
      expect(response.headers()['set-cookie']).toBeUndefined();
    }
  });

  test('a page on another origin cannot log the browser in (login CSRF)', async ({ page, context }) => {
    const { idToken } = await createAccount(uniqueEmail('forced'), 'secret123');
    // The second host is another origin (another port) on the same site: cookies would be shared.
    await page.goto(`${EMAIL_LINK_HOST}/bench/bare`);
    const status = await page.evaluate(async (token) => {
      try {
        const r = await fetch('http://127.0.0.1:4320/session', {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ idToken: token }),
        });
        return r.status;
      } catch {
        return 'blocked';
      }
    }, idToken);
    // The browser hides the response (no CORS), and the server refused it anyway: no cookie.
    expect(status).toBe('blocked');
    expect((await context.cookies()).some((c) => c.name === 'doorway_session')).toBe(false);
  });

  test('a same-origin POST sets the cookie with HttpOnly; SameSite=Lax; Path=/ and no Secure on 127.0.0.1', async ({
    request,
  }) => {
    const { idToken } = await createAccount(uniqueEmail('flags'), 'secret123');
    const response = await request.post('/session', {
      headers: { origin: 'http://127.0.0.1:4320' },
      data: { idToken },
    });
    expect(response.status()).toBe(204);
    const setCookie = response.headers()['set-cookie'] ?? '';
    expect(setCookie).toMatch(/^doorway_session=[\w.-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    // Five days: the session's exp, counted from when the cookie was set (a second less on a slow mint).
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)?.[1]);
    expect(maxAge).toBeGreaterThan(432000 - 30);
    expect(maxAge).toBeLessThanOrEqual(432000);
    expect(response.headers()['cache-control']).toBe('no-store');
  });

  test('a bad token gets 401, a missing one 400, a GET 405', async ({ request }) => {
    const origin = { origin: 'http://127.0.0.1:4320' };
    expect(
      (await request.post('/session', { headers: origin, data: { idToken: 'not.a.token' } })).status(),
    ).toBe(401);
    expect((await request.post('/session', { headers: origin, data: {} })).status()).toBe(400);
    expect((await request.get('/session')).status()).toBe(405);
  });
});
