/**
 * Events a flow accepts. UI events come from cards; `PROVIDER_*`, `TIMER` and `CALLBACK_RESULT` come from
 * the runner. Events are plain objects; `verifier` is the one opaque handle, passed through untouched.
 * @module
 */
import type { ErrorInfo } from './errors.ts';
import type { AuthUser, CaptchaVerifier } from './provider.ts';

/** Names of the runner's timers. */
export type TimerName = 'busy' | 'resend' | 'success';

/** Every event. */
export type FlowEvent =
  /** Sent once by the runner: the page URL and who is signed in. */
  | {
      type: 'START';
      url: string;
      currentUser: AuthUser | null;
      redirectPending: boolean;
      signOut?: boolean;
      lazy?: boolean;
    }
  | { type: 'CHOOSE_TENANT'; tenantId: string | null }
  /** `email`, `phone`, `anonymous` or a federated provider id. */
  | { type: 'CHOOSE_PROVIDER'; providerId: string }
  | { type: 'SUBMIT_EMAIL'; email: string }
  | { type: 'SUBMIT_PASSWORD'; password: string }
  | { type: 'SUBMIT_SIGN_UP'; email: string; name: string; password: string }
  | { type: 'SUBMIT_RECOVERY'; email: string }
  | { type: 'GO_TO_RECOVERY' }
  | { type: 'GO_TO_SIGN_UP' }
  /** `phoneNumber` in E.164 (the UI parses it); `country` ISO alpha-2. */
  | {
      type: 'SUBMIT_PHONE';
      phoneNumber: string;
      country: string;
      captchaSolved: boolean;
      verifier: CaptchaVerifier | null;
    }
  | { type: 'SUBMIT_CODE'; code: string }
  /** Second factor: which enrolled factor to use (`SecondFactorInfo.uid`). */
  | { type: 'CHOOSE_SECOND_FACTOR'; factorUid: string }
  /** Second factor by SMS: the captcha is solved, text the code. */
  | { type: 'SEND_SECOND_FACTOR_SMS'; captchaSolved: boolean; verifier: CaptchaVerifier | null }
  /** Second factor: the 6-digit code. */
  | { type: 'SUBMIT_SECOND_FACTOR_CODE'; code: string }
  | { type: 'RESEND_CODE' }
  | { type: 'CHANGE_PHONE' }
  | { type: 'EMAIL_NOT_RECEIVED' }
  | { type: 'RESEND_EMAIL' }
  | { type: 'CONFIRM_EMAIL'; email: string }
  | { type: 'SIGN_IN_FEDERATED' }
  | { type: 'SEND_LINKING_EMAIL' }
  | { type: 'CONTINUE' }
  | { type: 'SUBMIT_NEW_PASSWORD'; password: string }
  | { type: 'RETRY' }
  | { type: 'CANCEL' }
  | { type: 'SIGN_OUT' }
  | { type: 'SIGN_IN_AGAIN' }
  /**
   * The passkey autofill the email card started (`passkeys.signIn({ conditional: true })`) answered: the
   * person picked a passkey from the email field's suggestions. Sent by the card, never posted by a form.
   */
  | { type: 'PASSKEY_AUTOFILLED'; result: unknown }
  /**
   * That autofill failed (a dismissed or unsupported one is ignored; `second-factor-required`, with its
   * challenge, asks the second factor; the rest are shown on the card).
   */
  | { type: 'PASSKEY_AUTOFILL_FAILED'; error: ErrorInfo }
  | { type: 'PROVIDER_RESOLVED'; id: number; result: unknown }
  | { type: 'PROVIDER_REJECTED'; id: number; error: ErrorInfo }
  | { type: 'TIMER'; name: TimerName }
  | { type: 'CALLBACK_RESULT'; redirect: boolean };

/** An event's `type`. */
export type FlowEventType = FlowEvent['type'];

/** Event types a person's actions produce (what cards send). */
export const UI_EVENT_TYPES = [
  'CHOOSE_TENANT',
  'CHOOSE_PROVIDER',
  'SUBMIT_EMAIL',
  'SUBMIT_PASSWORD',
  'SUBMIT_SIGN_UP',
  'SUBMIT_RECOVERY',
  'GO_TO_RECOVERY',
  'GO_TO_SIGN_UP',
  'SUBMIT_PHONE',
  'SUBMIT_CODE',
  'CHOOSE_SECOND_FACTOR',
  'SEND_SECOND_FACTOR_SMS',
  'SUBMIT_SECOND_FACTOR_CODE',
  'RESEND_CODE',
  'CHANGE_PHONE',
  'EMAIL_NOT_RECEIVED',
  'RESEND_EMAIL',
  'CONFIRM_EMAIL',
  'SIGN_IN_FEDERATED',
  'SEND_LINKING_EMAIL',
  'CONTINUE',
  'SUBMIT_NEW_PASSWORD',
  'RETRY',
  'CANCEL',
  'SIGN_OUT',
  'SIGN_IN_AGAIN',
] as const satisfies readonly FlowEventType[];
