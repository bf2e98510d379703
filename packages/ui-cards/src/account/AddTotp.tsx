/**
 * Adding an authenticator app: starts a TOTP enrolment, shows its QR code and its secret (with Copy), then
 * enrols it with a code the app shows. A wrong code keeps the step, with "Wrong code. Try again.".
 * @module
 */
import { type SecondFactorInfo, type TotpEnrollment, validateCode } from '@doorway/auth-core';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { errorsFor, useAttempt } from './attempt.ts';
import { useAccount } from './env.ts';
import { Actions, Button, ErrorNote, Field, Heading, Spinner, Text } from './parts.tsx';
import { QrCode } from './QrCode.tsx';
import { accountText } from './text.ts';

/** What a step of this flow does when it is over. */
interface Ends {
  onDone: (factor: SecondFactorInfo) => void;
  onCancel: () => void;
}

/** The secret as text, and Copy where the browser has a clipboard. */
function Secret(props: { secret: string }) {
  const { announce } = useAccount();
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  const copy = () =>
    clipboard?.writeText(props.secret).then(
      () => announce(accountText.copied),
      () => announce(accountText.copyFailed),
    );
  return (
    <div className="doorway-secret">
      <dl className="doorway-secret-value">
        <dt className="doorway-label">{accountText.secretLabel}</dt>
        <dd>
          <code>{props.secret}</code>
        </dd>
      </dl>
      {clipboard?.writeText ? (
        <Button secondary onClick={() => void copy()}>
          {accountText.copy}
        </Button>
      ) : null}
    </div>
  );
}

/** The confirmation: QR code, secret, then the code and an optional name. */
function Confirm(props: Ends & { enrolment: TotpEnrollment }) {
  const { ops } = useAccount();
  const attempt = useAttempt();
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const { enrolment } = props;
  const errors = errorsFor(attempt.error, ['code']);
  const verify = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateCode(code, undefined);
    if (invalid) return attempt.fail(invalid);
    void attempt.run(async () => {
      const factor = await ops.finishTotpEnrollment(
        enrolment.enrollmentId,
        code.trim(),
        name.trim() || undefined,
      );
      props.onDone(factor);
      return null;
    });
  };
  return (
    <>
      <Text>{accountText.totpText}</Text>
      <QrCode uri={enrolment.uri} />
      <Secret secret={enrolment.secret} />
      <form className="doorway-form" noValidate onSubmit={verify} aria-busy={attempt.pending || undefined}>
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
          hint={accountText.totpNameHint}
          type="text"
          name="displayName"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Actions>
          <Button type="submit" disabled={attempt.pending}>
            {accountText.verify}
          </Button>
          <Button secondary disabled={attempt.pending} onClick={props.onCancel}>
            {accountText.cancel}
          </Button>
        </Actions>
      </form>
    </>
  );
}

/** The authenticator step: starts the enrolment on mount (a spinner meanwhile), then {@link Confirm}. */
export function AddTotp(props: Ends) {
  const { ops } = useAccount();
  const start = useAttempt();
  const [enrolment, setEnrolment] = useState<TotpEnrollment | null>(null);
  const { run } = start;
  const begin = useCallback(
    () =>
      void run(async () => {
        setEnrolment(await ops.startTotpEnrollment());
        return null;
      }),
    [run, ops],
  );
  // Once per step (StrictMode runs effects twice; a new enrolment would replace the first).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    begin();
  }, [begin]);
  return (
    <>
      <Heading focusKey={1}>{accountText.totpTitle}</Heading>
      {enrolment ? (
        <Confirm {...props} enrolment={enrolment} />
      ) : start.error ? (
        <>
          <ErrorNote message={errorsFor(start.error, []).card} attempt={start} onRetry={begin} />
          <Actions>
            <Button secondary disabled={start.pending} onClick={props.onCancel}>
              {accountText.cancel}
            </Button>
          </Actions>
        </>
      ) : (
        <Spinner />
      )}
    </>
  );
}
