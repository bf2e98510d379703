/**
 * `<Profile>`: the signed-in user's display name, for an account page.
 * @module
 */
import type { AuthUser } from '@doorway/auth-core';
import { type FormEvent, useState } from 'react';
import { Actions, Button, Field } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { type AccountSectionProps, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { profileText } from './text.ts';

/** Props of {@link Profile}. */
export interface ProfileProps extends AccountSectionProps {
  /** Called with the updated user after each save. */
  onChange?: (user: AuthUser) => void;
}

function ProfileForm(props: SectionBody & { onChange: ProfileProps['onChange'] }) {
  const { ops, done } = props;
  const attempt = useAttempt();
  const [name, setName] = useState(() => props.user()?.displayName ?? '');
  const errors = fieldErrors(attempt.error, {});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt.run(async () => {
      const trimmed = name.trim();
      const user = await ops.updateProfile({ displayName: trimmed === '' ? null : trimmed });
      setName(user.displayName ?? '');
      props.onChange?.(user);
      done(profileText.saved);
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
      <ErrorNote message={errors.card} attempt={attempt} />
      <Field
        label={profileText.nameLabel}
        hint={profileText.nameHint}
        name="displayName"
        autoComplete="name"
        maxLength={256}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <Actions>
        <Button disabled={attempt.pending}>{profileText.save}</Button>
      </Actions>
    </form>
  );
}

/**
 * The display name, with Save (blank: none). Renders only when `provider.capabilities.account` lists
 * `updateProfile`. Style it with `styles.css` and `account.css`.
 * @example
 * <Profile provider={provider} reauthenticate={() => openSignInDialog()} />
 */
export function Profile(props: ProfileProps) {
  return (
    <Section {...props} needs={['updateProfile']} title={profileText.title}>
      {(body) => <ProfileForm {...body} onChange={props.onChange} />}
    </Section>
  );
}
