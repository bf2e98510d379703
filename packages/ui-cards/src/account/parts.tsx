/**
 * The account components' own parts: a step's focusable heading, its error note, the code form that ends
 * adding a second factor, and the live region. Text, buttons, fields and the spinner are the sign-in cards'
 * (`../parts.tsx`).
 * @module
 */
import { type SecondFactorInfo, validateCode } from '@doorway/auth-core';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Actions, Button, Field } from '../parts.tsx';
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
      <p className="doorway-error" tabIndex={-1}>
        {message}
      </p>
      {again || onRetry ? (
        <Actions>
          <Button type="button" disabled={attempt.pending} onClick={again ? () => void again() : onRetry}>
            {again ? accountText.signInAgain : accountText.retry}
          </Button>
        </Actions>
      ) : null}
    </div>
  );
}

/** Props of {@link CodeForm}. */
export interface CodeFormProps {
  /** The step's operations (shared with what else the step runs, such as Resend). */
  attempt: Attempt;
  /** The step's error split by `errorsFor`: `card` at the top of the form, `code` under the code. */
  errors: { card?: string; code?: string };
  /** The name field's hint ("For example, Work phone"). */
  nameHint: string;
  /** Enrols the factor with the code and the name (`undefined` when left empty). */
  finish: (code: string, name: string | undefined) => Promise<SecondFactorInfo>;
  onDone: (factor: SecondFactorInfo) => void;
  onCancel: () => void;
  /** Buttons between Verify and Cancel. */
  actions?: ReactNode;
  /** What follows the buttons in the form. */
  children?: ReactNode;
}

/**
 * The code form that ends adding a second factor (a text message's code, an authenticator app's code): the
 * 6-digit code, an optional name, Verify, then Cancel. The code is checked before `finish` runs; a wrong
 * one keeps the form, with the catalogue's "Wrong code. Try again." under the code.
 */
export function CodeForm(props: CodeFormProps) {
  const { attempt, errors } = props;
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const verify = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateCode(code, undefined);
    if (invalid) return attempt.fail(invalid);
    void attempt.run(async () => {
      props.onDone(await props.finish(code.trim(), name.trim() || undefined));
      return null;
    });
  };
  return (
    <form
      ref={attempt.scope}
      className="doorway-form"
      noValidate
      onSubmit={verify}
      aria-busy={attempt.pending || undefined}
    >
      <ErrorNote message={errors.card} attempt={attempt} />
      <Field
        label={accountText.codeLabel}
        type="text"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        error={errors.code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Field
        label={accountText.nameLabel}
        hint={props.nameHint}
        type="text"
        name="displayName"
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Actions>
        <Button disabled={attempt.pending}>{accountText.verify}</Button>
        {props.actions}
        <Button type="button" secondary disabled={attempt.pending} onClick={props.onCancel}>
          {accountText.cancel}
        </Button>
      </Actions>
      {props.children}
    </form>
  );
}

/**
 * The live regions of an account component (a polite `role="status"` and an assertive `role="alert"`, to
 * render once in it), and `announce`, which says a text in one of them.
 */
export function useAnnouncer(): { announce: (text: string, urgent?: boolean) => void; region: ReactNode } {
  // Each region's text and how many it has said.
  const [said, setSaid] = useState({ status: ['', 0] as const, alert: ['', 0] as const });
  const announce = useCallback(
    (text: string, urgent = false) =>
      setSaid((s) => {
        const role = urgent ? 'alert' : 'status';
        return { ...s, [role]: [text, s[role][1] + 1] as const };
      }),
    [],
  );
  const region = (['status', 'alert'] as const).map((role) => (
    <div key={role} className="doorway-sr-only" role={role}>
      {/* One text, changed in place: a no-break space after every other one makes the same text again a change. */}
      {said[role][0] && said[role][0] + (said[role][1] % 2 ? '' : '\u00a0')}
    </div>
  ));
  return { announce, region };
}

/**
 * Runs `start` once, after the first render: StrictMode runs effects twice, and a second run would repeat a
 * provider call (a second TOTP enrolment would replace the first).
 */
export function useOnce(start: () => void): void {
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);
}
