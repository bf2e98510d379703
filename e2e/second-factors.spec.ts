/**
 * Second factors on the playground: an authenticator app added on the account card (`<SecondFactors>`)
 * and then asked for at sign-in, the seeded SMS account, and the chooser by keyboard alone. The playground
 * runs the fake on the page's real clock (no skew unless "Expired codes" is on), so the test computes
 * authenticator codes for its own `Date.now()`; the fake accepts the code of the step before and after.
 */
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, expectNoAxeViolations, test, uiText } from './fixtures.ts';
import { enterEmail } from './host-pages.ts';

const PASSWORD = 'secret123';
/** both@example.com's authenticator app, as apps/playground/src/world.ts seeds it. */
const BOTH_SECRET = 'KRUGS4ZANFZSAYJAORSXG5BAONSWG4TF';
const STEP_MS = 30_000;

/** The code an authenticator app with `secret` shows at `at` (RFC 6238: SHA-1, 6 digits, 30 s). */
function totpAt(secret: string, at: number): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    timestamp: at,
  });
}

/** The codes the fake accepts around `at` (its step and one either side), and a step more for the typing. */
function acceptedAround(secret: string, at: number): string[] {
  return [-2, -1, 0, 1, 2].map((step) => totpAt(secret, at + step * STEP_MS));
}

/** A code of `secret` from ten minutes or more ago that no step near now shows. */
function farCode(secret: string, now: number): string {
  const near = acceptedAround(secret, now);
  for (let minutes = 10; ; minutes++) {
    const code = totpAt(secret, now - minutes * 60_000);
    if (!near.includes(code)) return code;
  }
}

/** The account card (`<SecondFactors>`) the playground shows under the widget once someone signs in. */
function accountOf(page: Page) {
  // The second-factor card (its heading changes with its step), not the passkeys card beside it.
  const root = page
    .locator('.doorway-account')
    .filter({ hasNot: page.getByRole('heading', { name: 'Passkeys', exact: true }) });
  return {
    root,
    heading: (name: string) => root.getByRole('heading', { name, exact: true }),
    field: (label: string) => root.getByLabel(label, { exact: true }),
    button: (name: string) => root.getByRole('button', { name, exact: true }),
  };
}

/** The panel's line for an account's authenticator app (or the one being added). */
function authenticatorLine(page: Page, account: string, app: string) {
  return page
    .getByRole('complementary', { name: 'Playground controls' })
    .getByRole('list', { name: 'Authenticator apps' })
    .getByRole('listitem')
    .filter({ hasText: `${account}, ${app}:` });
}

const oneOf = (codes: readonly string[]) => new RegExp(`^(${codes.join('|')})$`);

