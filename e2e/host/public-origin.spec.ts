/**
 * Emailed URLs come from the host's public origin, never from the request's `Host` (issue 24, item 6).
 * Before, a recovery started with `Host: evil.example:3000` emailed a link whose continue URL was
 * `http://evil.example:3000/login`: whoever sent that header got the victim's reset code on their server.
 * The e2e host has no DOORWAY_PUBLIC_ORIGIN (development), so a request on a non-loopback host gets
 * `http://localhost:<PORT>`; a second host started here has one, and every emailed URL is on it.
 */
import type { APIRequestContext } from '@playwright/test';
import { enterEmail } from '../host-pages.ts';
import {
  createAccount,
  expect,
  hostWidgetOf,
  lastOobCode,
  serveOwnHost,
  test,
  uniqueEmail,
} from './fixtures.ts';

/**
 * A browser without scripts, as raw requests to `base` that name `host` in their `Host` header (and as
 * their `Origin`); it keeps the cookies it is given itself, whatever their flags.
 */
function formClient(request: APIRequestContext, base: string, host: string) {
  const jar = new Map<string, string>();
  const headers = () => ({
    host,
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
  });
  const keep = (setCookie: string[]) => {
    for (const line of setCookie) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const setCookies = (all: { name: string; value: string }[]) =>
    all.filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value);
  return {
    async get(path: string) {
      const response = await request.get(`${base}${path}`, { headers: headers(), maxRedirects: 0 });
      keep(setCookies(response.headersArray()));
      return response;
    },
    async post(fields: Record<string, string>, path = '/login') {
      const response = await request.post(`${base}${path}`, {
        headers: {
          ...headers(),
          origin: `http://${host}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        data: new URLSearchParams(fields).toString(),
        maxRedirects: 0,
      });
      keep(setCookies(response.headersArray()));
      return response;
    },
  };
}

test.describe('emailed URLs are built from the public origin (issue 24)', () => {
  test('a recovery started with Host: evil.example:3000 emails a link that does not point there', async ({
    request,
  }) => {
    const email = uniqueEmail('host-header');
    await createAccount(email, 'secret123');
    const client = formClient(request, 'http://127.0.0.1:4320', 'evil.example:3000');
    expect((await client.get('/login')).status()).toBe(200);
    expect((await client.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' })).status()).toBe(200);
    expect((await client.post({ event: 'SUBMIT_EMAIL', email })).status()).toBe(200);
    expect((await client.post({ event: 'GO_TO_RECOVERY' })).status()).toBe(200);
    const sent = await client.post({ event: 'SUBMIT_RECOVERY', email });
    expect(sent.status()).toBe(200);
    expect(await sent.text()).toContain('Check your email');

    const code = await lastOobCode(email, 'PASSWORD_RESET');
    const continueUrl = new URL(code.oobLink).searchParams.get('continueUrl') ?? '';
    expect(code.oobLink).not.toContain('evil.example');
    // No public origin configured (development): the listening port on localhost.
    expect(continueUrl).toBe('http://localhost:4320/login');
  });

  test.describe('a host with DOORWAY_PUBLIC_ORIGIN', () => {
    const PORT = 4327;
    const HOST = `http://127.0.0.1:${PORT}`;
    const PUBLIC = 'http://doorway.test:8443';
    let server: { stop(): void } | null = null;

    test.describe.configure({ mode: 'serial' });
    test.use({ baseURL: HOST, javaScriptEnabled: false });

    test.beforeAll(async () => {
      server = await serveOwnHost(PORT, { DOORWAY_PUBLIC_ORIGIN: PUBLIC });
    });

    test.afterAll(() => {
      server?.stop();
    });

    test('the reset link continues to the public origin, even for a request on 127.0.0.1', async ({
      page,
    }) => {
      const email = uniqueEmail('public-origin');
      await createAccount(email, 'secret123');
      const widget = hostWidgetOf(page, { scripts: false });
      await page.goto('/login');
      await enterEmail(widget, email);
      await widget.card('passwordSignIn', 'Sign in');
      await widget.button('Trouble signing in?').click();
      await widget.card('passwordRecovery', 'Recover password');
      await widget.button('Send').click();
      await widget.card('recoveryEmailSent', 'Check your email');
      const code = await lastOobCode(email, 'PASSWORD_RESET');
      expect(new URL(code.oobLink).searchParams.get('continueUrl')).toBe(`${PUBLIC}/login`);
    });
  });
});
