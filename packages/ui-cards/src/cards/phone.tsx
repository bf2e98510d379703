import { formatCountdown, optionsFor, phoneOptionOf, uiText } from '@doorway/auth-core';
import { lazy, Suspense, useState } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Spinner, Text } from '../parts.tsx';
import { type PhoneFormProps, PhoneNumberForm } from './PhoneNumberForm.tsx';

// libphonenumber-js and its metadata are big: they are their own chunk, loaded when the card shows. The form
// component stays in the first chunk so that the lazy chunk shares no module with it (a shared module would
// become one more chunk in the first load, and each chunk costs gzip efficiency).
const LazyPhoneNumberForm = lazy(async () => {
  const numbers = await import('../phoneNumbers.ts');
  return { default: (props: PhoneFormProps) => <PhoneNumberForm {...props} numbers={numbers} /> };
});

/** Phone number entry: country selector, number, captcha. The number is sent in E.164. */
export function PhoneEntry(props: CardProps<'phoneEntry'>) {
  const { config } = useWidget();
  const option = phoneOptionOf(optionsFor(config, config.tenants ? props.state.tenantId : undefined));
  return (
    <Card title={uiText.phoneEntryTitle}>
      <Suspense fallback={<Spinner />}>
        <LazyPhoneNumberForm
          {...props}
          allowedCountries={option?.allowedCountries ?? null}
          blockedCountries={option?.blockedCountries ?? []}
        />
      </Suspense>
    </Card>
  );
}

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
