/**
 * What a host needs from any backend's server side, declared once: the action-code methods of an action
 * route, the signed-in user a session stands for, the session operations of one request, the provider the
 * form path runs the flow on for one request (cards posted as plain HTML forms, JavaScript on or off: the
 * part of {@link AuthProvider} that needs no browser, over the backend's REST API), and the server that
 * hands out all of them. `@doorway/adapter-firebase/server`, `@doorway/adapter-supabase/server` and the
 * fake's server provider implement these types.
 * @module
 */
import { AuthError } from './errors.ts';
import type { AuthProvider, AuthUser } from './provider.ts';

/** The action-code methods a server-side action route needs (what `handleActionCode` and
 * `confirmPasswordResetAction` call). */
export type ActionCodeProvider = Pick<
  AuthProvider,
  'checkActionCode' | 'applyActionCode' | 'verifyPasswordResetCode' | 'confirmPasswordReset' | 'setTenant'
>;

/** The signed-in user a session stands for, as plain data. */
export interface SessionUser extends Omit<AuthUser, 'providerIds'> {
  /**
   * How the session was started, in the backend's words: `password`, `anonymous`, a federated provider id
   * (`google.com`), `phone`, `emailLink`, or the backend's own name for a method (GoTrue's `otp`).
   */
  signInProvider: string;
  /** Identity kinds of the user (`email`, `phone`, `google.com`, …). */
  identities: readonly string[];
  /** When the user signed in, ms since the epoch. */
  authTime: number;
  /** When the session ends, ms since the epoch. */
  expiresAt: number;
}

/** The session operations of one request. */
export interface SessionBackend {
  /**
   * Exchanges the token of a fresh sign-in (a Firebase ID token, a Supabase access token) for the session
   * cookie's value. Rejects `session-expired` (bad, old or revoked token), `user-disabled`,
   * `network-request-failed`, `generic`.
   */
  createSessionCookie(token: string, options: { expiresInMs: number }): Promise<string>;
  /**
   * The user of a session cookie, or `null` when it is missing, malformed, expired, revoked (with
   * `checkRevoked`), or its user is disabled or deleted. Rejects only when the backend cannot be asked
   * (`network-request-failed`, `generic`).
   */
  verifySessionCookie(
    cookie: string | null | undefined,
    options?: { checkRevoked?: boolean },
  ): Promise<SessionUser | null>;
  /** Ends every session of the user (sign out everywhere). Rejects `user-not-found`, `operation-not-allowed`, `generic`. */
  revokeSessions(uid: string): Promise<void>;
  /** The user's record, or `null` when there is no such user. */
  getUser(uid: string): Promise<AuthUser | null>;
}

/**
 * A provider for one server request. Create one per request: it holds the sign-in it made (if any) and
 * the tenant in force, nothing else.
 *
 * Methods that need a browser (`createCaptchaVerifier`, `startPhoneSignIn`, `confirmPhoneCode`,
 * `signInWithFederated`, `getRedirectResult`, `signInWithCredential`, `linkWithCredential`) reject with
 * `operation-not-allowed`; the server runner never calls them (see `SERVER_OPS`).
 */
export interface ServerAuthProvider extends AuthProvider {
  /**
   * The token of the sign-in this provider made during the request, for the host's session: a Firebase
   * ID token (exchanged for a session cookie) or a Supabase access token. `null` before any sign-in and
   * after `signOut`. Never logged.
   */
  sessionToken(): string | null;
}

/** The {@link AuthProvider} methods that need a browser (captcha, phone, popup, redirect, a browser user). */
export type BrowserOnlyMethods = Pick<
  AuthProvider,
  | 'createCaptchaVerifier'
  | 'startPhoneSignIn'
  | 'confirmPhoneCode'
  | 'signInWithFederated'
  | 'getRedirectResult'
  | 'signInWithCredential'
  | 'linkWithCredential'
>;

const refuse = (): Promise<never> => Promise.reject(new AuthError('operation-not-allowed'));

/**
 * What a {@link ServerAuthProvider} answers for the methods that need a browser: each rejects (the captcha
 * verifier throws) `operation-not-allowed`. Spread it into a server provider.
 * @example
 * const provider: ServerAuthProvider = { ...BROWSER_ONLY, capabilities, signInWithEmailAndPassword, … };
 */
export const BROWSER_ONLY: Readonly<BrowserOnlyMethods> = Object.freeze({
  createCaptchaVerifier(): never {
    throw new AuthError('operation-not-allowed');
  },
  startPhoneSignIn: refuse,
  confirmPhoneCode: refuse,
  signInWithFederated: refuse,
  getRedirectResult: refuse,
  signInWithCredential: refuse,
  linkWithCredential: refuse,
});

/** Options of {@link AuthServer.formProvider}, for one request. */
export interface FormProviderRequest {
  /**
   * The absolute URL of the host's action-code page, where emailed links of the form path lead (backends
   * whose links name their own target use it; others ignore it).
   */
  actionUrl?: string;
}

/**
 * A backend's server side, as a host uses it: each method gives what ONE request needs (call them once per
 * request; they hold that request's tenant and sign-in).
 */
export interface AuthServer {
  /** The session operations of one request. */
  sessions(): SessionBackend;
  /** The action-code methods of one request. */
  serverProvider(): ActionCodeProvider;
  /** The provider the form path runs the flow on, for one request. */
  formProvider(request?: FormProviderRequest): ServerAuthProvider;
}
