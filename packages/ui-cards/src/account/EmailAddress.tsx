/**
 * `<EmailAddress>`: changes the account's email address the backend's safe way (the new address confirms
 * by an emailed link first; on some backends the current one too), and shows the pending change.
 * @module
 */
import { type ActionLinkSettings, type PendingEmailChange, sameEmail, typedEmail } from '@doorway/auth-core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Actions, Button, Field, Text } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { type AccountSectionProps, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { emailText } from './text.ts';

/** Props of {@link EmailAddress}. */
export interface EmailAddressProps extends AccountSectionProps {
  /** Where the emailed link leads (the page that handles its code), passed to `changeEmail`. */
  actionLinkSettings?: ActionLinkSettings;
  /** A change started earlier and not confirmed yet (e.g. kept by the host across visits). */
  pending?: PendingEmailChange | null;
  /** Called with each change started. */
  onPending?: (pending: PendingEmailChange) => void;
}

const EMAIL_FIELD = {
  'email-required': 'email',
  'email-invalid': 'email',
  'invalid-email': 'email',
  'email-already-in-use': 'email',
} as const;

/** The pending change, until the account has the new address. */
function Pending(props: { pending: PendingEmailChange; onAnother: () => void }) {
  const { pending } = props;
  return (
    <div className="doorway-pending">
      <Text>{emailText.pending(pending.pendingEmail)}</Text>
      {pending.confirmBy === 'both' ? <Text>{emailText.pendingBoth}</Text> : null}
      <Actions>
        <Button type="button" secondary onClick={props.onAnother}>
          {emailText.another}
        </Button>
      </Actions>
    </div>
  );
}

function ChangeEmail(props: SectionBody & Omit<EmailAddressProps, keyof AccountSectionProps>) {
  const { ops, done } = props;
  const attempt = useAttempt();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(props.pending ?? null);
  // "Use another address" pressed: focus goes to the new address's field (the button is gone).
  const [again, setAgain] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (again > 0) box.current?.querySelector('input')?.focus();
  }, [again]);
  const current = props.user()?.email ?? null;
  const errors = fieldErrors(attempt.error, EMAIL_FIELD);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = typedEmail(email);
    if (typed.invalid) return attempt.fail(typed.invalid);
    void attempt.run(async () => {
      const started = await ops.changeEmail(typed.email, props.actionLinkSettings);
      setPending(started);
      setEmail('');
      props.onPending?.(started);
      done(emailText.sent(started.pendingEmail));
      return null;
    });
  };
  // Confirmed (the account has the new address): nothing pends any more.
  const shown = pending && !(current && sameEmail(current, pending.pendingEmail)) ? pending : null;
  return (
    <div ref={box}>
      {current ? <Text>{emailText.current(current)}</Text> : null}
      {shown ? (
        <Pending
          pending={shown}
          onAnother={() => {
            setPending(null);
            setAgain((n) => n + 1);
          }}
        />
      ) : (
        <form
          ref={attempt.scope}
          className="doorway-form"
          noValidate
          onSubmit={submit}
          aria-busy={attempt.pending || undefined}
        >
          <ErrorNote message={errors.card} attempt={attempt} />
          <Field
            label={emailText.newLabel}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Actions>
            <Button disabled={attempt.pending}>{emailText.change}</Button>
          </Actions>
        </form>
      )}
    </div>
  );
}

/**
 * The account's email address, and a form to change it: the new address (the sign-up rules and messages),
 * then the backend emails a confirmation link; the change shows as pending until the account has it.
 * Renders only when `provider.capabilities.account` lists `changeEmail`.
 * @example
 * <EmailAddress provider={provider} actionLinkSettings={{ url: 'https://app.example/auth/action' }} />
 */
export function EmailAddress(props: EmailAddressProps) {
  const { provider, reauthenticate, ...rest } = props;
  return (
    <Section
      provider={provider}
      reauthenticate={reauthenticate}
      needs={['changeEmail']}
      title={emailText.title}
    >
      {(body) => <ChangeEmail {...body} {...rest} />}
    </Section>
  );
}
