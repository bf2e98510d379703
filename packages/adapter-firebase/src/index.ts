/**
 * Doorway's provider over the modular Firebase Auth SDK (v12): `createFirebaseProvider(options)` maps every
 * {@link AuthProvider} method to one or two SDK calls and every failure to a catalogue {@link AuthError}.
 * @module
 */
import {
  ACTION_MODES,
  type ActionLinkSettings,
  type AuthCredential,
  AuthError,
  type AuthProvider,
  type AuthUser,
  type CaptchaVerifier,
  type FederatedOptions,
  type ProviderCapabilities,
  type SignInMethod,
  type SignInResult,
  WIDGET_LANGUAGE,
} from '@doorway/auth-core';
import { type FirebaseApp, FirebaseError, type FirebaseOptions, initializeApp } from 'firebase/app';
import {
  type ActionCodeSettings,
  type ApplicationVerifier,
  type Auth,
  applyActionCode,
  type ConfirmationResult,
  checkActionCode,
  confirmPasswordReset,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  EmailAuthProvider,
  type AuthCredential as FirebaseCredential,
  fetchSignInMethodsForEmail,
  getAdditionalUserInfo,
  getAuth,
  getRedirectResult,
  isSignInWithEmailLink,
  linkWithCredential,
  linkWithPopup,
  linkWithRedirect,
  PhoneAuthProvider,
  RecaptchaVerifier,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInAnonymously,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithEmailLink,
  signInWithPhoneNumber,
  signInWithPopup,
  signInWithRedirect,
  signOut,
  type User,
  type UserCredential,
  updateProfile,
  verifyPasswordResetCode,
} from 'firebase/auth';
import { requirePlausibleEmail, toActionCodeInfo } from './actionCodes.ts';
import { credentialFromUserCredential, federatedProviderFor, toFirebaseCredential } from './credentials.ts';
import { type FirebaseErrorContext, toAuthError } from './errors.ts';

export { toActionCodeInfo } from './actionCodes.ts';
export { fromFirebaseCredential, toFirebaseCredential } from './credentials.ts';
export {
  type AttemptedSignIn,
  catalogueCodeFor,
  FIREBASE_CONTEXT_ERRORS,
  FIREBASE_ERRORS,
  type FirebaseErrorContext,
  toAuthError,
} from './errors.ts';

/** Where the provider gets its Firebase Auth instance from: exactly one of `auth`, `app` or `config`. */
export type FirebaseProviderSource =
  /** An Auth instance the host created (e.g. with `initializeAuth` and its own persistence). */
  | { auth: Auth; app?: never; config?: never }
  /** A Firebase app; the provider uses `getAuth(app)`. */
  | { app: FirebaseApp; auth?: never; config?: never }
  /** Web app config; the provider calls `initializeApp(config, appName)` (idempotent for equal config). */
  | { config: FirebaseOptions; appName?: string; auth?: never; app?: never };

/** reCAPTCHA widget parameters for phone sign-in (Firebase's `RecaptchaParameters`, typed). */
export interface RecaptchaOptions {
  /** `normal` (default, a visible checkbox as in FirebaseUI), `compact` or `invisible`. */
  size?: 'normal' | 'compact' | 'invisible';
  theme?: 'light' | 'dark';
  /** Badge position of an invisible reCAPTCHA. */
  badge?: 'bottomright' | 'bottomleft' | 'inline';
}

/** Settings of {@link createFirebaseProvider}. */
export interface FirebaseProviderSettings {
  /**
   * Auth emulator URL, e.g. `http://127.0.0.1:9099`. Connected once, before the first call; ignored when
   * the Auth instance is already connected to an emulator.
   */
  emulatorUrl?: string;
  /**
   * Whether the Firebase project has email enumeration protection on. Default **`true`**: Firebase turns
   * it on for every project created since September 2023, and then `fetchSignInMethodsForEmail` always
   * resolves `[]` and an unknown email fails like a wrong password. With `true` the provider declares
   * `reliableSignInMethodLookup: false` and the flow uses the combined sign-in card. Set `false` only
   * when the project has protection off (the Auth emulator's default).
   */
  emailEnumerationProtection?: boolean;
  /** Federated provider ids enabled in the project (`google.com`, `github.com`, `oidc.…`, `saml.…`). */
  federatedProviders?: readonly string[];
  /** reCAPTCHA parameters for {@link AuthProvider.createCaptchaVerifier}. */
  recaptcha?: RecaptchaOptions;
  /**
   * Language of Firebase's emails, SMS and reCAPTCHA. Default `'en'`: the widget language is forced to
   * English (spec §1). `null` leaves `auth.languageCode` as the host set it.
   */
  languageCode?: string | null;
}

