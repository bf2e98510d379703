/**
 * `<SecondFactors>` (`@doorway/ui-cards/account`) on the fake provider, signed in as a user with the factors
 * each test seeds: the list, adding an authenticator app (its secret checked against RFC 6238) and a
 * text-message factor (captcha, outbox code, resend countdown), removal, `requires-recent-login` with and
 * without `reauthenticate`, the capability switch, focus, the live region, and axe-core at every step.
 */
import { createHmac } from 'node:crypto';
import type { FakeProvider } from '@doorway/adapter-fake';
import { AuthError, type SecondFactorInfo, uiText } from '@doorway/auth-core';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountText, SecondFactors, type SecondFactorsProps } from '../src/account/index.ts';
import { signedIn } from './accountUser.ts';

const WORK = '+15555550100';
const NEW_PHONE = '+15555550123';

/** Lets provider promises, the QR chunk's import and the React updates they cause settle. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/** axe-core on what is rendered (colour contrast needs layout, which jsdom lacks). */
async function expectNoAxeViolations(container: HTMLElement): Promise<void> {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([]);
}

function mount(fake: FakeProvider, props: Partial<SecondFactorsProps> = {}) {
  const onChange = vi.fn<(factors: readonly SecondFactorInfo[]) => void>();
  const view = render(<SecondFactors provider={fake} onChange={onChange} {...props} />);
  return { ...view, onChange, user: userEvent.setup() };
}

function heading(name: string | RegExp) {
  return screen.getByRole('heading', { level: 2, name });
}

function button(name: string | RegExp) {
  return screen.getByRole('button', { name });
}

/** The element showing `text` on the card (the live region says it too). */
function shown(text: string | RegExp): HTMLElement {
  const found = screen.getAllByText(text).filter((el) => !el.closest('[role="status"], [role="alert"]'));
  expect(found).toHaveLength(1);
  return found[0] as HTMLElement;
}

function said(): string {
  // (A no-break space after every other text makes the same text again a change.)
  return screen.getByRole('status').textContent?.trim() ?? '';
}

function callsOf(fake: FakeProvider, method: string): number {
  return fake.backend.calls.filter((c) => c.method === method).length;
}

/** The field with this label shows `message`, marked invalid and linked by aria-describedby. */
function expectFieldError(label: string, message: string) {
  const input = screen.getByLabelText(label);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const described = (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);
  expect(described).toContain(message);
}

/** RFC 6238 (HMAC-SHA-1, 30 s, 6 digits) of a base32 secret: what an authenticator app shows at `now`. */
function totp(secret: string, now: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/=+$/, '').toUpperCase()]
    .map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0'))
    .join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[19] ?? 0) & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A 6-digit code that is none of `codes`. */
function wrongCode(...codes: (string | null | undefined)[]): string {
  return ['000000', '111111', '222222', '333333'].find((c) => !codes.includes(c)) ?? '444444';
}

afterEach(() => {
  vi.useRealTimers();
});

describe('accountText', () => {
  it("uses the sign-in cards' words for the same things", () => {
    for (const key of ['codeLabel', 'verify', 'cancel', 'retry', 'signInAgain', 'resend'] as const)
      expect(accountText[key], key).toBe(uiText[key]);
    expect(accountText.resendIn('0:15')).toBe(uiText.resendIn('0:15'));
  });
});

