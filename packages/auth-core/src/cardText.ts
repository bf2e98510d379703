/**
 * Headings, labels, buttons and texts of the cards after the first ones (spec §2), and `uiText`: every text of
 * every card. Imported by the cards chunk, not by a widget's first chunk.
 * @module
 */
import { firstCardText } from './messages.ts';
import type { CardName, FlowState } from './states.ts';

/** The texts of the cards after the first ones; spec texts verbatim, the others Doorway's wording. */
export const cardText = {
  signedIn: 'Signed in!',
  verified: 'Verified!',
  passwordLabel: 'Password',
  newPasswordLabel: 'Choose password',
  nameLabel: 'First & last name',
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
  countryLabel: 'Country',
  phoneLabel: 'Phone number',
  verify: 'Verify',
  phoneCodeTitle: 'Verify your phone number',
  phoneCodeText: (phone: string) => `Enter the 6-digit code we sent to ${phone}`,
  codeLabel: '6-digit code',
  changePhone: 'Change phone number',
  resend: 'Resend',
  resendIn: (countdown: string) => `Resend code in ${countdown}`,
  resendReady: 'You can resend the code now',
  secondFactorChooserTitle: 'Verify it’s you',
  secondFactorChooserText: 'Your account has 2-step verification. Choose how to get your code.',
  secondFactorPhoneOption: (phone: string) => `Text a code to ${phone}`,
  secondFactorTotpOption: (name: string | null) =>
    name ? `Use your authenticator app (${name})` : 'Use your authenticator app',
  secondFactorPhoneTitle: 'Verify it’s you',
  secondFactorPhoneText: (phone: string) => `We’ll text a 6-digit code to ${phone}.`,
  sendCode: 'Send code',
  secondFactorCodeTitle: 'Enter your code',
  secondFactorTotpText: 'Enter the 6-digit code from your authenticator app.',
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
  passwordHint: 'Use at least 6 characters with letters and numbers',
  learnMore: 'Learn more',
} as const;

/** Headings, labels, buttons and the texts of cards whose wording the spec does not show: all cards. */
export const uiText = { ...firstCardText, ...cardText } as const;

/**
 * What a page's title calls a card where its heading is shared ("Sign in") or is not one, and the title's
 * prefix while a card shows an error (GOV.UK's "Error: "). Every other card's title is its heading
 * (`uiText[\`${card}Title\`]`). Hosts add their own part ("Enter your password – Sign in – Example").
 */
export const titleText = {
  error: (title: string) => `Error: ${title}`,
  providerChooser: 'Choose how to sign in',
  emailEntry: 'Enter your email address',
  passwordSignIn: 'Enter your password',
  combinedSignIn: 'Enter your password or create an account',
  federatedSignIn: 'Sign in with your provider',
  unsupportedProvider: 'Sign-in method not available',
  passwordLinking: cardText.linkingTitle,
  federatedLinking: cardText.linkingTitle,
  emailLinkLinking: cardText.linkingTitle,
  spinner: firstCardText.spinnerLabel,
} as const;

/** The cards (and the tenant chooser) whose title is their heading. */
type TitledByHeading = Exclude<CardName | 'tenantChooser', keyof typeof titleText | 'signedIn'>;
/** The catalogue, checked to hold the heading of each of them (a card added without one fails to compile). */
type Headings<T extends { [C in TitledByHeading as `${C}Title`]: string }> = T;
type Texts = Partial<Record<string, string>>;

/**
 * The page title of the card `state` shows, prefixed "Error: " while it shows an error. The widget reports
 * it (`onTitle`) on every card change and error; a server that renders the card puts it in the `<title>`.
 * @example
 * document.title = `${cardTitle(state)} – Sign in – Example`; // "Error: Enter your password – Sign in – Example"
 */
export function cardTitle(state: FlowState): string {
  const view =
    state.card === 'providerChooser' && state.chooseTenant
      ? 'tenantChooser'
      : state.card === 'passwordSignIn' && state.offerSignUp
        ? 'combinedSignIn'
        : state.card;
  const title =
    state.card === 'signedIn'
      ? cardText[state.message]
      : ((titleText as unknown as Texts)[view] ??
        (uiText as Headings<typeof uiText> as unknown as Texts)[`${view}Title`] ??
        '');
  return state.error ? titleText.error(title) : title;
}
