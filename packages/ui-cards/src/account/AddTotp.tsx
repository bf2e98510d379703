/**
 * Adding an authenticator app: starts a TOTP enrolment, shows its QR code and its secret (with Copy), then
 * enrols it with a code the app shows. A wrong code keeps the step, with "Wrong code. Try again.".
 * @module
 */
import type { SecondFactorInfo, TotpEnrollment } from '@doorway/auth-core';
import { useCallback, useState } from 'react';
import { Actions, Button, Spinner, Text } from '../parts.tsx';
import { errorsFor, useAttempt } from './attempt.ts';
import { useAccount } from './env.ts';
import { CodeForm, ErrorNote, Heading, useOnce } from './parts.tsx';
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
        <Button type="button" secondary onClick={() => void copy()}>
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
  const { enrolment } = props;
  return (
    <>
      <Text>{accountText.totpText}</Text>
      <QrCode uri={enrolment.uri} />
      <Secret secret={enrolment.secret} />
      <CodeForm
        attempt={attempt}
        errors={errorsFor(attempt.error, ['code'])}
        nameHint={accountText.totpNameHint}
        finish={(code, name) => ops.finishTotpEnrollment(enrolment.enrollmentId, code, name)}
        onDone={props.onDone}
        onCancel={props.onCancel}
      />
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
  useOnce(begin);
  return (
    <>
      <Heading focusKey={1}>{accountText.totpTitle}</Heading>
      {enrolment ? (
        <Confirm {...props} enrolment={enrolment} />
      ) : start.error ? (
        <>
          <ErrorNote message={errorsFor(start.error, []).card} attempt={start} onRetry={begin} />
          <Actions>
            <Button type="button" secondary disabled={start.pending} onClick={props.onCancel}>
              {accountText.cancel}
            </Button>
          </Actions>
        </>
      ) : (
        <Spinner label={accountText.loading} />
      )}
    </>
  );
}
