/**
 * Where a keyboard or screen-reader user is after every step (issue 32): focus after a card change, an
 * error and a call, the error tied to its field, the page title the widget reports, the autofocus a
 * server's render carries, and the countdown's live region.
 */
import { createFakeProvider } from '@doorway/adapter-fake';
import {
  cardTitle,
  createMemoryStorage,
  errorMessages,
  messageFor,
  titleText,
  uiText,
  validationMessages,
} from '@doorway/auth-core';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { FlowRouter, loadCards, SignInWidget, WidgetContext } from '../src/index.ts';
import { errorsFor, type FieldName } from '../src/parts.tsx';
import { createTestClock, LOGIN, ORIGIN, settle } from './harness.tsx';
import { CARD_STATES, cardState, statesConfig } from './states.ts';

const ANN = { email: 'ann@example.com', password: 'abc123' };

function widget(options: { sleep?: () => Promise<void> } = {}) {
  const titles: string[] = [];
  const fake = createFakeProvider({ users: [ANN], ...options });
  const clock = createTestClock();
  const view = render(
    <SignInWidget
      config={{ signInOptions: ['email', 'phone'] }}
      provider={fake}
      url={LOGIN}
      storage={createMemoryStorage()}
      clock={clock}
      navigate={() => undefined}
      onTitle={(title) => titles.push(title)}
    />,
  );
  return { ...view, titles, clock, user: userEvent.setup() };
}

const heading = () => screen.getByRole('heading', { level: 1 });

/** The texts of the elements that describe `field`. */
function description(field: HTMLElement): string[] {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '');
}

