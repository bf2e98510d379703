/**
 * The parts the cards are made of. The account components (`@doorway/ui-cards/account`) are built on the
 * plain ones too (Text, Actions, Button, Field, Spinner): those use neither the widget's context nor its
 * texts, so that entry carries none of the widget but them.
 * @module
 */
import type { MessageKey } from '@doorway/auth-core';
import { messageFor, firstCardText as uiText } from '@doorway/auth-core/first-card';
import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  useId,
} from 'react';
import { type UiEvent, useWidget } from './context.ts';

/** Which input of a card an error message belongs to. */
export type FieldName = 'email' | 'password' | 'name' | 'code' | 'phone' | 'country' | 'captcha';

// Each field's errors (a table keyed by error would repeat the field names in the first chunk).
const FIELD_ERRORS: Record<FieldName, string> = {
  email: 'email-required email-invalid invalid-email user-not-found email-already-in-use email-mismatch',
  password: 'password-required missing-password password-weak weak-password wrong-password',
  name: 'name-required',
  code: 'code-invalid invalid-verification-code',
  phone: 'phone-invalid invalid-phone-number',
  country: 'country-unsupported unsupported-country',
  captcha: 'captcha-required captcha-check-failed',
};

/**
 * Splits a card's error between its fields: the field it belongs to gets the text, anything else (or an
 * error whose field is not on this card) is a card-level error.
 */
export function errorsFor(
  error: MessageKey | null,
  fields: readonly FieldName[],
): Partial<Record<FieldName | 'card', string>> {
  if (error === null) return {};
  // No key is part of another field's keys (test/focus.test.tsx checks the catalogue's).
  const field = fields.find((f) => FIELD_ERRORS[f].includes(error));
  return { [field ?? 'card']: messageFor(error) };
}

/**
 * A card: the heading that receives focus on every card change, then its content. In a server's render
 * the heading is the page's `autofocus` (unless the card shows an error: then the field in error or the
 * card's error line is), so that a page posted without scripts opens where the person is.
 */
export function Card(props: { title: string; children?: ReactNode; hideTitle?: boolean }) {
  return (
    <section className="doorway-card">
      <h1
        className={props.hideTitle ? 'doorway-sr-only' : 'doorway-title'}
        tabIndex={-1}
        // biome-ignore lint/a11y/noAutofocus: a page posted without scripts opens on its card's heading (issue 32).
        autoFocus={!useWidget().error}
      >
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}

/** A paragraph of card text. */
export function Text(props: { children: ReactNode }) {
  return <p className="doorway-text">{props.children}</p>;
}

/** A card-level error line (field errors sit with their field), focused when it appears. */
export function CardError(props: { message: string | undefined }) {
  return props.message ? (
    // biome-ignore lint/a11y/noAutofocus: a page posted without scripts opens on the error it came back with (issue 32).
    <p className="doorway-error" tabIndex={-1} autoFocus>
      {props.message}
    </p>
  ) : null;
}

/** The type of a UI event (what a form or a button sends). */
export type EventType = UiEvent['type'];

/**
 * A card's form, a real HTML form (`method="post"`, posted to the page itself): its first child is the
 * hidden `event` field naming the event of its primary button, and its fields are named as that event's
 * fields, so a server can run the card without scripts. Native validation is off, so the spec's messages
 * are the ones shown. With scripts, submitting sends the event to the flow instead: a button's own
 * (`name="event"`), else `submit(form, submitter)` (default: the primary event, without fields).
 */
export function Form(props: {
  event: EventType;
  send: (event: UiEvent) => void;
  submit?: (form: HTMLFormElement, submitter: HTMLButtonElement | null) => UiEvent;
  pending?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      className="doorway-form"
      method="post"
      noValidate
      aria-busy={props.pending || undefined}
      onSubmit={(e) => {
        e.preventDefault();
        const button = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        props.send(
          button?.name === 'event'
            ? ({ type: button.value } as UiEvent)
            : (props.submit?.(e.currentTarget, button) ?? ({ type: props.event } as UiEvent)),
        );
      }}
    >
      <input type="hidden" name="event" value={props.event} />
      {props.children}
    </form>
  );
}

/** What a form's field named `name` holds now (the DOM is the source: it also has what was typed before hydration). */
export function fieldValue(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
}

/**
 * A row of buttons, the primary one first: Enter in a field presses a form's first submit button, and the
 * order on screen is the order in the page (GOV.UK).
 */
export function Actions(props: { children: ReactNode }) {
  return <div className="doorway-actions">{props.children}</div>;
}

/**
 * A button, primary unless `secondary` or `link`; at least 44×44 px. A submit button of the surrounding form
 * unless `type` says otherwise. In a card's form, without `event` it is the form's primary button (it sends
 * the form's event); with one, it sends that event (`name="event"`) and must come after the primary button.
 * Disabled while a call is pending (never in a server's render: no call is pending there).
 */
export function Button(
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    event?: EventType;
    secondary?: boolean;
    link?: boolean;
    /** The button element (a prop of its own: React 18 keeps `ref` from function components). */
    buttonRef?: Ref<HTMLButtonElement>;
  },
) {
  const { event, secondary, link, buttonRef, ...button } = props;
  const kind = link ? 'doorway-link' : secondary ? 'doorway-button doorway-secondary' : 'doorway-button';
  return (
    <button
      type="submit"
      className={kind}
      name={event && 'event'}
      value={event}
      ref={buttonRef}
      {...button}
    />
  );
}

/**
 * Said on a card (or a button) that cannot work without scripts (reCAPTCHA, an identity provider's popup),
 * only when scripts are off.
 */
export function NeedsScripts() {
  return (
    <noscript>
      <p className="doorway-error">{uiText.needsJavaScript}</p>
    </noscript>
  );
}

/**
 * A labelled input (or, with `options`, a `<select>`) with optional hint and error, linked by
 * `aria-describedby`, `aria-invalid` when in error (GOV.UK pattern).
 */
export function Field(
  props: {
    label: string;
    hint?: string;
    error?: string | undefined;
    /** Makes the field a `<select>` of these options. */
    options?: ReactNode;
  } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, hint, error, options, ...input } = props;
  const id = useId();
  const hintId = hint ? `${id}h` : undefined;
  const errorId = error ? `${id}e` : undefined;
  const control = {
    className: 'doorway-input',
    id,
    'aria-invalid': error ? true : undefined,
    // In a server's render, the field in error is the page's `autofocus`.
    autoFocus: !!error,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  };
  return (
    <div className={error ? 'doorway-field doorway-field-error' : 'doorway-field'}>
      <label className="doorway-label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="doorway-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="doorway-error">
          {error}
        </p>
      ) : null}
      {options === undefined ? (
        <input {...input} {...control} />
      ) : (
        <select {...(input as SelectHTMLAttributes<HTMLSelectElement>)} {...control}>
          {options}
        </select>
      )}
    </div>
  );
}

/** Terms-of-service and privacy-policy links from the config, when set. */
export function Legal() {
  const { config } = useWidget();
  if (!config.tosUrl && !config.privacyPolicyUrl) return null;
  return (
    <p className="doorway-legal">
      {config.tosUrl ? <a href={config.tosUrl}>{uiText.termsOfService}</a> : null}
      {config.privacyPolicyUrl ? <a href={config.privacyPolicyUrl}>{uiText.privacyPolicy}</a> : null}
    </p>
  );
}

/** An indeterminate progress indicator, named `label` ("Loading"). */
export function Spinner(props: { label: string }) {
  return <div className="doorway-spinner" role="progressbar" aria-label={props.label} />;
}
