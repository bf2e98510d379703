// The server's form provider over the Identity Toolkit REST API, without the emulator or a network: a
// fake `fetch` answers every call. The error mapping is checked against the browser provider itself: both
// get the same REST answer and must reject with the same catalogue code.
import {
  type AuthError,
  type AuthProvider,
  type ErrorCode,
  isErrorCode,
  messageFor,
} from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { deleteApp, initializeApp } from 'firebase/app';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createFirebaseProvider } from '../src/index.ts';
import { actionCodeInfoFromRest } from '../src/server/actionCodes.ts';
import { createFirebaseFormProvider } from '../src/server/form.ts';
import { IDENTITY_TOOLKIT_ERRORS, restErrorCode } from '../src/server/rest.ts';
import { parseActionLink } from '../src/shared/actionCodes.ts';

const API_KEY = 'unit-key';
const EMAIL = 'ada@example.com';
const PASSWORD = 'Secret-password-123';
const CODE = 'oob-code-that-must-not-leak';
const LINK = `https://app.test/login?mode=signIn&oobCode=${CODE}&apiKey=${API_KEY}&lang=en`;

/** A call the fake `fetch` saw, with its JSON body. */
interface SeenCall {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Answer = (url: string) => Response | Promise<Response>;

function fakeFetch(answer: Answer): { fetch: typeof fetch; calls: SeenCall[] } {
  const calls: SeenCall[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    calls.push({
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
    });
    return answer(String(input));
  };
  return { fetch: fake as typeof fetch, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const restError = (message: string) => () => json({ error: { code: 400, message, errors: [] } }, 400);

async function rejection(promise: Promise<unknown>): Promise<AuthError> {
  try {
    await promise;
  } catch (e) {
    return e as AuthError;
  }
  throw new Error('expected a rejection');
}

/** Every operation the form path runs that can fail at Firebase, with its arguments. */
const OPERATIONS: Record<string, (p: AuthProvider) => Promise<unknown>> = {
  signInWithEmailAndPassword: (p) => p.signInWithEmailAndPassword(EMAIL, PASSWORD),
  createUser: (p) => p.createUser(EMAIL, PASSWORD),
  signInAnonymously: (p) => p.signInAnonymously(),
  fetchSignInMethodsForEmail: (p) => p.fetchSignInMethodsForEmail(EMAIL),
  sendPasswordResetEmail: (p) => p.sendPasswordResetEmail(EMAIL, { url: 'https://app.test/login' }),
  sendSignInLinkToEmail: (p) =>
    p.sendSignInLinkToEmail(EMAIL, { url: 'https://app.test/login', handleCodeInApp: true }),
  signInWithEmailLink: (p) => p.signInWithEmailLink(EMAIL, LINK),
  checkActionCode: (p) => p.checkActionCode(CODE),
  applyActionCode: (p) => p.applyActionCode(CODE),
  verifyPasswordResetCode: (p) => p.verifyPasswordResetCode(CODE),
  confirmPasswordReset: (p) => p.confirmPasswordReset(CODE, PASSWORD),
};

// Every name the SDK maps, the ones it derives by rule, and unknown ones. MISSING_RECAPTCHA_TOKEN is left
// out: on it the SDK retries with a reCAPTCHA it loads from the web.
const REST_MESSAGES = [
  ...Object.keys(IDENTITY_TOOLKIT_ERRORS).filter((name) => name !== 'MISSING_RECAPTCHA_TOKEN'),
  'INVALID_EMAIL',
  'INVALID_EMAIL : The email provided does not match the sign-in email address.',
  'WEAK_PASSWORD : Password should be at least 6 characters',
  'OPERATION_NOT_ALLOWED',
  'QUOTA_EXCEEDED',
  'INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))',
  'TENANT_ID_MISMATCH',
  'UNSUPPORTED_TENANT_OPERATION',
  'INVALID_TENANT_ID',
  'PROJECT_DISABLED',
  'MISSING_EMAIL',
  'INTERNAL_ERROR',
  'A_NAME_FIREBASE_HAS_NOT_INVENTED_YET',
];

describe('restErrorCode', () => {
  it.each([
    ['INVALID_PASSWORD', 'auth/wrong-password'],
    ['INVALID_LOGIN_CREDENTIALS', 'auth/invalid-credential'],
    ['EMAIL_NOT_FOUND', 'auth/user-not-found'],
    ['EMAIL_EXISTS', 'auth/email-already-in-use'],
    ['USER_DISABLED', 'auth/user-disabled'],
    ['WEAK_PASSWORD : Password should be at least 6 characters', 'auth/weak-password'],
    ['INVALID_EMAIL', 'auth/invalid-email'],
    ['MISSING_PASSWORD', 'auth/missing-password'],
    ['TOO_MANY_ATTEMPTS_TRY_LATER', 'auth/too-many-requests'],
    ['INVALID_OOB_CODE', 'auth/invalid-action-code'],
    ['EXPIRED_OOB_CODE', 'auth/expired-action-code'],
    ['OPERATION_NOT_ALLOWED', 'auth/operation-not-allowed'],
    ['ADMIN_ONLY_OPERATION', 'auth/admin-restricted-operation'],
    ['QUOTA_EXCEEDED', 'auth/quota-exceeded'],
  ])('restErrorCode - should name %s as the SDK does (%s)', (message, code) => {
    expect(restErrorCode(message)).toBe(code);
  });

  it('IDENTITY_TOOLKIT_ERRORS - should name only Firebase Auth codes', () => {
    for (const [name, code] of Object.entries(IDENTITY_TOOLKIT_ERRORS)) {
      expect(name).toMatch(/^[A-Z_]+$/);
      expect(code).toMatch(/^auth\/[a-z-]+$/);
    }
  });
});

describe('form provider errors, against the browser provider', () => {
  const app = initializeApp({ apiKey: API_KEY, projectId: 'demo-unit' }, 'rest-unit');
  const browser = createFirebaseProvider({ app, languageCode: null });
  afterAll(() => deleteApp(app));
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** The catalogue codes the browser provider and a form provider reject `op` with, for one REST answer. */
  async function bothReject(
    op: (p: AuthProvider) => Promise<unknown>,
    answer: Answer,
  ): Promise<{ browser: AuthError; form: AuthError }> {
    // The SDK reads the global fetch at each call.
    vi.stubGlobal('fetch', fakeFetch(answer).fetch);
    const fromBrowser = await rejection(op(browser));
    const form = createFirebaseFormProvider({ apiKey: API_KEY, fetch: fakeFetch(answer).fetch });
    return { browser: fromBrowser, form: await rejection(op(form)) };
  }

  it.each(Object.keys(OPERATIONS))(
    '%s - should reject every REST error with the browser provider’s catalogue code',
    async (name) => {
      const op = OPERATIONS[name] as (p: AuthProvider) => Promise<unknown>;
      for (const message of REST_MESSAGES) {
        const { browser: expected, form: actual } = await bothReject(op, restError(message));
        expect(isErrorCode(expected.code), message).toBe(true);
        expect(actual.code, `${name} / ${message}`).toBe(expected.code);
        expect(actual.message).toBe(messageFor(actual.code));
        for (const secret of [PASSWORD, CODE, 'Password should be', message]) {
          expect(actual.message).not.toContain(secret);
        }
      }
    },
  );

  it.each(Object.keys(OPERATIONS))(
    '%s - should reject network-request-failed when Firebase cannot be reached or answers no JSON, as the browser provider',
    async (name) => {
      const op = OPERATIONS[name] as (p: AuthProvider) => Promise<unknown>;
      const answers: Answer[] = [
        () => Promise.reject(new TypeError('fetch failed')),
        () => new Response('<html>Bad gateway</html>', { status: 502 }),
        () => json({ error: { code: 500 } }, 500),
      ];
      for (const answer of answers) {
        const { browser: expected, form: actual } = await bothReject(op, answer);
        expect(expected.code).toBe('network-request-failed');
        expect(actual.code).toBe('network-request-failed');
      }
    },
  );

  // The names the form path meets most, by operation, spelled out (the parity test above proves the rest).
  it.each([
    ['signInWithEmailAndPassword', 'INVALID_PASSWORD', 'wrong-password'],
    ['signInWithEmailAndPassword', 'INVALID_LOGIN_CREDENTIALS', 'wrong-password'],
    ['signInWithEmailAndPassword', 'EMAIL_NOT_FOUND', 'user-not-found'],
    ['signInWithEmailAndPassword', 'USER_DISABLED', 'user-disabled'],
    ['signInWithEmailAndPassword', 'MISSING_PASSWORD', 'missing-password'],
    ['signInWithEmailAndPassword', 'INVALID_EMAIL', 'invalid-email'],
    ['signInWithEmailAndPassword', 'TOO_MANY_ATTEMPTS_TRY_LATER', 'too-many-requests'],
    ['signInWithEmailAndPassword', 'PASSWORD_LOGIN_DISABLED', 'operation-not-allowed'],
    ['createUser', 'EMAIL_EXISTS', 'email-already-in-use'],
    ['createUser', 'WEAK_PASSWORD : Password should be at least 6 characters', 'weak-password'],
    ['createUser', 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing uppercase', 'weak-password'],
    ['createUser', 'TOO_MANY_ATTEMPTS_TRY_LATER', 'sign-up-too-many-requests'],
    ['createUser', 'QUOTA_EXCEEDED', 'sign-up-too-many-requests'],
    ['createUser', 'ADMIN_ONLY_OPERATION', 'sign-up-disabled'],
    ['createUser', 'OPERATION_NOT_ALLOWED', 'operation-not-allowed'],
    ['signInAnonymously', 'ADMIN_ONLY_OPERATION', 'operation-not-allowed'],
    ['fetchSignInMethodsForEmail', 'INVALID_IDENTIFIER', 'invalid-email'],
    ['sendPasswordResetEmail', 'EMAIL_NOT_FOUND', 'user-not-found'],
    ['sendPasswordResetEmail', 'RESET_PASSWORD_EXCEED_LIMIT', 'too-many-requests'],
    ['sendSignInLinkToEmail', 'INVALID_CONTINUE_URI', 'invalid-continue-uri'],
    ['sendSignInLinkToEmail', 'UNAUTHORIZED_DOMAIN', 'invalid-continue-uri'],
    ['signInWithEmailLink', 'INVALID_EMAIL : The email provided does not match', 'email-mismatch'],
    ['signInWithEmailLink', 'INVALID_OOB_CODE', 'invalid-action-code'],
    ['signInWithEmailLink', 'EXPIRED_OOB_CODE', 'expired-action-code'],
    ['checkActionCode', 'EXPIRED_OOB_CODE', 'expired-action-code'],
    ['applyActionCode', 'INVALID_OOB_CODE', 'invalid-action-code'],
    ['applyActionCode', 'USER_NOT_FOUND', 'invalid-action-code'],
    ['confirmPasswordReset', 'WEAK_PASSWORD : Password should be at least 6 characters', 'weak-password'],
  ] as const)('%s - should reject %s with %s', async (name, message, code: ErrorCode) => {
    const op = OPERATIONS[name] as (p: AuthProvider) => Promise<unknown>;
    const form = createFirebaseFormProvider({ apiKey: API_KEY, fetch: fakeFetch(restError(message)).fetch });
    const error = await rejection(op(form));
    expect(error.code).toBe(code);
    expect(error.message).toBe(messageFor(code));
  });

  it('isSignInWithEmailLink - should decide every link as the browser provider', () => {
    const form = createFirebaseFormProvider({ apiKey: API_KEY });
    const inner = 'https://app.test/login?mode=signIn&oobCode=abc&apiKey=k';
    const links = [
      inner,
      `${inner}#fragment`,
      'https://app.test/login?mode=signIn&oobCode=abc',
      'https://app.test/login?mode=signIn&apiKey=k',
      'https://app.test/login?mode=resetPassword&oobCode=abc&apiKey=k',
      'https://app.test/login?mode=nonsense&oobCode=abc&apiKey=k',
      `https://app.page.link/?link=${encodeURIComponent(inner)}`,
      `https://app.test/?deep_link_id=${encodeURIComponent(inner)}`,
      `https://app.test/?link=${encodeURIComponent(`https://x.test/?deep_link_id=${encodeURIComponent(inner)}`)}`,
      `https://app.test/finish?continueUrl=${encodeURIComponent(inner)}`,
      'mode=signIn&oobCode=abc&apiKey=k',
      '?mode=signIn&oobCode=abc&apiKey=k',
      'https://app.test/login?mode=signIn&oobCode=%E0%A4%A&apiKey=k',
      'https://app.test/login?mode=constructor&oobCode=abc&apiKey=k',
      'not a url',
      '',
    ];
    for (const link of links) {
      expect(form.isSignInWithEmailLink(link), link).toBe(browser.isSignInWithEmailLink(link));
    }
    expect(form.isSignInWithEmailLink(inner)).toBe(true);
    expect(form.isSignInWithEmailLink('https://app.test/login?mode=resetPassword&oobCode=abc&apiKey=k')).toBe(
      false,
    );
  });
});

describe('form provider requests', () => {
  const signedIn = (url: string) =>
    url.includes('accounts:lookup')
      ? json({
          users: [
            {
              localId: 'uid-1',
              email: EMAIL,
              emailVerified: false,
              providerUserInfo: [{ providerId: 'password' }],
            },
          ],
        })
      : json({ localId: 'uid-1', email: EMAIL, idToken: 'id-token-1', refreshToken: 'refresh' });

  const signInFetch = () => fakeFetch(signedIn);

  it('signInWithEmailAndPassword - should call the production API with the key, the widget language and the tenant', async () => {
    const { fetch, calls } = signInFetch();
    const provider = createFirebaseFormProvider({ apiKey: 'k&y', fetch });
    await provider.setTenant('tenant-1');
    const result = await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    expect(calls.map((c) => c.url)).toEqual([
      'https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k%26y',
      'https://identitytoolkit.googleapis.com/v1/accounts:lookup?key=k%26y',
    ]);
    expect(calls[0]?.body).toEqual({
      email: EMAIL,
      password: PASSWORD,
      returnSecureToken: true,
      clientType: 'CLIENT_TYPE_WEB',
      tenantId: 'tenant-1',
    });
    expect(calls[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-firebase-locale': 'en',
    });
    // The ID token names its tenant; lookup sends none, as the SDK.
    expect(calls[1]?.body).toEqual({ idToken: 'id-token-1' });
    expect(result).toEqual({
      isNewUser: false,
      providerId: 'password',
      user: {
        uid: 'uid-1',
        email: EMAIL,
        displayName: null,
        phoneNumber: null,
        emailVerified: false,
        isAnonymous: false,
        providerIds: ['password'],
        tenantId: null,
      },
    });
    expect(provider.sessionToken()).toBe('id-token-1');
  });

  it('createUser - should go to the emulator when given its host, sending the display name with the sign-up', async () => {
    const { fetch, calls } = signInFetch();
    const provider = createFirebaseFormProvider({
      apiKey: 'k',
      emulatorHost: '127.0.0.1:9199',
      fetch,
      languageCode: null,
    });
    await provider.createUser(EMAIL, PASSWORD, 'Ada');
    expect(calls[0]?.url).toBe(
      'http://127.0.0.1:9199/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k',
    );
    expect(calls[0]?.body).toMatchObject({ email: EMAIL, password: PASSWORD, displayName: 'Ada' });
    expect(calls[0]?.body).not.toHaveProperty('tenantId');
    expect(calls[0]?.headers).not.toHaveProperty('x-firebase-locale');
  });

  it('sendPasswordResetEmail / sendSignInLinkToEmail - should send the continue URL and whether the app handles the code', async () => {
    const { fetch, calls } = fakeFetch(() => json({ email: EMAIL }));
    const provider = createFirebaseFormProvider({ apiKey: 'k', fetch });
    await provider.sendPasswordResetEmail(EMAIL);
    await provider.sendPasswordResetEmail(EMAIL, { url: 'https://app.test/login' });
    await provider.sendSignInLinkToEmail(EMAIL, {
      url: 'https://app.test/login?sid=1',
      handleCodeInApp: true,
    });
    expect(calls.map((c) => c.body)).toEqual([
      { requestType: 'PASSWORD_RESET', email: EMAIL, clientType: 'CLIENT_TYPE_WEB' },
      {
        requestType: 'PASSWORD_RESET',
        email: EMAIL,
        continueUrl: 'https://app.test/login',
        canHandleCodeInApp: false,
        clientType: 'CLIENT_TYPE_WEB',
      },
      {
        requestType: 'EMAIL_SIGNIN',
        email: EMAIL,
        continueUrl: 'https://app.test/login?sid=1',
        canHandleCodeInApp: true,
        clientType: 'CLIENT_TYPE_WEB',
      },
    ]);
  });

  it('sending emails - should reject an address without @ and an empty continue URL before calling Firebase', async () => {
    const { fetch, calls } = fakeFetch(() => json({}));
    const provider = createFirebaseFormProvider({ apiKey: 'k', fetch });
    expect((await rejection(provider.sendPasswordResetEmail('not-an-email'))).code).toBe('invalid-email');
    expect((await rejection(provider.sendSignInLinkToEmail('nobody', { url: 'https://a.test' }))).code).toBe(
      'invalid-email',
    );
    expect((await rejection(provider.sendSignInLinkToEmail(EMAIL, { url: '' }))).code).toBe(
      'invalid-continue-uri',
    );
    expect(calls).toEqual([]);
  });

  it('signInWithEmailLink - should send the link’s code, and refuse a link that is none or is of another tenant', async () => {
    const { fetch, calls } = signInFetch();
    const provider = createFirebaseFormProvider({ apiKey: 'k', fetch });
    expect((await rejection(provider.signInWithEmailLink(EMAIL, 'https://app.test/login'))).code).toBe(
      'invalid-action-code',
    );
    expect((await rejection(provider.signInWithEmailLink(EMAIL, `${LINK}&tenantId=t1`))).code).toBe(
      'invalid-action-code',
    );
    expect((await rejection(provider.signInWithEmailLink(EMAIL, LINK, { link: true }))).code).toBe(
      'requires-recent-login',
    );
    expect(calls).toEqual([]);
    await provider.signInWithEmailLink(EMAIL, `https://app.test/?link=${encodeURIComponent(LINK)}`);
    expect(calls[0]?.body).toEqual({ email: EMAIL, oobCode: CODE });
  });

  it('signOut - should forget the sign-in and its token', async () => {
    const { fetch } = signInFetch();
    const provider = createFirebaseFormProvider({ apiKey: 'k', fetch });
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
    await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
    expect(provider.getCurrentUser()?.uid).toBe('uid-1');
    await provider.signOut();
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
  });

  it('a sign-in that needs a second factor - should reject second-factor-required and sign nobody in', async () => {
    const { fetch } = fakeFetch(() =>
      json({ localId: 'uid-1', mfaPendingCredential: 'pending', mfaInfo: [] }),
    );
    const provider = createFirebaseFormProvider({ apiKey: 'k', fetch });
    const error = await rejection(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
    expect(error.code).toBe('second-factor-required');
    expect(error.challenge?.session).toEqual({
      mfaPendingCredential: 'pending',
      providerId: 'password',
      mfaInfo: [],
    });
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
  });
});

describe('browser-only methods and capabilities', () => {
  const provider: ServerAuthProvider = createFirebaseFormProvider({
    apiKey: 'k',
    fetch: fakeFetch(() => json({})).fetch,
    federatedProviders: ['google.com'],
  });

  it('capabilities - should be the browser provider’s without phone, captcha, popup and redirect', () => {
    expect(provider.capabilities).toEqual({
      password: true,
      emailLink: true,
      phone: false,
      anonymous: true,
      federated: ['google.com'],
      popup: false,
      redirect: false,
      tenants: true,
      reliableSignInMethodLookup: false,
      actionCodes: [
        'resetPassword',
        'recoverEmail',
        'revertSecondFactorAddition',
        'verifyEmail',
        'verifyAndChangeEmail',
        'signIn',
        'select',
      ],
      captcha: false,
      secondFactors: ['phone', 'totp'],
    });
    const unprotected = createFirebaseFormProvider({ apiKey: 'k', emailEnumerationProtection: false });
    expect(unprotected.capabilities.reliableSignInMethodLookup).toBe(true);
  });

  it('browser-only methods - should reject operation-not-allowed', async () => {
    const verifier = { kind: 'x', render: async () => {}, isSolved: () => true, clear: () => {} };
    const calls: Promise<unknown>[] = [
      provider.startPhoneSignIn('+15555550100', verifier),
      provider.confirmPhoneCode('id', '123456'),
      provider.signInWithFederated('google.com', { mode: 'popup' }),
      provider.signInWithFederated('google.com', { mode: 'redirect' }),
      provider.getRedirectResult(),
      provider.signInWithCredential({ kind: 'password', email: EMAIL, password: PASSWORD }),
      provider.linkWithCredential({ kind: 'emailLink', email: EMAIL, link: LINK }),
    ];
    for (const call of calls) {
      const error = await rejection(call);
      expect(error.code).toBe('operation-not-allowed');
      expect(error.message).toBe(messageFor('operation-not-allowed'));
    }
    expect(() => provider.createCaptchaVerifier(null)).toThrow(
      expect.objectContaining({ code: 'operation-not-allowed' }),
    );
  });
});

describe('actionCodeInfoFromRest', () => {
  it('actionCodeInfoFromRest - should name the new and the old email of a verifyAndChangeEmail code', () => {
    expect(
      actionCodeInfoFromRest({
        requestType: 'VERIFY_AND_CHANGE_EMAIL',
        email: 'old@x.test',
        newEmail: 'new@x.test',
      }),
    ).toEqual({ operation: 'verifyAndChangeEmail', email: 'new@x.test', previousEmail: 'old@x.test' });
  });

  it('actionCodeInfoFromRest - should name the restored and the changed email of a recoverEmail code', () => {
    expect(
      actionCodeInfoFromRest({ requestType: 'RECOVER_EMAIL', email: 'old@x.test', newEmail: 'new@x.test' }),
    ).toEqual({ operation: 'recoverEmail', email: 'old@x.test', previousEmail: 'new@x.test' });
  });

  it('actionCodeInfoFromRest - should describe a reverted factor by its phone number, else its name', () => {
    expect(
      actionCodeInfoFromRest({
        requestType: 'REVERT_SECOND_FACTOR_ADDITION',
        email: 'ada@x.test',
        mfaInfo: { mfaEnrollmentId: 'f', displayName: 'Work phone', phoneInfo: '+1******1234' },
      }).factor,
    ).toBe('+1******1234');
    expect(
      actionCodeInfoFromRest({
        requestType: 'REVERT_SECOND_FACTOR_ADDITION',
        email: 'ada@x.test',
        mfaInfo: { mfaEnrollmentId: 'f', displayName: 'Authenticator', totpInfo: {} },
      }).factor,
    ).toBe('Authenticator');
  });

  it('actionCodeInfoFromRest - should report email null for a sign-in code', () => {
    expect(actionCodeInfoFromRest({ requestType: 'EMAIL_SIGNIN' })).toEqual({
      operation: 'signIn',
      email: null,
      previousEmail: null,
    });
  });

  it('actionCodeInfoFromRest - should fail as the SDK on an answer missing what its operation needs', () => {
    for (const info of [
      {},
      { requestType: 'VERIFY_EMAIL' },
      { requestType: 'VERIFY_AND_CHANGE_EMAIL', email: 'a@x.test' },
      { requestType: 'REVERT_SECOND_FACTOR_ADDITION', email: 'a@x.test' },
      { requestType: 'REVERT_SECOND_FACTOR_ADDITION', email: 'a@x.test', mfaInfo: { displayName: 'x' } },
    ]) {
      expect(() => actionCodeInfoFromRest(info), JSON.stringify(info)).toThrow(
        expect.objectContaining({ code: 'auth/internal-error' }),
      );
    }
    expect(() => actionCodeInfoFromRest({ requestType: 'SOMETHING_NEW', email: 'a@x.test' })).toThrow(
      expect.objectContaining({ code: 'invalid-action-code' }),
    );
  });

  it('parseActionLink - should read the tenant and continue URL of a link', () => {
    expect(
      parseActionLink(`${LINK}&tenantId=t1&continueUrl=${encodeURIComponent('https://app.test/x?a=1')}`),
    ).toEqual({
      apiKey: API_KEY,
      operation: 'EMAIL_SIGNIN',
      code: CODE,
      continueUrl: 'https://app.test/x?a=1',
      tenantId: 't1',
    });
  });
});
