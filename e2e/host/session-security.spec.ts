/**
 * Session security on the real host and the Auth emulator: the cookie's lifetime, flags and `__Host-` name
 * on a public host, expiry, revocation of every device on sign-out, no session fixation (a planted cookie,
 * or one tossed in for a deeper path), cross-origin form posts from another
 * origin of the same site (where the SameSite=Lax cookie is sent, so only the origin check stands), and no
 * token, cookie or password in the server's logs. The existing session.spec.ts and signout.spec.ts cover
 * the cookie flags on 127.0.0.1, cross-origin fetches and the replay of a signed-out browser's cookie.
 */
import { request as httpRequest } from 'node:http';
import type { BrowserContext, Page } from '@playwright/test';
import {
  actionUrl,
  createAccount,
  EMAIL_LINK_HOST,
  EMULATOR,
  expect,
  hostLogSince,
  hostLogThroughNow,
  lastOobCode,
  sendOobCode,
  signIn,
  signUp,
  test,
  uniqueEmail,
} from './fixtures.ts';

const HOST = 'http://127.0.0.1:4320';
const SESSION_MAX_AGE_SECONDS = 5 * 24 * 3600;

/** An ID token for an existing password account (the REST call the Firebase SDK makes). */
async function idTokenFor(email: string, password: string): Promise<string> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { idToken: string }).idToken;
}

/** `POST /session` as the widget sends it; resolves the response and the cookie value it set. */
async function startSession(idToken: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${HOST}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: HOST, ...headers },
    body: JSON.stringify({ idToken }),
  });
  const setCookie = response.headers.get('set-cookie') ?? '';
  return { response, setCookie, value: /^doorway_session=([^;]*)/.exec(setCookie)?.[1] ?? '' };
}

/** `GET /account` with only this session cookie, without following the redirect. */
function accountWith(cookie: string): Promise<Response> {
  return fetch(`${HOST}/account`, { headers: { cookie: `doorway_session=${cookie}` }, redirect: 'manual' });
}

/** The claims of a JWT (the emulator's session cookies are unsigned JWTs). */
function claims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** The same unsigned JWT with some claims replaced (the emulator accepts unsigned cookies). */
function withClaims(jwt: string, changes: Record<string, unknown>): string {
  const [header = ''] = jwt.split('.');
  const payload = Buffer.from(JSON.stringify({ ...claims(jwt), ...changes })).toString('base64url');
  return `${header}.${payload}.`;
}

async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(HOST)).find((c) => c.name === 'doorway_session')?.value;
}

/** The ID token the page posts to /session during `action` (the widget's signInSuccess exchange). */
async function postedIdToken(page: Page, action: () => Promise<void>): Promise<string> {
  const posted = page.waitForRequest((r) => r.url() === `${HOST}/session` && r.method() === 'POST');
  await action();
  return ((await posted).postDataJSON() as { idToken: string }).idToken;
}

/** Submits a plain HTML form from the current page (as any site can) and resolves the answer. */
async function postForm(page: Page, action: string, fields: Record<string, string> = {}) {
  const answered = page.waitForResponse((r) => r.url() === action && r.request().method() === 'POST');
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action, fields },
  );
  await page.waitForURL(action);
  return answered;
}

