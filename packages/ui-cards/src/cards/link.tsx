import { type AuthCredential, providerName, uiText, type WidgetConfig } from '@doorway/auth-core';
import { useState } from 'react';
import { type CardProps, useWidget } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Text } from '../parts.tsx';

/** The configured name of a federated provider (`google.com` → "Google"). */
function nameOf(config: WidgetConfig, providerId: string): string {
  const all = [...config.signInOptions, ...(config.tenants ?? []).flatMap((t) => t.signInOptions)];
  for (const o of all) if (o.provider === 'federated' && o.providerId === providerId) return o.name;
  return providerName(providerId);
}

function credentialName(config: WidgetConfig, credential: AuthCredential): string {
  return credential.kind === 'federated'
    ? nameOf(config, credential.providerId)
    : providerName(credential.kind);
}

/** Email-link sent: check your inbox. */
export function EmailLinkSent({ state, send }: CardProps<'emailLinkSent'>) {
  return (
    <Card title={uiText.emailLinkSentTitle}>
      <Text>{uiText.emailLinkSentText(state.email)}</Text>
      <Actions>
        <Button link onClick={() => send({ type: 'EMAIL_NOT_RECEIVED' })}>
          {uiText.troubleGettingEmail}
        </Button>
        <Button secondary onClick={() => send({ type: 'CANCEL' })}>
          {uiText.back}
        </Button>
      </Actions>
    </Card>
  );
}

/** Email not received: common fixes and a Resend button. */
export function EmailNotReceived({ state, send }: CardProps<'emailNotReceived'>) {
  const pending = state.pending !== null;
  return (
    <Card title={uiText.emailNotReceivedTitle}>
      <Text>{uiText.emailNotReceivedText}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Actions>
        <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
          {uiText.back}
        </Button>
        <Button disabled={pending} onClick={() => send({ type: 'RESEND_EMAIL' })}>
          {uiText.resendEmail}
        </Button>
      </Actions>
    </Card>
  );
}

/** Email-link confirmation: the link was opened on another device, so ask for the email again. */
export function EmailLinkConfirmation({ state, send }: CardProps<'emailLinkConfirmation'>) {
  const [email, setEmail] = useState(state.email);
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.emailLinkConfirmationTitle}>
      <Text>{uiText.emailLinkConfirmationText}</Text>
      <Form pending={pending} onSubmit={() => send({ type: 'CONFIRM_EMAIL', email })}>
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
          <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
            {uiText.cancel}
          </Button>
          <Button submit disabled={pending}>
            {uiText.next}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

/** Federated sign-in: the account uses an identity provider; sign in with it. */
export function FederatedSignIn({ state, send }: CardProps<'federatedSignIn'>) {
  const { config } = useWidget();
  const name = nameOf(config, state.providerId);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.federatedSignInTitle}>
      <Text>{uiText.federatedSignInText(state.email, name)}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Actions>
        <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
          {uiText.cancel}
        </Button>
        <Button disabled={pending} onClick={() => send({ type: 'SIGN_IN_FEDERATED' })}>
          {uiText.signInWith(name)}
        </Button>
      </Actions>
    </Card>
  );
}

/** Account linking by password: sign in to the existing account to link the new credential. */
export function PasswordLinking({ state, send }: CardProps<'passwordLinking'>) {
  const { config } = useWidget();
  const [password, setPassword] = useState('');
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.linkingTitle}>
      <Text>{uiText.passwordLinkingText(state.email, credentialName(config, state.pendingCredential))}</Text>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_PASSWORD', password })}>
        <CardError message={errors.card} />
        <input type="email" hidden readOnly autoComplete="username" value={state.email} />
        <Field
          label={uiText.passwordLabel}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Actions>
          <Button link disabled={pending} onClick={() => send({ type: 'GO_TO_RECOVERY' })}>
            {uiText.troubleSigningIn}
          </Button>
          <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
            {uiText.cancel}
          </Button>
          <Button submit disabled={pending}>
            {uiText.signIn}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

/** Account linking by another identity provider. */
export function FederatedLinking({ state, send }: CardProps<'federatedLinking'>) {
  const { config } = useWidget();
  const existing = nameOf(config, state.providerId);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.linkingTitle}>
      <Text>
        {uiText.federatedLinkingText(state.email, existing, credentialName(config, state.pendingCredential))}
      </Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Actions>
        <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
          {uiText.cancel}
        </Button>
        <Button disabled={pending} onClick={() => send({ type: 'SIGN_IN_FEDERATED' })}>
          {uiText.signInWith(existing)}
        </Button>
      </Actions>
    </Card>
  );
}

/** Account linking by email link: the existing account signs in with a link, then links. */
export function EmailLinkLinking({ state, send }: CardProps<'emailLinkLinking'>) {
  const { config } = useWidget();
  const pending = state.pending !== null;
  return (
    <Card title={uiText.linkingTitle}>
      <Text>{uiText.emailLinkLinkingText(state.email, credentialName(config, state.pendingCredential))}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Actions>
        <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
          {uiText.cancel}
        </Button>
        <Button disabled={pending} onClick={() => send({ type: 'SEND_LINKING_EMAIL' })}>
          {uiText.sendLink}
        </Button>
      </Actions>
    </Card>
  );
}

/** Email mismatch: the IdP returned a different email than the one entered. */
export function EmailMismatch({ state, send }: CardProps<'emailMismatch'>) {
  const pending = state.pending !== null;
  return (
    <Card title={uiText.emailMismatchTitle}>
      <Text>{uiText.emailMismatchText(state.enteredEmail, state.result.user.email ?? '')}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Actions>
        <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
          {uiText.cancel}
        </Button>
        <Button disabled={pending} onClick={() => send({ type: 'CONTINUE' })}>
          {uiText.continue}
        </Button>
      </Actions>
    </Card>
  );
}

function StartOver(props: CardProps<'anonymousUserMismatch' | 'differentDeviceError' | 'sessionEnded'>) {
  return (
    <Actions>
      <Button onClick={() => props.send({ type: 'CANCEL' })}>{uiText.startOver}</Button>
    </Actions>
  );
}

/** Anonymous-user mismatch: the link belongs to another guest session. */
export function AnonymousUserMismatch(props: CardProps<'anonymousUserMismatch'>) {
  return (
    <Card title={uiText.anonymousUserMismatchTitle}>
      <Text>{uiText.anonymousUserMismatchText}</Text>
      <StartOver {...props} />
    </Card>
  );
}

/** Different-device error: the link must be opened where the sign-in started. */
export function DifferentDeviceError(props: CardProps<'differentDeviceError'>) {
  return (
    <Card title={uiText.differentDeviceErrorTitle}>
      <Text>{uiText.differentDeviceErrorText}</Text>
      <StartOver {...props} />
    </Card>
  );
}

/** Session ended: the email-link session expired (3600 s). */
export function SessionEnded(props: CardProps<'sessionEnded'>) {
  return (
    <Card title={uiText.sessionEndedTitle}>
      <Text>{uiText.sessionEndedText}</Text>
      <StartOver {...props} />
    </Card>
  );
}
