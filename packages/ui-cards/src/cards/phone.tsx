import { uiText } from '@doorway/auth-core';
import type { CardProps } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Form, NeedsScripts, Text } from '../parts.tsx';
import { CodeField, oneField, ResendLine } from './common.tsx';

/** Phone code entry: the 6-digit code, a resend countdown (`0:15`) and then a Resend button. */
export function PhoneCode({ state, send }: CardProps<'phoneCode'>) {
  const errors = errorsFor(state.error, ['code']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.phoneCodeTitle}>
      <Text>{uiText.phoneCodeText(state.phoneNumber)}</Text>
      <NeedsScripts />
      <Form {...oneField('SUBMIT_CODE', 'code', send, pending)}>
        <CardError message={errors.card} />
        <CodeField error={errors.code} />
        <Actions>
          <Button disabled={pending}>{uiText.verify}</Button>
          <Button secondary event="CHANGE_PHONE" disabled={pending}>
            {uiText.changePhone}
          </Button>
        </Actions>
        <ResendLine resendIn={state.resendIn} pending={pending} />
      </Form>
    </Card>
  );
}
