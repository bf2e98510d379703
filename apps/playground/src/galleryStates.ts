/**
 * The card gallery's sample states: one per card (a card missing from {@link CARD_SAMPLES} fails to
 * compile), plus the view `tenantChooser` (the provider chooser's tenant step). Plain data with type-only
 * imports, so the visual spec (e2e/visual.spec.ts) reads the same list in Node.
 * @module
 */
import type { AuthUser, CardName, CardState, Common, FlowState } from '@doorway/auth-core';

/** What the gallery shows: a card, or the chooser's tenant step. */
export type GalleryView = CardName | 'tenantChooser';

/** The instant the gallery's clocks stand still at (2026-01-15 09:30 UTC). */
export const GALLERY_TIME = Date.UTC(2026, 0, 15, 9, 30);

const ada: AuthUser = {
  uid: 'uid-1',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  phoneNumber: null,
  emailVerified: true,
  isAnonymous: false,
  providerIds: ['password'],
  tenantId: null,
};

const github = { kind: 'federated', providerId: 'github.com', accessToken: 'gho_sample' } as const;

/** A sign-in waiting for one of Ada's two second factors (her phone masked, as providers give it). */
const phoneFactor = {
  uid: 'mfa-1',
  kind: 'phone',
  displayName: 'Work phone',
  phoneNumber: '+*******3434',
  enrolledAt: null,
} as const;
const totpFactor = {
  uid: 'mfa-2',
  kind: 'totp',
  displayName: 'Authenticator',
  phoneNumber: null,
  enrolledAt: null,
} as const;
const challenge = { factors: [phoneFactor, totpFactor], session: { pendingId: 'pending-1' } };

/** One sample of each card's own fields, in the order of `CARDS` (spec §2). */
export const CARD_SAMPLES: { [C in CardName]: Extract<CardState, { card: C }> } = {
  providerChooser: { card: 'providerChooser', chooseTenant: false },
  emailEntry: { card: 'emailEntry', email: '' },
  passwordSignIn: { card: 'passwordSignIn', email: 'ada@example.com', offerSignUp: false },
  passwordSignUp: { card: 'passwordSignUp', email: 'mary@example.com', requireName: true },
  passwordRecovery: { card: 'passwordRecovery', email: 'ada@example.com' },
  recoveryEmailSent: { card: 'recoveryEmailSent', email: 'ada@example.com' },
  phoneEntry: { card: 'phoneEntry', phoneNumber: '', country: 'US' },
  phoneCode: {
    card: 'phoneCode',
    phoneNumber: '+16505553434',
    country: 'US',
    verificationId: 'vid-1',
    resendIn: 15,
  },
  emailLinkSent: { card: 'emailLinkSent', email: 'linus@example.com', pendingCredential: null },
  emailNotReceived: { card: 'emailNotReceived', email: 'linus@example.com', pendingCredential: null },
  emailLinkConfirmation: {
    card: 'emailLinkConfirmation',
    email: '',
    link: 'https://app.example.com/login?mode=signIn&oobCode=oob-1&apiKey=demo',
  },
  federatedSignIn: { card: 'federatedSignIn', email: 'grace@example.com', providerId: 'google.com' },
  passwordLinking: { card: 'passwordLinking', email: 'ada@example.com', pendingCredential: github },
  federatedLinking: {
    card: 'federatedLinking',
    email: 'grace@example.com',
    providerId: 'google.com',
    pendingCredential: github,
  },
  emailLinkLinking: { card: 'emailLinkLinking', email: 'linus@example.com', pendingCredential: github },
  unsupportedProvider: { card: 'unsupportedProvider', email: 'margaret@example.com' },
  unauthorizedUser: {
    card: 'unauthorizedUser',
    email: 'mary@example.com',
    adminEmail: 'admin@example.com',
    helpLink: 'https://example.com/help/sign-in',
  },
  emailMismatch: {
    card: 'emailMismatch',
    enteredEmail: 'ada@example.com',
    result: {
      user: { ...ada, uid: 'uid-2', email: 'ada.lovelace@example.org', providerIds: ['google.com'] },
      isNewUser: false,
      providerId: 'google.com',
    },
  },
  anonymousUserMismatch: { card: 'anonymousUserMismatch' },
  differentDeviceError: { card: 'differentDeviceError' },
  sessionEnded: { card: 'sessionEnded' },
  secondFactorChooser: { card: 'secondFactorChooser', challenge },
  secondFactorPhone: { card: 'secondFactorPhone', challenge, factor: phoneFactor },
  secondFactorCode: {
    card: 'secondFactorCode',
    challenge,
    factor: phoneFactor,
    verificationId: 'vid-2',
    resendIn: 15,
  },
  passwordReset: { card: 'passwordReset', code: 'oob-1', email: 'ada@example.com', continueUrl: null },
  passwordResetSuccess: { card: 'passwordResetSuccess', continueUrl: 'https://app.example.com/account' },
  passwordResetFailure: { card: 'passwordResetFailure' },
  emailVerificationSuccess: {
    card: 'emailVerificationSuccess',
    continueUrl: 'https://app.example.com/account',
  },
  emailVerificationFailure: { card: 'emailVerificationFailure' },
  verifyAndChangeEmailSuccess: {
    card: 'verifyAndChangeEmailSuccess',
    email: 'ada.lovelace@example.com',
    continueUrl: 'https://app.example.com/account',
  },
  verifyAndChangeEmailFailure: { card: 'verifyAndChangeEmailFailure' },
  revertSecondFactorAdditionSuccess: {
    card: 'revertSecondFactorAdditionSuccess',
    factor: '+1 650-555-3434',
    email: 'ada@example.com',
  },
  revertSecondFactorAdditionFailure: { card: 'revertSecondFactorAdditionFailure' },
  emailChangeRevoked: { card: 'emailChangeRevoked', email: 'ada@example.com' },
  emailChangeRevokeFailure: { card: 'emailChangeRevokeFailure' },
  signOut: { card: 'signOut' },
  recoverableError: {
    card: 'recoverableError',
    message: 'network-request-failed',
    retry: { kind: 'lookupEmail', email: 'ada@example.com', tenantId: null },
  },
  unrecoverableError: { card: 'unrecoverableError', message: 'web-storage-unsupported' },
  spinner: { card: 'spinner' },
  signedIn: {
    card: 'signedIn',
    message: 'signedIn',
    result: { user: ada, isNewUser: false, providerId: 'password' },
    elapsed: false,
    redirect: null,
  },
};

/** Each view's card state: the cards' samples, with the tenant step after the chooser. */
const VIEW_SAMPLES: Readonly<Record<GalleryView, CardState>> = (() => {
  const { providerChooser, ...rest } = CARD_SAMPLES;
  return { providerChooser, tenantChooser: { ...providerChooser, chooseTenant: true }, ...rest };
})();

/** Every view of the gallery, in order: `?card=<view>` on gallery.html. */
export const GALLERY_VIEWS = Object.keys(VIEW_SAMPLES) as readonly GalleryView[];

/** Whether a string names a view of the gallery. */
export function isGalleryView(name: string | null): name is GalleryView {
  return name !== null && Object.hasOwn(VIEW_SAMPLES, name);
}

/** The whole flow state the widget starts from for `view` on the page at `pageUrl`. */
export function galleryState(view: GalleryView, pageUrl: string): FlowState {
  const common: Common = {
    seq: 0,
    pending: null,
    busy: false,
    error: null,
    tenantId: null,
    tenantChosen: false,
    upgradeUid: null,
    redirectUrl: null,
    shown: true,
    pageUrl,
  };
  return { ...common, ...VIEW_SAMPLES[view] };
}
