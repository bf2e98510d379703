import { uiText } from '@doorway/auth-core';
import { useEffect } from 'react';
import type { CardProps } from '../context.ts';
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
  Text,
} from '../parts.tsx';
import { Action } from './action.tsx';
import { CancelButton, EmailCard, EmailField, oneField, PasswordField } from './common.tsx';

/**
 * The password typed on the combined card when the person chose "Create account", for the sign-up card that
 * follows (same email; one widget per page). Taken by that card once mounted; never in the flow's state, and
 * never in the page's markup (set as the field's value, not as its `value` attribute).
 */
let typedPassword: { email: string; password: string } | null = null;

/**
 * Password sign-in. With `offerSignUp` (email-enumeration protection: the account may or may not exist)
 * it is the combined card that also offers "Create account".
 */
export function PasswordSignIn({ state, send }: CardProps<'passwordSignIn'>) {
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={state.offerSignUp ? uiText.combinedSignInTitle : uiText.passwordSignInTitle}>
      {state.offerSignUp ? <Text>{uiText.combinedSignInText}</Text> : null}
      <Form {...oneField('SUBMIT_PASSWORD', 'password', send, pending)}>
        <CardError message={errors.card} />
        <Field label={uiText.emailLabel} type="email" autoComplete="username" readOnly value={state.email} />
        <PasswordField error={errors.password} />
        <Actions>
          <Button disabled={pending}>{uiText.signIn}</Button>
          {state.offerSignUp ? (
            <Button
              secondary
              event="GO_TO_SIGN_UP"
              disabled={pending}
              onClick={(e) => {
                const password = e.currentTarget.form ? fieldValue(e.currentTarget.form, 'password') : '';
                typedPassword = { email: state.email, password };
              }}
            >
              {uiText.createAccount}
            </Button>
          ) : null}
          <CancelButton pending={pending} />
          <Button link event="GO_TO_RECOVERY" disabled={pending}>
            {uiText.troubleSigningIn}
          </Button>
        </Actions>
      </Form>
      <Legal />
    </Card>
  );
}

/** Password sign-up, with the name field when the email option requires a display name. */
export function PasswordSignUp({ state, send }: CardProps<'passwordSignUp'>) {
  const errors = errorsFor(state.error, ['email', 'name', 'password']);
  const pending = state.pending !== null;
  useEffect(() => {
    const kept = typedPassword;
    typedPassword = null;
    const field = document.querySelector<HTMLInputElement>(
      '.doorway-card input[autocomplete="new-password"]',
    );
    if (kept?.email === state.email && field && !field.value) field.value = kept.password;
  }, [state.email]);
  return (
    <Card title={uiText.passwordSignUpTitle}>
      <Form
        event="SUBMIT_SIGN_UP"
        send={send}
        pending={pending}
        submit={(form) => ({
          type: 'SUBMIT_SIGN_UP',
          email: fieldValue(form, 'email'),
          name: fieldValue(form, 'name'),
          password: fieldValue(form, 'password'),
        })}
      >
        <CardError message={errors.card} />
        <EmailField defaultValue={state.email} error={errors.email} />
        {state.requireName ? (
          <Field
            label={uiText.nameLabel}
            type="text"
            name="name"
            autoComplete="name"
            defaultValue={state.name}
            error={errors.name}
          />
        ) : null}
        <PasswordField isNew error={errors.password} />
        <Actions>
          <Button disabled={pending}>{uiText.save}</Button>
          <CancelButton pending={pending} />
        </Actions>
      </Form>
      <Legal />
    </Card>
  );
}

/** Password recovery: asks where to send the reset email. */
export function PasswordRecovery({ state, send }: CardProps<'passwordRecovery'>) {
  return (
    <EmailCard
      title={uiText.passwordRecoveryTitle}
      text={uiText.passwordRecoveryText}
      event="SUBMIT_RECOVERY"
      action={uiText.send}
      state={state}
      send={send}
    />
  );
}

/** Recovery email sent. */
export function RecoveryEmailSent({ state, send }: CardProps<'recoveryEmailSent'>) {
  return (
    <Card title={uiText.recoveryEmailSentTitle}>
      <Text>{uiText.recoveryEmailSentText(state.email)}</Text>
      <Action event="CONTINUE" send={send}>
        {uiText.done}
      </Action>
    </Card>
  );
}

/** Password reset (action code `resetPassword`): choose a new password. */
export function PasswordReset({ state, send }: CardProps<'passwordReset'>) {
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.passwordResetTitle}>
      <Text>{uiText.passwordResetFor(state.email)}</Text>
      <Form {...oneField('SUBMIT_NEW_PASSWORD', 'password', send, pending)}>
        <CardError message={errors.card} />
        <input type="email" hidden readOnly autoComplete="username" value={state.email} />
        <PasswordField isNew error={errors.password} />
        <Actions>
          <Button disabled={pending}>{uiText.save}</Button>
        </Actions>
      </Form>
    </Card>
  );
}
