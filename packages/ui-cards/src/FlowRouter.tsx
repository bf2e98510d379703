import type { FlowState } from '@doorway/auth-core';
import * as L from './cards/link.tsx';
import * as P from './cards/password.tsx';
import * as Ph from './cards/phone.tsx';
import * as St from './cards/start.tsx';
import * as S from './cards/status.tsx';
import type { UiEvent } from './context.ts';

/** Fails to compile when a `switch` misses a case; throws if one slips through at runtime. */
export function assertNever(value: never): never {
  throw new Error(`Doorway: unknown card ${JSON.stringify((value as { card?: unknown }).card)}`);
}

/** Props of {@link FlowRouter}. */
export interface FlowRouterProps {
  state: FlowState;
  send: (event: UiEvent) => void;
}

/** Renders the card component for `state.card`: an exhaustive switch over every card. */
export function FlowRouter({ state, send }: FlowRouterProps) {
  switch (state.card) {
    case 'providerChooser':
      return <St.ProviderChooser state={state} send={send} />;
    case 'emailEntry':
      return <St.EmailEntry state={state} send={send} />;
    case 'passwordSignIn':
      return <P.PasswordSignIn state={state} send={send} />;
    case 'passwordSignUp':
      return <P.PasswordSignUp state={state} send={send} />;
    case 'passwordRecovery':
      return <P.PasswordRecovery state={state} send={send} />;
    case 'recoveryEmailSent':
      return <P.RecoveryEmailSent state={state} send={send} />;
    case 'phoneEntry':
      return <Ph.PhoneEntry state={state} send={send} />;
    case 'phoneCode':
      return <Ph.PhoneCode state={state} send={send} />;
    case 'emailLinkSent':
      return <L.EmailLinkSent state={state} send={send} />;
    case 'emailNotReceived':
      return <L.EmailNotReceived state={state} send={send} />;
    case 'emailLinkConfirmation':
      return <L.EmailLinkConfirmation state={state} send={send} />;
    case 'federatedSignIn':
      return <L.FederatedSignIn state={state} send={send} />;
    case 'passwordLinking':
      return <L.PasswordLinking state={state} send={send} />;
    case 'federatedLinking':
      return <L.FederatedLinking state={state} send={send} />;
    case 'emailLinkLinking':
      return <L.EmailLinkLinking state={state} send={send} />;
    case 'unsupportedProvider':
      return <St.UnsupportedProvider state={state} send={send} />;
    case 'unauthorizedUser':
      return <St.UnauthorizedUser state={state} send={send} />;
    case 'emailMismatch':
      return <L.EmailMismatch state={state} send={send} />;
    case 'anonymousUserMismatch':
      return <L.AnonymousUserMismatch state={state} send={send} />;
    case 'differentDeviceError':
      return <L.DifferentDeviceError state={state} send={send} />;
    case 'sessionEnded':
      return <L.SessionEnded state={state} send={send} />;
    case 'passwordReset':
      return <P.PasswordReset state={state} send={send} />;
    case 'passwordResetSuccess':
      return <S.PasswordResetSuccess state={state} send={send} />;
    case 'passwordResetFailure':
      return <S.PasswordResetFailure state={state} send={send} />;
    case 'emailVerificationSuccess':
      return <S.EmailVerificationSuccess state={state} send={send} />;
    case 'emailVerificationFailure':
      return <S.EmailVerificationFailure state={state} send={send} />;
    case 'verifyAndChangeEmailSuccess':
      return <S.VerifyAndChangeEmailSuccess state={state} send={send} />;
    case 'verifyAndChangeEmailFailure':
      return <S.VerifyAndChangeEmailFailure state={state} send={send} />;
    case 'revertSecondFactorAdditionSuccess':
      return <S.RevertSecondFactorAdditionSuccess state={state} send={send} />;
    case 'revertSecondFactorAdditionFailure':
      return <S.RevertSecondFactorAdditionFailure state={state} send={send} />;
    case 'emailChangeRevoked':
      return <S.EmailChangeRevoked state={state} send={send} />;
    case 'emailChangeRevokeFailure':
      return <S.EmailChangeRevokeFailure state={state} send={send} />;
    case 'signOut':
      return <S.SignOut state={state} send={send} />;
    case 'recoverableError':
      return <S.RecoverableError state={state} send={send} />;
    case 'unrecoverableError':
      return <S.UnrecoverableError state={state} send={send} />;
    case 'spinner':
      return <S.SpinnerCard state={state} send={send} />;
    case 'signedIn':
      return <S.SignedIn state={state} send={send} />;
    default:
      return assertNever(state);
  }
}
