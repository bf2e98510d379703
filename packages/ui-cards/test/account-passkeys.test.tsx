/**
 * `<Passkeys>` (`@doorway/ui-cards/account`) on the fake provider with a software authenticator, and the
 * chooser's "Sign in with a passkey" in `<SignInWidget>`: add (named and not), the list, removal confirmed
 * in place, a dismissed dialog, `requires-recent-login` with `reauthenticate`, the capability switch, and
 * axe-core at every step.
 */
import {
  AuthError,
  type AuthProvider,
  createMemoryStorage,
  type LazyProvider,
  type PasskeyInfo,
} from '@doorway/auth-core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountText, Passkeys, passkeyText } from '../src/account/index.ts';
import { SignInWidget } from '../src/index.ts';
import { expectNoAxeViolations, settle } from './harness.tsx';
import { signedIn } from './passkeys.ts';
import { cardState } from './states.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const region = () => screen.getByRole('status');

/** Stands for the browser's `PublicKeyCredential`: the chooser shows the passkey option where it exists. */
class WebAuthnPresent {}

describe('<Passkeys>', () => {
  it('adds a named passkey and an unnamed one, lists them, removes one after asking, and says each', async () => {
    const { fake, authenticator } = await signedIn();
    const changes: (readonly PasskeyInfo[])[] = [];
    const { container } = render(<Passkeys provider={fake} onChange={(list) => changes.push(list)} />);
    await settle(8);
    expect(screen.getByRole('heading', { name: passkeyText.title })).toBeTruthy();
    expect(screen.getByText(passkeyText.none)).toBeTruthy();
    await expectNoAxeViolations(container);

    const user = userEvent.setup();
    await user.type(screen.getByLabelText(passkeyText.nameLabel), 'Work laptop');
    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    await settle(8);
    // The ceremony and its verification take a few turns of the event loop (WebCrypto, a dynamic import).
    const list = await screen.findByRole('list', { name: passkeyText.yourPasskeys }, { timeout: 5000 });
    expect(within(list).getByText('Work laptop', { selector: '.doorway-factor-name' })).toBeTruthy();
    expect(region().textContent?.trim()).toBe(accountText.added('Work laptop'));
    expect((screen.getByLabelText(passkeyText.nameLabel) as HTMLInputElement).value).toBe('');
    expect(authenticator.credentials()).toHaveLength(1);

    await expectNoAxeViolations(container);
    expect(list.textContent).toContain('Synced');

    // The same authenticator already holds a passkey of this account: the browser refuses a second one.
    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    await expect.poll(() => within(list).getAllByRole('listitem').length).toBe(1);

    await user.click(screen.getByRole('button', { name: `${accountText.remove} Work laptop` }));
    expect(document.activeElement?.textContent).toBe(accountText.removeQuestion('Work laptop'));
    await expectNoAxeViolations(container);
    await user.click(screen.getByRole('button', { name: accountText.confirmRemove }));
    expect(await screen.findByText(passkeyText.none)).toBeTruthy();
    expect(region().textContent?.trim()).toBe(accountText.removed('Work laptop'));
    expect(await fake.passkeys?.list()).toEqual([]);

    // Removed on the server, not on the device: the person deletes it there too, then adds one unnamed.
    authenticator.forget(authenticator.credentials()[0]?.id ?? '');
    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    const again = await screen.findByRole('list', { name: passkeyText.yourPasskeys }, { timeout: 5000 });
    expect(within(again).getByText(passkeyText.unnamed, { selector: '.doorway-factor-name' })).toBeTruthy();
    expect(changes.map((c) => c.length)).toEqual([1, 0, 1]);
  });

  it('a dismissed dialog keeps the card, says why, and adds nothing', async () => {
    const { fake, authenticator } = await signedIn();
    render(<Passkeys provider={fake} />);
    await settle(8);
    authenticator.cancelNext();
    await userEvent.setup().click(screen.getByRole('button', { name: passkeyText.add }));
    await settle(8);
    // Above the field, and said once: by the move of focus to it (no live region repeats it).
    const [note, ...again] = screen.getAllByText(/^Please authorize the required permissions/);
    expect(again).toEqual([]);
    expect(document.activeElement).toBe(note);
    expect(screen.getByText(passkeyText.none)).toBeTruthy();
    expect(await fake.passkeys?.list()).toEqual([]);
  });

  it('offers "Sign in again" on requires-recent-login and adds the passkey after reauthenticate', async () => {
    const { fake } = await signedIn();
    const ops = fake.passkeys;
    if (!ops) throw new Error('passkeys missing');
    let stale = true;
    const provider = {
      capabilities: fake.capabilities,
      passkeys: {
        ...ops,
        add: (name?: string) =>
          stale ? Promise.reject(new AuthError('requires-recent-login')) : ops.add(name),
      },
    };
    const reauthenticate = vi.fn(async () => {
      stale = false;
    });
    render(<Passkeys provider={provider} reauthenticate={reauthenticate} />);
    await settle(8);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: passkeyText.add }));
    await settle(8);
    await user.click(screen.getByRole('button', { name: accountText.signInAgain }));
    await settle(8);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    // The add itself runs the software authenticator's crypto: wait for its list rather than count ticks.
    expect(
      await screen.findByRole('list', { name: passkeyText.yourPasskeys }, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('says passkeys are not available on a provider without them', () => {
    render(<Passkeys provider={{ capabilities: { passkeys: false } }} />);
    expect(screen.getByText(passkeyText.unavailable)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('"Sign in with a passkey" in <SignInWidget>', () => {
  it('signs in with the passkey the person picks; a dismissed dialog keeps the chooser with its message', async () => {
    const { fake, authenticator } = await signedIn();
    await fake.passkeys?.add('Phone');
    const uid = fake.getCurrentUser()?.uid;
    await fake.signOut();
    vi.stubGlobal('PublicKeyCredential', WebAuthnPresent);
    const results: unknown[] = [];
    render(
      <SignInWidget
        provider={fake}
        config={{
          signInOptions: ['email', 'passkey'],
          callbacks: {
            signInSuccess: (result) => {
              results.push(result);
              return false;
            },
          },
        }}
        url="http://localhost/login"
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />,
    );
    await settle(8);
    const user = userEvent.setup();
    authenticator.cancelNext();
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText(
        'Passkey sign-in was cancelled. Try again or use another way to sign in.',
        { selector: '.doorway-error' },
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(fake.getCurrentUser()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await expect.poll(() => fake.getCurrentUser()?.uid, { timeout: 5000 }).toBe(uid);
    await expect.poll(() => results).toEqual([expect.objectContaining({ providerId: 'passkey' })]);
    expect(await screen.findByRole('heading', { name: 'Signed in!' })).toBeTruthy();
  });

  it('the email card asks for a passkey by autofill: its field offers passkeys, and the one picked signs in', async () => {
    const { fake, authenticator } = await signedIn();
    await fake.passkeys?.add('Phone');
    const uid = fake.getCurrentUser()?.uid;
    await fake.signOut();
    vi.stubGlobal('PublicKeyCredential', WebAuthnPresent);
    const asked: boolean[] = [];
    const get = authenticator.get.bind(authenticator);
    authenticator.get = (options, how) => {
      asked.push(how.conditional);
      return get(options, how);
    };
    render(
      <SignInWidget
        provider={fake}
        config={{ signInOptions: ['email', 'passkey'], callbacks: { signInSuccess: () => false } }}
        url="http://localhost/login"
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />,
    );
    await settle(8);
    expect(asked).toEqual([]);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign in with email' }));
    await expect.poll(() => fake.getCurrentUser()?.uid, { timeout: 5000 }).toBe(uid);
    expect(asked).toEqual([true]);
    expect(await screen.findByRole('heading', { name: 'Signed in!' })).toBeTruthy();
  });

  it('an email card the server rendered, hydrated before a lazy provider has loaded, asks by autofill once it has', async () => {
    const { fake, authenticator } = await signedIn();
    await fake.passkeys?.add('Phone');
    const uid = fake.getCurrentUser()?.uid;
    await fake.signOut();
    vi.stubGlobal('PublicKeyCredential', WebAuthnPresent);
    const get = vi.spyOn(authenticator, 'get');
    let loaded: AuthProvider | null = null;
    let load = () => {};
    const script = new Promise<void>((resolve) => {
      load = () => {
        loaded = fake;
        resolve();
      };
    });
    const lazy: LazyProvider = { loadScript: () => script, getProvider: () => loaded };
    render(
      <SignInWidget
        provider={lazy}
        config={{ signInOptions: ['email', 'passkey'], callbacks: { signInSuccess: () => false } }}
        url="http://localhost/login"
        initialState={{ ...cardState('emailEntry'), email: '', pageUrl: 'http://localhost/login' }}
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />,
    );
    await settle(8);
    expect(get).not.toHaveBeenCalled();
    load();
    await expect.poll(() => fake.getCurrentUser()?.uid, { timeout: 5000 }).toBe(uid);
    expect(get.mock.calls.map(([, how]) => how.conditional)).toEqual([true]);
    expect(await screen.findByRole('heading', { name: 'Signed in!' })).toBeTruthy();
  });

  it('without the passkey option the email field is a plain email field and asks nothing', async () => {
    const { fake, authenticator } = await signedIn();
    await fake.signOut();
    vi.stubGlobal('PublicKeyCredential', WebAuthnPresent);
    const get = vi.spyOn(authenticator, 'get');
    render(
      <SignInWidget
        provider={fake}
        config={{ signInOptions: ['email', 'google.com'] }}
        url="http://localhost/login"
        storage={createMemoryStorage()}
        navigate={() => undefined}
      />,
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Sign in with email' }));
    const field = await screen.findByLabelText('Email');
    await settle(8);
    expect(field.getAttribute('autocomplete')).toBe('email');
    expect(get).not.toHaveBeenCalled();
  });
});
