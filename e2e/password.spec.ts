import { ADA, expect, test, uiText } from './fixtures.ts';

test.describe('password sign-in', () => {
  test('provider chooser → email → password → signed in', async ({ page, home, widget }) => {
    await page.goto(home);
    await widget.card('providerChooser', 'Sign in');
    await expect(widget.link('Terms of Service')).toHaveAttribute('href', '/terms');
    await widget.button(uiText.signInWithEmail).click();
    await widget.card('emailEntry', uiText.emailEntryTitle);
    await widget.button('Next').click();
    await widget.expectError('Enter your email address to continue');
    await expect(widget.field('Email')).toHaveAttribute('aria-invalid', 'true');
    await widget.field('Email').fill('ada@');
    await widget.button('Next').click();
    await widget.expectError("That email address isn't correct");
    await widget.field('Email').fill(ADA.email);
    await widget.button('Next').click();
    await widget.card('passwordSignIn', 'Sign in');
    await widget.button('Sign in').click();
    await widget.expectError('Enter your password');
    await widget.field('Password').fill('wrong-password');
    await widget.button('Sign in').click();
    await widget.expectError("The email and password you entered don't match");
    await widget.field('Password').fill(ADA.password);
    await widget.button('Sign in').click();
    await widget.card('signedIn', 'Signed in!');
  });

  test('completes by keyboard alone', async ({ page, home, widget }) => {
    await page.goto(home);
    await widget.ready();
    // Tab to "Sign in with email" (the first control of the page), then Enter.
    await page.keyboard.press('Tab');
    await expect(widget.button(uiText.signInWithEmail)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(widget.heading).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget.field('Email')).toBeFocused();
    await page.keyboard.type(ADA.email);
    await page.keyboard.press('Enter');
    await expect(widget.root).toHaveAttribute('data-card', 'passwordSignIn');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(widget.field('Password')).toBeFocused();
    await page.keyboard.type(ADA.password);
    await page.keyboard.press('Enter');
    await widget.card('signedIn', 'Signed in!');
  });
});