test.describe('second factors', () => {
  test('an authenticator app added on the account card is asked for at the next sign-in', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    const email = 'two.steps@example.com';
    const account = accountOf(page);
    await page.goto(home);
    await enterEmail(widget, email);
    await widget.card('passwordSignUp', 'Create account');
    await widget.field('First & last name').fill('Two Steps');
    await widget.field('Choose password').fill(PASSWORD);
    await widget.button('Save').click();
    await widget.card('signedIn', 'Signed in!');

    await expect(account.heading('Two-step verification')).toBeVisible();
    await expect(account.root).toContainText('You have not added a second step yet.');
    await expectNoAxeViolations(page);
    await account.button('Add authenticator app').click();
    await expect(account.heading('Add an authenticator app')).toBeVisible();
    const secret = (await account.root.getByRole('definition').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(
      account.root.getByRole('img', { name: 'QR code that adds this account to an authenticator app' }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    // The panel shows what the app being added shows.
    await expect(authenticatorLine(page, email, 'being added').locator('code')).toHaveText(
      oneOf(acceptedAround(secret, Date.now())),
    );

    await account.field('6-digit code').fill(farCode(secret, Date.now()));
    await account.button('Verify').click();
    await expect(account.field('6-digit code')).toHaveAttribute('aria-invalid', 'true');
    await expect(account.field('6-digit code')).toHaveAccessibleDescription(/Wrong code\. Try again\./);
    await account.field('6-digit code').fill(totpAt(secret, Date.now()));
    await account.field('Name for this factor (optional)').fill('Laptop app');
    await account.button('Verify').click();
    await expect(account.heading('Two-step verification')).toBeVisible();
    await expect(account.root.getByRole('list', { name: 'Your second steps' })).toContainText('Laptop app');
    await expect(authenticatorLine(page, email, 'Laptop app').locator('code')).toHaveText(
      oneOf(acceptedAround(secret, Date.now())),
    );
    await expect(authenticatorLine(page, email, 'being added')).toHaveCount(0);

    // The world log replays the enrolment.
    await page.reload();
    await expect(account.root.getByRole('list', { name: 'Your second steps' })).toContainText('Laptop app');

    await panel.button('Sign out (app)').click();
    await expect(panel.panel).toContainText('Nobody is signed in.');
    await expect(account.root).toHaveCount(0);
    await enterEmail(widget, email);
    await widget.field('Password').fill(PASSWORD);
    await widget.button('Sign in').click();
    await widget.card('secondFactorCode', 'Enter your code');
    await expect(widget.root).toContainText('Enter the 6-digit code from your authenticator app.');
    await expect(panel.panel).toContainText('Nobody is signed in.');

    await widget.field('6-digit code').fill(farCode(secret, Date.now()));
    await widget.button('Verify').click();
    await widget.expectError('Wrong code. Try again.');
    await expect(widget.root).toHaveAttribute('data-card', 'secondFactorCode');
    await widget.field('6-digit code').fill(totpAt(secret, Date.now()));
    await widget.button('Verify').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${email}`);

    // And the replay signs the same person in again: the pending sign-in, then its code.
    await page.reload();
    await expect(panel.panel).toContainText(`Signed in: ${email}`);
  });

  test('the seeded SMS account: Send code, the code from the outbox, signed in, then the factor removed', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    const email = 'sms@example.com';
    const account = accountOf(page);
    await page.goto(home);
    await enterEmail(widget, email);
    await widget.field('Password').fill(PASSWORD);
    await widget.button('Sign in').click();
    await widget.card('secondFactorPhone', 'Verify it’s you');
    await expect(widget.root).toContainText('We’ll text a 6-digit code to +*******0100.');
    // The fake solves its captcha by itself unless the panel says otherwise.
    await expect(widget.root.getByLabel("I'm not a robot")).toHaveCount(0);
    await widget.button('Send code').click();
    await widget.card('secondFactorCode', 'Enter your code');
    const code = await panel.smsCode('+15555550100');
    expect(code).toMatch(/^\d{6}$/);
    await widget.field('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await widget.button('Verify').click();
    await widget.expectError('Wrong code. Try again.');
    await widget.field('6-digit code').fill(code);
    await widget.button('Verify').click();
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${email}`);

    await expect(account.root.getByRole('list', { name: 'Your second steps' })).toContainText('Work phone');
    await account.button('Remove Work phone').click();
    await account.button('Yes, remove it').click();
    await expect(account.root).toContainText('You have not added a second step yet.');
    await widget.button('Sign out').click();
    await widget.card('signOut', 'Signed out');
    await widget.button('Sign in again').click();
    await enterEmail(widget, email);
    await widget.field('Password').fill(PASSWORD);
    await widget.button('Sign in').click();
    await widget.card('signedIn', 'Signed in!');
  });

  test('the chooser and the authenticator code by keyboard alone', async ({ page, home, widget, panel }) => {
    const email = 'both@example.com';
    await page.goto(home);
    await widget.ready();
    await page.keyboard.press('Tab');
    await expect(widget.button(uiText.signInWithEmail)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(widget.heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.field('Email')).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await expect(widget.root).toHaveAttribute('data-card', 'passwordSignIn');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(widget.field('Password')).toBeFocused();
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');

    await widget.card('secondFactorChooser', 'Verify it’s you');
    await expect(widget.heading).toBeFocused();
    await expect(widget.root).toContainText('Your account has 2-step verification.');
    await page.keyboard.press('Tab');
    await expect(widget.button('Text a code to +*******0101')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.button('Use your authenticator app')).toBeFocused();
    await page.keyboard.press('Enter');
    await widget.card('secondFactorCode', 'Enter your code');
    await expect(widget.heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.field('6-digit code')).toBeFocused();
    // What the account's authenticator app shows, read from the panel.
    const code =
      (await authenticatorLine(page, email, 'Authenticator app').locator('code').textContent()) ?? '';
    expect(acceptedAround(BOTH_SECRET, Date.now())).toContain(code);
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await widget.card('signedIn', 'Signed in!');
    await expect(panel.panel).toContainText(`Signed in: ${email}`);
  });
});