describe('<SecondFactors> - the list', () => {
  it('shows each seeded factor with its kind, name and masked number, and a Remove button', async () => {
    const { fake } = await signedIn([
      { kind: 'phone', phoneNumber: WORK, displayName: 'Work phone' },
      { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP' },
    ]);
    const { container } = mount(fake);
    await settle();
    expect(heading('Two-step verification')).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Your second steps' })).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.doorway-factor-about')?.textContent)).toEqual([
      'Work phoneText message (SMS), +*******0100',
      'Authenticator app',
    ]);
    expect(container.textContent).not.toContain(WORK);
    expect(button('Remove Work phone')).toBeTruthy();
    expect(button('Remove Authenticator app')).toBeTruthy();
    expect(button('Add text-message (SMS) factor')).toBeTruthy();
    expect(button('Add authenticator app')).toBeTruthy();
    // The page's first render leaves focus where it is.
    expect(document.activeElement).toBe(document.body);
    await expectNoAxeViolations(container);
  });

  it('says when there are none, and lists once under StrictMode', async () => {
    const { fake } = await signedIn();
    render(
      <StrictMode>
        <SecondFactors provider={fake} />
      </StrictMode>,
    );
    await settle();
    expect(screen.getByText('You have not added a second step yet.')).toBeTruthy();
    expect(callsOf(fake, 'secondFactors.list')).toBe(1);
  });

  it('shows a failed load with Retry, which loads again', async () => {
    const { fake } = await signedIn([{ kind: 'phone', phoneNumber: WORK }]);
    fake.backend.faults.failNext('secondFactors.list', 'network-request-failed');
    const { user, container } = mount(fake);
    await settle();
    expect(shown('A network error has occurred')).toBeTruthy();
    expect(said()).toBe('A network error has occurred');
    await expectNoAxeViolations(container);
    await user.click(button('Retry'));
    await settle();
    expect(button('Remove Text message (SMS) +*******0100')).toBeTruthy();
  });

  it('offers only the kinds the provider lists', async () => {
    const { fake } = await signedIn([], { capabilities: { secondFactors: ['totp'] } });
    mount(fake);
    await settle();
    expect(button('Add authenticator app')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add text-message (SMS) factor' })).toBeNull();
  });

  it('without the secondFactors capability: a short note and nothing else, no provider call', async () => {
    const { fake } = await signedIn([], { capabilities: { secondFactors: [] } });
    const { container } = mount(fake);
    await settle();
    expect(heading('Two-step verification')).toBeTruthy();
    expect(screen.getByText('Two-step verification is not available for this account.')).toBeTruthy();
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(fake.backend.calls).toHaveLength(0);
    await expectNoAxeViolations(container);
  });
});

describe('<SecondFactors> - adding an authenticator app', () => {
  it('shows the QR code and the secret, refuses a wrong code and enrols with the right one', async () => {
    const { fake, clock, uid } = await signedIn();
    const { user, container, onChange } = mount(fake);
    await settle();
    await user.click(button('Add authenticator app'));
    expect(document.activeElement).toBe(heading('Add an authenticator app'));
    await settle();

    const qr = await screen.findByRole('img', {
      name: 'QR code that adds this account to an authenticator app',
    });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1H\d+z/);
    const secret = screen.getByText(/^[A-Z2-7]{16,}$/).textContent ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // What an authenticator app computes from the shown secret is what the provider expects.
    const right = totp(secret, clock.now());
    expect(right).toBe(fake.backend.totpCode(uid));
    await expectNoAxeViolations(container);

    const code = screen.getByLabelText('6-digit code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    await user.click(button('Verify'));
    expectFieldError('6-digit code', 'Wrong code. Try again.');
    expect(callsOf(fake, 'secondFactors.finishTotpEnrollment')).toBe(0);

    const wrong = wrongCode(right, totp(secret, clock.now() - 30_000), totp(secret, clock.now() + 30_000));
    await user.type(code, wrong);
    await user.click(button('Verify'));
    await settle();
    expectFieldError('6-digit code', 'Wrong code. Try again.');
    // Said once, by the move of focus to the field it describes: no live region repeats it.
    expect(document.activeElement).toBe(code);
    expect(said()).toBe('');
    expect(heading('Add an authenticator app')).toBeTruthy();
    await expectNoAxeViolations(container);

    await user.clear(code);
    await user.type(code, right);
    await user.type(screen.getByLabelText('Name for this factor (optional)'), 'Phone app{Enter}');
    await settle();
    expect(document.activeElement).toBe(heading('Two-step verification'));
    expect(button('Remove Phone app')).toBeTruthy();
    expect(said()).toBe('Phone app added.');
    const listed = await fake.secondFactors?.list();
    expect(listed?.map((f) => [f.kind, f.displayName])).toEqual([['totp', 'Phone app']]);
    expect(onChange).toHaveBeenCalledWith(listed);
    await expectNoAxeViolations(container);
  });

  it('copies the secret when the browser has a clipboard, and says when it could not', async () => {
    const { fake } = await signedIn();
    const { user } = mount(fake); // user-event puts a clipboard of its own on navigator
    await settle();
    await user.click(button('Add authenticator app'));
    await settle();
    const secret = screen.getByText(/^[A-Z2-7]{16,}$/).textContent;
    await user.click(button('Copy setup key'));
    await settle();
    expect(await navigator.clipboard.readText()).toBe(secret);
    expect(said()).toBe('Setup key copied.');
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(button('Copy setup key'));
    await settle();
    expect(said()).toBe('The setup key could not be copied. Select it and copy it instead.');
  });

  it('has no Copy button without a clipboard; Cancel goes back to the list', async () => {
    const { fake } = await signedIn();
    const { user } = mount(fake);
    const before = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      await settle();
      await user.click(button('Add authenticator app'));
      await settle();
      expect(screen.getByText(/^[A-Z2-7]{16,}$/)).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Copy setup key' })).toBeNull();
      await user.click(button('Cancel'));
      expect(document.activeElement).toBe(heading('Two-step verification'));
      expect(callsOf(fake, 'secondFactors.startTotpEnrollment')).toBe(1);
    } finally {
      if (before) Object.defineProperty(navigator, 'clipboard', before);
      else Reflect.deleteProperty(navigator, 'clipboard');
    }
  });
});

