import type { Page } from '@playwright/test';
import {
  actionUrl,
  createAccount,
  expect,
  hostLogSince,
  lastOobCode,
  sendOobCode,
  test,
  uniqueEmail,
} from './fixtures.ts';

const ORIGIN = 'http://127.0.0.1:4320';

const HOSTILE_CONTINUE = [
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '//evil.example',
  '///evil.example/',
  '/\\evil.example',
  '\\\\evil.example',
  'https://evil.example',
  'https:evil.example',
  'http://127.0.0.1:4320@evil.example/',
  'https://127.0.0.1:4320.evil.example/',
  'data:text/html,<script>alert(1)</script>',
  '%2F%2Fevil.example',
  encodeURIComponent('https://evil.example'),
];

/** Every link and form on the page stays on this origin. */
async function expectNothingOffOrigin(page: Page) {
  const targets = await page.evaluate(() => [
    ...[...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
    ...[...document.querySelectorAll('form')].map((f) => f.action),
  ]);
  for (const target of targets) expect(new URL(target).origin, target).toBe(ORIGIN);
}

test.describe('hostile input on the action route', () => {
  const garbage = [
    '/action',
    '/action?mode=',
    '/action?mode=deleteAccount&oobCode=abc',
    '/action?mode=verifyEmail',
    '/action?mode=verifyEmail&oobCode=',
    '/action?mode=verifyEmail&oobCode=%00%0d%0aSet-Cookie:%20x=1',
    '/action?mode=resetPassword&oobCode=%3Cscript%3Ealert(1)%3C/script%3E',
    `/action?mode=verifyEmail&oobCode=${'A'.repeat(4000)}`,
    `/action?mode=recoverEmail&oobCode=${'B'.repeat(2048)}`,
    '/action?mode=verifyAndChangeEmail&oobCode=garbage&continueUrl=javascript:alert(1)',
    '/action?mode=revertSecondFactorAddition&oobCode=x&oobCode=y',
    '/action?mode=signIn&oobCode=garbage&continueUrl=https://evil.example',
    '/action?mode=select&continueUrl=//evil.example',
    '/action?mode[]=verifyEmail&oobCode=x',
    '/action?mode=verifyEmail&oobCode=x&tenantId=../../etc',
    '/login?signInSuccessUrl=javascript:alert(1)',
    '/login?signedOut=1&signInSuccessUrl=//evil.example',
  ];

  test('garbage, huge and unknown codes and modes: status < 500, no redirect, no off-origin link', async ({
    request,
    page,
  }) => {
    for (const path of garbage) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBeLessThan(500);
      expect(response.status(), path).not.toBe(302);
      expect(response.headers().location, path).toBeUndefined();
      const body = await response.text();
      expect(body, path).not.toMatch(/href="(?:javascript:|\/\/|https?:\/\/evil)/i);
    }
    for (const path of garbage.slice(0, 6)) {
      await page.goto(path);
      await expect(page.locator('.doorway').first()).toBeVisible();
      await expectNothingOffOrigin(page);
    }
  });

  test('a huge URL is refused before Remix, below 500', async ({ request }) => {
    const response = await request.get(`/action?mode=verifyEmail&oobCode=${'C'.repeat(20_000)}`, {
      maxRedirects: 0,
    });
    expect(response.status()).toBeGreaterThanOrEqual(400);
    expect(response.status()).toBeLessThan(500);
  });

  test('a valid code with a hostile continueUrl: success, and Continue stays on this host', async ({
    page,
    widget,
  }) => {
    const email = uniqueEmail('hostile');
    const { idToken } = await createAccount(email, 'secret123');
    for (const continueUrl of HOSTILE_CONTINUE) {
      await sendOobCode({ requestType: 'VERIFY_EMAIL', idToken });
      const code = await lastOobCode(email, 'VERIFY_EMAIL');
      const response = await page.goto(actionUrl(code, { continueUrl }));
      expect(response?.status(), continueUrl).toBe(200);
      await widget.card('emailVerificationSuccess');
      await expect(widget.link('Continue'), continueUrl).toHaveAttribute('href', '/login');
      await expectNothingOffOrigin(page);
    }
  });

  test('a cross-origin POST to the reset form is refused with 403', async ({ request }) => {
    const email = uniqueEmail('reset-csrf');
    await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'PASSWORD_RESET', email });
    const code = await lastOobCode(email, 'PASSWORD_RESET');
    // The card's form posts to /action/submit with the page's query.
    const submit = actionUrl(code).replace('/action?', '/action/submit?');
    const response = await request.post(submit, {
      headers: { origin: 'https://evil.example' },
      form: { intent: 'resetPassword', newPassword: 'hijacked1' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toBe('Forbidden: cross-origin request');
    // The code is untouched: the real page still offers the reset.
    const page = await request.get(actionUrl(code));
    expect(await page.text()).toContain('data-card="passwordReset"');
  });

  test('an unknown page: 404 with the generic card, and no error stack in the server log', async ({
    page,
  }) => {
    const logSince = hostLogSince();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error encountered');
    await expect(page.getByText('This page does not exist.')).toBeVisible();
    // The request is in the access log; "No route matches URL" with a stack is not (a 404 is no fault).
    let log = '';
    await expect
      .poll(() => {
        log = logSince();
        return /^GET \/no\/such\/page 404 /m.test(log);
      }, 'the request in the host’s log')
      .toBe(true);
    expect(log).not.toContain('No route matches URL');
  });
});
