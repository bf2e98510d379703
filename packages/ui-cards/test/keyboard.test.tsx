/**
 * Keyboard-only journeys through the widget on the fake provider (issue 32): on every card, Tab reaches each
 * control in the order it shows and Shift+Tab goes back the same way, Enter submits the card's form, Space
 * presses a button, and after each step focus is on the new card's heading or on the field in error (never
 * on the page's `<body>`). No card handles Escape: it leaves focus and what was typed where they were.
 */
import { createFakeProvider, type FakeProvider } from '@doorway/adapter-fake';
import { createMemoryStorage, messageFor, uiText, type WidgetConfigInput } from '@doorway/auth-core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCards, SignInWidget } from '../src/index.ts';
import { createTestClock, LOGIN, ORIGIN, settle } from './harness.tsx';
import { WAIT } from './session.tsx';

const ANN = { email: 'ann@example.com', password: 'abc123' };
const PHONE = '+12015550123';
const TAB = '{Tab}';
const BACK = '{Shift>}{Tab}{/Shift}';

/** What Tab can reach, in the order of the page (the order the cards show it: none is reordered by CSS). */
const TABBABLE =
  ':is(a[href], button, input:not([type="hidden"]), select, [tabindex]):not([disabled], [hidden], [tabindex="-1"])';

/** A control as a keyboard user meets it: its label, else its text. */
function nameOf(element: Element | null): string {
  const labels = (element as HTMLInputElement | null)?.labels;
  return (labels?.[0] ?? element)?.textContent?.trim() ?? '';
}

/** The widget on the fake provider, driven by `user.keyboard` only. */
function mount(config: WidgetConfigInput, options: { fake?: FakeProvider; url?: string } = {}) {
  const fake = options.fake ?? createFakeProvider({ users: [ANN] });
  const clock = createTestClock();
  const view = render(
    <SignInWidget
      config={config}
      provider={fake}
      url={options.url ?? LOGIN}
      storage={createMemoryStorage()}
      clock={clock}
      navigate={() => undefined}
    />,
  );
  const user = userEvent.setup();
  const root = view.container;
  const heading = () => screen.getByRole('heading', { level: 1 });
  const press = async (keys: string) => {
    await user.keyboard(keys);
    await settle();
    expect(document.activeElement, 'focus left on <body>').not.toBe(document.body);
  };
  return {
    fake,
    clock,
    user,
    heading,
    press,
    /** Waits for the card titled `title`, and checks that its heading has focus. */
    async arrive(title: string) {
      await screen.findByRole('heading', { level: 1, name: title }, WAIT);
      await settle();
      expect(document.activeElement).toBe(heading());
    },
    /**
     * From the card's heading: Tab goes through the card's controls in the page's order (named `names`),
     * Shift+Tab back through them in reverse, and once past the first one focus leaves the card; the heading
     * has focus again at the end.
     */
    async walk(names: readonly string[]) {
      const start = heading();
      start.focus();
      const expected = [...root.querySelectorAll<HTMLElement>(TABBABLE)];
      const forward: Element[] = [];
      for (let i = 0; i <= expected.length; i++) {
        await user.keyboard(TAB);
        const at = document.activeElement;
        if (!at || !root.contains(at) || forward.includes(at)) break;
        forward.push(at);
      }
      expect(forward.map(nameOf)).toEqual(names);
      expect(forward).toEqual(expected);
      // Past the last control, focus left the card; Shift+Tab comes back to it.
      expect(root.contains(document.activeElement)).toBe(false);
      const backward: (Element | null)[] = [];
      for (let i = 0; i < forward.length; i++) {
        await user.keyboard(BACK);
        backward.push(document.activeElement);
      }
      expect(backward).toEqual([...forward].reverse());
      await user.keyboard(BACK);
      expect(root.contains(document.activeElement)).toBe(false);
      start.focus();
    },
    /** Tabs from the heading to the control named `name`. */
    async tabTo(name: string) {
      heading().focus();
      for (let i = 0; i < 20 && nameOf(document.activeElement) !== name; i++) await user.keyboard(TAB);
      expect(nameOf(document.activeElement)).toBe(name);
      return document.activeElement as HTMLElement;
    },
    /** Escape in `field` (with something typed in it): nothing handles it, so nothing is lost. */
    async escapeKeeps(field: HTMLInputElement) {
      const card = heading().textContent;
      const value = field.value;
      field.focus();
      await user.keyboard('{Escape}');
      await settle();
      expect(document.activeElement).toBe(field);
      expect(field.value).toBe(value);
      expect(heading().textContent).toBe(card);
    },
  };
}

