import { expect, test } from './fixtures.ts';

const NUMBER = '+12015550123';

test.describe('phone sign-in', () => {
  test('wrong code, resend after 0:15, expired code, then the right code', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    await page.clock.install();
    await page.goto(home);
    await widget.button('Sign in with phone').click();
    await widget.card('phoneEntry', 'Enter your phone number');
    await expect(widget.field('Country')).toHaveValue('US');
    await expect(widget.field('Country').locator('option[value="GB"]')).toHaveCount(0);
    await widget.field('Phone number').fill('+44 20 7946 0000');
    await widget.button('Verify').click();
    await widget.expectError('The country code provided is not supported.');
    await expect(widget.field('Country')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('Phone number').fill('(201) 555-0123');
    await widget.button('Verify').click();
    await widget.card('phoneCode', 'Verify your phone number');
    await expect(widget.root).toContainText(`Enter the 6-digit code we sent to ${NUMBER}`);
    // The clock runs in real time here (0:15 itself is pinned by the unit tests on fake timers).
    await expect(widget.root).toContainText(/Resend code in 0:1[0-5]/);

    const code = await panel.smsCode(NUMBER);
    await widget.field('6-digit code').fill('12345');
    await widget.button('Verify').click();
    await widget.expectError('Wrong code. Try again.');
    await widget.field('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await widget.button('Verify').click();
    await widget.expectError('Wrong code. Try again.');

    await page.clock.runFor(15_000);
    await expect(widget.root).not.toContainText('Resend code in');
    await widget.button('Resend').click();
    await expect(widget.root).toContainText(/Resend code in 0:1[0-5]/);
    await expect(panel.panel.getByRole('list', { name: 'Text messages' }).getByRole('listitem')).toHaveCount(
      2,
    );

    const fresh = await panel.smsCode(NUMBER);
    await panel.check('Expired codes (clock +2 h)');
    await widget.field('6-digit code').fill(fresh);
    await widget.button('Verify').click();
    await expect(widget.root).toHaveAttribute('data-card', 'phoneEntry');
    await widget.expectError('This code is no longer valid');
    await panel.uncheck('Expired codes (clock +2 h)');
    await widget.button('Verify').click();
    await expect(widget.root).toHaveAttribute('data-card', 'phoneCode');
    const last = await panel.smsCode(NUMBER);
    await widget.field('6-digit code').fill(last);
    await widget.button('Verify').click();
    await widget.card('signedIn', 'Verified!');
  });

  test('an invalid number and an unsolved captcha use their messages', async ({
    page,
    home,
    widget,
    panel,
  }) => {
    await page.goto(home);
    await panel.check('Captcha must be solved');
    await widget.button('Sign in with phone').click();
    await widget.field('Phone number').fill('12');
    await widget.button('Verify').click();
    await widget.expectError('Enter a valid phone number');
    await widget.field('Phone number').fill('(201) 555-0123');
    await widget.button('Verify').click();
    await widget.expectError('Solve the reCAPTCHA');
    await widget.root.getByLabel("I'm not a robot").check();
    await widget.button('Verify').click();
    await widget.card('phoneCode');
  });

  test('completes by keyboard alone', async ({ page, home, widget, panel }) => {
    await page.goto(home);
    await widget.ready();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(widget.button('Sign in with phone')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(widget.field('Country')).toBeVisible();
    await expect(widget.heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.field('Country')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.field('Phone number')).toBeFocused();
    await page.keyboard.type('2015550123');
    await page.keyboard.press('Enter');
    await expect(widget.root).toHaveAttribute('data-card', 'phoneCode');
    await expect(widget.heading).toBeFocused();
    const code = await panel.smsCode(NUMBER);
    await page.keyboard.press('Tab');
    await expect(widget.field('6-digit code')).toBeFocused();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await widget.card('signedIn', 'Verified!');
  });
});