describe('<SecondFactors> - adding a text-message factor', () => {
  it('sends the code with a fresh captcha, refuses a wrong code and enrols with the outbox code', async () => {
    const { fake } = await signedIn();
    const made = vi.spyOn(fake, 'createCaptchaVerifier');
    const { user, container, onChange } = mount(fake);
    await settle();
    await user.click(button('Add text-message (SMS) factor'));
    expect(document.activeElement).toBe(heading('Add a text-message (SMS) factor'));
    await settle();
    // A verifier is rendered into the step's captcha container before anything is sent.
    expect(made).toHaveBeenCalledTimes(1);
    expect(container.querySelector('.doorway-captcha')?.contains(made.mock.calls[0]?.[0] as Node)).toBe(true);
    const phone = screen.getByLabelText('Phone number');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
    expect(phone.getAttribute('type')).toBe('tel');
    await expectNoAxeViolations(container);

    await user.type(phone, '555 0123{Enter}');
    expectFieldError('Phone number', 'Enter a valid phone number');
    expect(callsOf(fake, 'secondFactors.startPhoneEnrollment')).toBe(0);
    await expectNoAxeViolations(container);

    await user.clear(phone);
    await user.type(phone, '+1 (555) 555-0123{Enter}');
    await settle();
    expect(document.activeElement).toBe(heading('Enter the code'));
    expect(screen.getByText(`Enter the 6-digit code we sent to ${NEW_PHONE}.`)).toBeTruthy();
    expect(screen.getByText('Resend code in 0:15')).toBeTruthy();
    const sms = fake.backend.outbox.lastSms(NEW_PHONE);
    expect(sms?.code).toMatch(/^\d{6}$/);
    // The verifier sent with is spent.
    expect(made.mock.results[0]?.value.isSolved()).toBe(false);
    await expectNoAxeViolations(container);

    const code = screen.getByLabelText('6-digit code');
    await user.type(code, `${wrongCode(sms?.code)}{Enter}`);
    await settle();
    expectFieldError('6-digit code', 'Wrong code. Try again.');
    await expectNoAxeViolations(container);

    await user.clear(code);
    await user.type(code, sms?.code ?? '');
    await user.type(screen.getByLabelText('Name for this factor (optional)'), 'Home phone');
    await user.click(button('Verify'));
    await settle();
    expect(document.activeElement).toBe(heading('Two-step verification'));
    expect(said()).toBe('Home phone added.');
    expect(screen.getByText('Text message (SMS), +*******0123')).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith([
      expect.objectContaining({ kind: 'phone', displayName: 'Home phone' }),
    ]);
  });

  it('asks for the captcha while it is unsolved, and sends once it is', async () => {
    const { fake } = await signedIn();
    fake.backend.captcha.autoSolve = false;
    const { user } = mount(fake);
    await settle();
    await user.click(button('Add text-message (SMS) factor'));
    await settle();
    await user.type(screen.getByLabelText('Phone number'), `${NEW_PHONE}{Enter}`);
    await settle();
    expect(shown('Solve the reCAPTCHA')).toBeTruthy();
    expect(callsOf(fake, 'secondFactors.startPhoneEnrollment')).toBe(0);
    fake.backend.captcha.solve();
    await user.click(button('Send code'));
    await settle();
    expect(heading('Enter the code')).toBeTruthy();
    expect(fake.backend.outbox.lastSms(NEW_PHONE)).not.toBeNull();
  });

  it('offers Resend after 0:15, sending a new code with a new captcha', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { fake } = await signedIn();
    const made = vi.spyOn(fake, 'createCaptchaVerifier');
    const { user } = mount(fake);
    await settle();
    await user.click(button('Add text-message (SMS) factor'));
    await settle();
    await user.type(screen.getByLabelText('Phone number'), `${NEW_PHONE}{Enter}`);
    await settle();
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
    act(() => vi.advanceTimersByTime(14_000));
    expect(screen.getByText('Resend code in 0:01')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_000));
    const first = fake.backend.outbox.lastSms(NEW_PHONE)?.code;
    await user.click(button('Resend'));
    await settle();
    expect(fake.backend.outbox.sms.filter((s) => s.to === NEW_PHONE)).toHaveLength(2);
    expect(made).toHaveBeenCalledTimes(2);
    expect(made.mock.results.map((r) => r.value.isSolved())).toEqual([false, false]);
    expect(said()).toBe(`We sent a new code to ${NEW_PHONE}.`);
    expect(screen.getByText('Resend code in 0:15')).toBeTruthy();
    const second = fake.backend.outbox.lastSms(NEW_PHONE)?.code;
    expect(second).toMatch(/^\d{6}$/);
    expect(second).not.toBe(first);
    await user.type(screen.getByLabelText('6-digit code'), `${second}{Enter}`);
    await settle();
    expect(said()).toBe('Text message (SMS) +*******0123 added.');
  });

  it('Change phone number goes back to the number, as typed', async () => {
    const { fake } = await signedIn();
    const { user } = mount(fake);
    await settle();
    await user.click(button('Add text-message (SMS) factor'));
    await user.type(screen.getByLabelText('Phone number'), `${NEW_PHONE}{Enter}`);
    await settle();
    await user.click(button('Change phone number'));
    await settle();
    expect(document.activeElement).toBe(heading('Add a text-message (SMS) factor'));
    expect((screen.getByLabelText('Phone number') as HTMLInputElement).value).toBe(NEW_PHONE);
  });
});

