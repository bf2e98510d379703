/**
 * The texts of the second-factor cards of `@doorway/ui-cards/account`: Doorway's wording. Error lines are
 * not here: they are the catalogue's (`messageFor` of `@doorway/auth-core`), "Wrong code. Try again." and
 * "Please login again to perform this operation" among them.
 * @module
 */

/** Headings, labels, buttons and announcements of `<SecondFactors>`. */
export const accountText = {
  title: 'Two-step verification',
  intro:
    'Ask for a second step when you sign in: a code sent by text message, or one your authenticator app shows.',
  unavailable: 'Two-step verification is not available for this account.',
  needsJavaScript: 'Managing two-step verification needs JavaScript. Turn it on in your browser.',
  loading: 'Loading',
  none: 'You have not added a second step yet.',
  yourFactors: 'Your second steps',
  kindPhone: 'Text message (SMS)',
  kindTotp: 'Authenticator app',
  /** A factor's one-line description: its kind, and the (masked) number of a phone. */
  factorDetail: (kind: string, phone: string | null) => (phone ? `${kind}, ${phone}` : kind),
  remove: 'Remove',
  removeQuestion: (name: string) => `Remove ${name}? You will no longer be able to use it to sign in.`,
  confirmRemove: 'Yes, remove it',
  keep: 'Keep it',
  removed: (name: string) => `${name} removed.`,
  added: (name: string) => `${name} added.`,
  addPhone: 'Add text-message (SMS) factor',
  addTotp: 'Add authenticator app',
  phoneTitle: 'Add a text-message (SMS) factor',
  phoneText: 'We will text a 6-digit code to this number to check that it is yours.',
  phoneLabel: 'Phone number',
  phoneHint: 'Include the country code, for example +44 7700 900123',
  sendCode: 'Send code',
  codeTitle: 'Enter the code',
  codeText: (phone: string) => `Enter the 6-digit code we sent to ${phone}.`,
  changePhone: 'Change phone number',
  codeSent: (phone: string) => `We sent a new code to ${phone}.`,
  nameLabel: 'Name for this factor (optional)',
  phoneNameHint: 'For example, Work phone',
  totpNameHint: 'For example, Phone authenticator',
  totpTitle: 'Add an authenticator app',
  totpText:
    'Scan this QR code with your authenticator app, or type the setup key into it. Then enter the code it shows.',
  qrAlt: 'QR code that adds this account to an authenticator app',
  qrFailed: 'The QR code could not be shown. Type the setup key into your app instead.',
  secretLabel: 'Setup key',
  copy: 'Copy setup key',
  copied: 'Setup key copied.',
  copyFailed: 'The setup key could not be copied. Select it and copy it instead.',
  // The sign-in cards' words for the same things (their `uiText`, whose whole table this entry need not
  // carry; test/account.test.tsx checks that they stay the same).
  codeLabel: '6-digit code',
  verify: 'Verify',
  cancel: 'Cancel',
  retry: 'Retry',
  signInAgain: 'Sign in again',
  resend: 'Resend',
  resendIn: (countdown: string) => `Resend code in ${countdown}`,
  resendReady: 'You can resend the code now',
} as const;

/** Headings, labels, buttons and announcements of `<Passkeys>` (Remove and its question are `accountText`'s). */
export const passkeyText = {
  title: 'Passkeys',
  intro:
    'Sign in with your fingerprint, face or screen lock instead of a password. A passkey stays on your device or in your password manager.',
  unavailable: 'Passkeys are not available for this account.',
  needsJavaScript: 'Managing passkeys needs JavaScript. Turn it on in your browser.',
  none: 'You have not added a passkey yet.',
  yourPasskeys: 'Your passkeys',
  unnamed: 'Passkey',
  /** A passkey's one-line description: when it was added, and whether it is synced (backed up). */
  detail: (added: string, synced: boolean) => `Added ${added}${synced ? ' · Synced' : ''}`,
  nameLabel: 'Name for this passkey (optional)',
  nameHint: 'For example, Work laptop',
  add: 'Add a passkey',
} as const;

/** The texts of `<PasskeyOffer>`, the one-time prompt to add a passkey (its button is `passkeyText.add`). */
export const passkeyOfferText = {
  title: 'Sign in faster next time',
  intro:
    'Add a passkey to sign in with your fingerprint, face or screen lock instead of your password. It takes a moment.',
  notNow: 'Not now',
  added: 'Passkey added. Next time, sign in with it instead of your password.',
  declined: 'No passkey added. You can add one later from your account.',
} as const;

/** The texts of `<Profile>`. */
export const profileText = {
  title: 'Profile',
  nameLabel: 'Display name',
  nameHint: 'Shown to others and in messages we send you. Leave it blank for none.',
  save: 'Save',
  saved: 'Display name saved.',
} as const;

/** The texts of `<EmailAddress>`. */
export const emailText = {
  title: 'Email address',
  current: (email: string) => `You sign in with ${email}.`,
  newLabel: 'New email address',
  change: 'Change email address',
  pending: (email: string) =>
    `We sent a link to ${email}. Follow it to confirm the change. Until then, keep using your current address.`,
  pendingBoth: 'We also sent a link to your current address. The change needs both links followed.',
  sent: (email: string) => `Check ${email} for a link to confirm the change.`,
  another: 'Use another address',
} as const;

/** The texts of `<ChangePassword>`. */
export const passwordText = {
  title: 'Password',
  setIntro: 'Your account has no password yet. Set one to sign in with your email address and a password.',
  currentLabel: 'Current password',
  newLabel: 'New password',
  newHint: 'Use at least 6 characters with letters and numbers',
  change: 'Change password',
  set: 'Set password',
  changed: 'Password changed.',
  setDone: 'Password set. You can now sign in with it.',
} as const;

/** The texts of `<SignInMethods>` (Remove and its question are `accountText`'s). */
export const methodsText = {
  title: 'Ways to sign in',
  intro: 'The ways you can sign in to your account. Keep at least one.',
  yours: 'Your ways to sign in',
  password: 'Email and password',
  emailLink: 'Email link',
  phone: 'Phone number',
  onlyOne: 'This is your only way to sign in, so it cannot be removed.',
  link: (name: string) => `Link ${name}`,
  linked: (name: string) => `${name} linked.`,
  removed: (name: string) => `${name} removed.`,
} as const;

/** The texts of `<Devices>`. */
export const devicesText = {
  title: 'Devices',
  intro: 'Signed in somewhere you no longer use? Sign out there. You stay signed in on this device.',
  signOutOthers: 'Sign out of all other devices',
  done: 'You are signed out of all other devices.',
} as const;

/** The texts of `<DeleteAccount>`. */
export const deleteText = {
  title: 'Delete account',
  intro: 'Deleting your account removes it and everything in it. This cannot be undone.',
  /** The word typed to confirm, compared without regard to case or surrounding spaces. */
  word: 'delete',
  confirmLabel: 'To confirm, type delete',
  mismatch: 'Type delete to confirm',
  submit: 'Delete my account',
  deleted: 'Your account has been deleted.',
} as const;
