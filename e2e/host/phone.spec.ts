import { EMAIL_LINK_HOST, expect, lastSmsCode, test, uniquePhone } from './fixtures.ts';

test.describe('phone sign-in with the emulator’s SMS code', () => {
  // On the emulator the SDK swaps in its mock reCAPTCHA: the visible one solves itself after 500 ms, the
  // invisible one is run by the SDK when the code is requested.
  test('visible reCAPTCHA (the default): number, wrong code, right code, signed in', async ({
    page,
    widget,
    account,
  }) => {
    const phone = uniquePhone();
    const national = phone.slice(2);
    await page.goto('/login');
    await widget.card('providerChooser');
    await widget.button('Sign in with phone').click();
    await widget.card('phoneEntry', 'Enter your phone number');
    await expect(widget.field('Country')).toHaveValue('US');
    await widget
      .field('Phone number')
      .fill(`(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`);
    // The SDK's mock solves the visible reCAPTCHA by itself shortly after it renders; until then Verify
    // answers "Solve the reCAPTCHA". Press Verify until the code card shows.
    await expect(async () => {
      if ((await widget.root.getAttribute('data-card')) === 'phoneEntry')
        await widget.button('Verify').click();
      await expect(widget.root).toHaveAttribute('data-card', 'phoneCode', { timeout: 1000 });
    }).toPass();
    await widget.card('phoneCode', 'Verify your phone number');
    await expect(widget.root).toContainText(`Enter the 6-digit code we sent to ${phone}`);
    const code = await lastSmsCode(phone);
    await widget.field('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await widget.button('Verify').click();
    await widget.expectError('Wrong code. Try again.');
    await widget.field('6-digit code').fill(code);
    await widget.button('Verify').click();
    await widget.card('signedIn', 'Verified!');
    await page.waitForURL('/account');
    await expect(account.value('Phone')).toHaveText(phone);
    await expect(account.value('Signed in with')).toHaveText('phone');
  });

  test('invisible reCAPTCHA (DOORWAY_RECAPTCHA=invisible)', async ({ page, widget, account }) => {
    const phone = uniquePhone();
    await page.goto(`${EMAIL_LINK_HOST}/login`);
    await widget.button('Sign in with phone').click();
    await widget.card('phoneEntry');
    await widget.field('Phone number').fill(phone.slice(2));
    await widget.button('Verify').click();
    await widget.card('phoneCode');
    await widget.field('6-digit code').fill(await lastSmsCode(phone));
    await widget.button('Verify').click();
    await page.waitForURL(`${EMAIL_LINK_HOST}/account`);
    await expect(account.value('Phone')).toHaveText(phone);
  });
});
