import type { SignInOption } from '@doorway/auth-core';
import {
  messageFor,
  optionsFor,
  phoneOptionOf,
  firstCardText as uiText,
} from '@doorway/auth-core/first-card';
import { lazy, type ReactNode, Suspense } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { loadCards } from '../loadCards.ts';
import {
  Actions,
  Button,
  Card,
  CardError,
  errorsFor,
  Field,
  Form,
  fieldValue,
  Legal,
  NeedsScripts,
  Spinner,
  Text,
} from '../parts.tsx';
import type { PhoneFormProps } from './PhoneNumberForm.tsx';

/** An option's `providerId` and button label. */
function optionButton(option: SignInOption): readonly [id: string, label: string] {
  switch (option.provider) {
    case 'email':
      return ['email', uiText.signInWithEmail];
    case 'phone':
      return ['phone', uiText.signInWithPhone];
    case 'anonymous':
      return ['anonymous', uiText.continueAsGuest];
    case 'federated':
      return [option.providerId, uiText.signInWith(option.name)];
  }
}

/**
 * One submit button per choice, named `name` with the choice as its value, in a form sending `event`
 * (the form encoding of `CHOOSE_PROVIDER` and `CHOOSE_TENANT`), then `children` (a Back button).
 */
function Choices(props: {
  event: 'CHOOSE_PROVIDER' | 'CHOOSE_TENANT';
  name: 'providerId' | 'tenantId';
  choices: readonly (readonly [value: string, label: string])[];
  kind: string;
  pending: boolean;
  send: CardProps<'providerChooser'>['send'];
  children?: ReactNode;
}) {
  const { event, name } = props;
  return (
    <Form
      event={event}
      send={props.send}
      pending={props.pending}
      submit={(_, button) => {
        const value = button?.value ?? '';
        // The default tenant is posted as ''.
        return event === 'CHOOSE_TENANT'
          ? { type: event, tenantId: value || null }
          : { type: event, providerId: value };
      }}
    >
      <ul className="doorway-options">
        {props.choices.map(([value, label]) => (
          <li key={value}>
            <button type="submit" className={props.kind} name={name} value={value} disabled={props.pending}>
              {label}
            </button>
          </li>
        ))}
      </ul>
      {props.children}
    </Form>
  );
}

/** One button per sign-in option. */
function OptionButtons(props: {
  options: readonly SignInOption[];
  pending: boolean;
  send: CardProps<'providerChooser'>['send'];
  children?: ReactNode;
}) {
  return (
    <Choices
      event="CHOOSE_PROVIDER"
      name="providerId"
      choices={props.options.map(optionButton)}
      kind="doorway-button doorway-provider"
      pending={props.pending}
      send={props.send}
    >
      {props.children}
    </Choices>
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
        <Choices
          event="CHOOSE_TENANT"
          name="tenantId"
          choices={config.tenants.map((t) => [t.id ?? '', t.displayName])}
          kind="doorway-button doorway-secondary"
          pending={pending}
          send={send}
        />
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
      <OptionButtons options={options} pending={pending} send={send}>
        {canGoBack ? (
          <Actions>
            <Button secondary event="CANCEL" disabled={pending}>
              {uiText.back}
            </Button>
          </Actions>
        ) : null}
      </OptionButtons>
      <Legal />
    </Card>
  );
}

/** Email entry: the first step of every email flow. */
export function EmailEntry({ state, send }: CardProps<'emailEntry'>) {
  const { config } = useWidget();
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  const options = optionsFor(config, config.tenants ? state.tenantId : undefined);
  const canCancel = config.displayMode === 'optionFirst' && options.length > 1;
  // Identifier-first starts here, so the other options are offered beside the email form.
  const others =
    config.displayMode === 'identifierFirst' ? options.filter((o) => o.provider !== 'email') : [];
  return (
    <Card title={uiText.emailEntryTitle}>
      <Form
        event="SUBMIT_EMAIL"
        send={send}
        pending={pending}
        submit={(form) => ({ type: 'SUBMIT_EMAIL', email: fieldValue(form, 'email') })}
      >
        <CardError message={errors.card} />
        <Field
          label={uiText.emailLabel}
          type="email"
          name="email"
          autoComplete="email"
          spellCheck={false}
          defaultValue={state.email}
          error={errors.email}
        />
        <Actions>
          <Button disabled={pending}>{uiText.next}</Button>
          {canCancel ? (
            <Button secondary event="CANCEL" disabled={pending}>
              {uiText.cancel}
            </Button>
          ) : null}
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
      <NeedsScripts />
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
