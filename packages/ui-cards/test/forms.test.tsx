/**
 * The form path's encoding on every card: rendered by `renderToString` (as a server renders it), each card
 * that has an action is a `<form method="post">` with the hidden `event` field first, its fields named as
 * the event's, and submit buttons that post what they do (`event=CANCEL`, `providerId=google.com`); with
 * scripts (jsdom), pressing each of those buttons sends exactly the event its markup names, the one a
 * server reads from the post (`formEvent`), and Enter in any field sends the form's own event, never a
 * secondary one.
 */
import { CARDS, type CardName, type FlowState, normalizeConfig, uiText } from '@doorway/auth-core';
import { formEvent } from '@doorway/auth-core/server';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { FlowRouter, loadCards, type UiEvent, WidgetContext, type WidgetEnv } from '../src/index.ts';
import { CARD_STATES, cardState, STATES_ORIGIN, stateOf, statesConfig } from './states.ts';

type EventType = UiEvent['type'];

/** What a card's first form posts. `event: null`: the card has no form. */
interface Encoding {
  event: EventType | null;
  /** The fields a person fills, by name, in page order. */
  fields?: readonly string[];
  /** Each submit button's `name=value`, in page order; `''` for the primary one (it posts the hidden event). */
  buttons?: readonly string[];
  /** The card says, when scripts are off, that it needs them. */
  needsScripts?: boolean;
}

const CANCEL = 'event=CANCEL';
const ONE_BUTTON = (event: EventType): Encoding => ({ event, buttons: [''] });
const NO_FORM: Encoding = { event: null };

const ENCODING: Record<CardName, Encoding> = {
  providerChooser: {
    event: 'CHOOSE_PROVIDER',
    buttons: ['email', 'google.com', 'github.com', 'phone', 'anonymous'].map((id) => `providerId=${id}`),
  },
  emailEntry: { event: 'SUBMIT_EMAIL', fields: ['email'], buttons: ['', CANCEL] },
  passwordSignIn: {
    event: 'SUBMIT_PASSWORD',
    fields: ['password'],
    buttons: ['', 'event=GO_TO_SIGN_UP', CANCEL, 'event=GO_TO_RECOVERY'],
  },
  passwordSignUp: { event: 'SUBMIT_SIGN_UP', fields: ['email', 'name', 'password'], buttons: ['', CANCEL] },
  passwordRecovery: { event: 'SUBMIT_RECOVERY', fields: ['email'], buttons: ['', CANCEL] },
  recoveryEmailSent: ONE_BUTTON('CONTINUE'),
  // The phone form (country, number, captcha) is a script's: without one, the card says it needs it.
  phoneEntry: { event: null, needsScripts: true },
  phoneCode: {
    event: 'SUBMIT_CODE',
    fields: ['code'],
    buttons: ['', 'event=CHANGE_PHONE', 'event=RESEND_CODE'],
    needsScripts: true,
  },
  emailLinkSent: { event: 'CANCEL', buttons: ['', 'event=EMAIL_NOT_RECEIVED'] },
  emailNotReceived: { event: 'RESEND_EMAIL', buttons: ['', CANCEL] },
  emailLinkConfirmation: { event: 'CONFIRM_EMAIL', fields: ['email'], buttons: ['', CANCEL] },
  federatedSignIn: { event: 'SIGN_IN_FEDERATED', buttons: ['', CANCEL], needsScripts: true },
  passwordLinking: {
    event: 'SUBMIT_PASSWORD',
    fields: ['password'],
    buttons: ['', CANCEL, 'event=GO_TO_RECOVERY'],
  },
  federatedLinking: { event: 'SIGN_IN_FEDERATED', buttons: ['', CANCEL], needsScripts: true },
  emailLinkLinking: { event: 'SEND_LINKING_EMAIL', buttons: ['', CANCEL] },
  unsupportedProvider: ONE_BUTTON('CANCEL'),
  unauthorizedUser: ONE_BUTTON('CANCEL'),
  emailMismatch: { event: 'CONTINUE', buttons: ['', CANCEL] },
  anonymousUserMismatch: ONE_BUTTON('CANCEL'),
  differentDeviceError: ONE_BUTTON('CANCEL'),
  sessionEnded: ONE_BUTTON('CANCEL'),
  secondFactorChooser: {
    event: 'CHOOSE_SECOND_FACTOR',
    buttons: ['factorUid=mfa-1', 'factorUid=mfa-2', CANCEL],
  },
  // Texting the code needs the captcha, a script's: without one, the card says so (Cancel still posts).
  secondFactorPhone: { event: 'SEND_SECOND_FACTOR_SMS', buttons: ['', CANCEL], needsScripts: true },
  // An authenticator app's code works as a plain form.
  secondFactorCode: { event: 'SUBMIT_SECOND_FACTOR_CODE', fields: ['code'], buttons: ['', CANCEL] },
  passwordReset: { event: 'SUBMIT_NEW_PASSWORD', fields: ['password'], buttons: [''] },
  passwordResetSuccess: ONE_BUTTON('CONTINUE'),
  passwordResetFailure: NO_FORM,
  emailVerificationSuccess: ONE_BUTTON('CONTINUE'),
  emailVerificationFailure: NO_FORM,
  verifyAndChangeEmailSuccess: ONE_BUTTON('CONTINUE'),
  verifyAndChangeEmailFailure: NO_FORM,
  revertSecondFactorAdditionSuccess: ONE_BUTTON('CONTINUE'),
  revertSecondFactorAdditionFailure: NO_FORM,
  emailChangeRevoked: ONE_BUTTON('CONTINUE'),
  emailChangeRevokeFailure: NO_FORM,
  signOut: ONE_BUTTON('SIGN_IN_AGAIN'),
  recoverableError: ONE_BUTTON('RETRY'),
  unrecoverableError: NO_FORM,
  spinner: NO_FORM,
  signedIn: ONE_BUTTON('SIGN_OUT'),
};

