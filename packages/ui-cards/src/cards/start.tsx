import { messageFor, optionsFor, type SignInOption, uiText } from '@doorway/auth-core';
import { useState } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Legal, Text } from '../parts.tsx';

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

/** Unsupported provider: the account's sign-in method is not offered here. */
export function UnsupportedProvider({ state, send }: CardProps<'unsupportedProvider'>) {
  return (
    <Card title={uiText.unsupportedProviderTitle}>
      <Text>{uiText.unsupportedProviderText(state.email)}</Text>
      <Actions>
        <Button onClick={() => send({ type: 'CANCEL' })}>{uiText.back}</Button>
      </Actions>
    </Card>
  );
}

/** Unauthorized user: sign-up is restricted and this email has no account. */
export function UnauthorizedUser({ state, send }: CardProps<'unauthorizedUser'>) {
  return (
    <Card title={uiText.unauthorizedUserTitle}>
      <Text>{uiText.unauthorizedUserText(state.email)}</Text>
      {state.adminEmail ? (
        <Text>
          <a href={`mailto:${state.adminEmail}`}>{state.adminEmail}</a>
        </Text>
      ) : null}
      {state.helpLink ? (
        <Text>
          <a href={state.helpLink}>{uiText.learnMore}</a>
        </Text>
      ) : null}
      <Actions>
        <Button onClick={() => send({ type: 'CANCEL' })}>{uiText.back}</Button>
      </Actions>
    </Card>
  );
}
