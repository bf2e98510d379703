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
  // The first factor was right and the account has a second one: the flow asks for it (never shown as is).
  'second-factor-required': 'Enter the code from your second factor to finish signing in.',
  // Passkeys (WebAuthn).
  'passkey-not-found': "That passkey isn't recognized. Try another way to sign in.",
  'passkey-invalid': "That passkey couldn't be verified. Try again or use another way to sign in.",
  'passkeys-unsupported': "This browser can't use passkeys. Try another way to sign in.",
  'passkey-cancelled': 'Passkey sign-in was cancelled. Try again or use another way to sign in.',
  'passkey-limit': "You can't add more passkeys to this account. Remove one first.",
  // Account management: removing the account's only sign-in method.
  'last-sign-in-method': "You can't remove your only way to sign in.",
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

/**
 * Headings, labels and buttons of the cards a widget can open on (chooser, email and phone entry, spinner,
 * errors): the only texts a widget's first chunk carries. The other cards' texts are in `cardText.ts`.
 */
export const firstCardText = {
  providerChooserTitle: 'Sign in',
  signInWithEmail: 'Sign in with email',
  signInWithPhone: 'Sign in with phone',
  continueAsGuest: 'Continue as guest',
  signInWithPasskey: 'Sign in with a passkey',
  signInWith: (provider: string) => `Sign in with ${provider}`,
  emailEntryTitle: 'Sign in with email',
  emailLabel: 'Email',
  next: 'Next',
  cancel: 'Cancel',
  back: 'Back',
  phoneEntryTitle: 'Enter your phone number',
  unrecoverableErrorTitle: 'Error encountered',
  spinnerLabel: 'Loading',
  tenantChooserTitle: 'Choose where to sign in',
  termsOfService: 'Terms of Service',
  privacyPolicy: 'Privacy Policy',
  otherWaysToSignIn: 'Other ways to sign in',
  /** Not from the spec: shown, with scripts off, on cards that need them (reCAPTCHA, a provider's popup). */
  needsJavaScript: errorMessages['javascript-required'],
  onlyOneWidget: 'Doorway: only one sign-in widget may be mounted per page',
  lastUsed: 'Last used',
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