describe('focus and title after each step (issue 32)', () => {
  beforeAll(() => loadCards());

  it('card change → the heading; an error → the field, invalid and described; titles in step', async () => {
    const w = widget();
    await settle();
    expect(w.titles).toEqual([titleText.providerChooser]);
    await w.user.click(screen.getByRole('button', { name: uiText.signInWithEmail }));
    await settle();
    expect(document.activeElement).toBe(heading());
    expect(heading().textContent).toBe(uiText.emailEntryTitle);
    // Empty email: the button stays where it was, focus goes to the field in error.
    await w.user.click(screen.getByRole('button', { name: uiText.next }));
    await settle();
    const email = screen.getByLabelText(uiText.emailLabel);
    expect(document.activeElement).toBe(email);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(description(email)).toEqual([messageFor('email-required')]);
    await w.user.type(email, `${ANN.email}{Enter}`);
    await settle();
    expect(document.activeElement).toBe(heading());
    expect(heading().textContent).toBe(uiText.passwordSignInTitle);
    // Wrong password, submitted with the button: focus on the password field, never on <body>.
    const password = screen.getByLabelText(uiText.passwordLabel);
    await w.user.type(password, 'wrong1');
    await w.user.click(screen.getByRole('button', { name: uiText.signIn }));
    await settle();
    expect(document.activeElement).toBe(screen.getByLabelText(uiText.passwordLabel));
    expect(screen.getByLabelText(uiText.passwordLabel).getAttribute('aria-invalid')).toBe('true');
    expect(description(screen.getByLabelText(uiText.passwordLabel))).toEqual([messageFor('wrong-password')]);
    await w.user.clear(screen.getByLabelText(uiText.passwordLabel));
    await w.user.type(screen.getByLabelText(uiText.passwordLabel), `${ANN.password}{Enter}`);
    await settle();
    expect(document.activeElement).toBe(heading());
    expect(w.titles).toEqual([
      titleText.providerChooser,
      titleText.emailEntry,
      titleText.error(titleText.emailEntry),
      // Submitted again: the error is gone while the call runs.
      titleText.emailEntry,
      titleText.passwordSignIn,
      titleText.error(titleText.passwordSignIn),
      titleText.passwordSignIn,
      uiText.signedIn,
    ]);
    expect(w.titles).toContain('Error: Enter your password');
  });

  it('a button disabled for a call does not leave focus on <body>: the heading holds it', async () => {
    const waiting: (() => void)[] = [];
    const w = widget({ sleep: () => new Promise<void>((resolve) => waiting.push(resolve)) });
    await settle();
    await w.user.click(screen.getByRole('button', { name: uiText.signInWithEmail }));
    await settle();
    await w.user.type(screen.getByLabelText(uiText.emailLabel), ANN.email);
    const next = screen.getByRole('button', { name: uiText.next }) as HTMLButtonElement;
    await w.user.click(next);
    await settle();
    expect(next.disabled).toBe(true);
    expect(document.activeElement).toBe(heading());
    await act(async () => {
      for (const resolve of waiting.splice(0)) resolve();
    });
    await settle();
    expect(heading().textContent).toBe(uiText.passwordSignInTitle);
    expect(document.activeElement).toBe(heading());
  });

  it("a server's render: the heading is the page's autofocus, or the field in error when there is one", async () => {
    await loadCards();
    const html = (state: Parameters<typeof FlowRouter>[0]['state']) => {
      const doc = document.createElement('div');
      doc.innerHTML = renderToString(
        <SignInWidget
          config={{ signInOptions: ['email'] }}
          provider={createFakeProvider()}
          url={LOGIN}
          initialState={state}
        />,
      );
      return [...doc.querySelectorAll('[autofocus]')].map((e) => e.tagName + (e.getAttribute('name') ?? ''));
    };
    expect(html(cardState('passwordSignIn'))).toEqual(['H1']);
    expect(html({ ...cardState('passwordSignIn'), error: 'wrong-password' })).toEqual(['INPUTpassword']);
    expect(html({ ...cardState('emailEntry'), error: 'email-required' })).toEqual(['INPUTemail']);
    // An error of no field: the card's error line (focusable) is.
    expect(html({ ...cardState('passwordSignIn'), error: 'network-request-failed' })).toEqual(['P']);
  });

  it('cardTitle names every card, and "Error: " first while it shows an error', () => {
    for (const state of Object.values(CARD_STATES)) {
      const title = cardTitle(state);
      expect(title, state.card).not.toBe('');
      expect(cardTitle({ ...state, error: 'generic' })).toBe(`Error: ${title}`);
    }
    expect(cardTitle({ ...cardState('passwordSignIn'), offerSignUp: false })).toBe('Enter your password');
    expect(cardTitle({ ...cardState('providerChooser'), chooseTenant: true })).toBe(
      uiText.tenantChooserTitle,
    );
  });

  it('each error belongs to at most one field (a key is never part of another field’s keys)', () => {
    const fields: FieldName[] = ['email', 'password', 'name', 'code', 'phone', 'country', 'captcha'];
    for (const key of [...Object.keys(errorMessages), ...Object.keys(validationMessages)]) {
      const owners = fields.filter((f) => errorsFor(key as never, [f])[f] !== undefined);
      expect(owners.length, key).toBeLessThanOrEqual(1);
    }
    expect(errorsFor('wrong-password', ['email', 'password'])).toEqual({
      password: messageFor('wrong-password'),
    });
    expect(errorsFor('generic', ['email'])).toEqual({ card: messageFor('generic') });
  });

  it('the resend countdown is said politely at its end and when it starts again, not every second', async () => {
    const state = { ...cardState('phoneCode'), resendIn: 15 };
    const env = { config: statesConfig(), getProvider: () => null };
    const at = (resendIn: number) => (
      <WidgetContext.Provider value={env}>
        <FlowRouter state={{ ...state, resendIn }} send={() => undefined} />
      </WidgetContext.Provider>
    );
    const view = render(at(15));
    const live = () => view.container.querySelector('[aria-live="polite"]')?.textContent;
    expect(live()).toBe('');
    view.rerender(at(14));
    expect(live()).toBe('');
    view.rerender(at(1));
    expect(live()).toBe('');
    view.rerender(at(0));
    expect(live()).toBe(uiText.resendReady);
    view.rerender(at(15));
    expect(live()).toBe(uiText.resendIn('0:15'));
    view.rerender(at(14));
    expect(live()).toBe('');
    expect(ORIGIN).toBe(new URL(LOGIN).origin);
  });
});
