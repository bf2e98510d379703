/**
 * The account sections of `@doorway/ui-cards/account` with forms (`<Profile>`, `<EmailAddress>`,
 * `<ChangePassword>`) on the fake provider, Ann signed in: each success (what the backend then holds, what
 * is said, focus on the heading), each error on its field (focused, described, said once), "Please login
 * again to perform this operation" then reauthenticate and the operation going on in place, the section
 * absent without its capability, and axe-core.
 */
import type { FakeProvider } from '@doorway/adapter-fake';
import { AuthError, messageFor, type PendingEmailChange } from '@doorway/auth-core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  ChangePassword,
  EmailAddress,
  emailText,
  Profile,
  passwordText,
  profileText,
} from '../src/account/index.ts';
import { signedIn } from './accountUser.ts';
import { expectNoAxeViolations, settle } from './harness.tsx';
import { active, alert, EMAIL, heading, PASSWORD, polite } from './sectionQueries.ts';

/** The field labelled `label` has focus, is invalid and is described by `message`. */
function expectFocusedError(label: string, message: string) {
  const field = screen.getByLabelText(label);
  expect(active()).toBe(field);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(message);
}

/** Ann signed in with only a Google identity (no password). */
async function federatedOnly() {
  const signed = await signedIn([], {
    users: [{ email: EMAIL, password: PASSWORD, federated: { providerId: 'google.com', sub: 'g-ann' } }],
  });
  await signed.fake.account?.unlink('password');
  return signed;
}

/** The fake without the account operation `op` (the others kept). */
function without(op: string) {
  return signedIn([], {
    capabilities: {
      account: [
        'updateProfile',
        'changeEmail',
        'changePassword',
        'listMethods',
        'unlink',
        'signOutOtherSessions',
        'deleteAccount',
      ].filter((o) => o !== op) as never,
    },
  });
}

const callsOf = (fake: FakeProvider, method: string) =>
  fake.backend.calls.filter((c) => c.method === method).length;

