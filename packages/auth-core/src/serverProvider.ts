/**
 * The provider a server runs the flow on, for one request (the host's form path: cards posted as plain
 * HTML forms, JavaScript on or off). It implements the part of {@link AuthProvider} that needs no browser
 * (no captcha, no popup), over the backend's REST API, and hands the host the token of the sign-in it made
 * so the host can start its own session.
 * @module
 */
import { AuthError } from './errors.ts';
import type { ProviderOp, ProviderOpKind } from './ops.ts';
import type { AuthProvider } from './provider.ts';

/**
 * A provider for one server request. Create one per request: it holds the sign-in it made (if any) and
 * the tenant in force, nothing else.
 *
 * Methods that need a browser (`createCaptchaVerifier`, `startPhoneSignIn`, `confirmPhoneCode`,
 * `signInWithFederated`, `getRedirectResult`, `signInWithCredential`, `linkWithCredential`) reject with
 * `operation-not-allowed`; the server runner never calls them (see {@link SERVER_OPS}).
 */
export interface ServerAuthProvider extends AuthProvider {
  /**
   * The token of the sign-in this provider made during the request, for the host's session: a Firebase
   * ID token (exchanged for a session cookie) or a Supabase access token. `null` before any sign-in and
   * after `signOut`. Never logged.
   */
  sessionToken(): string | null;
}

/**
 * The provider operations the server runner performs. Every other op needs the browser (captcha, popup,
 * redirect, a signed-in browser user): a card that asks for one says it needs JavaScript.
 */
export const SERVER_OPS: ReadonlySet<ProviderOpKind> = new Set<ProviderOpKind>([
  'lookupEmail',
  'setTenant',
  'passwordSignIn',
  'createUser',
  'sendPasswordReset',
  'sendEmailLink',
  'checkEmailLink',
  'completeEmailLink',
  'anonymous',
  'actionCode',
  'confirmPasswordReset',
  'signOut',
  'startSecondFactor',
  'finishSecondFactor',
  'cancelSecondFactor',
]);

/**
 * Whether the server runner can perform `op`: one of {@link SERVER_OPS}, and not a second factor's SMS
 * (texting the code needs the browser's captcha; an authenticator app's code does not).
 */
export function serverCanRun(op: ProviderOp): boolean {
  return SERVER_OPS.has(op.kind) && !(op.kind === 'startSecondFactor' && op.sms);
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