/** A request to the host with a `Host` header of our choosing, as a reverse proxy passing the public host sends it. */
function requestAs(
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; setCookie: string; location: string | undefined }> {
  const { method = 'GET', headers = {}, body = '' } = options;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: 4320,
        path,
        method,
        headers: { host, ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        resolve({
          status: res.statusCode ?? 0,
          setCookie: res.headers['set-cookie']?.join('\n') ?? '',
          location: res.headers.location,
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test.describe('session security', () => {
  test('the cookie lives as long as the Firebase session it holds, and is Secure on a public host', async () => {
    const { idToken } = await createAccount(uniqueEmail('lifetime'), 'secret123');
    const { response, setCookie, value } = await startSession(idToken);
    expect(response.status).toBe(204);
    const { iat, exp } = claims(value) as { iat: number; exp: number };
    expect(exp - iat).toBe(SESSION_MAX_AGE_SECONDS);
    // Max-Age runs to the session's exp, counted from when the cookie was set (a second or two after iat on
    // a loaded machine).
    const maxAge = Number(/; Max-Age=(\d+);/.exec(setCookie)?.[1]);
    expect(maxAge).toBeLessThanOrEqual(SESSION_MAX_AGE_SECONDS);
    expect(Math.abs(maxAge - (exp - Date.now() / 1000))).toBeLessThan(5);

    // Served under a public host name, the same endpoint sets the cookie Secure, under a __Host- name that
    // browsers accept only from a secure page of this very host with Path=/ and no Domain.
    const proxied = await requestAs('doorway.example', '/session', {
      method: 'POST',
      headers: { origin: 'http://doorway.example', 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });
    expect(proxied.status).toBe(204);
    const secureValue = /^__Host-doorway_session=([\w.-]+);/.exec(proxied.setCookie)?.[1] ?? '';
    expect(
      proxied.setCookie
        .replace(
          /Max-Age=(\d+)/,
          (_, n) => `Max-Age=${Number(n) > SESSION_MAX_AGE_SECONDS - 30 ? 'full' : n}`,
        )
        .split('; '),
    ).toEqual([
      `__Host-doorway_session=${secureValue}`,
      'Max-Age=full',
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
    // There only that name opens the account; a plain doorway_session (which a sibling could plant) does not.
    const account = (cookie: string) => requestAs('doorway.example', '/account', { headers: { cookie } });
    expect((await account(`__Host-doorway_session=${secureValue}`)).status).toBe(200);
    const planted = await account(`doorway_session=${secureValue}`);
    expect(planted.status).toBe(302);
    expect(planted.location).toBe('/login?signInSuccessUrl=%2Faccount');
    // The server (Express without "trust proxy") does not take the host name from X-Forwarded-Host: it cannot turn a foreign Origin into the host's own.
    const spoofed = await startSession(idToken, {
      'x-forwarded-host': 'evil.example',
      origin: 'http://evil.example',
    });
    expect(spoofed.response.status).toBe(403);
    expect(spoofed.setCookie).toBe('');
  });

  test('an expired session cookie is refused: /login with a safe return URL, cleared, and sign-in returns to /account', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('expired');
    const { idToken } = await createAccount(email, 'secret123');
    const { value } = await startSession(idToken);
    const now = Math.floor(Date.now() / 1000);
    // The same claims re-encoded open the account, so the refusal below is the expiry's doing.
    expect((await accountWith(withClaims(value, {}))).status).toBe(200);
    const expired = withClaims(value, { iat: now - 7200, auth_time: now - 7200, exp: now - 60 });

    const refused = await accountWith(expired);
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toBe('/login?signInSuccessUrl=%2Faccount');
    expect(refused.headers.get('set-cookie')).toMatch(/^doorway_session=; Max-Age=0; Path=\//);

    await context.addCookies([{ name: 'doorway_session', value: expired, url: HOST }]);
    await page.goto('/account');
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    expect(await sessionCookie(context)).toBeUndefined();
    await signIn(page, email, 'secret123', '/login?signInSuccessUrl=%2Faccount');
    await page.waitForURL('/account');
    await expect(page.getByRole('definition').filter({ hasText: email })).toBeVisible();
  });

  test('sign-out revokes the user’s sessions on every device, not only the cookie it was sent with', async () => {
    const email = uniqueEmail('devices');
    await createAccount(email, 'secret123');
    const laptop = await startSession(await idTokenFor(email, 'secret123'));
    const phone = await startSession(await idTokenFor(email, 'secret123'));
    expect((await accountWith(laptop.value)).status).toBe(200);
    expect((await accountWith(phone.value)).status).toBe(200);

    const out = await fetch(`${HOST}/logout`, {
      method: 'POST',
      headers: { origin: HOST, cookie: `doorway_session=${laptop.value}` },
      redirect: 'manual',
    });
    expect(out.status).toBe(303);

    for (const cookie of [phone.value, laptop.value]) {
      const replayed = await accountWith(cookie);
      expect(replayed.status).toBe(302);
      expect(replayed.headers.get('location')).toBe('/login?signInSuccessUrl=%2Faccount');
    }
    // A new sign-in after the revocation opens the account again.
    const again = await startSession(await idTokenFor(email, 'secret123'));
    expect((await accountWith(again.value)).status).toBe(200);
  });

  test('sign-out in the same second as sign-in ends the session, and the ID token from before cannot start one (issue 12)', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const email = uniqueEmail(`same-second-${trial}`);
      await createAccount(email, 'secret123');
      const idToken = await idTokenFor(email, 'secret123');
      const session = await startSession(idToken);
      expect(session.response.status).toBe(204);
      const out = await fetch(`${HOST}/logout`, {
        method: 'POST',
        headers: { origin: HOST, cookie: `doorway_session=${session.value}` },
        redirect: 'manual',
      });
      expect(out.status).toBe(303);
      expect((await accountWith(session.value)).status).toBe(302);
      expect((await startSession(idToken)).response.status).toBe(401);
    }
  });

  test('no session fixation: a planted valid cookie is replaced at sign-in, and every sign-in gets a new value', async ({
    page,
    context,
    account,
  }) => {
    // The attacker's own, valid session, planted in the victim's browser before they sign in.
    const attacker = await createAccount(uniqueEmail('attacker'), 'secret123');
    const planted = (await startSession(attacker.idToken)).value;
    await context.addCookies([{ name: 'doorway_session', value: planted, url: HOST }]);

    const email = uniqueEmail('victim');
    await signUp(page, email, 'secret123');
    const first = await sessionCookie(context);
    expect(first).toBeDefined();
    expect(first).not.toBe(planted);
    expect(claims(first ?? '').sub).not.toBe(attacker.uid);
    await expect(account.value('Email')).toHaveText(email);

    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    await signIn(page, email, 'secret123');
    await page.waitForURL('/account');
    const second = await sessionCookie(context);
    expect(second).toBeDefined();
    expect([planted, first]).not.toContain(second);
    await expect(account.value('Email')).toHaveText(email);
  });

  test('a session cookie tossed in for a deeper path by another origin of the same site is refused, never shown', async ({
    page,
    context,
  }) => {
    const attacker = await createAccount(uniqueEmail('tosser'), 'secret123');
    const planted = (await startSession(attacker.idToken)).value;
    // Cookies do not keep ports apart: a page on 127.0.0.1:4321 sets one that 127.0.0.1:4320 receives,
    // and the browser sends the deeper path's cookie first.
    await page.goto(`${EMAIL_LINK_HOST}/bench/bare`);
    await page.evaluate((value) => {
      // biome-ignore lint/suspicious/noDocumentCookie: the attack under test is a page script setting it
      document.cookie = `doorway_session=${value}; Path=/account`;
    }, planted);

    // The visitor signs in to their own account: the host sets its cookie for Path=/ as usual.
    const email = uniqueEmail('tossed');
    const victim = await createAccount(email, 'secret123');
    const signedIn = await page.request.post(`${HOST}/session`, {
      headers: { origin: HOST },
      data: { idToken: victim.idToken },
    });
    expect(signedIn.status()).toBe(204);
    expect(
      (await context.cookies(`${HOST}/account`)).filter((c) => c.name === 'doorway_session'),
    ).toHaveLength(2);

    // /account gets both cookies: it shows neither account (the attacker's would be session fixation).
    await page.goto(`${HOST}/account`);
    await expect(page).toHaveURL('/login?signInSuccessUrl=%2Faccount');
    expect(await page.content()).not.toContain(attacker.uid);
    const raw = await accountWith(`${planted}; doorway_session=${(await sessionCookie(context)) ?? ''}`);
    expect(raw.status).toBe(302);
  });

  test('a form on another origin of the same site can neither sign the visitor out nor in (403, cookie untouched)', async ({
    page,
    context,
    account,
  }) => {
    const email = uniqueEmail('csrf-form');
    await signUp(page, email, 'secret123');
    const victim = await sessionCookie(context);
    const attacker = await createAccount(uniqueEmail('csrf-attacker'), 'secret123');

    // 127.0.0.1:4321 is another origin but the same site: the SameSite=Lax cookie goes along with its
    // top-level form posts, so the origin check is what refuses them.
    await page.goto(`${EMAIL_LINK_HOST}/bench/bare`);
    const logout = await postForm(page, `${HOST}/logout`);
    expect(logout.status()).toBe(403);
    expect(await logout.headerValue('set-cookie')).toBeNull();
    expect(await logout.request().headerValue('cookie')).toContain(`doorway_session=${victim}`);

    await page.goto(`${EMAIL_LINK_HOST}/bench/bare`);
    const login = await postForm(page, `${HOST}/session`, { idToken: attacker.idToken });
    expect(login.status()).toBe(403);
    expect(await login.headerValue('set-cookie')).toBeNull();

    expect(await sessionCookie(context)).toBe(victim);
    await page.goto('/account');
    await expect(account.value('Email')).toHaveText(email);
  });

  test('the host’s logs hold no ID token, session cookie or password after sign-up, sign-out and sign-in', async ({
    page,
    context,
    account,
  }) => {
    const logSince = hostLogSince();
    const email = uniqueEmail('logs');
    const password = 'Canary-pass-7f3k9';

    const firstToken = await postedIdToken(page, () => signUp(page, email, password));
    const firstCookie = await sessionCookie(context);
    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    const secondToken = await postedIdToken(page, async () => {
      await signIn(page, email, password);
      await page.waitForURL('/account');
    });
    const secondCookie = await sessionCookie(context);
    await account.signOut.click();
    await expect(page).toHaveURL('/login?signedOut=1');
    // The error paths too: a replayed (revoked or not) cookie, a cross-origin and a bad token post.
    await accountWith(firstCookie ?? '');
    await startSession(secondToken, { origin: 'https://evil.example' });
    await startSession(`${secondToken}x`);

    // The other tests' requests are in the log too: at least this test's two sign-outs.
    const log = await hostLogThroughNow(logSince);
    expect((log.match(/^POST \/logout /gm) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(log).toMatch(/^POST \/session 204 /m);
    expect(log).toMatch(/^POST \/session 403 /m);

    const secrets = { password, firstToken, secondToken, firstCookie, secondCookie };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret, name).toBeTruthy();
      const text = secret ?? '';
      expect(log.includes(text), `${name} in the log`).toBe(false);
      // The claims segment of a token or cookie alone would be as bad.
      const segment = text.split('.')[1];
      if (segment !== undefined) expect(log.includes(segment), `${name}'s claims in the log`).toBe(false);
    }
  });

  test('the host’s access log names an action link’s mode but never its code, continue URL or new password', async () => {
    const logSince = hostLogSince();
    const email = uniqueEmail('log-codes');
    await createAccount(email, 'secret123');
    await sendOobCode({ requestType: 'PASSWORD_RESET', email });
    const code = await lastOobCode(email, 'PASSWORD_RESET');
    const continueUrl = `${HOST}/account?canary=log-${Date.now()}`;
    const link = `${HOST}${actionUrl(code, { continueUrl })}`;
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Reset your password');
    expect(html.includes(code.oobCode), 'the code in the page').toBe(false);
    // The card's form, posted to the link itself with the flow cookie, as a browser without scripts does.
    const flow = /^doorway_flow=[^;]*/.exec(page.headers.get('set-cookie') ?? '')?.[0] ?? '';
    expect(flow).not.toBe('');
    const password = `n3w-${Date.now()}`;
    const posted = await fetch(link, {
      method: 'POST',
      headers: { origin: HOST, cookie: flow, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ event: 'SUBMIT_NEW_PASSWORD', password }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('Password changed');

    let log = '';
    const line = (method: string) =>
      new RegExp(
        `^${method} /action\\?mode=resetPassword&oobCode=\\[redacted\\]&continueUrl=\\[redacted\\] 200 `,
        'm',
      );
    await expect
      .poll(() => {
        log = logSince();
        return line('GET').test(log) && line('POST').test(log);
      }, 'the action requests in the host’s log')
      .toBe(true);
    expect(log.includes(code.oobCode), 'the code in the log').toBe(false);
    expect(log.includes('canary=log-'), 'the continue URL in the log').toBe(false);
    expect(log.includes(password), 'the new password in the log').toBe(false);
  });
});

test.describe('fresh authentication stays fresh (issue 24)', () => {
  /**
   * An unsigned custom token (the emulator accepts them) for `uid` with developer `claims`: what
   * `POST /account/browser-sign-in` mints, carrying the sign-in time of the session it came from.
   */
  function customToken(uid: string, claims: Record<string, unknown>): string {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const payload = {
      aud: 'https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit',
      iss: 'firebase-auth-emulator@example.com',
      sub: 'firebase-auth-emulator@example.com',
      iat: now,
      exp: now + 3600,
      uid,
      claims,
    };
    return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
  }

  async function idTokenOfCustomToken(token: string): Promise<string> {
    const response = await fetch(
      `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, returnSecureToken: true }),
      },
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { idToken: string }).idToken;
  }

  const postSession = (idToken: string) =>
    fetch(`${HOST}/session`, {
      method: 'POST',
      headers: { origin: HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });

  test('a browser sign-in’s token from an old session cannot start a new one; a fresh one can, audited without the token', async () => {
    const { uid } = await createAccount(uniqueEmail('fresh'), 'secret123');
    const now = Math.floor(Date.now() / 1000);
    // The custom-token sign-in itself is now (its auth_time), but the sign-in it stands for was an hour ago.
    const stale = await idTokenOfCustomToken(customToken(uid, { doorway_auth_time: now - 3600 }));
    const refused = await postSession(stale);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();

    const logSince = hostLogSince();
    const fresh = await idTokenOfCustomToken(customToken(uid, { doorway_auth_time: now - 60 }));
    const accepted = await postSession(fresh);
    expect(accepted.status).toBe(204);
    const cookie = /doorway_session=([^;]+)/.exec(accepted.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(cookie).not.toBe('');
    let log = '';
    await expect
      .poll(() => {
        log = logSince();
        return log.includes(`[doorway audit] session minted uid="${uid}" address="`);
      }, 'the audit line in the host’s log')
      .toBe(true);
    expect(log.includes(fresh), 'the ID token in the log').toBe(false);
    expect(log.includes(cookie), 'the session cookie in the log').toBe(false);

    // That session is made from a sign-in a minute old: the browser's SDK still gets a token for it.
    const browser = await fetch(`${HOST}/account/browser-sign-in`, {
      method: 'POST',
      headers: { origin: HOST, cookie: `doorway_session=${cookie}` },
    });
    expect(browser.status).toBe(200);
  });
});
