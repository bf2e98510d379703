import { type AuthCredential, providerName, uiText, type WidgetConfig } from '@doorway/auth-core';
import { type CardProps, useWidget } from '../context.ts';
import {
  Actions,
  Button,
  Card,
  CardError,
  errorsFor,
  Field,
  Form,
  fieldValue,
  NeedsScripts,
  Text,
} from '../parts.tsx';
import { Action } from './action.tsx';

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
      <Form event="CANCEL" send={send}>
        <Actions>
          <Button secondary>{uiText.back}</Button>
          <Button link event="EMAIL_NOT_RECEIVED">
            {uiText.troubleGettingEmail}
          </Button>
        </Actions>
      </Form>
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
      <Form event="RESEND_EMAIL" send={send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{uiText.resendEmail}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.back}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

/** Email-link confirmation: the link was opened on another device, so ask for the email again. */
export function EmailLinkConfirmation({ state, send }: CardProps<'emailLinkConfirmation'>) {
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.emailLinkConfirmationTitle}>
      <Text>{uiText.emailLinkConfirmationText}</Text>
      <Form
        event="CONFIRM_EMAIL"
        send={send}
        pending={pending}
        submit={(form) => ({ type: 'CONFIRM_EMAIL', email: fieldValue(form, 'email') })}
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
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
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
      <NeedsScripts />
      <Form event="SIGN_IN_FEDERATED" send={send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{uiText.signInWith(name)}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

/** Account linking by password: sign in to the existing account to link the new credential. */
export function PasswordLinking({ state, send }: CardProps<'passwordLinking'>) {
  const { config } = useWidget();
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.linkingTitle}>
      <Text>{uiText.passwordLinkingText(state.email, credentialName(config, state.pendingCredential))}</Text>
      <Form
        event="SUBMIT_PASSWORD"
        send={send}
        pending={pending}
        submit={(form) => ({ type: 'SUBMIT_PASSWORD', password: fieldValue(form, 'password') })}
      >
        <CardError message={errors.card} />
        <input type="email" hidden readOnly autoComplete="username" value={state.email} />
        <Field
          label={uiText.passwordLabel}
          type="password"
          name="password"
          autoComplete="current-password"
          error={errors.password}
        />
        <Actions>
          <Button disabled={pending}>{uiText.signIn}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
          </Button>
          <Button link event="GO_TO_RECOVERY" disabled={pending}>
            {uiText.troubleSigningIn}
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
      <NeedsScripts />
      <Form event="SIGN_IN_FEDERATED" send={send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{uiText.signInWith(existing)}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
          </Button>
        </Actions>
      </Form>
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
      <Form event="SEND_LINKING_EMAIL" send={send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{uiText.sendLink}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
          </Button>
        </Actions>
      </Form>
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
      <Form event="CONTINUE" send={send} pending={pending}>
        <Actions>
          <Button disabled={pending}>{uiText.continue}</Button>
          <Button secondary event="CANCEL" disabled={pending}>
            {uiText.cancel}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

function StartOver(props: CardProps<'anonymousUserMismatch' | 'differentDeviceError' | 'sessionEnded'>) {
  return (
    <Action event="CANCEL" send={props.send}>
      {uiText.startOver}
    </Action>
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