describe('<Profile>', () => {
  it('saves the display name, says so and focuses the heading; blank clears it', async () => {
    const { fake } = await signedIn();
    const onChange = vi.fn();
    const { container } = render(<Profile provider={fake} onChange={onChange} />);
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(profileText.nameLabel), 'Ann Lee{Enter}');
    await settle();
    expect(fake.getCurrentUser()?.displayName).toBe('Ann Lee');
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ displayName: 'Ann Lee' }));
    expect(polite()).toBe(profileText.saved);
    expect(active()).toBe(heading(profileText.title));
    await user.clear(screen.getByLabelText(profileText.nameLabel));
    await user.click(screen.getByRole('button', { name: profileText.save }));
    await settle();
    expect(fake.getCurrentUser()?.displayName).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('shows the name the account has', async () => {
    const { fake } = await signedIn();
    await fake.account?.updateProfile({ displayName: 'Ann' });
    render(<Profile provider={fake} />);
    expect((screen.getByLabelText(profileText.nameLabel) as HTMLInputElement).value).toBe('Ann');
  });

  it('on requires-recent-login offers "Sign in again", then saves in place', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.updateProfile', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    render(<Profile provider={fake} reauthenticate={reauthenticate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(profileText.nameLabel), 'Ann{Enter}');
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    expect(fake.getCurrentUser()?.displayName).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(callsOf(fake, 'account.updateProfile')).toBe(2);
    expect(fake.getCurrentUser()?.displayName).toBe('Ann');
    expect(polite()).toBe(profileText.saved);
    expect(active()).toBe(heading(profileText.title));
  });

  it('renders nothing without the updateProfile capability', async () => {
    const { fake } = await without('updateProfile');
    const { container } = render(<Profile provider={fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('<EmailAddress>', () => {
  it("checks the address with sign-up's rules, focusing the field in error", async () => {
    const { fake } = await signedIn();
    render(<EmailAddress provider={fake} />);
    expect(screen.getByText(emailText.current(EMAIL))).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: emailText.change }));
    await settle();
    expectFocusedError(emailText.newLabel, 'Enter your email address to continue');
    await user.type(screen.getByLabelText(emailText.newLabel), 'ann@{Enter}');
    await settle();
    expectFocusedError(emailText.newLabel, "That email address isn't correct");
    // Enter pressed in the field: focus is there already, so the assertive region says it.
    expect(alert()).toBe("That email address isn't correct");
    expect(callsOf(fake, 'account.changeEmail')).toBe(0);
  });

  it('starts the change with the continue URL, shows it pending until confirmed, and the outbox has the link', async () => {
    const { fake } = await signedIn();
    const pendings: PendingEmailChange[] = [];
    const settings = { url: 'https://app.example/auth/action' };
    const { container, rerender } = render(
      <EmailAddress provider={fake} actionLinkSettings={settings} onPending={(p) => pendings.push(p)} />,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(emailText.newLabel), 'ann.new@example.com{Enter}');
    await settle();
    expect(pendings).toEqual([{ pendingEmail: 'ann.new@example.com', confirmBy: 'new' }]);
    expect(screen.getByText(emailText.pending('ann.new@example.com'))).toBeTruthy();
    expect(screen.queryByText(emailText.pendingBoth)).toBeNull();
    expect(polite()).toBe(emailText.sent('ann.new@example.com'));
    expect(active()).toBe(heading(emailText.title));
    await expectNoAxeViolations(container);
    // Not changed yet: the old address still signs in.
    expect(fake.getCurrentUser()?.email).toBe(EMAIL);
    const mail = fake.backend.outbox.lastEmail('ann.new@example.com', 'verifyAndChangeEmail');
    expect(mail?.link.startsWith(`${settings.url}?`)).toBe(true);

    await fake.applyActionCode(mail?.oobCode ?? '');
    rerender(<EmailAddress provider={fake} actionLinkSettings={settings} />);
    expect(screen.getByText(emailText.current('ann.new@example.com'))).toBeTruthy();
    expect(screen.queryByText(emailText.pending('ann.new@example.com'))).toBeNull();
    expect(screen.getByLabelText(emailText.newLabel)).toBeTruthy();
  });

  it('says when both addresses must confirm, and "Use another address" goes back to the field', async () => {
    const { fake } = await signedIn();
    const provider = {
      capabilities: fake.capabilities,
      getCurrentUser: () => fake.getCurrentUser(),
      account: {
        ...(fake.account as NonNullable<FakeProvider['account']>),
        changeEmail: async (email: string) => ({ pendingEmail: email, confirmBy: 'both' as const }),
      },
    };
    render(<EmailAddress provider={provider} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(emailText.newLabel), 'ann.new@example.com{Enter}');
    await settle();
    expect(screen.getByText(emailText.pendingBoth)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: emailText.another }));
    await settle();
    expect(active()).toBe(screen.getByLabelText(emailText.newLabel));
  });

  it('shows "already used" under the field for an address another account has', async () => {
    const { fake } = await signedIn();
    fake.backend.createUser({ email: 'bob@example.com', password: 'secret-456' });
    render(<EmailAddress provider={fake} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(emailText.newLabel), 'bob@example.com');
    await user.click(screen.getByRole('button', { name: emailText.change }));
    await settle();
    expectFocusedError(emailText.newLabel, messageFor('email-already-in-use'));
    expect(screen.queryByText(emailText.pending('bob@example.com'))).toBeNull();
  });

  it('on requires-recent-login signs in again and sends the change in place', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.changeEmail', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    render(<EmailAddress provider={fake} reauthenticate={reauthenticate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(emailText.newLabel), 'ann.new@example.com{Enter}');
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(screen.getByText(emailText.pending('ann.new@example.com'))).toBeTruthy();
    expect(fake.backend.outbox.lastEmail('ann.new@example.com', 'verifyAndChangeEmail')).not.toBeNull();
  });

  it('renders nothing without the changeEmail capability', async () => {
    const { fake } = await without('changeEmail');
    const { container } = render(<EmailAddress provider={fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('<ChangePassword>', () => {
  it('changes the password: the old one no longer signs in, the new one does', async () => {
    const { fake } = await signedIn();
    const { container } = render(<ChangePassword provider={fake} />);
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passwordText.currentLabel), PASSWORD);
    await user.type(screen.getByLabelText(passwordText.newLabel), 'better-456{Enter}');
    await settle();
    expect(polite()).toBe(passwordText.changed);
    expect(active()).toBe(heading(passwordText.title));
    expect((screen.getByLabelText(passwordText.newLabel) as HTMLInputElement).value).toBe('');
    await fake.signOut();
    await expect(fake.signInWithEmailAndPassword(EMAIL, PASSWORD)).rejects.toThrow(AuthError);
    expect((await fake.signInWithEmailAndPassword(EMAIL, 'better-456')).user.email).toBe(EMAIL);
  });

  it("asks for both passwords, then says sign-up's rule under the new one", async () => {
    const { fake } = await signedIn();
    render(<ChangePassword provider={fake} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: passwordText.change }));
    await settle();
    expectFocusedError(passwordText.currentLabel, 'Enter your password');
    await user.type(screen.getByLabelText(passwordText.currentLabel), PASSWORD);
    await user.click(screen.getByRole('button', { name: passwordText.change }));
    await settle();
    expectFocusedError(passwordText.newLabel, 'Enter your password');
    await user.type(screen.getByLabelText(passwordText.newLabel), 'abc{Enter}');
    await settle();
    expectFocusedError(passwordText.newLabel, 'Use at least 6 characters with letters and numbers');
    expect(callsOf(fake, 'account.changePassword')).toBe(0);
  });

  it("shows the backend's weak-password under the new password", async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.changePassword', 'weak-password');
    render(<ChangePassword provider={fake} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passwordText.currentLabel), PASSWORD);
    await user.type(screen.getByLabelText(passwordText.newLabel), 'password1');
    await user.click(screen.getByRole('button', { name: passwordText.change }));
    await settle();
    expectFocusedError(passwordText.newLabel, messageFor('weak-password'));
  });

  it('a wrong current password is said under it, and nothing changes', async () => {
    const { fake } = await signedIn();
    render(<ChangePassword provider={fake} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passwordText.currentLabel), 'not-it-000');
    await user.type(screen.getByLabelText(passwordText.newLabel), 'better-456');
    await user.click(screen.getByRole('button', { name: passwordText.change }));
    await settle();
    expectFocusedError(passwordText.currentLabel, messageFor('wrong-password'));
    await fake.signOut();
    expect((await fake.signInWithEmailAndPassword(EMAIL, PASSWORD)).user.email).toBe(EMAIL);
  });

  it('sets a password on an account without one (no current password asked), which then signs in', async () => {
    const { fake } = await federatedOnly();
    const { container } = render(<ChangePassword provider={fake} />);
    expect(screen.queryByLabelText(passwordText.currentLabel)).toBeNull();
    expect(screen.getByText(passwordText.setIntro)).toBeTruthy();
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passwordText.newLabel), 'fresh-789{Enter}');
    await settle();
    expect(polite()).toBe(passwordText.setDone);
    expect(active()).toBe(heading(passwordText.title));
    expect(fake.getCurrentUser()?.providerIds).toContain('password');
    // Now it has one: the next change asks for it.
    expect(screen.getByLabelText(passwordText.currentLabel)).toBeTruthy();
    await fake.signOut();
    expect((await fake.signInWithEmailAndPassword(EMAIL, 'fresh-789')).user.email).toBe(EMAIL);
  });

  it('on requires-recent-login signs in again and changes it in place, what was typed kept', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.changePassword', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    render(<ChangePassword provider={fake} reauthenticate={reauthenticate} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passwordText.currentLabel), PASSWORD);
    await user.type(screen.getByLabelText(passwordText.newLabel), 'better-456{Enter}');
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    expect((screen.getByLabelText(passwordText.newLabel) as HTMLInputElement).value).toBe('better-456');
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(polite()).toBe(passwordText.changed);
    await fake.signOut();
    expect((await fake.signInWithEmailAndPassword(EMAIL, 'better-456')).user.email).toBe(EMAIL);
  });

  it('renders nothing without the changePassword capability', async () => {
    const { fake } = await without('changePassword');
    const { container } = render(<ChangePassword provider={fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('the sections together', () => {
  it('render on a server with no provider call, each with its own heading and live regions', async () => {
    const { renderToString } = await import('react-dom/server');
    const { fake } = await signedIn();
    const html = renderToString(
      <>
        <Profile provider={fake} />
        <EmailAddress provider={fake} />
        <ChangePassword provider={fake} />
      </>,
    );
    for (const title of [profileText.title, emailText.title, passwordText.title])
      expect(html).toContain(`<h2 class="doorway-title" tabindex="-1">${title}</h2>`);
    expect(html.match(/role="status"/g)).toHaveLength(3);
    expect(html.match(/role="alert"/g)).toHaveLength(3);
    expect(fake.backend.calls).toHaveLength(0);
  });

  it('work by keyboard alone: Tab to a field, type, Enter; focus never falls to <body>', async () => {
    const { fake } = await signedIn();
    const { container } = render(
      <>
        <Profile provider={fake} />
        <ChangePassword provider={fake} />
      </>,
    );
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.keyboard('{Tab}');
    expect(active()).toBe(screen.getByLabelText(profileText.nameLabel));
    await user.keyboard('Ann{Enter}');
    await settle();
    expect(active()).toBe(heading(profileText.title));
    // On from the heading: the name, Save, then the password section's first field.
    await user.keyboard('{Tab}{Tab}{Tab}');
    expect(active()).toBe(screen.getByLabelText(passwordText.currentLabel));
    await user.keyboard('{Enter}');
    await settle();
    expectFocusedError(passwordText.currentLabel, 'Enter your password');
    expect(fake.getCurrentUser()?.displayName).toBe('Ann');
  });
});
