/**
 * The parts the second-factor steps are made of, in the sign-in cards' classes and GOV.UK's form pattern.
 * Written out here rather than imported from the sign-in cards: a module shared with the widget's first
 * chunk would make a bundler split that chunk for apps that use both entries.
 * @module
 */
import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useRef,
} from 'react';
import type { Attempt } from './attempt.ts';
import { accountText } from './text.ts';

/**
 * A step's heading (`<h2 tabindex="-1">`): focused whenever `focusKey` changes to a number above 0, so
 * that moving to a step (or back to the list) reads its heading and keyboard users go on from there.
 */
export function Heading(props: { children: ReactNode; focusKey: number }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.focusKey > 0) ref.current?.focus();
  }, [props.focusKey]);
  return (
    <h2 ref={ref} className="doorway-title" tabIndex={-1}>
      {props.children}
    </h2>
  );
}

/** A paragraph of step text. */
export function Text(props: { children: ReactNode }) {
  return <p className="doorway-text">{props.children}</p>;
}

/** A row of buttons, the primary one first. */
export function Actions(props: { children: ReactNode }) {
  return <div className="doorway-actions">{props.children}</div>;
}

/** A button (`type="button"` unless told), primary unless `secondary` or `link`; at least 44×44 px. */
export function Button(
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    secondary?: boolean;
    link?: boolean;
    /** The button element (a prop of its own: React 18 keeps `ref` from function components). */
    buttonRef?: Ref<HTMLButtonElement>;
  },
) {
  const { secondary, link, type, buttonRef, ...button } = props;
  const kind = link ? 'doorway-link' : secondary ? 'doorway-button doorway-secondary' : 'doorway-button';
  return <button type={type ?? 'button'} className={kind} ref={buttonRef} {...button} />;
}

/**
 * A labelled input with optional hint and error, linked by `aria-describedby`, `aria-invalid` when in
 * error (GOV.UK pattern).
 */
export function Field(
  props: { label: string; hint?: string; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, hint, error, ...input } = props;
  const id = useId();
  const hintId = hint ? `${id}h` : undefined;
  const errorId = error ? `${id}e` : undefined;
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
      <input
        {...input}
        className="doorway-input"
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      />
    </div>
  );
}

/**
 * A step's error that belongs to no field (`message`), and what can be done about it: "Sign in again"
 * (then the operation runs again) after `requires-recent-login` when the host can, else `onRetry` if given.
 */
export function ErrorNote(props: { message: string | undefined; attempt: Attempt; onRetry?: () => void }) {
  const { message, attempt, onRetry } = props;
  if (!message) return null;
  const again = attempt.reauthenticate;
  return (
    <div className="doorway-account-error">
      <p className="doorway-error">{message}</p>
      {again || onRetry ? (
        <Actions>
          <Button disabled={attempt.pending} onClick={again ? () => void again() : onRetry}>
            {again ? accountText.signInAgain : accountText.retry}
          </Button>
        </Actions>
      ) : null}
    </div>
  );
}

/** An indeterminate progress indicator. */
export function Spinner() {
  return <div className="doorway-spinner" role="progressbar" aria-label={accountText.loading} />;
}
