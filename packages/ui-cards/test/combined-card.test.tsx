/**
 * The combined card (email-enumeration protection: sign in or create an account in one card) keeps the
 * password typed on it when the person chooses "Create account": the sign-up card starts with it, and the
 * account is created with it.
 * @see issue 33
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import { createMemoryStorage, uiText, type WidgetConfigInput } from '@doorway/auth-core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCards, SignInWidget } from '../src/index.ts';
import { LOGIN, settle } from './harness.tsx';

const CONFIG: WidgetConfigInput = { signInOptions: [{ provider: 'email', requireDisplayName: false }] };

async function atCombinedCard(email: string) {
  const fake = createFakeProvider({ faults: { enumerationProtection: true } });
  render(
    <StrictMode>
      <SignInWidget
        config={CONFIG}
        provider={fake}
        url={LOGIN}
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />
    </StrictMode>,
  );
  await settle();
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(uiText.emailLabel), `${email}{Enter}`);
  await settle();
  screen.getByRole('heading', { level: 1, name: uiText.combinedSignInTitle });
  return { fake, user };
}

function passwordField(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
}

describe('combined sign-in card', () => {
  beforeAll(() => loadCards());

  it('keeps a typed password when the person chooses Create account, and signs up with it', async () => {
    const { fake, user } = await atCombinedCard('new@example.com');
    await user.type(passwordField(uiText.passwordLabel), 'secret12');
    await user.click(screen.getByRole('button', { name: uiText.createAccount }));
    await settle();
    screen.getByRole('heading', { level: 1, name: uiText.passwordSignUpTitle });
    expect(passwordField(uiText.newPasswordLabel).value).toBe('secret12');
    // The field's value, never its `value` attribute: a password is not written into the page's markup.
    expect(passwordField(uiText.newPasswordLabel).hasAttribute('value')).toBe(false);
    await user.click(screen.getByRole('button', { name: uiText.save }));
    await settle();
    expect(fake.backend.findUserByEmail('new@example.com')).not.toBeNull();
    await fake.signOut();
    await expect(fake.signInWithEmailAndPassword('new@example.com', 'secret12')).resolves.toBeTruthy();
  });

  it('a later Create account without typing starts with an empty field: nothing is carried over', async () => {
    const { user } = await atCombinedCard('new@example.com');
    await user.type(passwordField(uiText.passwordLabel), 'secret12');
    await user.click(screen.getByRole('button', { name: uiText.createAccount }));
    await settle();
    expect(passwordField(uiText.newPasswordLabel).value).toBe('secret12');
    // Back to the start (Cancel), the same email again, Create account without typing: nothing is carried.
    await user.click(screen.getByRole('button', { name: uiText.cancel }));
    await settle();
    await user.type(screen.getByLabelText(uiText.emailLabel), 'new@example.com{Enter}');
    await settle();
    await user.click(screen.getByRole('button', { name: uiText.createAccount }));
    await settle();
    expect(passwordField(uiText.newPasswordLabel).value).toBe('');
  });
});