/** Options of {@link createFirebaseProvider}. */
export type FirebaseProviderOptions = FirebaseProviderSource & FirebaseProviderSettings;

/** A Firebase-backed {@link AuthProvider}, with the Auth instance it drives. */
export interface FirebaseProvider extends AuthProvider {
  /** The underlying Auth instance (for the host's own calls, e.g. `getIdToken` after sign-in). */
  readonly auth: Auth;
}

/**
 * A plain {@link AuthUser} from a Firebase `User`. `providerIds` are the user's `providerData` ids
 * (`password` — Firebase also reports email-link users as `password` — `phone`, `google.com`, …);
 * anonymous users have none and `isAnonymous: true`.
 */
export function toAuthUser(user: User): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    displayName: user.displayName,
    phoneNumber: user.phoneNumber,
    emailVerified: user.emailVerified,
    isAnonymous: user.isAnonymous,
    providerIds: [...new Set(user.providerData.map((p) => p.providerId))],
    tenantId: user.tenantId,
  };
}

function resolveAuth(options: FirebaseProviderOptions): Auth {
  if (options.auth !== undefined) return options.auth;
  if (options.app !== undefined) return getAuth(options.app);
  return getAuth(initializeApp(options.config, options.appName));
}

function providerIdOf(credential: AuthCredential): string {
  return credential.kind === 'federated' ? credential.providerId : credential.kind;
}

function contextOf(credential: AuthCredential): FirebaseErrorContext {
  switch (credential.kind) {
    case 'password':
      return 'password';
    case 'emailLink':
      return 'emailLinkSignIn';
    case 'phone':
      return 'phone';
    case 'federated':
      return 'federated';
  }
}

/** Our handle on a Firebase application verifier, kept out of the public {@link CaptchaVerifier} shape. */
interface VerifierEntry {
  get(): ApplicationVerifier;
  /** The SDK resets the widget after each send: a visible captcha must be solved again. */
  used(): void;
}

/**
 * Creates the Firebase provider.
 *
 * - Popups: `signInWithPopup` / `linkWithPopup`; the SDK opens them at 500×600 itself, which is the spec's
 *   popup size (`POPUP_WIDTH` × `POPUP_HEIGHT`).
 * - Redirects: `signInWithRedirect` / `linkWithRedirect` navigate away (the SDK's promise does not settle
 *   once the page unloads); the result comes from {@link AuthProvider.getRedirectResult}.
 * - Phone: `signInWithPhoneNumber` with the reCAPTCHA from {@link AuthProvider.createCaptchaVerifier}; the
 *   `ConfirmationResult` is kept by verification id for {@link AuthProvider.confirmPhoneCode}.
 * - Capabilities: everything Firebase Auth offers; `reliableSignInMethodLookup` is the inverse of
 *   `emailEnumerationProtection` (default protected, so `false`).
 *
 * Nothing here touches `window` or `document` at import or creation time.
 * @example
 * const provider = createFirebaseProvider({
 *   config: { apiKey, authDomain, projectId },
 *   emulatorUrl: import.meta.env.DEV ? 'http://127.0.0.1:9099' : undefined,
 *   federatedProviders: ['google.com'],
 * });
 */
