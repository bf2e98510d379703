/**
 * Adding a text-message (SMS) factor: the number (E.164, as typed), a captcha, then the 6-digit code with a
 * resend countdown and an optional name.
 * @module
 */
import {
  formatCountdown,
  RESEND_COUNTDOWN_SECONDS,
  type SecondFactorInfo,
  type SecondFactorOperations,
  validateCaptcha,
  validatePhoneNumber,
} from '@doorway/auth-core';
import { type FormEvent, useEffect, useState } from 'react';
import { Actions, Button, Field, Text } from '../parts.tsx';
import { errorsFor, useAttempt } from './attempt.ts';
import { type EnrolCaptcha, useEnrolCaptcha } from './captcha.ts';
import { useCountdown } from './countdown.ts';
import { useAccount } from './env.ts';
import { CodeForm, ErrorNote, Heading } from './parts.tsx';
import { accountText } from './text.ts';

/** A number as typed (`+44 7700 900123`, `+1 (650) 555-0100`) without its separators. */
export function compactPhone(value: string): string {
  return value.replace(/[\s().-]/g, '');
}

/** What a step of this flow does when it is over. */
interface Ends {
  onDone: (factor: SecondFactorInfo) => void;
  onCancel: () => void;
}

/**
 * Sends a code to `phoneNumber` with a fresh verifier: `captcha-required` while a visible captcha is unsolved
 * (it stays, to be solved), else the verification id. `renew` renders the next captcha at once on failure.
 */
async function sendCode(
  ops: SecondFactorOperations,
  captcha: EnrolCaptcha,
  phoneNumber: string,
  renew: boolean,
): Promise<{ verificationId: string } | 'captcha-required'> {
  const verifier = await captcha.take();
  if (validateCaptcha(verifier.isSolved())) return 'captcha-required';
  try {
    const sent = await ops.startPhoneEnrollment(phoneNumber, verifier);
    captcha.spend(verifier, false);
    return sent;
  } catch (error) {
    captcha.spend(verifier, renew);
    throw error;
  }
}

/** The number step. */
function NumberStep(props: {
  phone: string;
  setPhone: (value: string) => void;
  captcha: EnrolCaptcha;
  onSent: (phoneNumber: string, verificationId: string) => void;
  onCancel: () => void;
}) {
  const { ops } = useAccount();
  const attempt = useAttempt();
  const { captcha } = props;
  const { prepare } = captcha;
  useEffect(() => prepare(), [prepare]); // a visible captcha shows before Send code
  const errors = errorsFor(attempt.error, ['phone', 'captcha']);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const phoneNumber = compactPhone(props.phone);
    const invalid = validatePhoneNumber(phoneNumber, undefined);
    if (invalid) return attempt.fail(invalid);
    void attempt.run(async () => {
      const sent = await sendCode(ops, captcha, phoneNumber, true);
      if (typeof sent === 'string') return sent;
      props.onSent(phoneNumber, sent.verificationId);
      return null;
    });
  };

  return (
    <>
      <Heading focusKey={1}>{accountText.phoneTitle}</Heading>
      <Text>{accountText.phoneText}</Text>
      <form
        ref={attempt.scope}
        className="doorway-form"
        noValidate
        onSubmit={submit}
        aria-busy={attempt.pending || undefined}
      >
        <ErrorNote message={errors.card} attempt={attempt} />
        <Field
          label={accountText.phoneLabel}
          hint={accountText.phoneHint}
          type="tel"
          name="phone"
          autoComplete="tel"
          value={props.phone}
          error={errors.phone}
          onChange={(e) => props.setPhone(e.target.value)}
        />
        {errors.captcha ? (
          <p className="doorway-error" tabIndex={-1}>
            {errors.captcha}
          </p>
        ) : null}
        <div className="doorway-captcha" ref={captcha.containerRef} />
        <Actions>
          <Button type="submit" disabled={attempt.pending}>
            {accountText.sendCode}
          </Button>
          <Button type="button" secondary disabled={attempt.pending} onClick={props.onCancel}>
            {accountText.cancel}
          </Button>
        </Actions>
      </form>
    </>
  );
}

/** The code step: the code, an optional name, Verify; Resend once the countdown is over. */
function CodeStep(
  props: Ends & {
    phoneNumber: string;
    verificationId: string;
    setVerificationId: (id: string) => void;
    captcha: EnrolCaptcha;
    onChangePhone: () => void;
  },
) {
  const { ops, announce } = useAccount();
  const attempt = useAttempt();
  const countdown = useCountdown(RESEND_COUNTDOWN_SECONDS);
  const errors = errorsFor(attempt.error, ['code', 'captcha']);
  const { captcha, phoneNumber } = props;
  const ended = countdown.left === 0;
  // The countdown is said at its end (its start is read with the step, or said as "We sent a new code").
  useEffect(() => {
    if (ended) announce(accountText.resendReady);
  }, [ended, announce]);

  const resend = () =>
    attempt.run(async () => {
      const sent = await sendCode(ops, captcha, phoneNumber, false);
      if (typeof sent === 'string') return sent;
      props.setVerificationId(sent.verificationId);
      countdown.restart();
      announce(accountText.codeSent(phoneNumber));
      return null;
    });

  return (
    <>
      <Heading focusKey={1}>{accountText.codeTitle}</Heading>
      <Text>{accountText.codeText(phoneNumber)}</Text>
      <CodeForm
        attempt={attempt}
        errors={errors}
        nameHint={accountText.phoneNameHint}
        finish={(code, name) => ops.finishPhoneEnrollment(props.verificationId, code, name)}
        onDone={props.onDone}
        onCancel={props.onCancel}
        actions={
          <Button type="button" secondary disabled={attempt.pending} onClick={props.onChangePhone}>
            {accountText.changePhone}
          </Button>
        }
      >
        <p className="doorway-resend">
          {countdown.left > 0 ? (
            accountText.resendIn(formatCountdown(countdown.left))
          ) : (
            <Button type="button" link disabled={attempt.pending} onClick={() => void resend()}>
              {accountText.resend}
            </Button>
          )}
        </p>
        {errors.captcha ? (
          <p className="doorway-error" tabIndex={-1}>
            {errors.captcha}
          </p>
        ) : null}
        <div className="doorway-captcha" ref={captcha.containerRef} />
      </CodeForm>
    </>
  );
}

/** The SMS enrolment: {@link NumberStep}, then {@link CodeStep}. */
export function AddPhone(props: Ends) {
  const { provider } = useAccount();
  const captcha = useEnrolCaptcha(provider);
  const [phone, setPhone] = useState('');
  const [sent, setSent] = useState<{ phoneNumber: string; verificationId: string } | null>(null);
  if (sent === null) {
    return (
      <NumberStep
        phone={phone}
        setPhone={setPhone}
        captcha={captcha}
        onSent={(phoneNumber, verificationId) => setSent({ phoneNumber, verificationId })}
        onCancel={props.onCancel}
      />
    );
  }
  return (
    <CodeStep
      {...props}
      phoneNumber={sent.phoneNumber}
      verificationId={sent.verificationId}
      setVerificationId={(verificationId) => setSent({ ...sent, verificationId })}
      captcha={captcha}
      onChangePhone={() => setSent(null)}
    />
  );
}
