/**
 * `<DeleteAccount>`: deletes the signed-in user's account once they type the confirmation word.
 * @module
 */
import { type FormEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { Actions, Button, Field, Text } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { type AccountSectionProps, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { deleteText } from './text.ts';

/** Props of {@link DeleteAccount}. */
export interface DeleteAccountProps extends AccountSectionProps {
  /** Called once the account is deleted (and signed out): end the session, show a "deleted" page. */
  onDeleted?: () => void;
}

/**
 * The confirmation's mismatch, shown under its field: on each one focus moves to the field (its
 * description says it), or, when it is there already, the assertive region says it.
 */
function useMismatch(form: RefObject<HTMLFormElement | null>, announce: SectionBody['announce']) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (count === 0) return;
    const field = form.current?.querySelector<HTMLElement>('[aria-invalid=true]');
    if (field && field !== document.activeElement) field.focus();
    else announce(deleteText.mismatch, true);
  }, [count, form, announce]);
  return { shown: count > 0, show: () => setCount((n) => n + 1), hide: () => setCount(0) };
}

function DeleteForm(props: SectionBody & { onDeleted: DeleteAccountProps['onDeleted'] }) {
  const { ops, done } = props;
  const attempt = useAttempt();
  const [word, setWord] = useState('');
  const [deleted, setDeleted] = useState(false);
  const form = useRef<HTMLFormElement | null>(null);
  const mismatch = useMismatch(form, props.announce);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (word.trim().toLowerCase() !== deleteText.word) return mismatch.show();
    mismatch.hide();
    void attempt.run(async () => {
      await ops.deleteAccount();
      setDeleted(true);
      done(deleteText.deleted);
      props.onDeleted?.();
      return null;
    });
  };
  if (deleted) return <Text>{deleteText.deleted}</Text>;
  return (
    <form
      ref={(element) => {
        form.current = element;
        attempt.scope(element);
      }}
      className="doorway-form"
      noValidate
      onSubmit={submit}
      aria-busy={attempt.pending || undefined}
    >
      <ErrorNote message={fieldErrors(attempt.error, {}).card} attempt={attempt} />
      <Field
        label={deleteText.confirmLabel}
        name="confirm"
        autoComplete="off"
        spellCheck={false}
        value={word}
        error={mismatch.shown ? deleteText.mismatch : undefined}
        onChange={(e) => setWord(e.target.value)}
      />
      <Actions>
        <Button className="doorway-button doorway-danger" disabled={attempt.pending}>
          {deleteText.submit}
        </Button>
      </Actions>
    </form>
  );
}

/**
 * "Delete account": the person types the confirmation word, then the account is deleted and signed out
 * everywhere, and `onDeleted` runs. Renders only when `provider.capabilities.account` lists
 * `deleteAccount`.
 * @example
 * <DeleteAccount provider={provider} reauthenticate={() => openSignInDialog()} onDeleted={() => goTo('/deleted')} />
 */
export function DeleteAccount(props: DeleteAccountProps) {
  return (
    <Section {...props} needs={['deleteAccount']} title={deleteText.title} intro={deleteText.intro}>
      {(body) => <DeleteForm {...body} onDeleted={props.onDeleted} />}
    </Section>
  );
}
