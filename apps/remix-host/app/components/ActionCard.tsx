import { type MessageKey, messageFor, uiText } from '@doorway/auth-core';
import type { ReactNode } from 'react';
import type { ActionView } from '../action.server.ts';

/** Props of {@link ActionCard}. */
export interface ActionCardProps {
  view: Exclude<ActionView, { card: 'widget' }>;
  /** The action page's query (`?mode=…&oobCode=…`): forms post it to `/action/submit`, Retry reopens it. */
  query: string;
}

/**
 * The action pages' cards as static markup: the widget's text catalogue and CSS classes, plain links and
 * `<form method="post">`, so every page works with JavaScript off.
 */
export function ActionCard({ view, query }: ActionCardProps) {
  return (
    <div className="doorway" data-card={view.card}>
      <CardBody view={view} formAction={`/action/submit${query}`} retry={`/action${query}`} />
    </div>
  );
}

function CardBody({
  view,
  formAction,
  retry,
}: {
  view: ActionCardProps['view'];
  formAction: string;
  retry: string;
}) {
  switch (view.card) {
    case 'passwordReset':
      return (
        <Card title={uiText.passwordResetTitle}>
          <Text>{uiText.passwordResetFor(view.email)}</Text>
          <form className="doorway-form" method="post" action={formAction} noValidate>
            <input type="hidden" name="intent" value="resetPassword" />
            <input type="email" hidden readOnly autoComplete="username" value={view.email} />
            <PasswordField error={view.error} />
            <div className="doorway-actions">
              <button type="submit" className="doorway-button">
                {uiText.save}
              </button>
            </div>
          </form>
        </Card>
      );
    case 'passwordResetSuccess':
      return (
        <Card title={uiText.passwordResetSuccessTitle}>
          <Text>{uiText.passwordResetSuccessText}</Text>
          <Continue href={view.continueUrl} />
        </Card>
      );
    case 'passwordResetFailure':
      return <Card title={uiText.passwordResetFailureTitle} text={uiText.passwordResetFailureText} />;
    case 'emailVerificationSuccess':
      return (
        <Card title={uiText.emailVerificationSuccessTitle}>
          <Text>{uiText.emailVerificationSuccessText}</Text>
          <Continue href={view.continueUrl} />
        </Card>
      );
    case 'emailVerificationFailure':
      return <Card title={uiText.emailVerificationFailureTitle} text={uiText.emailVerificationFailureText} />;
    case 'verifyAndChangeEmailSuccess':
      return (
        <Card title={uiText.verifyAndChangeEmailSuccessTitle}>
          <Text>{uiText.verifyAndChangeEmailSuccessText(view.email)}</Text>
          <Continue href={view.continueUrl} />
        </Card>
      );
    case 'verifyAndChangeEmailFailure':
      return (
        <Card title={uiText.verifyAndChangeEmailFailureTitle} text={uiText.verifyAndChangeEmailFailureText} />
      );
    case 'revertSecondFactorAdditionSuccess':
      return (
        <Card title={uiText.revertSecondFactorAdditionSuccessTitle}>
          <Text>{uiText.revertSecondFactorAdditionSuccessText(view.factor)}</Text>
          {view.email ? <ChangePassword email={view.email} formAction={formAction} /> : null}
        </Card>
      );
    case 'revertSecondFactorAdditionFailure':
      return (
        <Card
          title={uiText.revertSecondFactorAdditionFailureTitle}
          text={uiText.revertSecondFactorAdditionFailureText}
        />
      );
    case 'emailChangeRevoked':
      return (
        <Card title={uiText.emailChangeRevokedTitle}>
          <Text>{uiText.emailChangeRevokedText(view.email)}</Text>
          <Text>{uiText.emailChangeRevokedResetText}</Text>
          <ChangePassword email={view.email} formAction={formAction} />
        </Card>
      );
    case 'emailChangeRevokeFailure':
      return <Card title={uiText.emailChangeRevokeFailureTitle} text={uiText.emailChangeRevokeFailureText} />;
    case 'recoverableError':
      return (
        <Card title={uiText.recoverableErrorTitle}>
          <Text>{messageFor(view.message)}</Text>
          <div className="doorway-actions">
            <a className="doorway-button" href={retry}>
              {uiText.retry}
            </a>
          </div>
        </Card>
      );
    case 'passwordRecovery':
      return (
        <Card title={uiText.passwordRecoveryTitle}>
          <Text>{uiText.passwordRecoveryText}</Text>
          <form className="doorway-form" method="post" action={formAction} noValidate>
            <input type="hidden" name="intent" value="sendPasswordReset" />
            <EmailField email={view.email} error={view.error} />
            <div className="doorway-actions">
              <button type="submit" className="doorway-button">
                {uiText.send}
              </button>
            </div>
          </form>
        </Card>
      );
    case 'recoveryEmailSent':
      return (
        <Card title={uiText.recoveryEmailSentTitle}>
          <Text>{uiText.recoveryEmailSentText(view.email)}</Text>
          <div className="doorway-actions">
            <a className="doorway-button" href="/login">
              {uiText.done}
            </a>
          </div>
        </Card>
      );
  }
}

function Card(props: { title: string; text?: string; children?: ReactNode }) {
  return (
    <section className="doorway-card">
      <h1 className="doorway-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.text ? <Text>{props.text}</Text> : null}
      {props.children}
    </section>
  );
}

function Text(props: { children: ReactNode }) {
  return <p className="doorway-text">{props.children}</p>;
}

function Continue({ href }: { href: string }) {
  return (
    <div className="doorway-actions">
      <a className="doorway-button" href={href}>
        {uiText.continue}
      </a>
    </div>
  );
}

/** "Change password": sends a reset email to the account's (restored) address. */
function ChangePassword({ email, formAction }: { email: string; formAction: string }) {
  return (
    <form method="post" action={formAction} className="doorway-actions">
      <input type="hidden" name="intent" value="sendPasswordReset" />
      <input type="hidden" name="email" value={email} />
      <button type="submit" className="doorway-button">
        {uiText.resetPasswordAction}
      </button>
    </form>
  );
}

function Described(props: {
  id: string;
  label: string;
  hint?: string;
  error: MessageKey | null;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.error ? 'doorway-field doorway-field-error' : 'doorway-field'}>
      <label className="doorway-label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint ? (
        <p id={hintId} className="doorway-hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="doorway-error" role="alert">
          {messageFor(props.error)}
        </p>
      ) : null}
      {props.children(describedBy)}
    </div>
  );
}

function PasswordField({ error }: { error: MessageKey | null }) {
  return (
    <Described id="new-password" label={uiText.newPasswordLabel} hint={uiText.passwordHint} error={error}>
      {(describedBy) => (
        <input
          className="doorway-input"
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Described>
  );
}

function EmailField({ email, error }: { email: string; error: MessageKey | null }) {
  return (
    <Described id="email" label={uiText.emailLabel} error={error}>
      {(describedBy) => (
        <input
          className="doorway-input"
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          defaultValue={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Described>
  );
}
