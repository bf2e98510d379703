import { formatCountdown, uiText } from '@doorway/auth-core';
import { useState } from 'react';
import type { CardProps } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Text } from '../parts.tsx';

/** Phone code entry: the 6-digit code, a resend countdown (`0:15`) and then a Resend button. */
export function PhoneCode({ state, send }: CardProps<'phoneCode'>) {
  const [code, setCode] = useState('');
  const errors = errorsFor(state.error, ['code']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.phoneCodeTitle}>
      <Text>{uiText.phoneCodeText(state.phoneNumber)}</Text>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_CODE', code })}>
        <CardError message={errors.card} />
        <Field
          label={uiText.codeLabel}
          type="text"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          error={errors.code}
          onChange={(e) => setCode(e.target.value)}
        />
        <p className="doorway-resend">
          {state.resendIn > 0 ? (
            uiText.resendIn(formatCountdown(state.resendIn))
          ) : (
            <Button link disabled={pending} onClick={() => send({ type: 'RESEND_CODE' })}>
              {uiText.resend}
            </Button>
          )}
        </p>
        <Actions>
          <Button secondary disabled={pending} onClick={() => send({ type: 'CHANGE_PHONE' })}>
            {uiText.changePhone}
          </Button>
          <Button submit disabled={pending}>
            {uiText.verify}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}
