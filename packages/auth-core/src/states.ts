/**
 * Flow states: one state per card of spec §2, a discriminated union on `card`.
 * @module
 */
import type { MessageKey } from './messages.ts';
import type { ProviderOp } from './ops.ts';
import type { AuthCredential, SecondFactorChallenge, SecondFactorInfo, SignInResult } from './provider.ts';

/** Fields every state carries. */
export interface Common {
  /** Increments with every provider call; results for older calls are ignored. */
  seq: number;
  /** The provider call in flight, if any. */
  pending: { id: number; op: ProviderOp } | null;
  /** `true` once the pending call has run longer than the busy-spinner delay (500 ms). */
  busy: boolean;
  /** The error line shown on the card, if any. */
  error: MessageKey | null;
  /** The tenant in force (`null`: default tenant). */
  tenantId: string | null;
  /** Whether the person picked a tenant (option-first with several tenants). */
  tenantChosen: boolean;
  /** uid of the anonymous user being upgraded, when anonymous upgrade applies. */
  upgradeUid: string | null;
  /** Absolute, already-checked URL to go to after sign-in, or `null` for none. */
  redirectUrl: string | null;
  /** Whether the app's first interactive card has been shown (for the `uiShown` callback). */
  shown: boolean;
  /** The page URL the flow started on (continue URL for emailed links). */
  pageUrl: string;
}

/** Card-specific fields, one member per card. */
export type CardState =
  | { card: 'providerChooser'; chooseTenant: boolean }
  | { card: 'emailEntry'; email: string }
  | { card: 'passwordSignIn'; email: string; offerSignUp: boolean }
  /** `name`: what was typed in the name field, kept when the form comes back with an error. */
  | { card: 'passwordSignUp'; email: string; requireName: boolean; name?: string }
  | { card: 'passwordRecovery'; email: string }
  | { card: 'recoveryEmailSent'; email: string }
  | { card: 'phoneEntry'; phoneNumber: string; country: string }
  | { card: 'phoneCode'; phoneNumber: string; country: string; verificationId: string; resendIn: number }
  /** A first factor was right and the account has several second factors: which one to use. */
  | { card: 'secondFactorChooser'; challenge: SecondFactorChallenge }
  /** An SMS second factor: the captcha, then the code is texted to the (masked) number. */
  | { card: 'secondFactorPhone'; challenge: SecondFactorChallenge; factor: SecondFactorInfo }
  /** The 6-digit code of a second factor (texted, or from an authenticator app). */
  | {
      card: 'secondFactorCode';
      challenge: SecondFactorChallenge;
      factor: SecondFactorInfo;
      verificationId: string;
      resendIn: number;
    }
  | { card: 'emailLinkSent'; email: string; pendingCredential: AuthCredential | null }
  | { card: 'emailNotReceived'; email: string; pendingCredential: AuthCredential | null }
  | { card: 'emailLinkConfirmation'; email: string; link: string }
  | { card: 'federatedSignIn'; email: string; providerId: string }
  | { card: 'passwordLinking'; email: string; pendingCredential: AuthCredential }
  | { card: 'federatedLinking'; email: string; providerId: string; pendingCredential: AuthCredential }
  | { card: 'emailLinkLinking'; email: string; pendingCredential: AuthCredential }
  | { card: 'unsupportedProvider'; email: string }
  | { card: 'unauthorizedUser'; email: string; adminEmail: string | null; helpLink: string | null }
  | { card: 'emailMismatch'; enteredEmail: string; result: SignInResult }
  | { card: 'anonymousUserMismatch' }
  | { card: 'differentDeviceError' }
  | { card: 'sessionEnded' }
  | { card: 'passwordReset'; code: string; email: string; continueUrl: string | null }
  | { card: 'passwordResetSuccess'; continueUrl: string | null }
  | { card: 'passwordResetFailure' }
  | { card: 'emailVerificationSuccess'; continueUrl: string | null }
  | { card: 'emailVerificationFailure' }
  | { card: 'verifyAndChangeEmailSuccess'; email: string; continueUrl: string | null }
  | { card: 'verifyAndChangeEmailFailure' }
  | { card: 'revertSecondFactorAdditionSuccess'; factor: string; email: string | null }
  | { card: 'revertSecondFactorAdditionFailure' }
  | { card: 'emailChangeRevoked'; email: string }
  | { card: 'emailChangeRevokeFailure' }
  | { card: 'signOut' }
  | { card: 'recoverableError'; message: MessageKey; retry: ProviderOp | null }
  | { card: 'unrecoverableError'; message: MessageKey }
  | { card: 'spinner' }
  | {
      card: 'signedIn';
      message: 'signedIn' | 'verified';
      result: SignInResult | null;
      elapsed: boolean;
      redirect: boolean | null;
    };

/** The snapshot a flow publishes: a card plus the common fields. */
export type FlowState = CardState & Common;

/** The name of a card. */
export type CardName = CardState['card'];

/** A state of one card, narrowed. */
export type StateOf<C extends CardName> = Extract<CardState, { card: C }> & Common;

/** The cards of an email action code (spec §2): its results, and the reset form. Declared once here. */
export const ACTION_CODE_CARDS = [
  'passwordReset',
  'passwordResetSuccess',
  'passwordResetFailure',
  'emailVerificationSuccess',
  'emailVerificationFailure',
  'verifyAndChangeEmailSuccess',
  'verifyAndChangeEmailFailure',
  'revertSecondFactorAdditionSuccess',
  'revertSecondFactorAdditionFailure',
  'emailChangeRevoked',
  'emailChangeRevokeFailure',
] as const satisfies readonly CardName[];

/**
 * Every card of spec §2, in the spec's order. `signedIn` is the brief "Signed in!" / "Verified!" state of
 * spec §4. A test drives the flow into each of them.
 */
export const CARDS = [
  'providerChooser',
  'emailEntry',
  'passwordSignIn',
  'passwordSignUp',
  'passwordRecovery',
  'recoveryEmailSent',
  'phoneEntry',
  'phoneCode',
  'emailLinkSent',
  'emailNotReceived',
  'emailLinkConfirmation',
  'federatedSignIn',
  'passwordLinking',
  'federatedLinking',
  'emailLinkLinking',
  'unsupportedProvider',
  'unauthorizedUser',
  'emailMismatch',
  'anonymousUserMismatch',
  'differentDeviceError',
  'sessionEnded',
  // Not in the spec's list: the second-factor challenge after a first factor.
  'secondFactorChooser',
  'secondFactorPhone',
  'secondFactorCode',
  ...ACTION_CODE_CARDS,
  'signOut',
  'recoverableError',
  'unrecoverableError',
  'spinner',
  'signedIn',
] as const satisfies readonly CardName[];

/** A card of {@link ACTION_CODE_CARDS}. */
export type ActionCodeCard = (typeof ACTION_CODE_CARDS)[number];

/** The card data of an action code's card (no common fields), as the card union declares it. */
export type ActionCodeCardState<C extends ActionCodeCard = ActionCodeCard> = Extract<CardState, { card: C }>;

// Compile-time check that CARDS lists every card exactly.
type Missing = Exclude<CardName, (typeof CARDS)[number]>;
const _allCardsListed: Missing extends never ? true : Missing = true;
void _allCardsListed;

/** Whether a snapshot is on the given card (narrows the type). */
export function isCard<C extends CardName>(state: FlowState, card: C): state is StateOf<C> {
  return state.card === card;
}
