/**
 * The Content-Security-Policy of the host's pages: a rendered document runs only the scripts that carry
 * its per-response nonce (and what they load); the action route's cards of a code have none. The widget's
 * flows work under it with no violation, and a script injected into the markup does not run.
 */
import { expect, signUp, test, uniqueEmail } from './fixtures.ts';

const HOST = 'http://127.0.0.1:4320';

function nonceOf(csp: string | null): string {
  const match = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(csp ?? '');
  expect(match, `a nonce in ${csp}`).not.toBeNull();
  return match?.[1] ?? '';
}

test.describe('content security policy', () => {
  test('every script of a document carries this response’s nonce, which changes on every response', async () => {
    const first = await fetch(`${HOST}/login`);
    const second = await fetch(`${HOST}/login`);
    const csp = first.headers.get('content-security-policy');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = nonceOf(csp);
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);

    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  });

  test('an action page is a document under the same policy; the cards of a code carry no script', async () => {
    const response = await fetch(`${HOST}/action?mode=resetPassword&oobCode=nope`);
    expect(response.status).toBe(200);
    nonceOf(response.headers.get('content-security-policy'));
    const html = await response.text();
    expect(html).toContain('data-card="passwordResetFailure"');
    expect(html).not.toContain('<script');
  });

  test('sign-up runs under the policy with no violation', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await signUp(page, uniqueEmail('csp'), 'secret123');
    expect(violations).toEqual([]);
  });

  test('a script injected into the page’s markup does not run', async ({ page }) => {
    await page.route(`${HOST}/login`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        '<body>',
        '<body><script>window.__injected = true;</script><img src="x:" onerror="window.__injected = true">',
      );
      await route.fulfill({ response, body: html });
    });
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
    expect(blocked.length).toBeGreaterThan(0);
  });
});
