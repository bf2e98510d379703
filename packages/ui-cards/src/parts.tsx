import type { MessageKey } from '@doorway/auth-core';
import { messageFor, uiText } from '@doorway/auth-core/first-card';
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { useWidget } from './context.ts';

/** Which input of a card an error message belongs to. */
export type FieldName = 'email' | 'password' | 'name' | 'code' | 'phone' | 'country' | 'captcha';

const FIELD_OF: Partial<Record<MessageKey, FieldName>> = {
  'email-required': 'email',
  'email-invalid': 'email',
  'invalid-email': 'email',
  'user-not-found': 'email',
  'email-already-in-use': 'email',
  'email-mismatch': 'email',
  'password-required': 'password',
  'missing-password': 'password',
  'password-weak': 'password',
  'weak-password': 'password',
  'wrong-password': 'password',
  'name-required': 'name',
  'code-invalid': 'code',
  'invalid-verification-code': 'code',
  'country-unsupported': 'country',
  'unsupported-country': 'country',
  'phone-invalid': 'phone',
  'invalid-phone-number': 'phone',
  'captcha-required': 'captcha',
  'captcha-check-failed': 'captcha',
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
  const field = FIELD_OF[error];
  return { [field && fields.includes(field) ? field : 'card']: messageFor(error) };
}

/** A card: the heading that receives focus on every card change, then its content. */
export function Card(props: { title: string; children?: ReactNode; hideTitle?: boolean }) {
  return (
    <section className="doorway-card">
      <h1 className={props.hideTitle ? 'doorway-sr-only' : 'doorway-title'} tabIndex={-1}>
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

/** A card-level error line (field errors sit with their field). */
export function CardError(props: { message: string | undefined }) {
  return props.message ? <p className="doorway-error">{props.message}</p> : null;
}

/** A form the engine validates: native validation is off so the spec's messages are the ones shown. */
export function Form(props: { onSubmit: () => void; pending: boolean; children: ReactNode }) {
  return (
    <form
      className="doorway-form"
      noValidate
      aria-busy={props.pending || undefined}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}

/** A row of buttons; the primary action goes last (GOV.UK and FirebaseUI order). */
export function Actions(props: { children: ReactNode }) {
  return <div className="doorway-actions">{props.children}</div>;
}

/** A button. `submit` ones submit the surrounding form; all are disabled while a call is pending. */
export function Button(props: {
  children: ReactNode;
  onClick?: () => void;
  submit?: boolean;
  secondary?: boolean;
  link?: boolean;
  disabled?: boolean;
}) {
  const kind = props.link
    ? 'doorway-link'
    : props.secondary
      ? 'doorway-button doorway-secondary'
      : 'doorway-button';
  return (
    <button
      type={props.submit ? 'submit' : 'button'}
      className={kind}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/**
 * A labelled input (or, with `options`, a `<select>`) with optional hint and error, linked by
 * `aria-describedby` (GOV.UK pattern).
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

/** An indeterminate progress indicator. */
export function Spinner() {
  return <div className="doorway-spinner" role="progressbar" aria-label={uiText.spinnerLabel} />;
}
