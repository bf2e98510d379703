/**
 * Where a keyboard or screen-reader user is after every step of the account components (issue 32), as in
 * the sign-in cards: focus on the new step's heading or on the field in error (never on `<body>`), an
 * error tied to its field and said once (by the move of focus, else by a live region), the resend
 * countdown said only at its end, and what a screen reader says while a text-message factor is added.
 */
import { messageFor, type PasskeyInfo } from '@doorway/auth-core';
import { virtual } from '@guidepup/virtual-screen-reader';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountText, Passkeys, passkeyText, SecondFactors } from '../src/account/index.ts';
import { signedIn } from './accountUser.ts';
import { settle } from './harness.tsx';

const NEW_PHONE = '+15555550123';
const SECRET = 'JBSWY3DPEHPK3PXP';
const TAB = '{Tab}';

const heading = (name: string) => screen.getByRole('heading', { level: 2, name });
/** What a live region says now (a no-break space after every other text makes a repeat a change). */
const polite = () => screen.getByRole('status').textContent?.trim();
const alert = () => screen.getByRole('alert');
const active = () => document.activeElement as HTMLElement;
const nameOf = (element: Element) =>
  ((element as HTMLInputElement).labels?.[0] ?? element).textContent?.trim() ?? '';

/** The field labelled `label` has focus, is invalid, and is described by `message`. */
function expectFocusedError(label: string, message: string) {
  const field = screen.getByLabelText(label);
  expect(active()).toBe(field);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(message);
}

/** Presses keys and lets the provider answer; focus is never left on `<body>`. */
async function press(user: ReturnType<typeof userEvent.setup>, keys: string, rounds = 5) {
  await user.keyboard(keys);
  await settle(rounds);
  expect(active(), 'focus left on <body>').not.toBe(document.body);
}

/** Tabs on until the control named `name` has focus. */
async function tabTo(user: ReturnType<typeof userEvent.setup>, name: string) {
  for (let i = 0; i < 20 && nameOf(active()) !== name; i++) await user.keyboard(TAB);
  expect(nameOf(active())).toBe(name);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('<SecondFactors>: focus and what is said after each step', () => {
  it('adding a text-message factor by keyboard: headings, errors on their field said once, the countdown at its end', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { fake } = await signedIn();
    render(<SecondFactors provider={fake} />);
    const user = userEvent.setup({ advanceTimers: () => undefined });
    await settle();
    // The page's first render leaves focus where it is.
    expect(active()).toBe(document.body);
    await tabTo(user, accountText.addPhone);
    await press(user, '{Enter}');
    expect(active()).toBe(heading(accountText.phoneTitle));

    // Enter in the field: focus is there already, so the assertive region says the error.
    await tabTo(user, accountText.phoneLabel);
    await press(user, '555{Enter}');
    expectFocusedError(accountText.phoneLabel, messageFor('phone-invalid'));
    expect(alert().textContent?.trim()).toBe(messageFor('phone-invalid'));
    expect(polite()).toBe('');
    // Send code pressed with Space: focus moves to the field, which says it; no region repeats it.
    const said = alert().firstChild;
    await tabTo(user, accountText.sendCode);
    await press(user, ' ');
    expectFocusedError(accountText.phoneLabel, messageFor('phone-invalid'));
    expect(alert().firstChild).toBe(said);

    await user.clear(active());
    await press(user, `${NEW_PHONE}{Enter}`);
    expect(active()).toBe(heading(accountText.codeTitle));
    // The countdown shown with the step is read with it, not said second by second.
    act(() => vi.advanceTimersByTime(1_000));
    expect(polite()).toBe('');
    await tabTo(user, accountText.codeLabel);
    await press(user, '000000{Enter}');
    expectFocusedError(accountText.codeLabel, messageFor('invalid-verification-code'));
    expect(alert().textContent?.trim()).toBe(messageFor('invalid-verification-code'));
    act(() => vi.advanceTimersByTime(13_000));
    expect(polite()).toBe('');
    act(() => vi.advanceTimersByTime(1_000));
    expect(polite()).toBe(accountText.resendReady);

    // Resend goes away once pressed: focus is on the step's heading, and the new countdown is said.
    await tabTo(user, accountText.resend);
    await press(user, '{Enter}');
    expect(active()).toBe(heading(accountText.codeTitle));
    expect(polite()).toBe(accountText.codeSent(NEW_PHONE));
    await tabTo(user, accountText.codeLabel);
    await user.clear(active());
    await press(user, `${fake.backend.outbox.lastSms(NEW_PHONE)?.code}{Enter}`);
    expect(active()).toBe(heading(accountText.title));
    expect(polite()).toBe(accountText.added('Text message (SMS) +*******0123'));
  });

  it('removing: focus goes on to the next item, then to the heading after the last one', async () => {
    const { fake } = await signedIn([
      { kind: 'totp', secret: SECRET, displayName: 'Phone app' },
      { kind: 'totp', secret: SECRET, displayName: 'Tablet app' },
    ]);
    render(<SecondFactors provider={fake} />);
    const user = userEvent.setup();
    await settle();
    await tabTo(user, `${accountText.remove} Phone app`);
    await press(user, '{Enter}');
    expect(active().textContent).toBe(accountText.removeQuestion('Phone app'));
    await tabTo(user, accountText.confirmRemove);
    await press(user, ' ');
    expect(nameOf(active())).toBe(`${accountText.remove} Tablet app`);
    expect(polite()).toBe(accountText.removed('Phone app'));
    await press(user, '{Enter}');
    await tabTo(user, accountText.confirmRemove);
    await press(user, '{Enter}');
    expect(active()).toBe(heading(accountText.title));
    expect(polite()).toBe(accountText.removed('Tablet app'));
  });

  it('"Please login again": the error line takes focus, Sign in again keeps it off <body>, then it is removed in place', async () => {
    const { fake } = await signedIn([{ kind: 'totp', secret: SECRET, displayName: 'Phone app' }]);
    fake.backend.faults.failNext('secondFactors.unenroll', 'requires-recent-login');
    let signIn: () => void = () => undefined;
    const reauthenticate = () => new Promise<void>((resolve) => (signIn = resolve));
    render(<SecondFactors provider={fake} reauthenticate={reauthenticate} />);
    const user = userEvent.setup();
    await settle();
    await tabTo(user, `${accountText.remove} Phone app`);
    await press(user, '{Enter}');
    await tabTo(user, accountText.confirmRemove);
    await press(user, '{Enter}');
    const error = active();
    expect(error.textContent).toBe(messageFor('requires-recent-login'));
    // Said once, by the move of focus.
    expect(alert().textContent?.trim()).toBe('');
    expect(polite()).toBe('');
    await user.keyboard(TAB);
    expect(nameOf(active())).toBe(accountText.signInAgain);
    await press(user, '{Enter}');
    // Signing in again: the pressed button is disabled, the heading holds focus.
    expect(active()).toBe(heading(accountText.title));
    await act(async () => signIn());
    await settle();
    expect(screen.queryByText(/^Phone app$/)).toBeNull();
    expect(active()).toBe(heading(accountText.title));
    expect(polite()).toBe(accountText.removed('Phone app'));
  });
});

