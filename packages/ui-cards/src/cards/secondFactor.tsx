/**
 * The second-factor challenge after a first factor: which factor (when the account has several), the SMS
 * factor's captcha, and the code. Cards of the cards chunk.
 * @module
 */
import { type SecondFactorInfo, uiText } from '@doorway/auth-core';
import { type CardProps, useWidget } from '../context.ts';
import {
  Actions,
  Button,
  Card,
  CardError,
  errorsFor,
  Form,
  fieldValue,
  NeedsScripts,
  Text,
} from '../parts.tsx';
import { CancelButton, CodeField, ResendLine } from './common.tsx';
import { useCaptcha } from './PhoneNumberForm.tsx';

/** How a factor is offered: its masked number, or the authenticator app (with its name, if it has one). */
function factorLabel(factor: SecondFactorInfo): string {
  return factor.kind === 'phone'
    ? uiText.secondFactorPhoneOption(factor.phoneNumber ?? factor.displayName ?? '')
    : uiText.secondFactorTotpOption(factor.displayName);
}

/** The account's second factors, one button each (posted as `factorUid`), then Cancel. */
export function SecondFactorChooser({ state, send }: CardProps<'secondFactorChooser'>) {
  const pending = state.pending !== null;
  return (
    <Card title={uiText.secondFactorChooserTitle}>
      <Text>{uiText.secondFactorChooserText}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Form
        event="CHOOSE_SECOND_FACTOR"
        send={send}
        pending={pending}
        submit={(_, button) => ({ type: 'CHOOSE_SECOND_FACTOR', factorUid: button?.value ?? '' })}
      >
        <ul className="doorway-options">
          {state.challenge.factors.map((factor) => (
            <li key={factor.uid}>
              <button
                type="submit"
                className="doorway-button doorway-secondary"
                name="factorUid"
                value={factor.uid}
                disabled={pending}
              >
                {factorLabel(factor)}
              </button>
            </li>
          ))}
        </ul>
        <Actions>
          <CancelButton pending={pending} />
        </Actions>
      </Form>
    </Card>
  );
}

/** An SMS factor: the captcha, then "Send code" texts the code to the masked number. Needs scripts. */
export function SecondFactorPhone({ state, send }: CardProps<'secondFactorPhone'>) {
  const { getProvider } = useWidget();
  const { captchaRef, verifierRef, submittedRef } = useCaptcha(getProvider);
  const errors = errorsFor(state.error, ['captcha']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.secondFactorPhoneTitle}>
      <Text>{uiText.secondFactorPhoneText(state.factor.phoneNumber ?? '')}</Text>
      <NeedsScripts />
      <Form
        event="SEND_SECOND_FACTOR_SMS"
        send={send}
        pending={pending}
        submit={() => {
          const verifier = verifierRef.current;
          if (verifier) submittedRef.current = verifier;
          return { type: 'SEND_SECOND_FACTOR_SMS', captchaSolved: verifier?.isSolved() ?? false, verifier };
        }}
      >
        <CardError message={errors.card} />
        {errors.captcha ? <p className="doorway-error">{errors.captcha}</p> : null}
        <div className="doorway-captcha" ref={captchaRef} />
        <Actions>
          <Button disabled={pending}>{uiText.sendCode}</Button>
          <CancelButton pending={pending} />
        </Actions>
      </Form>
    </Card>
  );
}

/** The second factor's 6-digit code; an SMS factor also counts down to Resend (`0:15`). */
export function SecondFactorCode({ state, send }: CardProps<'secondFactorCode'>) {
  const errors = errorsFor(state.error, ['code']);
  const pending = state.pending !== null;
  const sms = state.factor.kind === 'phone';
  return (
    <Card title={uiText.secondFactorCodeTitle}>
      <Text>{sms ? uiText.phoneCodeText(state.factor.phoneNumber ?? '') : uiText.secondFactorTotpText}</Text>
      <Form
        event="SUBMIT_SECOND_FACTOR_CODE"
        send={send}
        pending={pending}
        submit={(form) => ({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: fieldValue(form, 'code') })}
      >
        <CardError message={errors.card} />
        <CodeField error={errors.code} />
        <Actions>
          <Button disabled={pending}>{uiText.verify}</Button>
          <CancelButton pending={pending} />
        </Actions>
        {sms ? <ResendLine resendIn={state.resendIn} pending={pending} /> : null}
      </Form>
    </Card>
  );
}
