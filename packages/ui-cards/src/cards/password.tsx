import { uiText } from '@doorway/auth-core';
import { useState } from 'react';
import type { CardProps } from '../context.ts';
import { Actions, Button, Card, CardError, errorsFor, Field, Form, Legal, Text } from '../parts.tsx';

/**
 * Password sign-in. With `offerSignUp` (email-enumeration protection: the account may or may not exist)
 * it is the combined card that also offers "Create account".
 */
export function PasswordSignIn({ state, send }: CardProps<'passwordSignIn'>) {
  const [password, setPassword] = useState('');
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={state.offerSignUp ? uiText.combinedSignInTitle : uiText.passwordSignInTitle}>
      {state.offerSignUp ? <Text>{uiText.combinedSignInText}</Text> : null}
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_PASSWORD', password })}>
        <CardError message={errors.card} />
        <Field
          label={uiText.emailLabel}
          type="email"
          name="email"
          autoComplete="username"
          readOnly
          value={state.email}
        />
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
          {state.offerSignUp ? (
            <Button secondary disabled={pending} onClick={() => send({ type: 'GO_TO_SIGN_UP' })}>
              {uiText.createAccount}
            </Button>
          ) : null}
          <Button submit disabled={pending}>
            {uiText.signIn}
          </Button>
        </Actions>
      </Form>
      <Legal />
    </Card>
  );
}

/** Password sign-up, with the name field when the email option requires a display name. */
export function PasswordSignUp({ state, send }: CardProps<'passwordSignUp'>) {
  const [email, setEmail] = useState(state.email);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const errors = errorsFor(state.error, ['email', 'name', 'password']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.passwordSignUpTitle}>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_SIGN_UP', email, name, password })}>
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
        {state.requireName ? (
          <Field
            label={uiText.nameLabel}
            type="text"
            name="name"
            autoComplete="name"
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.target.value)}
          />
        ) : null}
        <Field
          label={uiText.newPasswordLabel}
          type="password"
          name="new-password"
          autoComplete="new-password"
          hint={uiText.passwordHint}
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Actions>
          <Button secondary disabled={pending} onClick={() => send({ type: 'CANCEL' })}>
            {uiText.cancel}
          </Button>
          <Button submit disabled={pending}>
            {uiText.save}
          </Button>
        </Actions>
      </Form>
      <Legal />
    </Card>
  );
}

/** Password recovery: asks where to send the reset email. */
export function PasswordRecovery({ state, send }: CardProps<'passwordRecovery'>) {
  const [email, setEmail] = useState(state.email);
  const errors = errorsFor(state.error, ['email']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.passwordRecoveryTitle}>
      <Text>{uiText.passwordRecoveryText}</Text>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_RECOVERY', email })}>
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
            {uiText.send}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}

/** Recovery email sent. */
export function RecoveryEmailSent({ state, send }: CardProps<'recoveryEmailSent'>) {
  return (
    <Card title={uiText.recoveryEmailSentTitle}>
      <Text>{uiText.recoveryEmailSentText(state.email)}</Text>
      <Actions>
        <Button onClick={() => send({ type: 'CONTINUE' })}>{uiText.done}</Button>
      </Actions>
    </Card>
  );
}

/** Password reset (action code `resetPassword`): choose a new password. */
export function PasswordReset({ state, send }: CardProps<'passwordReset'>) {
  const [password, setPassword] = useState('');
  const errors = errorsFor(state.error, ['password']);
  const pending = state.pending !== null;
  return (
    <Card title={uiText.passwordResetTitle}>
      <Text>{uiText.passwordResetFor(state.email)}</Text>
      <Form pending={pending} onSubmit={() => send({ type: 'SUBMIT_NEW_PASSWORD', password })}>
        <CardError message={errors.card} />
        <input type="email" hidden readOnly autoComplete="username" value={state.email} />
        <Field
          label={uiText.newPasswordLabel}
          type="password"
          name="new-password"
          autoComplete="new-password"
          hint={uiText.passwordHint}
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Actions>
          <Button submit disabled={pending}>
            {uiText.save}
          </Button>
        </Actions>
      </Form>
    </Card>
  );
}