const env = (input = statesConfig()): WidgetEnv => ({ config: input, getProvider: () => null });

/** The card as a server renders it, parsed as a browser without scripts would. */
function serverRender(state: FlowState, widgetEnv = env()): Document {
  const html = renderToString(
    <WidgetContext.Provider value={widgetEnv}>
      <FlowRouter state={state} send={() => undefined} />
    </WidgetContext.Provider>,
  );
  return new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html');
}

/** What a form posts, read from its markup. */
function encodingOf(form: HTMLFormElement) {
  const hidden = form.firstElementChild as HTMLInputElement | null;
  return {
    method: form.getAttribute('method'),
    action: form.getAttribute('action'),
    noValidate: form.hasAttribute('novalidate'),
    first: hidden && [hidden.tagName, hidden.type, hidden.name],
    event: hidden?.value,
    fields: [...form.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]):not([readonly])')].map(
      (i) => i.name,
    ),
    buttons: [...form.querySelectorAll('button')].map((b) => (b.name ? `${b.name}=${b.value}` : '')),
  };
}

/** What a browser posts when `button` submits `form`: the form's fields, then the button's name and value. */
function postedForm(form: HTMLFormElement, button: HTMLButtonElement): URLSearchParams {
  const data = new URLSearchParams();
  for (const element of form.elements) {
    if (element instanceof HTMLInputElement && element.name && !element.disabled) {
      data.append(element.name, element.value);
    }
    if (element === button && button.name) data.append(button.name, button.value);
  }
  return data;
}

/** Events a server refuses from a form: they need the browser (captcha, a provider's popup). */
const BROWSER_ONLY = [
  'SUBMIT_PHONE',
  'SUBMIT_CODE',
  'RESEND_CODE',
  'SEND_SECOND_FACTOR_SMS',
  'SIGN_IN_FEDERATED',
];

