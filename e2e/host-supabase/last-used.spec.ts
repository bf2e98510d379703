/**
 * "Last used" on the host with DOORWAY_PROVIDER=supabase, on the GoTrue TEST DOUBLE (not Supabase). The
 * project's host offers email alone (no chooser, so nothing to mark): these tests serve the same build
 * with email and guest sign-in (scripts/host-supabase.mjs --no-build, its own double), sign up with a
 * password, sign out, and find the chooser marking email, with JavaScript and without.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { accountValue, expect, hostWidgetOf, test, uniqueEmail } from './fixtures.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT = 4332;
const DOUBLE_PORT = 4333;
const HOST = `http://127.0.0.1:${PORT}`;

let server: ChildProcess | null = null;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: HOST });

test.beforeAll(async () => {
  server = spawn(process.execPath, [join(ROOT, 'scripts', 'host-supabase.mjs'), '--no-build'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(PORT),
      DOORWAY_GOTRUE_DOUBLE_PORT: String(DOUBLE_PORT),
      DOORWAY_SIGN_IN_OPTIONS: 'email,anonymous',
    },
  });
  await expect
    .poll(
      () =>
        fetch(`${HOST}/bench/bare`).then(
          (r) => r.ok,
          () => false,
        ),
      {
        message: `the host with email and guest sign-in on ${HOST}`,
        timeout: 60_000,
      },
    )
    .toBe(true);
});

test.afterAll(() => {
  server?.kill('SIGTERM');
});

/** The chooser marks email "Last used" (its description) and not the guest option. */
async function expectEmailMarked(widget: ReturnType<typeof hostWidgetOf>) {
  await expect(widget.button('Sign in with email')).toHaveAccessibleDescription('Last used');
  await expect(widget.button('Continue as guest')).toHaveAccessibleDescription('');
  await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(1);
}

async function lastUsedCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === 'doorway_last_used');
}

/** Sign-up with a password on the combined card, the account page, then sign-out to the chooser. */
async function signUpThenOut(page: Page, scripts: boolean) {
  const widget = hostWidgetOf(page, { scripts });
  const email = uniqueEmail(scripts ? 'last' : 'last-nojs');
  await page.goto('/login');
  await widget.card('providerChooser', 'Sign in');
  await expect(widget.root.getByText('Last used', { exact: true })).toHaveCount(0);
  await widget.button('Sign in with email').click();
  await widget.card('emailEntry', 'Sign in with email');
  await widget.field('Email').fill(email);
  await widget.button('Next').click();
  await widget.card('passwordSignIn', 'Sign in');
  await widget.button('Create account').click();
  await widget.card('passwordSignUp', 'Create account');
  await widget.field('First & last name').fill('Ada Lovelace');
  await widget.field('Choose password').fill('secret123');
  await widget.button('Save').click();
  await page.waitForURL('/account');
  await expect(accountValue(page, 'Email')).toHaveText(email);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/login?signedOut=1');
  await widget.card('signOut', 'Signed out');
  await widget.button('Sign in again').click();
  await widget.card('providerChooser', 'Sign in');
  return widget;
}

test.describe('"Last used" on Supabase (GoTrue test double)', () => {
  test('a password sign-up, sign out: the chooser marks email', async ({ page, context }) => {
    const widget = await signUpThenOut(page, true);
    await expectEmailMarked(widget);
    expect(await lastUsedCookie(context)).toMatchObject({ value: 'email', httpOnly: true, sameSite: 'Lax' });
  });

  test.describe('with JavaScript turned off', () => {
    test.use({ javaScriptEnabled: false });

    test('a password sign-up, sign out: the served chooser marks email', async ({ page, context }) => {
      const widget = await signUpThenOut(page, false);
      await expectEmailMarked(widget);
      expect(await lastUsedCookie(context)).toMatchObject({ value: 'email', httpOnly: true });
    });
  });
});
