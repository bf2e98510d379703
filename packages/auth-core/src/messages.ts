/**
 * The one message catalogue: every text the widget shows, English only (spec §1, §5, §8, §9).
 * Spec messages are verbatim; texts the spec leaves "not shown" are Doorway's own wording.
 * @module
 */

/** Validation messages of spec §5, verbatim. */
export const validationMessages = {
  'email-required': 'Enter your email address to continue',
  'email-invalid': "That email address isn't correct",
  'password-required': 'Enter your password',
  'name-required': 'Enter your account name',
  'code-invalid': 'Wrong code. Try again.',
  'country-unsupported': 'The country code provided is not supported.',
  'captcha-required': 'Solve the reCAPTCHA',
  'password-weak': 'Use at least 6 characters with letters and numbers',
  'phone-invalid': 'Enter a valid phone number',
} as const;

/** Error messages of spec §8, verbatim, keyed by provider-neutral error code. */
export const errorMessages = {
  'email-already-in-use': 'The email address is already used by another account',
  'too-many-requests':
    'You have entered an incorrect password too many times. Please try again in a few minutes.',
  'user-cancelled': 'Please authorize the required permissions to sign in to the application',
  'user-not-found': "That email address doesn't match an existing account",
  'weak-password': 'Use at least 6 characters with letters and numbers',
  'wrong-password': "The email and password you entered don't match",
  'network-request-failed': 'A network error has occurred',
  'invalid-verification-code': 'Wrong code. Try again.',
  'code-expired': 'This code is no longer valid',
  'expired-action-code': 'This code has expired.',
  'invalid-action-code':
    'The action code is invalid. This can happen if the code is malformed, expired, or has already been used.',
  'sign-up-too-many-requests':
    'Too many account requests are coming from your IP address. Try again in a few minutes.',
  'phone-too-many-requests': 'This phone number has been used too many times',
  'session-expired': 'Your sign-in session has expired. Please try again.',
  'email-mismatch': 'The email provided does not match the current sign-in session.',
  'web-storage-unsupported':
    'The browser you are using does not support Web Storage. Please try again in a different browser.',
  generic: 'Something went wrong. Please try again.',
  'requires-recent-login': 'Please login again to perform this operation',
  // Codes the spec names as conditions but whose text it does not show: Doorway's wording.
  'invalid-phone-number': 'Enter a valid phone number',
  'unsupported-country': 'The country code provided is not supported.',
  'captcha-check-failed': 'Solve the reCAPTCHA',
  'sign-up-disabled': 'New accounts cannot be created for this app',
  'operation-not-allowed': 'This sign-in method is not enabled for this app',
  'popup-blocked': 'The sign-in popup was blocked by the browser. Allow popups and try again.',
  'user-disabled': 'This account has been disabled',
  'invalid-email': "That email address isn't correct",
  'missing-password': 'Enter your password',
  'account-exists-with-different-credential': 'You already have an account with this email address',
  'credential-already-in-use': 'This credential is already associated with a different account',
  'anonymous-upgrade-merge-conflict': 'This account already exists. Sign in to it to continue.',
  'invalid-continue-uri': 'Something went wrong. Please try again.',
  'provider-load-timeout': 'Something went wrong. Please try again.',
  // A card posted to a server (scripts off or not loaded yet) that only a browser can complete.
  'javascript-required':
    'Signing in this way needs JavaScript. Turn on JavaScript in your browser and try again.',
} as const;

/** A provider-neutral error code: the only thing an adapter may reject with. */
export type ErrorCode = keyof typeof errorMessages;
/** A validation outcome of spec §5. */
export type ValidationKey = keyof typeof validationMessages;
/** Anything the widget can show as an error line. */
export type MessageKey = ErrorCode | ValidationKey;

