/**
 * `@doorway/ui-cards`: Doorway's React sign-in widget. `<SignInWidget>` owns a flow and renders one
 * accessible component per card; `styles.css` themes it through `--doorway-*` custom properties.
 * @example
 * import { SignInWidget } from '@doorway/ui-cards';
 * import '@doorway/ui-cards/styles.css';
 * <SignInWidget config={{ signInOptions: ['email', 'phone', 'google.com'] }} provider={provider} />
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
export { PhoneCode, PhoneEntry } from './cards/phone.tsx';
export { EmailEntry, ProviderChooser, UnauthorizedUser, UnsupportedProvider } from './cards/start.tsx';
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
  SpinnerCard,
  UnrecoverableError,
  VerifyAndChangeEmailFailure,
  VerifyAndChangeEmailSuccess,
} from './cards/status.tsx';
export { type CardProps, type UiEvent, useWidget, WidgetContext, type WidgetEnv } from './context.ts';
export { assertNever, FlowRouter, type FlowRouterProps } from './FlowRouter.tsx';
export { SignInWidget, type SignInWidgetProps } from './SignInWidget.tsx';
export { useFlow } from './useFlow.ts';