describe('<Passkeys>: focus after each step', () => {
  it('added: focus stays in the card; removed: on to the next item, then the heading', async () => {
    // A provider whose passkeys are a list (a device holds one passkey of an account: this user has several).
    const held: PasskeyInfo[] = [];
    const passkeys = {
      signIn: () => Promise.reject(new Error('not used')),
      list: async () => [...held],
      add: async (name?: string) => {
        const passkey = {
          id: `p${held.length}`,
          name: name ?? null,
          createdAt: 0,
          lastUsedAt: null,
          backedUp: false,
        };
        held.push(passkey);
        return passkey;
      },
      remove: async (id: string) => {
        held.splice(
          held.findIndex((p) => p.id === id),
          1,
        );
      },
    };
    render(<Passkeys provider={{ capabilities: { passkeys: true }, passkeys }} />);
    const user = userEvent.setup();
    await settle(8);
    // Added by Enter in the name field: focus stays there, emptied for another one.
    await tabTo(user, passkeyText.nameLabel);
    await press(user, 'Work laptop{Enter}', 8);
    await screen.findByText('Work laptop', { selector: '.doorway-factor-name' }, { timeout: 5000 });
    expect(active()).toBe(screen.getByLabelText(passkeyText.nameLabel));
    expect((active() as HTMLInputElement).value).toBe('');
    expect(polite()).toBe(accountText.added('Work laptop'));
    // Added by Space on the button, disabled during the browser's dialog: the heading holds focus.
    await press(user, 'Phone');
    await tabTo(user, passkeyText.add);
    await press(user, ' ', 8);
    await screen.findByText('Phone', { selector: '.doorway-factor-name' }, { timeout: 5000 });
    expect(active()).toBe(heading(passkeyText.title));
    expect(polite()).toBe(accountText.added('Phone'));
    await tabTo(user, `${accountText.remove} Work laptop`);
    await press(user, '{Enter}');
    expect(active().textContent).toBe(accountText.removeQuestion('Work laptop'));
    await tabTo(user, accountText.confirmRemove);
    await press(user, '{Enter}', 8);
    expect(nameOf(active())).toBe(`${accountText.remove} Phone`);
    await press(user, ' ');
    await tabTo(user, accountText.confirmRemove);
    await press(user, ' ', 8);
    expect(active()).toBe(heading(passkeyText.title));
    expect(polite()).toBe(accountText.removed('Phone'));
  });
});

describe('<SecondFactors> spoken output', () => {
  afterEach(async () => {
    await virtual.stop();
    cleanup();
  });

  it('adding a text-message factor: a wrong code, then the right one', async () => {
    const { fake } = await signedIn();
    const { container } = render(<SecondFactors provider={fake} />);
    await settle();
    await virtual.start({ container });
    let heard = (await virtual.spokenPhraseLog()).length;
    const said = async () => {
      const log = await virtual.spokenPhraseLog();
      const since = log.slice(heard);
      heard = log.length;
      return since;
    };
    const user = userEvent.setup();
    await tabTo(user, accountText.addPhone);
    await said();
    await press(user, '{Enter}');
    expect(await said()).toEqual([`heading, ${accountText.phoneTitle}, level 2`]);
    await user.tab();
    expect(await said()).toEqual([`textbox, ${accountText.phoneLabel}, ${accountText.phoneHint}`]);
    await press(user, `${NEW_PHONE}{Enter}`);
    expect(await said()).toEqual([`heading, ${accountText.codeTitle}, level 2`]);
    await user.tab();
    expect(await said()).toEqual([`textbox, ${accountText.codeLabel}`]);
    await press(user, '000000{Enter}');
    // Enter in the field leaves focus there: the assertive region says the message, once.
    expect(await said()).toEqual([`assertive: ${messageFor('invalid-verification-code')}`]);
    await user.clear(active());
    await press(user, `${fake.backend.outbox.lastSms(NEW_PHONE)?.code}{Enter}`);
    expect(await said()).toEqual([
      `heading, ${accountText.title}, level 2`,
      `polite: ${accountText.added('Text message (SMS) +*******0123')}`,
    ]);
  });
});
