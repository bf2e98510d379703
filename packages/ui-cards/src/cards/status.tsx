import { messageFor, uiText } from '@doorway/auth-core';
import type { CardProps, UiEvent } from '../context.ts';
import { Card, CardError, errorsFor, Text } from '../parts.tsx';
import { Action } from './action.tsx';
import { textCard } from './common.tsx';

/** The Continue of a success card (it goes on to the continue URL, if any). */
function ContinueButton({ state, send }: { state: { pending: unknown }; send: (event: UiEvent) => void }) {
  return (
    <Action event="CONTINUE" send={send} pending={state.pending !== null}>
      {uiText.continue}
    </Action>
  );
}

/** Password reset success. */
export const PasswordResetSuccess = textCard<'passwordResetSuccess'>(
  uiText.passwordResetSuccessTitle,
  uiText.passwordResetSuccessText,
  ContinueButton,
);

/** Password reset failure: the code expired or was used. */
export const PasswordResetFailure = textCard<'passwordResetFailure'>(
  uiText.passwordResetFailureTitle,
  uiText.passwordResetFailureText,
);

/** Email verification success. */
export const EmailVerificationSuccess = textCard<'emailVerificationSuccess'>(
  uiText.emailVerificationSuccessTitle,
  uiText.emailVerificationSuccessText,
  ContinueButton,
);

/** Email verification failure. */
export const EmailVerificationFailure = textCard<'emailVerificationFailure'>(
  uiText.emailVerificationFailureTitle,
  uiText.emailVerificationFailureText,
);

/** Verify-and-change-email success: the new email is in force. */
export function VerifyAndChangeEmailSuccess(props: CardProps<'verifyAndChangeEmailSuccess'>) {
  return (
    <Card title={uiText.verifyAndChangeEmailSuccessTitle}>
      <Text>{uiText.verifyAndChangeEmailSuccessText(props.state.email)}</Text>
      <ContinueButton {...props} />
    </Card>
  );
}

/** Verify-and-change-email failure. */
export const VerifyAndChangeEmailFailure = textCard<'verifyAndChangeEmailFailure'>(
  uiText.verifyAndChangeEmailFailureTitle,
  uiText.verifyAndChangeEmailFailureText,
);

/** Second factor removed; offers a password reset in case someone else added it. */
export function RevertSecondFactorAdditionSuccess({
  state,
  send,
}: CardProps<'revertSecondFactorAdditionSuccess'>) {
  return (
    <Card title={uiText.revertSecondFactorAdditionSuccessTitle}>
      <Text>{uiText.revertSecondFactorAdditionSuccessText(state.factor)}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      {state.email ? (
        <Action event="CONTINUE" send={send} pending={state.pending !== null}>
          {uiText.resetPasswordAction}
        </Action>
      ) : null}
    </Card>
  );
}

/** Second factor could not be removed. */
export const RevertSecondFactorAdditionFailure = textCard<'revertSecondFactorAdditionFailure'>(
  uiText.revertSecondFactorAdditionFailureTitle,
  uiText.revertSecondFactorAdditionFailureText,
);

/** Email change revoked (action code `recoverEmail`); offers a password reset. */
export function EmailChangeRevoked({ state, send }: CardProps<'emailChangeRevoked'>) {
  return (
    <Card title={uiText.emailChangeRevokedTitle}>
      <Text>{uiText.emailChangeRevokedText(state.email)}</Text>
      <Text>{uiText.emailChangeRevokedResetText}</Text>
      <CardError message={errorsFor(state.error, []).card} />
      <Action event="CONTINUE" send={send} pending={state.pending !== null}>
        {uiText.resetPasswordAction}
      </Action>
    </Card>
  );
}

/** Email change revoke failure. */
export const EmailChangeRevokeFailure = textCard<'emailChangeRevokeFailure'>(
  uiText.emailChangeRevokeFailureTitle,
  uiText.emailChangeRevokeFailureText,
);

/** Signed out. */
export function SignOut({ send }: CardProps<'signOut'>) {
  return (
    <Card title={uiText.signOutTitle}>
      <Text>{uiText.signOutText}</Text>
      <Action event="SIGN_IN_AGAIN" send={send}>
        {uiText.signInAgain}
      </Action>
    </Card>
  );
}

/** A recoverable error (e.g. network): Retry. */
export function RecoverableError({ state, send }: CardProps<'recoverableError'>) {
  return (
    <Card title={uiText.recoverableErrorTitle}>
      <Text>{messageFor(state.message)}</Text>
      <Action event="RETRY" send={send} pending={state.pending !== null}>
        {uiText.retry}
      </Action>
    </Card>
  );
}

/** "Signed in!" / "Verified!" for 1 s before the redirect; stays (with Sign out) when there is none. */
export function SignedIn({ state, send }: CardProps<'signedIn'>) {
  return (
    <Card title={uiText[state.message]}>
      {state.result?.user.email ? <Text>{state.result.user.email}</Text> : null}
      <Action event="SIGN_OUT" send={send} pending={state.pending !== null} secondary>
        {uiText.signOut}
      </Action>
    </Card>
  );
}

/** Unsupported provider: the account's sign-in method is not offered here. */
export function UnsupportedProvider({ state, send }: CardProps<'unsupportedProvider'>) {
  return (
    <Card title={uiText.unsupportedProviderTitle}>
      <Text>{uiText.unsupportedProviderText(state.email)}</Text>
      <Action event="CANCEL" send={send}>
        {uiText.back}
      </Action>
    </Card>
  );
}

/** Unauthorized user: sign-up is restricted and this email has no account. */
export function UnauthorizedUser({ state, send }: CardProps<'unauthorizedUser'>) {
  return (
    <Card title={uiText.unauthorizedUserTitle}>
      <Text>{uiText.unauthorizedUserText(state.email)}</Text>
      {state.adminEmail ? (
        <Text>
          <a href={`mailto:${state.adminEmail}`}>{state.adminEmail}</a>
        </Text>
      ) : null}
      {state.helpLink ? (
        <Text>
          <a href={state.helpLink}>{uiText.learnMore}</a>
        </Text>
      ) : null}
      <Action event="CANCEL" send={send}>
        {uiText.back}
      </Action>
    </Card>
  );
}