/** Headings, labels, buttons and the texts of cards whose wording the spec does not show. */
export const uiText = {
  signedIn: 'Signed in!',
  verified: 'Verified!',
  providerChooserTitle: 'Sign in',
  signInWithEmail: 'Sign in with email',
  signInWithPhone: 'Sign in with phone',
  continueAsGuest: 'Continue as guest',
  signInWith: (provider: string) => `Sign in with ${provider}`,
  emailEntryTitle: 'Sign in with email',
  emailLabel: 'Email',
  passwordLabel: 'Password',
  newPasswordLabel: 'Choose password',
  nameLabel: 'First & last name',
  next: 'Next',
  cancel: 'Cancel',
  back: 'Back',
  save: 'Save',
  signIn: 'Sign in',
  continue: 'Continue',
  passwordSignInTitle: 'Sign in',
  troubleSigningIn: 'Trouble signing in?',
  createAccount: 'Create account',
  passwordSignUpTitle: 'Create account',
  passwordRecoveryTitle: 'Recover password',
  passwordRecoveryText: 'Get instructions sent to this email that explain how to reset your password',
  send: 'Send',
  recoveryEmailSentTitle: 'Check your email',
  recoveryEmailSentText: (email: string) =>
    `Follow the instructions sent to ${email} to recover your password`,
  done: 'Done',
  phoneEntryTitle: 'Enter your phone number',
  countryLabel: 'Country',
  phoneLabel: 'Phone number',
  verify: 'Verify',
  phoneCodeTitle: 'Verify your phone number',
  phoneCodeText: (phone: string) => `Enter the 6-digit code we sent to ${phone}`,
  codeLabel: '6-digit code',
  changePhone: 'Change phone number',
  resend: 'Resend',
  resendIn: (countdown: string) => `Resend code in ${countdown}`,
  emailLinkSentTitle: 'Sign-in email sent',
  emailLinkSentText: (email: string) =>
    `A sign-in email with additional instructions was sent to ${email}. Check your email to complete sign-in.`,
  troubleGettingEmail: 'Trouble getting email?',
  emailNotReceivedTitle: 'Trouble getting email?',
  emailNotReceivedText:
    'Try these common fixes: check if the email was marked as spam or filtered, check your internet connection, check that you did not misspell your email, and check that your inbox space is not running out.',
  resendEmail: 'Resend',
  emailLinkConfirmationTitle: 'Confirm email',
  emailLinkConfirmationText: 'Confirm your email to complete sign in',
  combinedSignInTitle: 'Sign in',
  combinedSignInText: 'Enter your password, or create an account if you are new here.',
  federatedSignInTitle: 'Sign in',
  federatedSignInText: (email: string, provider: string) =>
    `You've already used ${email}. Sign in with ${provider} to continue.`,
  linkingTitle: 'You already have an account',
  passwordLinkingText: (email: string, provider: string) =>
    `You've already used ${email} to sign in. Enter your password for that account to also sign in with ${provider}.`,
  federatedLinkingText: (email: string, existing: string, pending: string) =>
    `You've already used ${email} with ${existing}. Sign in with ${existing} to continue with ${pending}.`,
  emailLinkLinkingText: (email: string, provider: string) =>
    `You've already used ${email}. Sign in with a link sent to that email to also sign in with ${provider}.`,
  sendLink: 'Send sign-in link',
  unsupportedProviderTitle: 'Sign in',
  unsupportedProviderText: (email: string) =>
    `The way you signed in before with ${email} is not available here. Try another account.`,
  unauthorizedUserTitle: 'Not authorized',
  unauthorizedUserText: (email: string) =>
    `${email} is not authorized to create an account here. Contact the site's administrator.`,
  emailMismatchTitle: 'Continue sign-in?',
  emailMismatchText: (entered: string, actual: string) =>
    `You originally wanted to sign in with ${entered}. Continue with ${actual}?`,
  anonymousUserMismatchTitle: 'Session ended',
  anonymousUserMismatchText:
    'The sign-in link was started for a different guest session. Open it in the browser you started from to keep your guest data, or start again.',
  differentDeviceErrorTitle: 'New device or browser detected',
  differentDeviceErrorText:
    'Try opening the link using the same device or browser where you started the sign-in process.',
  sessionEndedTitle: 'Session ended',
  sessionEndedText: 'Your sign-in session has expired. Please try again.',
  startOver: 'Start over',
  passwordResetTitle: 'Reset your password',
  passwordResetFor: (email: string) => `for ${email}`,
  passwordResetSuccessTitle: 'Password changed',
  passwordResetSuccessText: 'You can now sign in with your new password',
  passwordResetFailureTitle: 'Try resetting your password again',
  passwordResetFailureText:
    'Your request to reset your password has expired or the link has already been used',
  emailVerificationSuccessTitle: 'Your email has been verified',
  emailVerificationSuccessText: 'You can now sign in with your new account',
  emailVerificationFailureTitle: 'Try verifying your email again',
  emailVerificationFailureText:
    'Your request to verify your email has expired or the link has already been used',
  verifyAndChangeEmailSuccessTitle: 'Your email has been verified and changed',
  verifyAndChangeEmailSuccessText: (email: string) => `You can now sign in with your new email ${email}.`,
  verifyAndChangeEmailFailureTitle: 'Try updating your email again',
  verifyAndChangeEmailFailureText:
    'Your request to verify and update your email has expired or the link has already been used.',
  revertSecondFactorAdditionSuccessTitle: 'Removed second factor',
  revertSecondFactorAdditionSuccessText: (factor: string) =>
    `The ${factor} second factor is no longer attached to your account. If you didn't add it, reset your password right away.`,
  revertSecondFactorAdditionFailureTitle: "Couldn't remove your second factor",
  revertSecondFactorAdditionFailureText:
    'Something went wrong removing your second factor. Try removing it again.',
  emailChangeRevokedTitle: 'Updated email address',
  emailChangeRevokedText: (email: string) => `Your sign-in email address has been changed back to ${email}.`,
  emailChangeRevokedResetText:
    "If you didn't ask to change your sign-in email, someone might be trying to access your account and you should change your password right away.",
  resetPasswordAction: 'Change password',
  emailChangeRevokeFailureTitle: 'Unable to update your email address',
  emailChangeRevokeFailureText:
    'There was a problem changing your sign-in email back. If you try again and still can’t reset your email, ask your administrator for help.',
  signOutTitle: 'Signed out',
  signOutText: 'You are now signed out.',
  signOut: 'Sign out',
  signInAgain: 'Sign in again',
  recoverableErrorTitle: 'Error encountered',
  retry: 'Retry',
  unrecoverableErrorTitle: 'Error encountered',
  spinnerLabel: 'Loading',
  tenantChooserTitle: 'Choose where to sign in',
  termsOfService: 'Terms of Service',
  privacyPolicy: 'Privacy Policy',
  passwordHint: 'Use at least 6 characters with letters and numbers',
  learnMore: 'Learn more',
  otherWaysToSignIn: 'Other ways to sign in',
  /** Not from the spec: shown, with scripts off, on cards that need them (reCAPTCHA, a provider's popup). */
  needsJavaScript: errorMessages['javascript-required'],
  onlyOneWidget: 'Doorway: only one sign-in widget may be mounted per page',
} as const;

/** Message text for a code, falling back to the generic message for anything unknown. */
export function messageFor(key: string | null | undefined): string {
  if (key == null) return errorMessages.generic;
  if (Object.hasOwn(validationMessages, key)) return validationMessages[key as ValidationKey];
  if (Object.hasOwn(errorMessages, key)) return errorMessages[key as ErrorCode];
  return errorMessages.generic;
}

/** Whether a string is a catalogue error code. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorMessages, code);
}
