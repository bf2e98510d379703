/**
 * The server's form provider: a {@link ServerAuthProvider} for one request over the Identity Toolkit REST
 * API (`./rest.ts`), giving the same results and catalogue codes as the browser provider for the same
 * situation. Each operation is a named function over a {@link FormContext}; the factory only assembles.
 * @module
 */
import {
  type ActionCodeInfo,
  type ActionLinkSettings,
  AuthError,
  type SecondFactorKind,
  type SignInMethod,
  type SignInResult,
} from '@doorway/auth-core';
import { BROWSER_ONLY, type ServerAuthProvider } from '@doorway/auth-core/server';
import { parseActionLink } from '../shared/actionCodes.ts';
import {
  emailLanguage,
  firebaseCapabilities,
  resetLinkSettings,
  sendableEmail,
  withAuthErrors,
} from '../shared/common.ts';
import { actionCodeInfoFromRest } from './actionCodes.ts';
import { type FormContext, restOf, signedIn, withFormSignInErrors } from './formContext.ts';
import { formSecondFactors } from './formSecondFactors.ts';
import * as rest from './rest.ts';

/** Options of {@link createFirebaseFormProvider}. */
export interface FirebaseFormProviderOptions {
  /** The project's web API key (any value on the emulator). */
  apiKey: string;
  /** The Auth emulator's `host:port`; `null`/absent: the real Identity Toolkit. */
  emulatorHost?: string | null;
  /** The `fetch` the calls go through (tests inject one). Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** As the browser provider's option: whether the project has email enumeration protection on. Default `true`. */
  emailEnumerationProtection?: boolean;
  /** Federated provider ids, declared as the browser provider declares them (signing in with them needs the browser). */
  federatedProviders?: readonly string[];
  /** Language of Firebase's emails. Default `'en'` (the widget's language); `null` leaves Firebase's default. */
  languageCode?: string | null;
  /** As the browser provider's option: the second factors the project has enabled. Default `['phone', 'totp']`. */
  secondFactors?: readonly SecondFactorKind[];
  /** The issuer an authenticator app shows for a TOTP enrolment. Default `'Firebase'`. */
  totpIssuer?: string;
}

/** `fetchSignInMethodsForEmail`, as the SDK asks outside a browser page (continue URI `http://localhost`). */
function signInMethods(ctx: FormContext, email: string): Promise<SignInMethod[]> {
  return withAuthErrors('lookup', async () => {
    const { signinMethods } = await rest.createAuthUri(restOf(ctx), {
      identifier: email,
      continueUri: 'http://localhost',
    });
    return signinMethods ?? [];
  });
}

/** Signs in; an account with a second factor rejects `second-factor-required` with its challenge. */
function passwordSignIn(ctx: FormContext, email: string, password: string): Promise<SignInResult> {
  return withFormSignInErrors('password', 'password', async () =>
    signedIn(ctx, await rest.signInWithPassword(restOf(ctx), { email, password }), {
      providerId: 'password',
      isNewUser: false,
    }),
  );
}

/** Creates the account with its display name in the one `signUp` call, so its first ID token names it. */
function createUser(
  ctx: FormContext,
  email: string,
  password: string,
  displayName?: string,
): Promise<SignInResult> {
  return withAuthErrors('createUser', async () => {
    const body = displayName ? { email, password, displayName } : { email, password };
    return signedIn(ctx, await rest.signUp(restOf(ctx), body), { providerId: 'password', isNewUser: true });
  });
}

function anonymousSignIn(ctx: FormContext): Promise<SignInResult> {
  return withAuthErrors('anonymous', async () =>
    signedIn(ctx, await rest.signUp(restOf(ctx), {}), {
      providerId: 'anonymous',
      isNewUser: true,
      anonymous: true,
    }),
  );
}

function sendSignInLink(ctx: FormContext, email: string, settings: ActionLinkSettings): Promise<void> {
  return withAuthErrors('emailLinkSend', async () => {
    const address = sendableEmail(email);
    if (settings.url === '') throw new AuthError('invalid-continue-uri');
    await rest.sendOobCode(restOf(ctx), {
      requestType: 'EMAIL_SIGNIN',
      email: address,
      continueUrl: settings.url,
      canHandleCodeInApp: true,
    });
  });
}

/**
 * Completes email-link sign-in; with `link`, adds the email to the user signed in during this request
 * (an anonymous upgrade), as the browser provider links to its current user.
 */
function emailLinkSignIn(
  ctx: FormContext,
  email: string,
  link: string,
  linkToCurrent: boolean,
): Promise<SignInResult> {
  return withFormSignInErrors('emailLinkSignIn', 'emailLink', async () => {
    const session = ctx.session;
    if (linkToCurrent && session === null) throw new AuthError('requires-recent-login');
    const parsed = parseActionLink(link);
    if (parsed === null) throw new AuthError('invalid-action-code');
    // The SDK refuses a link issued in another tenant before asking Firebase.
    if (parsed.tenantId !== ctx.tenantId) throw new AuthError('invalid-action-code');
    const body = { email, oobCode: parsed.code };
    const response = await rest.signInWithEmailLink(
      restOf(ctx),
      linkToCurrent && session !== null ? { ...body, idToken: session.idToken } : body,
    );
    return signedIn(ctx, response, {
      providerId: 'emailLink',
      // Linking never creates an account.
      isNewUser: !linkToCurrent && response.isNewUser === true,
      anonymous: linkToCurrent && session?.user.isAnonymous === true,
    });
  });
}

