/**
 * Provider operations and effects as data. The transition emits them; the runner (`createFlow`) executes
 * them and feeds the outcome back as `PROVIDER_RESOLVED` / `PROVIDER_REJECTED`, `TIMER` or
 * `CALLBACK_RESULT` events.
 * @module
 */
import type { ErrorInfo } from './errors.ts';
import type { TimerName } from './events.ts';
import type { AuthCredential, CaptchaVerifier, SecondFactorChallenge, SignInResult } from './provider.ts';

/** One unit of provider work. Some are composites the runner performs in a few calls (named in each). */
export type ProviderOp =
  /** Resolves the provider when it is loaded lazily (5 s script load, 10 s library wait). */
  | { kind: 'loadProvider' }
  /** `getRedirectResult`, then links a stored pending credential if there is one. */
  | { kind: 'redirectResult' }
  /** Sets the tenant when `tenantId` is given, then `fetchSignInMethodsForEmail` → `SignInMethod[]`. */
  | { kind: 'lookupEmail'; email: string; tenantId: string | null | undefined }
  | { kind: 'setTenant'; tenantId: string | null }
  /** `signInWithEmailAndPassword`, or `linkWithCredential` when upgrading an anonymous user. */
  | { kind: 'passwordSignIn'; email: string; password: string; link: boolean }
  /** `createUser`, or `linkWithCredential` (then the name) when upgrading an anonymous user. */
  | { kind: 'createUser'; email: string; password: string; name: string | null; link: boolean }
  | { kind: 'sendPasswordReset'; email: string; url: string }
  /** `startPhoneSignIn`; `verifier: null` reuses the last one (resend). */
  | { kind: 'startPhone'; phoneNumber: string; verifier: CaptchaVerifier | null }
  | { kind: 'confirmPhone'; verificationId: string; code: string; link: boolean }
  /** Stores an email-link session (random id, 3600 s), then `sendSignInLinkToEmail` with the id in the URL. */
  | {
      kind: 'sendEmailLink';
      email: string;
      url: string;
      pendingCredential: AuthCredential | null;
      anonymousUid: string | null;
      forceSameDevice: boolean;
    }
  /** Reads the stored email-link session and judges the link → `EmailLinkCheck`. */
  | { kind: 'checkEmailLink'; url: string; upgradeUid: string | null }
  /** `signInWithEmailLink` (or link), links a pending credential, clears the stored session. */
  | {
      kind: 'completeEmailLink';
      email: string;
      link: string;
      pendingCredential: AuthCredential | null;
      upgrade: boolean;
    }
  /**
   * `signInWithFederated`; with `pendingCredential` links it after sign-in (kept in storage across a
   * redirect).
   */
  | {
      kind: 'federated';
      providerId: string;
      mode: 'popup' | 'redirect';
      loginHint: string | null;
      link: boolean;
      scopes: readonly string[];
      customParameters: Readonly<Record<string, string>>;
      pendingCredential: AuthCredential | null;
    }
  | { kind: 'anonymous' }
  /** `passkeys.signIn`: the browser's WebAuthn ceremony with a discoverable credential. */
  | { kind: 'passkey' }
  /**
   * `secondFactors.startSignIn` for a factor: an SMS factor texts the code (`verifier: null` reuses the last
   * one: resend); a TOTP factor opens its check. SMS needs a browser (captcha), TOTP does not.
   */
  | {
      kind: 'startSecondFactor';
      challenge: SecondFactorChallenge;
      factorUid: string;
      sms: boolean;
      verifier: CaptchaVerifier | null;
    }
  /** `secondFactors.finishSignIn`: the code finishes the pending sign-in. */
  | { kind: 'finishSecondFactor'; challenge: SecondFactorChallenge; verificationId: string; code: string }
  /** `secondFactors.cancelSignIn`: nothing half-signed-in stays behind. */
  | { kind: 'cancelSecondFactor'; challenge: SecondFactorChallenge }
  /** `fetchSignInMethodsForEmail` for the account a pending credential belongs to. */
  | { kind: 'lookupForLinking'; email: string; credential: AuthCredential }
  /** `signInWithEmailAndPassword`, then `linkWithCredential(credential)`. */
  | { kind: 'passwordSignInAndLink'; email: string; password: string; credential: AuthCredential }
  /** `handleActionCode(url)` → `ActionResult`. */
  | { kind: 'actionCode'; url: string }
  | { kind: 'confirmPasswordReset'; code: string; password: string }
  | { kind: 'signOut' };

/** The kind of a provider op. */
export type ProviderOpKind = ProviderOp['kind'];

/** Everything a transition may ask the runner to do. */
export type Effect =
  | { type: 'call'; id: number; op: ProviderOp }
  | { type: 'startTimer'; name: TimerName; ms: number }
  | { type: 'cancelTimer'; name: TimerName }
  | { type: 'redirect'; url: string }
  | { type: 'signInSuccess'; result: SignInResult; redirectUrl: string | null }
  | { type: 'signInFailure'; error: ErrorInfo }
  | { type: 'uiShown' };
