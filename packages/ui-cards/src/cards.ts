/**
 * `@doorway/ui-cards/cards`: every card component, for custom shells that render cards themselves (each takes
 * `state` and `send`, inside a `WidgetContext` provider). `<SignInWidget>` and `FlowRouter` do not need
 * this entry: they render the first cards from the main entry and load the others as a chunk.
 * @module
 */

export {
  AnonymousUserMismatch,
  DifferentDeviceError,
  EmailLinkConfirmation,
  EmailLinkLinking,
  EmailLinkSent,
  EmailMismatch,
  EmailNotReceived,
  FederatedLinking,
  FederatedSignIn,
  PasswordLinking,
  SessionEnded,
} from './cards/link.tsx';
export {
  PasswordRecovery,
  PasswordReset,
  PasswordSignIn,
  PasswordSignUp,
  RecoveryEmailSent,
} from './cards/password.tsx';
export { PhoneCode } from './cards/phone.tsx';
export { SecondFactorChooser, SecondFactorCode, SecondFactorPhone } from './cards/secondFactor.tsx';
export {
  EmailEntry,
  PhoneEntry,
  ProviderChooser,
  SpinnerCard,
  UnrecoverableError,
} from './cards/start.tsx';
export {
  EmailChangeRevoked,
  EmailChangeRevokeFailure,
  EmailVerificationFailure,
  EmailVerificationSuccess,
  PasswordResetFailure,
  PasswordResetSuccess,
  RecoverableError,
  RevertSecondFactorAdditionFailure,
  RevertSecondFactorAdditionSuccess,
  SignedIn,
  SignOut,
  UnauthorizedUser,
  UnsupportedProvider,
  VerifyAndChangeEmailFailure,
  VerifyAndChangeEmailSuccess,
} from './cards/status.tsx';