/** The event a submit button posts, read as the server reads a form: the last `event` value wins. */
function postedEvent(form: HTMLFormElement, button: HTMLButtonElement): string {
  return button.name === 'event' ? button.value : (form.firstElementChild as HTMLInputElement).value;
}

beforeAll(async () => {
  // A server renders later cards with the cards chunk loaded (the host's loader awaits it).
  await loadCards();
});

describe('the form encoding, as a server renders each card', () => {
  it('has an encoding for exactly the cards the engine defines', () => {
    expect(Object.keys(ENCODING).sort()).toEqual([...CARDS].sort());
  });

  it.each([...CARDS])('%s', (card) => {
    const expected = ENCODING[card];
    const doc = serverRender(cardState(card));
    const forms = [...doc.querySelectorAll('form')];
    // Nothing clickable is inert without scripts: every button submits a form.
    for (const button of doc.querySelectorAll('button')) {
      expect(button.type).toBe('submit');
      expect(button.form).not.toBeNull();
      expect(button.disabled).toBe(false);
    }
    // No password is ever written into the page.
    for (const input of doc.querySelectorAll<HTMLInputElement>('input[type="password"]')) {
      expect(input.hasAttribute('value')).toBe(false);
    }
    const line = [...doc.querySelectorAll('noscript')].map((n) => n.textContent).join('');
    expect(line.includes(uiText.needsJavaScript)).toBe(expected.needsScripts === true);
    if (expected.event === null) {
      expect(forms).toEqual([]);
      return;
    }
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(encodingOf(form).first).toEqual(['INPUT', 'hidden', 'event']);
    expect(encodingOf(forms[0] as HTMLFormElement)).toEqual({
      method: 'post',
      action: null,
      noValidate: true,
      first: ['INPUT', 'hidden', 'event'],
      event: expected.event,
      fields: expected.fields ?? [],
      buttons: expected.buttons,
    });
  });

  it('the tenant chooser posts CHOOSE_TENANT with tenantId, the default tenant as ""', () => {
    const config = normalizeConfig(
      {
        signInOptions: ['email'],
        tenants: [
          { id: null, displayName: 'Everyone', signInOptions: ['email'] },
          { id: 'staff', displayName: 'Staff', signInOptions: ['email', 'google.com'] },
        ],
      },
      STATES_ORIGIN,
    );
    const doc = serverRender(stateOf({ card: 'providerChooser', chooseTenant: true }), env(config));
    const form = doc.querySelector('form') as HTMLFormElement;
    expect(encodingOf(form)).toMatchObject({
      event: 'CHOOSE_TENANT',
      buttons: ['tenantId=', 'tenantId=staff'],
    });
  });

  it('identifier-first email entry: the email form first, then a CHOOSE_PROVIDER form for the other options', () => {
    const config = normalizeConfig(
      { signInOptions: ['email', 'google.com', 'phone'], displayMode: 'identifierFirst' },
      STATES_ORIGIN,
    );
    const doc = serverRender(cardState('emailEntry'), env(config));
    expect([...doc.querySelectorAll('form')].map((f) => encodingOf(f))).toMatchObject([
      { event: 'SUBMIT_EMAIL', fields: ['email'], buttons: [''] },
      { event: 'CHOOSE_PROVIDER', fields: [], buttons: ['providerId=google.com', 'providerId=phone'] },
    ]);
  });

  it('keeps what was typed in every field but passwords (an error after a post)', () => {
    const doc = serverRender({ ...CARD_STATES.passwordSignUp, error: 'email-already-in-use' });
    const value = (name: string) => doc.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value;
    expect(value('email')).toBe('ann@example.com');
    expect(value('password')).toBe('');
  });
});

