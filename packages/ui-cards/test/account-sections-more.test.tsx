/**
 * The account sections of `@doorway/ui-cards/account` without a text form of their own, and the delete
 * form: `<SignInMethods>` (the list, Remove confirmed in place and never on the last method,
 * `last-sign-in-method`, "Link …" through the host's `onLink`), `<Devices>` (another session ends, this one
 * stays) and `<DeleteAccount>` (the typed confirmation, then sign-in fails), each with
 * `requires-recent-login` then reauthenticate, focus after each step, and the section absent without its
 * capability.
 */
import { type FakeProvider, openFakeSession } from '@doorway/adapter-fake';
import { messageFor, type SignInMethod } from '@doorway/auth-core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
// Another session of the same fake backend (another browser signed in as Ann): the fake's own helper.
import {
  accountText,
  DeleteAccount,
  Devices,
  deleteText,
  devicesText,
  methodsText,
  SignInMethods,
} from '../src/account/index.ts';
import { signedIn } from './accountUser.ts';
import { expectNoAxeViolations, settle } from './harness.tsx';
import { active, EMAIL, heading, PASSWORD, polite } from './sectionQueries.ts';

const button = (name: string) => screen.getByRole('button', { name });
const items = () =>
  within(screen.getByRole('list', { name: methodsText.yours }))
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.doorway-factor-name')?.textContent);

/** Ann signed in, with a Google identity besides her password. */
function withGoogle(options: Parameters<typeof signedIn>[1] = {}) {
  return signedIn([], {
    users: [{ email: EMAIL, password: PASSWORD, federated: { providerId: 'google.com', sub: 'g-ann' } }],
    ...options,
  });
}

const callsOf = (fake: FakeProvider, method: string) =>
  fake.backend.calls.filter((c) => c.method === method).length;

