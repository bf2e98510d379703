/**
 * The cards chunk: every card a widget does not open on, and the flow engine behind them. `<SignInWidget>`
 * loads it (`loadCards`) while its first card shows.
 * @module
 */
import type { CardName } from '@doorway/auth-core';
import type { ComponentType } from 'react';
import * as L from './cards/link.tsx';
import * as P from './cards/password.tsx';
import * as Ph from './cards/phone.tsx';
import * as SF from './cards/secondFactor.tsx';
import * as S from './cards/status.tsx';
import type { CardProps } from './context.ts';

export { flowEngine as engine } from '@doorway/auth-core';
export { PhoneNumberForm } from './cards/PhoneNumberForm.tsx';
export { settle } from './focus.ts';

/** The cards `FlowRouter` renders itself: those a widget can open on. */
export type FirstCardName =
  | 'providerChooser'
  | 'emailEntry'
  | 'phoneEntry'
  | 'spinner'
  | 'unrecoverableError';

/** Every other card. */
export type LaterCardName = Exclude<CardName, FirstCardName>;

/** The component of each later card (a missing or extra card fails to compile). */
export const laterCards: { [C in LaterCardName]: ComponentType<CardProps<C>> } = {
  passwordSignIn: P.PasswordSignIn,
  passwordSignUp: P.PasswordSignUp,
  passwordRecovery: P.PasswordRecovery,
  recoveryEmailSent: P.RecoveryEmailSent,
  phoneCode: Ph.PhoneCode,
  emailLinkSent: L.EmailLinkSent,
  emailNotReceived: L.EmailNotReceived,
  emailLinkConfirmation: L.EmailLinkConfirmation,
  federatedSignIn: L.FederatedSignIn,
  passwordLinking: L.PasswordLinking,
  federatedLinking: L.FederatedLinking,
  emailLinkLinking: L.EmailLinkLinking,
  unsupportedProvider: S.UnsupportedProvider,
  unauthorizedUser: S.UnauthorizedUser,
  emailMismatch: L.EmailMismatch,
  anonymousUserMismatch: L.AnonymousUserMismatch,
  differentDeviceError: L.DifferentDeviceError,
  sessionEnded: L.SessionEnded,
  secondFactorChooser: SF.SecondFactorChooser,
  secondFactorPhone: SF.SecondFactorPhone,
  secondFactorCode: SF.SecondFactorCode,
  passwordReset: P.PasswordReset,
  passwordResetSuccess: S.PasswordResetSuccess,
  passwordResetFailure: S.PasswordResetFailure,
  emailVerificationSuccess: S.EmailVerificationSuccess,
  emailVerificationFailure: S.EmailVerificationFailure,
  verifyAndChangeEmailSuccess: S.VerifyAndChangeEmailSuccess,
  verifyAndChangeEmailFailure: S.VerifyAndChangeEmailFailure,
  revertSecondFactorAdditionSuccess: S.RevertSecondFactorAdditionSuccess,
  revertSecondFactorAdditionFailure: S.RevertSecondFactorAdditionFailure,
  emailChangeRevoked: S.EmailChangeRevoked,
  emailChangeRevokeFailure: S.EmailChangeRevokeFailure,
  signOut: S.SignOut,
  recoverableError: S.RecoverableError,
  signedIn: S.SignedIn,
};