describe('the same forms with scripts', () => {
  /** The cards with a form, and the phone card, whose form comes with its script. */
  const withForms = CARDS.filter((card) => ENCODING[card].event !== null || card === 'phoneEntry');

  it.each(withForms)(
    '%s: each button sends what it posts; Enter in a field sends the form’s own event',
    async (card) => {
      const sent: UiEvent[] = [];
      const user = userEvent.setup();
      const view = render(
        <WidgetContext.Provider value={{ config: statesConfig(), getProvider: () => null }}>
          <FlowRouter state={cardState(card)} send={(event) => sent.push(event)} />
        </WidgetContext.Provider>,
      );
      if (card === 'phoneEntry') await screen.findByLabelText(uiText.phoneLabel, {}, { timeout: 10_000 });
      const forms = [...view.container.querySelectorAll('form')];
      expect(forms.length).toBeGreaterThan(0);
      for (const form of forms) {
        const fields = form.querySelectorAll<HTMLInputElement>('input:not([type="hidden"]):not([readonly])');
        for (const field of fields) {
          await user.clear(field);
          await user.type(field, `typed-${field.name}`);
        }
        for (const button of within(form).getAllByRole('button')) {
          await user.click(button);
          const event = sent.at(-1);
          const posted = postedEvent(form, button as HTMLButtonElement);
          expect(event?.type, button.textContent ?? '').toBe(posted);
          if (button.getAttribute('name') === 'providerId') {
            expect(event).toEqual({ type: 'CHOOSE_PROVIDER', providerId: button.getAttribute('value') });
          }
          // A server reads the same post back into the same event (or refuses one only a browser can send).
          const decoded = formEvent(postedForm(form, button as HTMLButtonElement));
          if (decoded === null) expect(BROWSER_ONLY).toContain(event?.type);
          else expect(decoded).toEqual(event);
        }
        const own = (form.firstElementChild as HTMLInputElement).value;
        for (const field of fields) {
          const before = sent.length;
          await user.type(field, '{Enter}');
          expect(sent.length, field.name).toBe(before + 1);
          expect(sent.at(-1)?.type, field.name).toBe(own);
        }
      }
    },
  );

  it('sends what was typed, read from the fields', async () => {
    const sent: UiEvent[] = [];
    const user = userEvent.setup();
    render(
      <WidgetContext.Provider value={{ config: statesConfig(), getProvider: () => null }}>
        <FlowRouter state={cardState('passwordSignUp')} send={(event) => sent.push(event)} />
      </WidgetContext.Provider>,
    );
    await user.clear(screen.getByLabelText(uiText.emailLabel));
    await user.type(screen.getByLabelText(uiText.emailLabel), 'new@example.com');
    await user.type(screen.getByLabelText(uiText.nameLabel), 'New Person');
    await user.type(screen.getByLabelText(uiText.newPasswordLabel), 'secret99{Enter}');
    expect(sent).toEqual([
      { type: 'SUBMIT_SIGN_UP', email: 'new@example.com', name: 'New Person', password: 'secret99' },
    ]);
  });

  it('the tenant chooser sends CHOOSE_TENANT with the tenant, null for the default one', async () => {
    const config = normalizeConfig(
      {
        signInOptions: ['email'],
        tenants: [
          { id: null, displayName: 'Everyone', signInOptions: ['email'] },
          { id: 'staff', displayName: 'Staff', signInOptions: ['email'] },
        ],
      },
      STATES_ORIGIN,
    );
    const sent: UiEvent[] = [];
    const user = userEvent.setup();
    render(
      <WidgetContext.Provider value={{ config, getProvider: () => null }}>
        <FlowRouter
          state={stateOf({ card: 'providerChooser', chooseTenant: true })}
          send={(event) => sent.push(event)}
        />
      </WidgetContext.Provider>,
    );
    await user.click(screen.getByRole('button', { name: 'Everyone' }));
    await user.click(screen.getByRole('button', { name: 'Staff' }));
    expect(sent).toEqual([
      { type: 'CHOOSE_TENANT', tenantId: null },
      { type: 'CHOOSE_TENANT', tenantId: 'staff' },
    ]);
  });
});