describe('<SignInMethods>', () => {
  it('lists the methods, removes one after asking, and then offers no Remove on the last', async () => {
    const { fake } = await withGoogle();
    const onChange = vi.fn();
    const { container } = render(<SignInMethods provider={fake} onChange={onChange} />);
    await settle();
    expect(items()).toEqual(['Email and password', 'Google']);
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.click(button(`${accountText.remove} Google`));
    expect(active().textContent).toBe(accountText.removeQuestion('Google'));
    await user.click(button(accountText.confirmRemove));
    await settle();
    expect(fake.getCurrentUser()?.providerIds).toEqual(['password']);
    expect(items()).toEqual(['Email and password']);
    expect(onChange).toHaveBeenCalledWith(['password']);
    expect(polite()).toBe(methodsText.removed('Google'));
    // No Remove left to focus: the heading has it.
    expect(active()).toBe(heading(methodsText.title));
    expect(screen.queryByRole('button', { name: new RegExp(accountText.remove) })).toBeNull();
    expect(screen.getByText(methodsText.onlyOne)).toBeTruthy();
    await expectNoAxeViolations(container);
  });

  it('shows last-sign-in-method when the backend refuses, and keeps the method', async () => {
    const { fake } = await withGoogle();
    fake.backend.faults.failNext('account.unlink', 'last-sign-in-method');
    render(<SignInMethods provider={fake} />);
    await settle();
    const user = userEvent.setup();
    await user.click(button(`${accountText.remove} Email and password`));
    await user.click(button(accountText.confirmRemove));
    await settle();
    expect(active().textContent).toBe(messageFor('last-sign-in-method'));
    expect(items()).toEqual(['Email and password', 'Google']);
    expect(fake.getCurrentUser()?.providerIds).toContain('password');
  });

  it('on requires-recent-login signs in again and removes it in place', async () => {
    const { fake } = await withGoogle();
    fake.backend.faults.failNext('account.unlink', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    render(<SignInMethods provider={fake} reauthenticate={reauthenticate} />);
    await settle();
    const user = userEvent.setup();
    await user.click(button(`${accountText.remove} Google`));
    await user.click(button(accountText.confirmRemove));
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    await user.click(button(accountText.signInAgain));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(callsOf(fake, 'account.unlink')).toBe(2);
    expect(items()).toEqual(['Email and password']);
  });

  it('offers "Link …" for what the account lacks, runs onLink, and lists the new method', async () => {
    const { fake } = await signedIn();
    // The host's way: the provider's popup, linking to the signed-in account.
    const onLink = vi.fn((method: SignInMethod) =>
      fake.signInWithFederated(method, { mode: 'popup', link: true }),
    );
    render(<SignInMethods provider={fake} linkable={['password', 'github.com']} onLink={onLink} />);
    await settle();
    // The account has a password: only GitHub is offered.
    expect(screen.queryByRole('button', { name: methodsText.link('Email and password') })).toBeNull();
    const user = userEvent.setup();
    await user.click(button(methodsText.link('GitHub')));
    await settle();
    expect(onLink).toHaveBeenCalledWith('github.com');
    expect(items()).toEqual(['Email and password', 'GitHub']);
    expect(polite()).toBe(methodsText.linked('GitHub'));
    expect(active()).toBe(heading(methodsText.title));
    expect(screen.queryByRole('button', { name: methodsText.link('GitHub') })).toBeNull();
  });

  it("shows onLink's failure from the catalogue", async () => {
    const { fake } = await signedIn();
    const { AuthError } = await import('@doorway/auth-core');
    render(
      <SignInMethods
        provider={fake}
        linkable={['google.com']}
        onLink={() => Promise.reject(new AuthError('credential-already-in-use'))}
      />,
    );
    await settle();
    await userEvent.setup().click(button(methodsText.link('Google')));
    await settle();
    expect(active().textContent).toBe(messageFor('credential-already-in-use'));
  });

  it('lists without Remove when the provider cannot unlink, and renders nothing without listMethods', async () => {
    const { fake } = await withGoogle({ capabilities: { account: ['listMethods'] } });
    render(<SignInMethods provider={fake} />);
    await settle();
    expect(items()).toEqual(['Email and password', 'Google']);
    expect(screen.queryByRole('button')).toBeNull();
    const none = await signedIn([], { capabilities: { account: ['unlink'] } });
    const { container } = render(<SignInMethods provider={none.fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('<Devices>', () => {
  it('signs out every other session, keeps this one, says so and focuses the heading', async () => {
    const { fake } = await signedIn();
    const other = openFakeSession(fake);
    await other.signInWithEmailAndPassword(EMAIL, PASSWORD);
    const { container } = render(<Devices provider={fake} />);
    await expectNoAxeViolations(container);
    await userEvent.setup().click(button(devicesText.signOutOthers));
    await settle();
    expect(other.getCurrentUser()).toBeNull();
    expect(fake.getCurrentUser()?.email).toBe(EMAIL);
    expect(polite()).toBe(devicesText.done);
    expect(active()).toBe(heading(devicesText.title));
  });

  it('on requires-recent-login signs in again and signs the others out in place', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.signOutOtherSessions', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    render(<Devices provider={fake} reauthenticate={reauthenticate} />);
    const user = userEvent.setup();
    await user.click(button(devicesText.signOutOthers));
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    await user.click(button(accountText.signInAgain));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(polite()).toBe(devicesText.done);
  });

  it('renders nothing without the signOutOtherSessions capability', async () => {
    const { fake } = await signedIn([], { capabilities: { account: ['deleteAccount'] } });
    const { container } = render(<Devices provider={fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('<DeleteAccount>', () => {
  it('asks for the word, then deletes the account: signed out, and sign-in fails', async () => {
    const { fake } = await signedIn();
    const onDeleted = vi.fn();
    const { container } = render(<DeleteAccount provider={fake} onDeleted={onDeleted} />);
    await expectNoAxeViolations(container);
    const user = userEvent.setup();
    await user.click(button(deleteText.submit));
    await settle();
    const field = screen.getByLabelText(deleteText.confirmLabel);
    expect(active()).toBe(field);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
    expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(deleteText.mismatch);
    await user.type(field, 'nope{Enter}');
    await settle();
    // Focus was there already: the assertive region says it.
    expect(screen.getByRole('alert').textContent?.trim()).toBe(deleteText.mismatch);
    expect(callsOf(fake, 'account.deleteAccount')).toBe(0);
    await user.clear(field);
    await user.type(field, ' Delete {Enter}');
    await settle();
    expect(onDeleted).toHaveBeenCalledTimes(1);
    expect(fake.getCurrentUser()).toBeNull();
    expect(screen.getAllByText(deleteText.deleted).length).toBeGreaterThan(0);
    expect(active()).toBe(heading(deleteText.title));
    await expect(fake.signInWithEmailAndPassword(EMAIL, PASSWORD)).rejects.toMatchObject({
      code: 'user-not-found',
    });
  });

  it('on requires-recent-login signs in again and deletes in place', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('account.deleteAccount', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    const onDeleted = vi.fn();
    render(<DeleteAccount provider={fake} reauthenticate={reauthenticate} onDeleted={onDeleted} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(deleteText.confirmLabel), 'delete{Enter}');
    await settle();
    expect(active().textContent).toBe(messageFor('requires-recent-login'));
    expect(onDeleted).not.toHaveBeenCalled();
    await user.click(button(accountText.signInAgain));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(onDeleted).toHaveBeenCalledTimes(1);
    expect(fake.getCurrentUser()).toBeNull();
  });

  it('renders nothing without the deleteAccount capability', async () => {
    const { fake } = await signedIn([], { capabilities: { account: ['signOutOtherSessions'] } });
    const { container } = render(<DeleteAccount provider={fake} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('the account sections on a server', () => {
  it('render their forms with no provider call', async () => {
    const { fake } = await withGoogle();
    const html = renderToString(
      <>
        <SignInMethods provider={fake} />
        <Devices provider={fake} />
        <DeleteAccount provider={fake} />
      </>,
    );
    expect(html).toContain(methodsText.title);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain(devicesText.signOutOthers);
    expect(html).toContain(deleteText.confirmLabel);
    expect(fake.backend.calls).toHaveLength(0);
  });
});
