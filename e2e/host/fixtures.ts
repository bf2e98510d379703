/**
 * Fixtures for the remix-host specs: the Firebase Auth emulator's REST API (accounts, sent emails and
 * SMS codes), the widget page object of the playground specs (axe-core on every card), and helpers for
 * the host's own pages.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { errorMessages } from '../../packages/auth-core/src/messages.ts';
import { expectNoAxeViolations, hostWidgetOf, passkeysCardOf } from '../fixtures.ts';
import {
  accountOf,
  enterEmail,
  type HostWidget,
  signInWithPassword,
  submitSignUp,
  toEmailEntry,
  uiText,
  uniqueEmail,
  uniquePhone,
  uniqueSub,
} from '../host-pages.ts';

export { accountOf, hostWidgetOf, passkeysCardOf, uniqueEmail, uniquePhone, uniqueSub };

export const EMULATOR = 'http://127.0.0.1:9099';
/** Where scripts/e2e-host.mjs copies the default host's stdout and stderr. */
export const HOST_LOG = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '.cache',
  'e2e-host',
  'host-4320.log',
);

/** Marks the end of the host's log now; the function returned reads what the host has written since. */
export function hostLogSince(): () => string {
  expect(existsSync(HOST_LOG), `${HOST_LOG} (written by scripts/e2e-host.mjs)`).toBe(true);
  const from = statSync(HOST_LOG).size;
  return () => readFileSync(HOST_LOG, 'utf8').slice(from);
}
/**
 * What the host has logged since `since` was made, through every request this test has had answered
 * (the host logs a request once it is answered): a request for a page of this test's own is logged
 * after them. The other tests' requests, made side by side, are in it too.
 */
export async function hostLogThroughNow(since: () => string): Promise<string> {
  const mark = `/log-mark-${Math.random().toString(36).slice(2, 10)}`;
  expect((await fetch(`http://127.0.0.1:4320${mark}`)).status).toBe(404);
  let log = '';
  await expect
    .poll(() => {
      log = since();
      return log.includes(`GET ${mark} 404 `);
    }, 'this test’s requests in the host’s log')
    .toBe(true);
  return log;
}

export const PROJECT = 'demo-doorway';
/** The host with the email-link configuration (scripts/e2e-host.mjs). */
export const EMAIL_LINK_HOST = 'http://127.0.0.1:4321';

const emulatorApi = `${EMULATOR}/emulator/v1/projects/${PROJECT}`;
const identityToolkit = `${EMULATOR}/identitytoolkit.googleapis.com/v1`;

async function rest<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as T;
}

/** An email the emulator "sent". */
export interface OobCode {
  email: string;
  requestType:
    | 'PASSWORD_RESET'
    | 'VERIFY_EMAIL'
    | 'EMAIL_SIGNIN'
    | 'RECOVER_EMAIL'
    | 'VERIFY_AND_CHANGE_EMAIL';
  oobCode: string;
  oobLink: string;
}

/** The newest email of a kind sent to an address (waits for it to arrive). */
export async function lastOobCode(email: string, requestType: OobCode['requestType']): Promise<OobCode> {
  let found: OobCode | undefined;
  await expect
    .poll(async () => {
      const { oobCodes = [] } = await rest<{ oobCodes?: OobCode[] }>(`${emulatorApi}/oobCodes`);
      found = oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1);
      return found !== undefined;
    }, `a ${requestType} email to ${email}`)
    .toBe(true);
  return found as OobCode;
}

/** The newest SMS code sent to a number (waits for it). */
export async function lastSmsCode(phoneNumber: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const { verificationCodes = [] } = await rest<{
        verificationCodes?: { phoneNumber: string; code: string }[];
      }>(`${emulatorApi}/verificationCodes`);
      code = verificationCodes.filter((c) => c.phoneNumber === phoneNumber).at(-1)?.code;
      return code !== undefined;
    }, `an SMS to ${phoneNumber}`)
    .toBe(true);
  return code as string;
}

