import type { SignInOption } from '@doorway/auth-core';
import { messageFor, optionsFor, phoneOptionOf, uiText } from '@doorway/auth-core/first-card';
import { lazy, Suspense, useState } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { loadCards } from '../loadCards.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Legal, Spinner, Text } from '../parts.tsx';
import type { PhoneFormProps } from './PhoneNumberForm.tsx';

function optionButton(option: SignInOption): { id: string; label: string } {
  switch (option.provider) {
    case 'email':
      return { id: 'email', label: uiText.signInWithEmail };
    case 'phone':
      return { id: 'phone', label: uiText.signInWithPhone };
    case 'anonymous':
      return { id: 'anonymous', label: uiText.continueAsGuest };
    case 'federated':
      return { id: option.providerId, label: uiText.signInWith(option.name) };
  }
}

/** One button per sign-in option. */
function OptionButtons({
  options,
  pending,
  send,
}: {
  options: readonly SignInOption[];
  pending: boolean;
  send: CardProps<'providerChooser'>['send'];
}) {
  return (
    <ul className="doorway-options">
      {options.map((o) => {
        const { id, label } = optionButton(o);
        return (
          <li key={id}>
            <button
              type="button"
              className="doorway-button doorway-provider"
              data-provider={id}
              disabled={pending}
              onClick={() => send({ type: 'CHOOSE_PROVIDER', providerId: id })}
            >
              {label}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Provider chooser: one button per sign-in option, or per tenant when a tenant must be chosen first. */
export function ProviderChooser({ state, send }: CardProps<'providerChooser'>) {
  const { config } = useWidget();
  const pending = state.pending !== null;
  const error = state.error ? messageFor(state.error) : undefined;
  if (state.chooseTenant && config.tenants) {
    return (
      <Card title={uiText.tenantChooserTitle}>
        <CardError message={error} />
        <ul className="doorway-options">
          {config.tenants.map((t) => (
            <li key={t.id ?? ''}>
              <Button
                secondary
                disabled={pending}
                onClick={() => send({ type: 'CHOOSE_TENANT', tenantId: t.id })}
              >
                {t.displayName}
              </Button>
            </li>
          ))}
        </ul>
        <Legal />
      </Card>
    );
  }
  const options = optionsFor(config, config.tenants ? state.tenantId : undefined);
  const canGoBack =
    config.tenants !== null && config.tenants.length > 1 && config.displayMode === 'optionFirst';
  return (
    <Card title={uiText.providerChooserTitle}>
      <CardError message={error} />
      <OptionButtons options={options} pending={pending} send={send} />
      {canGoBack ? (
        <Actions>
          <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
            {uiText.back}
          </Button>
        </Actions>
      ) : null}
      <Legal />
    </Card>
  );
}

/** Email entry: the first step of every email flow. */
export function EmailEntry({ state, send }: CardProps<'emailEntry'>) {
  const { config } = useWidget();
  const [email, setEmail] = useState(state.email);
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  const options = optionsFor(config, config.tenants ? state.tenantId : undefined);
  const canCancel = config.displayMode === 'optionFirst' && options.length > 1;
  // Identifier-first starts here, so the other options are offered beside the email form.
  const others =
    config.displayMode === 'identifierFirst' ? options.filter((o) => o.provider !== 'email') : [];
  return (
    <Card title={uiText.emailEntryTitle}>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_EMAIL', email })}>
        <CardError message={errors.card} />
        <Field
          label={uiText.emailLabel}
          type="email"
          name="email"
          autoComplete="email"
          spellCheck={false}
          value={email}
          error={errors.email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Actions>
          {canCancel ? (
            <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
              {uiText.cancel}
            </Button>
          ) : null}
          <Button submit disabled={pending}>
            {uiText.next}
          </Button>
        </Actions>
      </Form>
      {others.length > 0 ? (
        <section className="doorway-others" aria-labelledby="doorway-others-title">
          <h2 id="doorway-others-title" className="doorway-subtitle">
            {uiText.otherWaysToSignIn}
          </h2>
          <OptionButtons options={others} pending={pending} send={send} />
        </section>
      ) : null}
      <Legal />
    </Card>
  );
}

/** An unrecoverable error (e.g. no web storage, provider failed to load). */
export function UnrecoverableError({ state }: CardProps<'unrecoverableError'>) {
  return (
    <Card title={uiText.unrecoverableErrorTitle}>
      <Text>{messageFor(state.message)}</Text>
    </Card>
  );
}

/** The spinner card (loading, action codes being checked, redirects). */
export function SpinnerCard(_: CardProps<'spinner'>) {
  return (
    <Card title={uiText.spinnerLabel} hideTitle>
      <Spinner />
    </Card>
  );
}

// The phone form comes with the cards chunk and needs the phone chunk (libphonenumber-js's metadata and our
// reader of it): both load in parallel when the card shows. The heading is here, so that a phone-only widget
// renders it (also on the server) meanwhile. A chunk that fails to load is said on the card, not thrown into
// the app's React tree.
const LazyPhoneNumberForm = lazy(() =>
  Promise.all([loadCards(), import('../phoneNumbers.ts')]).then(
    ([{ PhoneNumberForm }, numbers]) => ({
      default: (props: PhoneFormProps) => <PhoneNumberForm {...props} numbers={numbers} />,
    }),
    () => ({ default: () => <CardError message={messageFor('network-request-failed')} /> }),
  ),
);

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