type Widget = ReturnType<typeof mount>;

/** The field labelled `label` has focus, is invalid, and is described by `message`. */
function expectFocusedError(label: string, message: string) {
  const field = screen.getByLabelText(label);
  expect(document.activeElement).toBe(field);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
  expect(ids.map((id) => document.getElementById(id)?.textContent)).toContain(message);
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** From the chooser, "Sign in with email" pressed with Space, to the email card. */
async function toEmailEntry(w: Widget) {
  await settle();
  await w.user.keyboard(TAB);
  expect(nameOf(document.activeElement)).toBe(uiText.signInWithEmail);
  await w.press(' ');
  await w.arrive(uiText.emailEntryTitle);
}

describe('keyboard-only journeys (issue 32)', () => {
  beforeAll(() => loadCards());

  it('chooser → email → password sign-in: a wrong then the right password', async () => {
    const w = mount({ signInOptions: ['email', 'phone'] });
    await settle();
    // The first card leaves focus to the page: Tab enters the widget at its first control.
    expect(document.activeElement).toBe(document.body);
    await w.walk([uiText.signInWithEmail, uiText.signInWithPhone]);
    w.heading().blur();
    await toEmailEntry(w);
    await w.walk([uiText.emailLabel, uiText.next, uiText.cancel]);

    // Enter with nothing typed: focus on the field, in error.
    await w.tabTo(uiText.emailLabel);
    await w.press('{Enter}');
    expectFocusedError(uiText.emailLabel, messageFor('email-required'));
    await w.user.keyboard('ann@');
    await w.escapeKeeps(field(uiText.emailLabel));
    await w.press('example.com{Enter}');
    await w.arrive(uiText.passwordSignInTitle);
    await w.walk([
      uiText.emailLabel,
      uiText.passwordLabel,
      uiText.signIn,
      uiText.cancel,
      uiText.troubleSigningIn,
    ]);

    await w.tabTo(uiText.passwordLabel);
    await w.press('wrong1{Enter}');
    expectFocusedError(uiText.passwordLabel, messageFor('wrong-password'));
    await w.user.clear(field(uiText.passwordLabel));
    await w.user.keyboard(ANN.password);
    // Escape on a card with Cancel does not cancel it, nor lose the password typed.
    await w.escapeKeeps(field(uiText.passwordLabel));
    // Space on Sign in submits the form.
    await w.user.keyboard(TAB);
    expect(nameOf(document.activeElement)).toBe(uiText.signIn);
    await w.press(' ');
    await w.arrive(uiText.signedIn);
    await w.walk([uiText.signOut]);
    await w.tabTo(uiText.signOut);
    await w.press('{Enter}');
    await w.arrive(uiText.signOutTitle);
  });

  it('sign-up: a missing name, then the account created', async () => {
    const w = mount({ signInOptions: ['email', 'phone'] });
    await toEmailEntry(w);
    await w.tabTo(uiText.emailLabel);
    await w.press('new@example.com{Enter}');
    await w.arrive(uiText.passwordSignUpTitle);
    await w.walk([uiText.emailLabel, uiText.nameLabel, uiText.newPasswordLabel, uiText.save, uiText.cancel]);
    await w.tabTo(uiText.newPasswordLabel);
    await w.press('secret99{Enter}');
    expectFocusedError(uiText.nameLabel, messageFor('name-required'));
    await w.user.keyboard('New Person');
    await w.escapeKeeps(field(uiText.nameLabel));
    await w.press('{Enter}');
    await w.arrive(uiText.signedIn);
  });

  it('password recovery: "Trouble signing in?" by Enter, the email sent, Done by Space', async () => {
    const w = mount({ signInOptions: ['email', 'phone'] });
    await toEmailEntry(w);
    await w.tabTo(uiText.emailLabel);
    await w.press(`${ANN.email}{Enter}`);
    await w.arrive(uiText.passwordSignInTitle);
    await w.tabTo(uiText.troubleSigningIn);
    await w.press('{Enter}');
    await w.arrive(uiText.passwordRecoveryTitle);
    await w.walk([uiText.emailLabel, uiText.send, uiText.cancel]);
    await w.tabTo(uiText.emailLabel);
    await w.escapeKeeps(field(uiText.emailLabel));
    expect(field(uiText.emailLabel).value).toBe(ANN.email);
    await w.press('{Enter}');
    await w.arrive(uiText.recoveryEmailSentTitle);
    await w.walk([uiText.done]);
    await w.tabTo(uiText.done);
    await w.press(' ');
    expect(w.heading().textContent).not.toBe(uiText.recoveryEmailSentTitle);
    expect(document.activeElement).toBe(w.heading());
  });

  it('email link: sent, "Trouble getting email?" by Space, Resend by Enter', async () => {
    const fake = createFakeProvider();
    const w = mount({ signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] }, { fake });
    await settle();
    await w.user.keyboard(TAB);
    await w.press(`${ANN.email}{Enter}`);
    await w.arrive(uiText.emailLinkSentTitle);
    await w.walk([uiText.back, uiText.troubleGettingEmail]);
    await w.tabTo(uiText.troubleGettingEmail);
    await w.press(' ');
    await w.arrive(uiText.emailNotReceivedTitle);
    await w.walk([uiText.resendEmail, uiText.back]);
    await w.tabTo(uiText.resendEmail);
    await w.press('{Enter}');
    await w.arrive(uiText.emailLinkSentTitle);
    expect(fake.backend.outbox.emails.filter((e) => e.to === ANN.email)).toHaveLength(2);
  });

  it('phone: a wrong number, the code, a wrong code, Resend after the countdown, the right code', async () => {
    const w = mount({ signInOptions: ['phone', 'email'] });
    await settle();
    await w.user.keyboard(TAB);
    expect(nameOf(document.activeElement)).toBe(uiText.signInWithPhone);
    await w.press('{Enter}');
    await w.arrive(uiText.phoneEntryTitle);
    // The number's field shows once the country list has loaded; focus stays on the heading meanwhile.
    await screen.findByLabelText(uiText.phoneLabel, {}, WAIT);
    await settle();
    expect(document.activeElement).toBe(w.heading());
    const controls = [...document.querySelectorAll('.doorway-card :is(input, select, button)')];
    await w.walk(controls.filter((c) => c.matches(TABBABLE)).map(nameOf));
    await w.tabTo(uiText.phoneLabel);
    await w.press('12{Enter}');
    expectFocusedError(uiText.phoneLabel, messageFor('phone-invalid'));
    await w.user.clear(field(uiText.phoneLabel));
    await w.user.keyboard('(201) 555-0123');
    await w.escapeKeeps(field(uiText.phoneLabel));
    await w.press('{Enter}');
    await w.arrive(uiText.phoneCodeTitle);
    await w.walk([uiText.codeLabel, uiText.verify, uiText.changePhone]);
    await w.tabTo(uiText.codeLabel);
    await w.press('000000{Enter}');
    expectFocusedError(uiText.codeLabel, messageFor('invalid-verification-code'));
    w.clock.advance(15_000);
    await settle();
    await w.walk([uiText.codeLabel, uiText.verify, uiText.changePhone, uiText.resend]);
    await w.tabTo(uiText.resend);
    await w.press('{Enter}');
    // The pressed Resend is gone: focus is on the card's heading.
    expect(document.activeElement).toBe(w.heading());
    expect(w.fake.backend.outbox.sms.filter((m) => m.to === PHONE)).toHaveLength(2);
    await w.tabTo(uiText.codeLabel);
    await w.user.clear(field(uiText.codeLabel));
    await w.press(`${w.fake.backend.outbox.lastSms(PHONE)?.code}{Enter}`);
    await w.arrive(uiText.verified);
  });

  it('second factor: the chooser by Tab and Space, a wrong code, then the right one', async () => {
    const fake = createFakeProvider({
      users: [
        {
          ...ANN,
          secondFactors: [
            { kind: 'phone', phoneNumber: PHONE },
            { kind: 'totp', secret: 'JBSWY3DPEHPK3PXP' },
          ],
        } as never,
      ],
    });
    const w = mount({ signInOptions: ['email'] }, { fake });
    await settle();
    await w.user.keyboard(TAB);
    await w.press(`${ANN.email}{Enter}`);
    await w.arrive(uiText.passwordSignInTitle);
    await w.tabTo(uiText.passwordLabel);
    await w.press(`${ANN.password}{Enter}`);
    await w.arrive(uiText.secondFactorChooserTitle);
    const choices = [...document.querySelectorAll('.doorway-card button:not([disabled])')].map(nameOf);
    expect(choices.length).toBeGreaterThan(2);
    await w.walk(choices);
    const totp = choices.find((c) => /authenticator/i.test(c)) ?? '';
    await w.tabTo(totp);
    await w.press(' ');
    await w.arrive(uiText.secondFactorCodeTitle);
    await w.tabTo(uiText.codeLabel);
    await w.press('000000{Enter}');
    expectFocusedError(uiText.codeLabel, messageFor('invalid-verification-code'));
    const uid = fake.backend.findUserByEmail(ANN.email)?.uid ?? '';
    await w.user.clear(field(uiText.codeLabel));
    await w.user.keyboard(fake.backend.totpCode(uid) ?? '');
    await w.escapeKeeps(field(uiText.codeLabel));
    await w.user.keyboard(TAB);
    expect(nameOf(document.activeElement)).toBe(uiText.verify);
    await w.press(' ');
    await w.arrive(uiText.signedIn);
  });

  it('federated linking: Google by Enter, then the password that links it', async () => {
    const fake = createFakeProvider({
      users: [ANN],
      idp: (request) => ({ sub: `${request.providerId}:ann`, email: ANN.email }),
    });
    const w = mount({ signInOptions: ['google.com', 'email'] }, { fake });
    await settle();
    await w.user.keyboard(TAB);
    expect(nameOf(document.activeElement)).toBe(uiText.signInWith('Google'));
    await w.press('{Enter}');
    await w.arrive(uiText.linkingTitle);
    const controls = [...document.querySelectorAll('.doorway-card :is(input, button, a[href])')];
    await w.walk(controls.filter((c) => c.matches(TABBABLE)).map(nameOf));
    await w.tabTo(uiText.passwordLabel);
    await w.press('wrong1{Enter}');
    expectFocusedError(uiText.passwordLabel, messageFor('wrong-password'));
    await w.user.clear(field(uiText.passwordLabel));
    await w.press(`${ANN.password}{Enter}`);
    await w.arrive(uiText.signedIn);
    expect(fake.backend.calls.map((c) => c.method)).toContain('linkWithCredential');
  });

  it('action code: reset the password from the link, an empty one first', async () => {
    const fake = createFakeProvider();
    const uid = fake.backend.createUser(ANN);
    const url = fake.backend.sendPasswordReset(uid, { url: `${ORIGIN}/action` }).link;
    const w = mount({ signInOptions: ['email'] }, { fake, url });
    await screen.findByRole('heading', { level: 1, name: uiText.passwordResetTitle }, WAIT);
    await w.walk([uiText.newPasswordLabel, uiText.save]);
    await w.tabTo(uiText.newPasswordLabel);
    await w.press('{Enter}');
    expectFocusedError(uiText.newPasswordLabel, messageFor('password-required'));
    await w.user.keyboard('n3w-secret');
    await w.escapeKeeps(field(uiText.newPasswordLabel));
    await w.press('{Enter}');
    await w.arrive(uiText.passwordResetSuccessTitle);
  });
});