/** Creates a password account through the emulator's REST API; resolves its uid and ID token. */
export async function createAccount(
  email: string,
  password: string,
): Promise<{ uid: string; idToken: string }> {
  const created = await rest<{ localId: string; idToken: string }>(
    `${identityToolkit}/accounts:signUp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  return { uid: created.localId, idToken: created.idToken };
}

/**
 * Serves the e2e build of the host once more, on `port` with `env` on top of the emulator defaults, for a
 * spec whose configuration the shared e2e hosts must not take (their other specs depend on theirs).
 * Resolves once it answers; `stop()` ends it.
 */
export async function serveOwnHost(
  port: number,
  env: Readonly<Record<string, string>>,
): Promise<{ url: string; stop(): void }> {
  const url = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['server.mjs', './build/server/index.js'], {
    cwd: join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'remix-host'),
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      FIREBASE_PROJECT_ID: PROJECT,
      FIREBASE_AUTH_EMULATOR_HOST: new URL(EMULATOR).host,
      ...env,
    },
  });
  const answers = () =>
    fetch(`${url}/bench/bare`).then(
      (r) => r.ok,
      () => false,
    );
  await expect.poll(answers, { message: `the host on ${url}`, timeout: 60_000 }).toBe(true);
  return { url, stop: () => server.kill('SIGTERM') };
}

/** Has the emulator send an action email as the user (`VERIFY_EMAIL`, `VERIFY_AND_CHANGE_EMAIL`…). */
export async function sendOobCode(body: Record<string, string>): Promise<void> {
  await rest(`${identityToolkit}/accounts:sendOobCode?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Changes an account's email as the user: the emulator sends RECOVER_EMAIL to the old address. */
export async function changeEmail(idToken: string, email: string): Promise<void> {
  await rest(`${identityToolkit}/accounts:update?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ idToken, email, returnSecureToken: true }),
  });
}

/** The host's action page for an emailed code, as a custom action URL would open it. */
export function actionUrl(code: OobCode, extra: Record<string, string> = {}): string {
  const mode = new URL(code.oobLink).searchParams.get('mode') ?? '';
  return `/action?${new URLSearchParams({ mode, oobCode: code.oobCode, ...extra })}`;
}

/**
 * What the browser opens for an emailed sign-in link: Firebase's handler redirects to the continue URL
 * with the code's parameters added (the emulator's own handler page is not part of the product).
 */
export function emailSignInUrl(code: OobCode): string {
  const link = new URL(code.oobLink);
  const target = new URL(link.searchParams.get('continueUrl') ?? '');
  for (const key of ['mode', 'oobCode', 'apiKey', 'lang']) {
    const v = link.searchParams.get(key);
    if (v !== null) target.searchParams.set(key, v);
  }
  return target.href;
}

/**
 * On /login of a host whose email option signs in by link (EMAIL_LINK_HOST): the address asked for, and
 * the link of the sign-in email that came, as the browser opens it.
 */
export async function askForSignInLink(page: Page, widget: HostWidget, email: string): Promise<string> {
  await page.goto('/login');
  await widget.card('providerChooser', uiText.providerChooserTitle);
  await enterEmail(widget, email);
  await widget.card('emailLinkSent', uiText.emailLinkSentTitle);
  return emailSignInUrl(await lastOobCode(email, 'EMAIL_SIGNIN'));
}

/**
 * An emailed sign-in link opened in a browser that did not ask for it: the confirmation card asks for the
 * address, refuses someone else's (the card kept, with what was typed), then takes the right one.
 */
export async function confirmLinkElsewhere(page: Page, widget: HostWidget, link: string, email: string) {
  const other = 'someone.else@example.com';
  await page.goto(link);
  await widget.card('emailLinkConfirmation', uiText.emailLinkConfirmationTitle);
  await widget.field(uiText.emailLabel).fill(other);
  await widget.button(uiText.next).click();
  await widget.card('emailLinkConfirmation', uiText.emailLinkConfirmationTitle);
  await widget.expectError(errorMessages['email-mismatch']);
  await expect(widget.field(uiText.emailLabel)).toHaveValue(other);
  await widget.field(uiText.emailLabel).fill(email);
  await widget.button(uiText.next).click();
}

/** Signs up with email and password through the widget on /login and lands on /account. */
export async function signUp(
  page: Page,
  email: string,
  password: string,
  name = 'Ada Lovelace',
): Promise<void> {
  const widget = hostWidgetOf(page);
  await page.goto('/login');
  await toEmailEntry(widget);
  await widget.field(uiText.emailLabel).fill(email);
  await widget.button(uiText.next).click();
  // The emulator's sign-in-method lookup finds no account: the sign-up card.
  await submitSignUp(widget, name, password);
  await page.waitForURL('**/account');
  await expect(accountOf(page).heading).toBeVisible();
}

/** Signs in with email and password through the widget (from /login or a page that shows it). */
export async function signIn(page: Page, email: string, password: string, from = '/login'): Promise<void> {
  const widget = hostWidgetOf(page);
  await page.goto(from);
  await signInWithPassword(widget, email, password);
}

export const test = base.extend<{
  widget: ReturnType<typeof hostWidgetOf>;
  account: ReturnType<typeof accountOf>;
}>({
  widget: async ({ page, javaScriptEnabled }, use) => {
    await use(hostWidgetOf(page, { scripts: javaScriptEnabled }));
  },
  account: async ({ page }, use) => {
    await use(accountOf(page));
  },
});

export { expect, expectNoAxeViolations };
