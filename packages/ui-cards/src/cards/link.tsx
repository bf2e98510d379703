import { type AuthCredential, providerName, uiText, type WidgetConfig } from '@doorway/auth-core';
import { type CardProps, type UiEvent, useWidget } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Form, Text } from '../parts.tsx';
import { Action } from './action.tsx';
import { CancelButton, ConfirmCard, EmailCard, oneField, PasswordField, textCard } from './common.tsx';

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
  return (
    <ConfirmCard
      title={uiText.emailNotReceivedTitle}
      text={uiText.emailNotReceivedText}
      event="RESEND_EMAIL"
      action={uiText.resendEmail}
      cancel={uiText.back}
      state={state}
      send={send}
    />
  );
}

/** Email-link confirmation: the link was opened on another device, so ask for the email again. */
export function EmailLinkConfirmation({ state, send }: CardProps<'emailLinkConfirmation'>) {
  return (
    <EmailCard
      title={uiText.emailLinkConfirmationTitle}
      text={uiText.emailLinkConfirmationText}
      event="CONFIRM_EMAIL"
      action={uiText.next}
      state={state}
      send={send}
    />
  );
}

/** Federated sign-in: the account uses an identity provider; sign in with it. */
export function FederatedSignIn({ state, send }: CardProps<'federatedSignIn'>) {
  const name = nameOf(useWidget().config, state.providerId);
  return (
    <ConfirmCard
      title={uiText.federatedSignInTitle}
      text={uiText.federatedSignInText(state.email, name)}
      event="SIGN_IN_FEDERATED"
      action={uiText.signInWith(name)}
      needsScripts
      state={state}
      send={send}
    />
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
      <Form {...oneField('SUBMIT_PASSWORD', 'password', send, pending)}>
        <CardError message={errors.card} />
        <input type="email" hidden readOnly autoComplete="username" value={state.email} />
        <PasswordField error={errors.password} />
        <Actions>
          <Button disabled={pending}>{uiText.signIn}</Button>
          <CancelButton pending={pending} />
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
  return (
    <ConfirmCard
      title={uiText.linkingTitle}
      text={uiText.federatedLinkingText(
        state.email,
        existing,
        credentialName(config, state.pendingCredential),
      )}
      event="SIGN_IN_FEDERATED"
      action={uiText.signInWith(existing)}
      needsScripts
      state={state}
      send={send}
    />
  );
}

/** Account linking by email link: the existing account signs in with a link, then links. */
export function EmailLinkLinking({ state, send }: CardProps<'emailLinkLinking'>) {
  const { config } = useWidget();
  return (
    <ConfirmCard
      title={uiText.linkingTitle}
      text={uiText.emailLinkLinkingText(state.email, credentialName(config, state.pendingCredential))}
      event="SEND_LINKING_EMAIL"
      action={uiText.sendLink}
      state={state}
      send={send}
    />
  );
}

/** Email mismatch: the IdP returned a different email than the one entered. */
export function EmailMismatch({ state, send }: CardProps<'emailMismatch'>) {
  return (
    <ConfirmCard
      title={uiText.emailMismatchTitle}
      text={uiText.emailMismatchText(state.enteredEmail, state.result.user.email ?? '')}
      event="CONTINUE"
      action={uiText.continue}
      state={state}
      send={send}
    />
  );
}

function StartOver(props: { send: (event: UiEvent) => void }) {
  return (
    <Action event="CANCEL" send={props.send}>
      {uiText.startOver}
    </Action>
  );
}

/** Anonymous-user mismatch: the link belongs to another guest session. */
export const AnonymousUserMismatch = textCard<'anonymousUserMismatch'>(
  uiText.anonymousUserMismatchTitle,
  uiText.anonymousUserMismatchText,
  StartOver,
);

/** Different-device error: the link must be opened where the sign-in started. */
export const DifferentDeviceError = textCard<'differentDeviceError'>(
  uiText.differentDeviceErrorTitle,
  uiText.differentDeviceErrorText,
  StartOver,
);

/** Session ended: the email-link session expired (3600 s). */
export const SessionEnded = textCard<'sessionEnded'>(
  uiText.sessionEndedTitle,
  uiText.sessionEndedText,
  StartOver,
);