function sendPasswordReset(
  ctx: FormContext,
  email: string,
  settings: ActionLinkSettings | undefined,
): Promise<void> {
  return withAuthErrors('passwordReset', async () => {
    const address = sendableEmail(email);
    if (settings?.url === '') throw new AuthError('invalid-continue-uri');
    const link = resetLinkSettings(settings);
    await rest.sendOobCode(
      restOf(ctx),
      link === undefined
        ? { requestType: 'PASSWORD_RESET', email: address }
        : {
            requestType: 'PASSWORD_RESET',
            email: address,
            continueUrl: link.url,
            canHandleCodeInApp: link.handleCodeInApp,
          },
    );
  });
}

function checkActionCode(ctx: FormContext, code: string): Promise<ActionCodeInfo> {
  return withAuthErrors('actionCode', async () =>
    actionCodeInfoFromRest(await rest.resetPassword(restOf(ctx), { oobCode: code })),
  );
}

/**
 * The email a reset code is for. The SDK answers its `checkActionCode`'s email for any code; a code
 * without one (an email sign-in code) is no reset code here.
 */
async function verifyPasswordResetCode(ctx: FormContext, code: string): Promise<string> {
  const { email } = await checkActionCode(ctx, code);
  if (email === null) throw new AuthError('invalid-action-code');
  return email;
}

function confirmPasswordReset(ctx: FormContext, code: string, newPassword: string): Promise<void> {
  return withAuthErrors('actionCode', async () => {
    await rest.resetPassword(restOf(ctx), { oobCode: code, newPassword });
  });
}

function applyActionCode(ctx: FormContext, code: string): Promise<void> {
  return withAuthErrors('actionCode', async () => {
    await rest.update(restOf(ctx), { oobCode: code });
  });
}

/**
 * Creates the form provider for one request. Everything that needs a browser (captcha, phone, popup,
 * redirect, credentials) rejects with `operation-not-allowed`; `capabilities` are the browser provider's
 * with those off. `sessionToken()` is the ID token of the sign-in made during the request, for
 * `createSessionCookie`.
 * @example
 * const provider = createFirebaseFormProvider({ apiKey, emulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST });
 * await provider.signInWithEmailAndPassword(email, password);
 * const cookie = await server.createSessionCookie(provider.sessionToken()!, { expiresInMs });
 */
export function createFirebaseFormProvider(options: FirebaseFormProviderOptions): ServerAuthProvider {
  const emulatorHost = options.emulatorHost ?? null;
  const languageCode = emailLanguage(options.languageCode);
  const ctx: FormContext = {
    api: {
      apiKey: options.apiKey,
      baseUrl: emulatorHost === null ? rest.PRODUCTION_BASE_URL : rest.emulatorBaseUrl(emulatorHost),
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      languageCode,
    },
    totpIssuer: options.totpIssuer ?? 'Firebase',
    tenantId: null,
    session: null,
  };
  const capabilities = firebaseCapabilities(options, false);
  return {
    ...BROWSER_ONLY,
    capabilities,
    ...(capabilities.secondFactors !== undefined && { secondFactors: formSecondFactors(ctx) }),
    getCurrentUser: () => ctx.session?.user ?? null,
    sessionToken: () => ctx.session?.idToken ?? null,
    async setTenant(tenantId) {
      ctx.tenantId = tenantId;
    },
    fetchSignInMethodsForEmail: (email) => signInMethods(ctx, email),
    signInWithEmailAndPassword: (email, password) => passwordSignIn(ctx, email, password),
    createUser: (email, password, displayName) => createUser(ctx, email, password, displayName),
    signInAnonymously: () => anonymousSignIn(ctx),
    sendSignInLinkToEmail: (email, settings) => sendSignInLink(ctx, email, settings),
    isSignInWithEmailLink: (link) => parseActionLink(link)?.operation === 'EMAIL_SIGNIN',
    signInWithEmailLink: (email, link, linkOptions) =>
      emailLinkSignIn(ctx, email, link, linkOptions?.link ?? false),
    sendPasswordResetEmail: (email, settings) => sendPasswordReset(ctx, email, settings),
    verifyPasswordResetCode: (code) => verifyPasswordResetCode(ctx, code),
    confirmPasswordReset: (code, newPassword) => confirmPasswordReset(ctx, code, newPassword),
    checkActionCode: (code) => checkActionCode(ctx, code),
    applyActionCode: (code) => applyActionCode(ctx, code),
    async signOut() {
      ctx.session = null;
    },
  };
}
