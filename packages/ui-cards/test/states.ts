/**
 * One state per card, as a server hands it over (no call in flight), and the config they belong to. Typed as
 * a record over every card name, so a new card without a state does not compile.
 */
import {
  type CardName,
  type CardState,
  normalizeConfig,
  type StateOf,
  type WidgetConfigInput,
} from '@doorway/auth-core';

export const STATES_ORIGIN = 'https://app.example';
export const STATES_URL = `${STATES_ORIGIN}/login`;

/** Every kind of sign-in option, so each card shows all it can (Cancel, other options, …). */
export const STATES_CONFIG: WidgetConfigInput = {
  signInOptions: ['email', 'google.com', 'github.com', 'phone', 'anonymous'],
  tosUrl: '/terms',
  privacyPolicyUrl: '/privacy',
};

export const statesConfig = () => normalizeConfig(STATES_CONFIG, STATES_ORIGIN);

const EMAIL = 'ann@example.com';
const GOOGLE = { kind: 'federated', providerId: 'google.com', idToken: 'id-token' } as const;
const RESULT = {
  user: {
    uid: 'u-1',
    email: EMAIL,
    displayName: 'Ann',
    phoneNumber: null,
    emailVerified: true,
    isAnonymous: false,
    providerIds: ['google.com'],
    tenantId: null,
  },
  isNewUser: false,
  providerId: 'google.com',
};

/** A sign-in waiting for one of two second factors (the phone masked, as a provider gives it). */
const PHONE_FACTOR = {
  uid: 'mfa-1',
  kind: 'phone',
  displayName: 'Work phone',
  phoneNumber: '+*******0100',
  enrolledAt: null,
} as const;
const TOTP_FACTOR = {
  uid: 'mfa-2',
  kind: 'totp',
  displayName: 'Phone app',
  phoneNumber: null,
  enrolledAt: null,
} as const;
const CHALLENGE = { factors: [PHONE_FACTOR, TOTP_FACTOR], session: { pendingId: 'p-1' } };

/** A state on `card`: the common fields as a server's flow leaves them, then the card's own. */
export function stateOf<C extends CardName>(card: Extract<CardState, { card: C }>): StateOf<C> {
  return {
    seq: 2,
    pending: null,
    busy: false,
    error: null,
    tenantId: null,
    tenantChosen: false,
    upgradeUid: null,
    redirectUrl: null,
    shown: true,
    pageUrl: STATES_URL,
    ...card,
  } as StateOf<C>;
}

export const CARD_STATES: { [C in CardName]: StateOf<C> } = {
  providerChooser: stateOf({ card: 'providerChooser', chooseTenant: false }),
  emailEntry: stateOf({ card: 'emailEntry', email: EMAIL }),
  passwordSignIn: stateOf({ card: 'passwordSignIn', email: EMAIL, offerSignUp: true }),
  passwordSignUp: stateOf({ card: 'passwordSignUp', email: EMAIL, requireName: true }),
  passwordRecovery: stateOf({ card: 'passwordRecovery', email: EMAIL }),
  recoveryEmailSent: stateOf({ card: 'recoveryEmailSent', email: EMAIL }),
  phoneEntry: stateOf({ card: 'phoneEntry', phoneNumber: '', country: 'US' }),
  phoneCode: stateOf({
    card: 'phoneCode',
    phoneNumber: '+12015550123',
    country: 'US',
    verificationId: 'v-1',
    resendIn: 0,
  }),
  emailLinkSent: stateOf({ card: 'emailLinkSent', email: EMAIL, pendingCredential: null }),
  emailNotReceived: stateOf({ card: 'emailNotReceived', email: EMAIL, pendingCredential: null }),
  emailLinkConfirmation: stateOf({ card: 'emailLinkConfirmation', email: '', link: STATES_URL }),
  federatedSignIn: stateOf({ card: 'federatedSignIn', email: EMAIL, providerId: 'google.com' }),
  passwordLinking: stateOf({ card: 'passwordLinking', email: EMAIL, pendingCredential: GOOGLE }),
  federatedLinking: stateOf({
    card: 'federatedLinking',
    email: EMAIL,
    providerId: 'github.com',
    pendingCredential: GOOGLE,
  }),
  emailLinkLinking: stateOf({ card: 'emailLinkLinking', email: EMAIL, pendingCredential: GOOGLE }),
  unsupportedProvider: stateOf({ card: 'unsupportedProvider', email: EMAIL }),
  unauthorizedUser: stateOf({ card: 'unauthorizedUser', email: EMAIL, adminEmail: null, helpLink: null }),
  emailMismatch: stateOf({ card: 'emailMismatch', enteredEmail: 'bob@example.com', result: RESULT }),
  anonymousUserMismatch: stateOf({ card: 'anonymousUserMismatch' }),
  differentDeviceError: stateOf({ card: 'differentDeviceError' }),
  sessionEnded: stateOf({ card: 'sessionEnded' }),
  secondFactorChooser: stateOf({ card: 'secondFactorChooser', challenge: CHALLENGE }),
  secondFactorPhone: stateOf({ card: 'secondFactorPhone', challenge: CHALLENGE, factor: PHONE_FACTOR }),
  secondFactorCode: stateOf({
    card: 'secondFactorCode',
    challenge: CHALLENGE,
    factor: TOTP_FACTOR,
    verificationId: 'v-2',
    resendIn: 0,
  }),
  passwordReset: stateOf({ card: 'passwordReset', code: 'oob-1', email: EMAIL, continueUrl: null }),
  passwordResetSuccess: stateOf({ card: 'passwordResetSuccess', continueUrl: null }),
  passwordResetFailure: stateOf({ card: 'passwordResetFailure' }),
  emailVerificationSuccess: stateOf({ card: 'emailVerificationSuccess', continueUrl: null }),
  emailVerificationFailure: stateOf({ card: 'emailVerificationFailure' }),
  verifyAndChangeEmailSuccess: stateOf({
    card: 'verifyAndChangeEmailSuccess',
    email: EMAIL,
    continueUrl: null,
  }),
  verifyAndChangeEmailFailure: stateOf({ card: 'verifyAndChangeEmailFailure' }),
  revertSecondFactorAdditionSuccess: stateOf({
    card: 'revertSecondFactorAdditionSuccess',
    factor: '+1 *** 0100',
    email: EMAIL,
  }),
  revertSecondFactorAdditionFailure: stateOf({ card: 'revertSecondFactorAdditionFailure' }),
  emailChangeRevoked: stateOf({ card: 'emailChangeRevoked', email: EMAIL }),
  emailChangeRevokeFailure: stateOf({ card: 'emailChangeRevokeFailure' }),
  signOut: stateOf({ card: 'signOut' }),
  recoverableError: stateOf({ card: 'recoverableError', message: 'network-request-failed', retry: null }),
  unrecoverableError: stateOf({ card: 'unrecoverableError', message: 'network-request-failed' }),
  spinner: stateOf({ card: 'spinner' }),
  signedIn: stateOf({
    card: 'signedIn',
    message: 'signedIn',
    result: RESULT,
    elapsed: true,
    redirect: false,
  }),
};

/** The state of `card` (a fresh copy, so that a test may change it). */
export function cardState<C extends CardName>(card: C): StateOf<C> {
  return { ...CARD_STATES[card] } as StateOf<C>;
}
