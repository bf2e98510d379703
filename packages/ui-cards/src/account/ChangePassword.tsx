/**
 * `<ChangePassword>`: changes the account's password (the current one first, when it has one), or sets one
 * on an account without (signed in by an email link, a phone or a federated provider).
 * @module
 */
import { validateNewPassword, validatePassword } from '@doorway/auth-core';
import { type FormEvent, useState } from 'react';
import { Actions, Button, Field, Text } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { type AccountSectionProps, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { passwordText } from './text.ts';

/** Props of {@link ChangePassword}. */
export interface ChangePasswordProps extends AccountSectionProps {
  /**
   * Whether the account has a password (absent: whether the signed-in user's methods list `password`).
   * Without one the section sets a password and asks for no current one.
   */
  hasPassword?: boolean;
  /** Called after each change. */
  onChange?: () => void;
}

// The current password's emptiness is `missing-password`, the new one's `password-required`: each has its field.
const PASSWORD_FIELDS = {
  'missing-password': 'current',
  'wrong-password': 'current',
  'password-required': 'next',
  'password-weak': 'next',
  'weak-password': 'next',
} as const;

function PasswordForm(props: SectionBody & Omit<ChangePasswordProps, keyof AccountSectionProps>) {
  const { ops, done } = props;
  const attempt = useAttempt();
  const [has, setHas] = useState(
    () => props.hasPassword ?? props.user()?.providerIds.includes('password') ?? true,
  );
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const errors = fieldErrors(attempt.error, PASSWORD_FIELDS);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (has && validatePassword(current, undefined)) return attempt.fail('missing-password');
    const weak = validateNewPassword(next, undefined);
    if (weak) return attempt.fail(weak);
    void attempt.run(async () => {
      await ops.changePassword(next, has ? current : undefined);
      setCurrent('');
      setNext('');
      setHas(true);
      props.onChange?.();
      done(has ? passwordText.changed : passwordText.setDone);
      return null;
    });
  };
  return (
    <form
      ref={attempt.scope}
      className="doorway-form"
      noValidate
      onSubmit={submit}
      aria-busy={attempt.pending || undefined}
    >
      {has ? null : <Text>{passwordText.setIntro}</Text>}
      <ErrorNote message={errors.card} attempt={attempt} />
      {has ? (
        <Field
          label={passwordText.currentLabel}
          type="password"
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          error={errors.current}
          onChange={(e) => setCurrent(e.target.value)}
        />
      ) : null}
      <Field
        label={passwordText.newLabel}
        hint={passwordText.newHint}
        type="password"
        name="newPassword"
        autoComplete="new-password"
        value={next}
        error={errors.next}
        onChange={(e) => setNext(e.target.value)}
      />
      <Actions>
        <Button disabled={attempt.pending}>{has ? passwordText.change : passwordText.set}</Button>
      </Actions>
    </form>
  );
}

/**
 * The password form: the current password (on an account that has one) and a new one, with sign-up's rules
 * and messages; "Set password" on an account without one. Renders only when `provider.capabilities.account`
 * lists `changePassword`.
 * @example
 * <ChangePassword provider={provider} reauthenticate={() => openSignInDialog()} />
 */
export function ChangePassword(props: ChangePasswordProps) {
  const { provider, reauthenticate, ...rest } = props;
  return (
    <Section
      provider={provider}
      reauthenticate={reauthenticate}
      needs={['changePassword']}
      title={passwordText.title}
    >
      {(body) => <PasswordForm {...body} {...rest} />}
    </Section>
  );
}