describe('<SecondFactors> - removing a factor', () => {
  it('asks in place, Keep it goes back, Yes removes it', async () => {
    const { fake } = await signedIn([
      { kind: 'phone', phoneNumber: WORK, displayName: 'Work phone' },
      { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP', displayName: 'Phone app' },
    ]);
    const { user, container, onChange } = mount(fake);
    await settle();
    await user.click(button('Remove Work phone'));
    const question = screen.getByText('Remove Work phone? You will no longer be able to use it to sign in.');
    expect(document.activeElement).toBe(question);
    await expectNoAxeViolations(container);
    await user.click(button('Keep it'));
    expect(document.activeElement).toBe(button('Remove Work phone'));
    expect(callsOf(fake, 'secondFactors.unenroll')).toBe(0);

    // By keyboard: Enter on Remove, then on "Yes, remove it".
    button('Remove Work phone').focus();
    await user.keyboard('{Enter}');
    button('Yes, remove it').focus();
    await user.keyboard('{Enter}');
    await settle();
    expect(screen.queryByRole('button', { name: 'Remove Work phone' })).toBeNull();
    // Focus goes on to the next item's Remove (never to <body> with the removed item).
    expect(document.activeElement).toBe(button('Remove Phone app'));
    expect(said()).toBe('Work phone removed.');
    const left = await fake.secondFactors?.list();
    expect(left?.map((f) => f.displayName)).toEqual(['Phone app']);
    expect(onChange).toHaveBeenCalledWith(left);
    await expectNoAxeViolations(container);
  });
});

describe('<SecondFactors> - requires-recent-login', () => {
  it('says so and, with reauthenticate, signs in again and retries the removal in place', async () => {
    const { fake } = await signedIn([{ kind: 'phone', phoneNumber: WORK, displayName: 'Work phone' }]);
    fake.backend.faults.failNext('secondFactors.unenroll', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => undefined);
    const { user, container } = mount(fake, { reauthenticate });
    await settle();
    await user.click(button('Remove Work phone'));
    await user.click(button('Yes, remove it'));
    await settle();
    // Focus on the error line (said by the move), not on <body> with the disabled button.
    expect(document.activeElement).toBe(shown('Please login again to perform this operation'));
    expect(said()).toBe('');
    expect(screen.getByText(/^Remove Work phone\?/)).toBeTruthy();
    await expectNoAxeViolations(container);
    await user.click(button('Sign in again'));
    await settle();
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(callsOf(fake, 'secondFactors.unenroll')).toBe(2);
    expect(said()).toBe('Work phone removed.');
    expect(await fake.secondFactors?.list()).toEqual([]);
  });

  it('retries a code in place: what was typed is kept', async () => {
    const { fake, uid } = await signedIn();
    const reauthenticate = vi.fn(async () => undefined);
    const { user } = mount(fake, { reauthenticate });
    await settle();
    await user.click(button('Add authenticator app'));
    await settle();
    fake.backend.faults.failNext('secondFactors.finishTotpEnrollment', 'requires-recent-login');
    await user.type(screen.getByLabelText('6-digit code'), `${fake.backend.totpCode(uid)}{Enter}`);
    await settle();
    expect(shown('Please login again to perform this operation')).toBeTruthy();
    expect((screen.getByLabelText('6-digit code') as HTMLInputElement).value).toBe(
      fake.backend.totpCode(uid),
    );
    await user.click(button('Sign in again'));
    await settle();
    expect(said()).toBe('Authenticator app added.');
    expect(await fake.secondFactors?.list()).toHaveLength(1);
  });

  it('retries the start of an enrolment after signing in again', async () => {
    const { fake } = await signedIn();
    fake.backend.faults.failNext('secondFactors.startTotpEnrollment', 'requires-recent-login');
    const { user } = mount(fake, { reauthenticate: async () => undefined });
    await settle();
    await user.click(button('Add authenticator app'));
    await settle();
    expect(shown('Please login again to perform this operation')).toBeTruthy();
    await user.click(button('Sign in again'));
    await settle();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeTruthy();
    expect(callsOf(fake, 'secondFactors.startTotpEnrollment')).toBe(2);
  });

  it('without reauthenticate: only the message', async () => {
    const { fake } = await signedIn([{ kind: 'phone', phoneNumber: WORK, displayName: 'Work phone' }]);
    fake.backend.faults.failNext('secondFactors.unenroll', 'requires-recent-login');
    const { user } = mount(fake);
    await settle();
    await user.click(button('Remove Work phone'));
    await user.click(button('Yes, remove it'));
    await settle();
    expect(shown('Please login again to perform this operation')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in again' })).toBeNull();
  });

  it('shows why when signing in again fails, and nothing is retried', async () => {
    const { fake } = await signedIn([{ kind: 'phone', phoneNumber: WORK, displayName: 'Work phone' }]);
    fake.backend.faults.failNext('secondFactors.unenroll', 'requires-recent-login');
    const reauthenticate = vi.fn(async () => {
      throw new AuthError('user-cancelled');
    });
    const { user } = mount(fake, { reauthenticate });
    await settle();
    await user.click(button('Remove Work phone'));
    await user.click(button('Yes, remove it'));
    await settle();
    await user.click(button('Sign in again'));
    await settle();
    expect(shown('Please authorize the required permissions to sign in to the application')).toBeTruthy();
    expect(callsOf(fake, 'secondFactors.unenroll')).toBe(1);
  });
});
