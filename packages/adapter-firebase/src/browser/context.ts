/**
 * The one context every operation of the browser provider works on: the Auth instance, the settings, and
 * what the provider keeps between calls (captcha verifiers, pending SMS confirmations, phone proofs,
 * sign-ins waiting for their second factor, TOTP enrolments in progress).
 * @module
 */
import { type AuthCredential, AuthError, type CaptchaVerifier } from '@doorway/auth-core';
import { FirebaseError, initializeApp } from 'firebase/app';
import {
  type ApplicationVerifier,
  type Auth,
  type ConfirmationResult,
  connectAuthEmulator,
  type AuthCredential as FirebaseCredential,
  getAuth,
  type MultiFactorResolver,
  PhoneAuthProvider,
  type TotpSecret,
  type User,
} from 'firebase/auth';
import { emailLanguage } from '../shared/common.ts';
import { toFirebaseCredential } from '../shared/credentials.ts';
import type { FirebaseProviderOptions, FirebaseProviderSettings } from './options.ts';

/** Our handle on a Firebase application verifier, kept out of the public {@link CaptchaVerifier} shape. */
export interface VerifierEntry {
  get(): ApplicationVerifier;
  /** The SDK resets the widget after each send: a visible captcha must be solved again. */
  used(): void;
}

/** A sign-in whose first factor was right, waiting for its second (see `challenge.ts`). */
export interface PendingSignIn {
  /** The SDK's resolver: its session and hints finish the sign-in. Never leaves this provider. */
  readonly resolver: MultiFactorResolver;
  /** The first factor's provider id, for the result; `null`: read it from the finished credential. */
  readonly providerId: string | null;
  /** Whether the first factor was federated (the result then carries its credential). */
  readonly federated: boolean;
  /** TOTP checks opened by `startSignIn`: verification id → the factor's uid. */
  readonly totpChecks: Map<string, string>;
  /** When it started (ms since the epoch): old ones are dropped, as Firebase expires them. */
  readonly startedAt: number;
}

/** What every browser operation reads and keeps. */
export interface BrowserContext {
  readonly auth: Auth;
  readonly settings: FirebaseProviderSettings;
  /** The application verifier behind each captcha handle this provider made. */
  readonly verifiers: WeakMap<CaptchaVerifier, VerifierEntry>;
  /** Pending SMS sign-ins by verification id, for `confirmPhoneCode`. */
  readonly confirmations: Map<string, ConfirmationResult>;
  /**
   * When linking a number that another account has, Firebase consumes the SMS session and returns a
   * temporary proof instead; it is kept here so the error's `{ kind: 'phone', verificationId, code }`
   * credential still signs in to that account (anonymous-upgrade merge conflict).
   */
  readonly phoneProofs: Map<string, FirebaseCredential>;
  /**
   * Sign-ins waiting for their second factor, by the random id their challenge's `session` carries (the
   * challenge itself is plain JSON; the resolver stays here).
   */
  readonly pendingSignIns: Map<string, PendingSignIn>;
  /** TOTP enrolments in progress: enrollment id → the secret Firebase generated. */
  readonly totpEnrollments: Map<string, TotpSecret>;
}

function resolveAuth(options: FirebaseProviderOptions): Auth {
  if (options.auth !== undefined) return options.auth;
  if (options.app !== undefined) return getAuth(options.app);
  return getAuth(initializeApp(options.config, options.appName));
}

/** The Auth instance, connected to the emulator when asked and speaking the widget's language. */
export function createBrowserContext(options: FirebaseProviderOptions): BrowserContext {
  const auth = resolveAuth(options);
  if (options.emulatorUrl !== undefined && auth.emulatorConfig === null) {
    connectAuthEmulator(auth, options.emulatorUrl, { disableWarnings: true });
  }
  const languageCode = emailLanguage(options.languageCode);
  if (languageCode !== null) auth.languageCode = languageCode;
  return {
    auth,
    settings: options,
    verifiers: new WeakMap(),
    confirmations: new Map(),
    phoneProofs: new Map(),
    pendingSignIns: new Map(),
    totpEnrollments: new Map(),
  };
}

/** The signed-in user a link is made to; none means the sign-in must be made again. */
export function requireUser(ctx: BrowserContext): User {
  const user = ctx.auth.currentUser;
  if (user === null) throw new AuthError('requires-recent-login');
  return user;
}

/** Keeps the temporary proof Firebase attached to a failed phone link (see {@link BrowserContext.phoneProofs}). */
export function keepPhoneProof(ctx: BrowserContext, verificationId: string, error: unknown): void {
  if (!(error instanceof FirebaseError)) return;
  const proof = PhoneAuthProvider.credentialFromError(error);
  if (proof !== null) ctx.phoneProofs.set(verificationId, proof);
}

/** The Firebase credential for ours; a phone credential whose SMS session was consumed uses its kept proof. */
export function firebaseCredential(ctx: BrowserContext, credential: AuthCredential): FirebaseCredential {
  if (credential.kind === 'phone') {
    const proof = ctx.phoneProofs.get(credential.verificationId);
    if (proof !== undefined) return proof;
  }
  return toFirebaseCredential(credential);
}