export function createFirebaseProvider(options: FirebaseProviderOptions): FirebaseProvider {
  const auth = resolveAuth(options);
  if (options.emulatorUrl !== undefined && auth.emulatorConfig === null) {
    connectAuthEmulator(auth, options.emulatorUrl, { disableWarnings: true });
  }
  const languageCode = options.languageCode === undefined ? WIDGET_LANGUAGE : options.languageCode;
  if (languageCode !== null) auth.languageCode = languageCode;

  const capabilities: ProviderCapabilities = {
    password: true,
    emailLink: true,
    phone: true,
    anonymous: true,
    federated: [...(options.federatedProviders ?? [])],
    popup: true,
    redirect: true,
    tenants: true,
    reliableSignInMethodLookup: !(options.emailEnumerationProtection ?? true),
    actionCodes: [...ACTION_MODES],
    captcha: true,
  };
  const verifiers = new WeakMap<CaptchaVerifier, VerifierEntry>();
  const confirmations = new Map<string, ConfirmationResult>();
  // When linking a number that another account has, Firebase consumes the SMS session and returns a
  // temporary proof instead; it is kept here so the error's `{ kind: 'phone', verificationId, code }`
  // credential still signs in to that account (anonymous-upgrade merge conflict).
  const phoneProofs = new Map<string, FirebaseCredential>();

  function keepPhoneProof(verificationId: string, error: unknown): void {
    if (!(error instanceof FirebaseError)) return;
    const proof = PhoneAuthProvider.credentialFromError(error);
    if (proof !== null) phoneProofs.set(verificationId, proof);
  }

  function firebaseCredential(credential: AuthCredential): FirebaseCredential {
    if (credential.kind === 'phone') {
      const proof = phoneProofs.get(credential.verificationId);
      if (proof !== undefined) return proof;
    }
    return toFirebaseCredential(credential);
  }

  function requireUser(): User {
    const user = auth.currentUser;
    if (user === null) throw new AuthError('requires-recent-login');
    return user;
  }

  function toResult(credential: UserCredential, providerId: string, federated = false): SignInResult {
    const result: SignInResult = {
      user: toAuthUser(credential.user),
      // Linking never creates an account (Firebase reports the sign-up endpoint's isNewUser for it).
      isNewUser:
        credential.operationType === 'link' ? false : (getAdditionalUserInfo(credential)?.isNewUser ?? false),
      providerId,
    };
    if (federated) {
      const used = credentialFromUserCredential(credential);
      if (used !== undefined) result.credential = used;
    }
    return result;
  }

  async function run<T>(
    context: FirebaseErrorContext,
    call: () => Promise<T>,
    attempted?: AuthCredential,
  ): Promise<T> {
    try {
      return await call();
    } catch (e) {
      throw toAuthError(e, context, attempted === undefined ? {} : { credential: attempted });
    }
  }

  /**
   * In emulator mode without a DOM (Node tests) the SDK's own mock reCAPTCHA cannot render, so the
   * verifier is the equivalent mock: solved at once, its token accepted only because app verification is
   * disabled for testing (the emulator, which ignores it). In a browser the real RecaptchaVerifier is used;
   * in emulator mode the SDK itself swaps in its mock reCAPTCHA there.
   */
  function emulatorVerifier(): CaptchaVerifier {
    const handle: CaptchaVerifier = {
      kind: 'firebase-emulator',
      render: async () => {},
      isSolved: () => true,
      clear: () => {},
    };
    const appVerifier: ApplicationVerifier & { _reset(): void } = {
      type: 'recaptcha',
      verify: async () => 'doorway-emulator-recaptcha-token',
      _reset: () => {},
    };
    verifiers.set(handle, { get: () => appVerifier, used: () => {} });
    return handle;
  }

  const provider: FirebaseProvider = {
    auth,
    capabilities,

    getCurrentUser() {
      return auth.currentUser === null ? null : toAuthUser(auth.currentUser);
    },

    async setTenant(tenantId) {
      auth.tenantId = tenantId;
    },

    fetchSignInMethodsForEmail(email) {
      return run('lookup', async () => (await fetchSignInMethodsForEmail(auth, email)) as SignInMethod[]);
    },

    signInWithEmailAndPassword(email, password) {
      return run('password', async () =>
        toResult(await signInWithEmailAndPassword(auth, email, password), 'password'),
      );
    },

    createUser(email, password, displayName) {
      return run('createUser', async () => {
        const credential = await createUserWithEmailAndPassword(auth, email, password);
        if (displayName !== undefined && displayName !== '') {
          await updateProfile(credential.user, { displayName });
        }
        return toResult(credential, 'password');
      });
    },

    signInWithCredential(credential) {
      return run(
        contextOf(credential),
        async () =>
          toResult(
            await signInWithCredential(auth, firebaseCredential(credential)),
            providerIdOf(credential),
            credential.kind === 'federated',
          ),
        credential,
      );
    },

    signInWithFederated(providerId, federatedOptions: FederatedOptions) {
      const { mode, link, scopes, customParameters, loginHint } = federatedOptions;
      return run('federated', async () => {
        const idp = federatedProviderFor(providerId, {
          ...(scopes !== undefined && { scopes }),
          ...(customParameters !== undefined && { customParameters }),
          ...(loginHint !== undefined && { loginHint }),
        });
        if (mode === 'popup') {
          const credential = link
            ? await linkWithPopup(requireUser(), idp)
            : await signInWithPopup(auth, idp);
          return toResult(credential, providerId, true);
        }
        // Typed Promise<never>: in a browser the page navigates away before it settles.
        const navigation: Promise<unknown> = link
          ? linkWithRedirect(requireUser(), idp)
          : signInWithRedirect(auth, idp);
        await navigation;
        return null;
      });
    },

    async getRedirectResult() {
      try {
        const credential = await getRedirectResult(auth);
        return credential === null ? null : toResult(credential, credential.providerId ?? 'unknown', true);
      } catch (e) {
        // The SDK's Node build has no redirect support: there is no redirect result to report there.
        if (
          e instanceof Error &&
          'code' in e &&
          e.code === 'auth/operation-not-supported-in-this-environment'
        ) {
          return null;
        }
        throw toAuthError(e, 'federated');
      }
    },

    signInAnonymously() {
      return run('anonymous', async () => toResult(await signInAnonymously(auth), 'anonymous'));
    },

    createCaptchaVerifier(container) {
      if (typeof document === 'undefined' && auth.settings.appVerificationDisabledForTesting) {
        return emulatorVerifier();
      }
      const size = options.recaptcha?.size ?? 'normal';
      const invisible = size === 'invisible';
      let recaptcha: RecaptchaVerifier | null = null;
      let solved = false;
      // Created on first use, not here: the constructor asserts a DOM (SSR renders the widget).
      const ensure = (): RecaptchaVerifier => {
        if (recaptcha === null) {
          recaptcha = new RecaptchaVerifier(auth, container as HTMLElement | string, {
            ...options.recaptcha,
            size,
            callback: () => {
              solved = true;
            },
            'expired-callback': () => {
              solved = false;
            },
          });
        }
        return recaptcha;
      };
      const handle: CaptchaVerifier = {
        kind: 'firebase-recaptcha',
        async render() {
          try {
            await ensure().render();
          } catch (e) {
            const error = toAuthError(e, 'phone');
            throw error.code === 'network-request-failed' ? error : new AuthError('captcha-check-failed');
          }
        },
        isSolved: () => invisible || solved,
        clear() {
          try {
            recaptcha?.clear();
          } catch {
            // Already cleared: nothing to release.
          }
          recaptcha = null;
          solved = false;
        },
      };
      verifiers.set(handle, {
        get: ensure,
        used: () => {
          solved = false;
        },
      });
      return handle;
    },

    async startPhoneSignIn(phoneNumber, verifier) {
      const entry = verifiers.get(verifier);
      if (entry === undefined || !verifier.isSolved()) throw new AuthError('captcha-check-failed');
      try {
        const confirmation = await run('phone', async () =>
          signInWithPhoneNumber(auth, phoneNumber, entry.get()),
        );
        confirmations.set(confirmation.verificationId, confirmation);
        return { verificationId: confirmation.verificationId };
      } finally {
        entry.used();
      }
    },

    async confirmPhoneCode(verificationId, code, confirmOptions) {
      const attempted: AuthCredential = { kind: 'phone', verificationId, code };
      try {
        const confirmation = confirmations.get(verificationId);
        const credential = confirmOptions?.link
          ? await linkWithCredential(requireUser(), firebaseCredential(attempted))
          : confirmation
            ? await confirmation.confirm(code)
            : await signInWithCredential(auth, firebaseCredential(attempted));
        confirmations.delete(verificationId);
        return toResult(credential, 'phone');
      } catch (e) {
        keepPhoneProof(verificationId, e);
        throw toAuthError(e, 'phone', { credential: attempted });
      }
    },

    async sendSignInLinkToEmail(email, settings: ActionLinkSettings) {
      requirePlausibleEmail(email);
      const actionCodeSettings: ActionCodeSettings = { url: settings.url, handleCodeInApp: true };
      return run('emailLinkSend', () => sendSignInLinkToEmail(auth, email, actionCodeSettings));
    },

    isSignInWithEmailLink(link) {
      try {
        return isSignInWithEmailLink(auth, link);
      } catch {
        return false;
      }
    },

    signInWithEmailLink(email, link, linkOptions) {
      return run('emailLinkSignIn', async () => {
        const credential = linkOptions?.link
          ? await linkWithCredential(requireUser(), EmailAuthProvider.credentialWithLink(email, link))
          : await signInWithEmailLink(auth, email, link);
        return toResult(credential, 'emailLink');
      });
    },

    async sendPasswordResetEmail(email, settings) {
      requirePlausibleEmail(email);
      const actionCodeSettings: ActionCodeSettings | undefined =
        settings === undefined
          ? undefined
          : { url: settings.url, handleCodeInApp: settings.handleCodeInApp ?? false };
      return run('passwordReset', () => sendPasswordResetEmail(auth, email, actionCodeSettings));
    },

    verifyPasswordResetCode(code) {
      return run('actionCode', () => verifyPasswordResetCode(auth, code));
    },

    confirmPasswordReset(code, newPassword) {
      return run('actionCode', () => confirmPasswordReset(auth, code, newPassword));
    },

    checkActionCode(code) {
      return run('actionCode', async () => toActionCodeInfo(await checkActionCode(auth, code)));
    },

    applyActionCode(code) {
      return run('actionCode', () => applyActionCode(auth, code));
    },

    linkWithCredential(credential) {
      return run(
        contextOf(credential),
        async () =>
          toResult(
            await linkWithCredential(requireUser(), firebaseCredential(credential)),
            providerIdOf(credential),
            credential.kind === 'federated',
          ),
        credential,
      );
    },

    signOut() {
      return run('other', () => signOut(auth));
    },
  };
  return provider;
}
