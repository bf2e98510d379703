// Pure tests of the adapter's tables and conversions: no emulator, no network.
import { readFileSync } from 'node:fs';
import { ACTION_MODES, AuthError, type ErrorCode, isErrorCode, messageFor } from '@doorway/auth-core';
import { deleteApp, FirebaseError, initializeApp } from 'firebase/app';
import {
  AuthErrorCodes,
  FacebookAuthProvider,
  GoogleAuthProvider,
  getAuth,
  OAuthCredential,
} from 'firebase/auth';
import { afterAll, describe, expect, it } from 'vitest';
import {
  catalogueCodeFor,
  createFirebaseProvider,
  FIREBASE_CONTEXT_ERRORS,
  FIREBASE_ERRORS,
  type FirebaseErrorContext,
  toActionCodeInfo,
  toAuthError,
} from '../src/index.ts';
import { federatedProviderFor, toFirebaseFederatedCredential } from '../src/shared/credentials.ts';
import { firebaseCode } from '../src/shared/errors.ts';

const RAW = 'Firebase: Error (auth/raw-message-that-must-not-leak).';
const firebaseError = (code: string, customData?: Record<string, unknown>) =>
  new FirebaseError(code, RAW, customData);

function mapped(code: string, context?: FirebaseErrorContext): AuthError {
  return toAuthError(firebaseError(code), context);
}

describe('toAuthError', () => {
  it('toAuthError - should map every Firebase SDK error code to a catalogue code with its catalogue message', () => {
    const codes = Object.values(AuthErrorCodes);
    expect(codes.length).toBeGreaterThan(90);
    for (const code of codes) {
      const error = mapped(code);
      expect(error).toBeInstanceOf(AuthError);
      expect(isErrorCode(error.code), code).toBe(true);
      expect(error.message).toBe(messageFor(error.code));
      expect(error.message).not.toContain('Firebase');
    }
  });

  it('toAuthError - should only name catalogue codes in its tables', () => {
    const values: ErrorCode[] = [
      ...Object.values(FIREBASE_ERRORS),
      ...Object.values(FIREBASE_CONTEXT_ERRORS).flatMap((row) => Object.values(row ?? {})),
    ];
    for (const value of values) expect(isErrorCode(value), value).toBe(true);
    for (const key of Object.keys(FIREBASE_ERRORS)) expect(key).toMatch(/^auth\/[a-z0-9-]+$/);
  });

  it.each([
    ['auth/wrong-password', 'password', 'wrong-password'],
    ['auth/invalid-credential', 'password', 'wrong-password'],
    ['auth/invalid-login-credentials', 'password', 'wrong-password'],
    ['auth/user-not-found', 'password', 'user-not-found'],
    ['auth/email-already-in-use', 'createUser', 'email-already-in-use'],
    ['auth/weak-password', 'createUser', 'weak-password'],
    ['auth/password-does-not-meet-requirements', 'createUser', 'weak-password'],
    ['auth/too-many-requests', 'password', 'too-many-requests'],
    ['auth/too-many-requests', 'createUser', 'sign-up-too-many-requests'],
    ['auth/too-many-requests', 'phone', 'phone-too-many-requests'],
    ['auth/quota-exceeded', 'phone', 'phone-too-many-requests'],
    ['auth/popup-closed-by-user', 'federated', 'user-cancelled'],
    ['auth/cancelled-popup-request', 'federated', 'user-cancelled'],
    ['auth/user-cancelled', 'federated', 'user-cancelled'],
    ['auth/redirect-cancelled-by-user', 'federated', 'user-cancelled'],
    ['auth/popup-blocked', 'federated', 'popup-blocked'],
    ['auth/invalid-credential', 'federated', 'generic'],
    ['auth/network-request-failed', 'password', 'network-request-failed'],
    ['auth/invalid-verification-code', 'phone', 'invalid-verification-code'],
    ['auth/missing-verification-code', 'phone', 'invalid-verification-code'],
    ['auth/code-expired', 'phone', 'code-expired'],
    ['auth/invalid-verification-id', 'phone', 'code-expired'],
    ['auth/invalid-phone-number', 'phone', 'invalid-phone-number'],
    ['auth/missing-phone-number', 'phone', 'invalid-phone-number'],
    ['auth/captcha-check-failed', 'phone', 'captcha-check-failed'],
    ['auth/expired-action-code', 'actionCode', 'expired-action-code'],
    ['auth/invalid-action-code', 'actionCode', 'invalid-action-code'],
    ['auth/user-not-found', 'actionCode', 'invalid-action-code'],
    ['auth/invalid-email', 'password', 'invalid-email'],
    ['auth/invalid-email', 'emailLinkSignIn', 'email-mismatch'],
    ['auth/argument-error', 'emailLinkSignIn', 'invalid-action-code'],
    ['auth/requires-recent-login', 'other', 'requires-recent-login'],
    ['auth/operation-not-allowed', 'password', 'operation-not-allowed'],
    ['auth/admin-restricted-operation', 'createUser', 'sign-up-disabled'],
    ['auth/admin-restricted-operation', 'anonymous', 'operation-not-allowed'],
    ['auth/user-disabled', 'password', 'user-disabled'],
    ['auth/invalid-continue-uri', 'emailLinkSend', 'invalid-continue-uri'],
    ['auth/unauthorized-continue-uri', 'emailLinkSend', 'invalid-continue-uri'],
    ['auth/web-storage-unsupported', 'other', 'web-storage-unsupported'],
    ['auth/session-cookie-revoked', 'session', 'session-expired'],
    ['auth/id-token-expired', 'session', 'session-expired'],
  ] as const)('toAuthError - should map %s in %s to %s', (code, context, expected) => {
    const error = mapped(code, context);
    expect(error.code).toBe(expected);
    expect(error.message).toBe(messageFor(expected));
    expect(catalogueCodeFor(code, context)).toBe(expected);
  });

  it('toAuthError - should map unknown codes and non-Firebase errors to generic', () => {
    expect(mapped('auth/brand-new-code').code).toBe('generic');
    expect(toAuthError(new Error('boom')).code).toBe('generic');
    expect(toAuthError('a string').code).toBe('generic');
    expect(toAuthError(null).code).toBe('generic');
    expect(toAuthError({ code: 'storage/unknown' }).code).toBe('generic');
    expect(toAuthError(new TypeError('x is not a function')).message).toBe(messageFor('generic'));
  });

  it('toAuthError - should pass an AuthError through unchanged', () => {
    const original = new AuthError('email-mismatch');
    expect(toAuthError(original, 'password')).toBe(original);
  });

  it('toAuthError - should carry the email and the federated credential of account-exists-with-different-credential', () => {
    const error = toAuthError(
      firebaseError('auth/account-exists-with-different-credential', {
        email: 'ada@example.com',
        _tokenResponse: {
          providerId: 'google.com',
          oauthIdToken: 'id-token',
          oauthAccessToken: 'access-token',
        },
      }),
      'federated',
    );
    expect(error.code).toBe('account-exists-with-different-credential');
    expect(error.email).toBe('ada@example.com');
    expect(error.credential).toMatchObject({
      kind: 'federated',
      providerId: 'google.com',
      idToken: 'id-token',
      accessToken: 'access-token',
    });
    expect(error.message).toBe(messageFor('account-exists-with-different-credential'));
  });

  it('toAuthError - should carry the attempted credential of credential-already-in-use and email-already-in-use when Firebase returns none', () => {
    const credential = { kind: 'password', email: 'ada@example.com', password: 'secret123' } as const;
    const inUse = toAuthError(
      firebaseError('auth/email-already-in-use', { email: 'ada@example.com' }),
      'password',
      {
        credential,
      },
    );
    expect(inUse.code).toBe('email-already-in-use');
    expect(inUse.credential).toEqual(credential);
    expect(inUse.email).toBe('ada@example.com');
    const phone = { kind: 'phone', verificationId: 'v', code: '123456' } as const;
    expect(
      toAuthError(firebaseError('auth/credential-already-in-use'), 'phone', { credential: phone }).credential,
    ).toEqual(phone);
  });

  it('toAuthError - should not attach credentials to other errors', () => {
    const error = toAuthError(
      firebaseError('auth/wrong-password', { email: 'ada@example.com' }),
      'password',
      {
        credential: { kind: 'password', email: 'ada@example.com', password: 'x' },
      },
    );
    expect(error.credential).toBeUndefined();
    expect(error.email).toBeUndefined();
  });
});

describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Error table'), readme.indexOf('## Tests'));
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

  it('README - should list exactly the error table of the source', () => {
    const documented: Record<string, string> = {};
    for (const line of section.split('\n')) {
      const row = cells(line);
      if (row.length !== 2 || !row[0]?.startsWith('`')) continue;
      const [target] = codes(row[0]);
      for (const code of codes(row[1] ?? '')) documented[code as string] = target as string;
    }
    expect(documented).toEqual(FIREBASE_ERRORS);
  });

  it('README - should list exactly the per-operation exceptions of the source', () => {
    const documented: Record<string, Record<string, string>> = {};
    for (const line of section.split('\n')) {
      const row = cells(line);
      if (row.length !== 3 || !/^[a-zA-Z]+$/.test(row[0] ?? '') || row[0] === 'Context') continue;
      const [context, code, target] = row as [string, string, string];
      documented[context] = {
        ...documented[context],
        [codes(code)[0] as string]: codes(target)[0] as string,
      };
    }
    expect(documented).toEqual(FIREBASE_CONTEXT_ERRORS);
  });
});

describe('toActionCodeInfo', () => {
  it.each([
    ['PASSWORD_RESET', 'resetPassword'],
    ['RECOVER_EMAIL', 'recoverEmail'],
    ['REVERT_SECOND_FACTOR_ADDITION', 'revertSecondFactorAddition'],
    ['VERIFY_EMAIL', 'verifyEmail'],
    ['VERIFY_AND_CHANGE_EMAIL', 'verifyAndChangeEmail'],
    ['EMAIL_SIGNIN', 'signIn'],
  ] as const)('toActionCodeInfo - should name %s %s', (operation, expected) => {
    const info = toActionCodeInfo({
      operation,
      data: { email: 'new@example.com', previousEmail: 'old@example.com', multiFactorInfo: null },
    });
    expect(info).toEqual({ operation: expected, email: 'new@example.com', previousEmail: 'old@example.com' });
  });

  it('toActionCodeInfo - should describe a reverted phone factor by its number', () => {
    const info = toActionCodeInfo({
      operation: 'REVERT_SECOND_FACTOR_ADDITION',
      data: {
        email: 'ada@example.com',
        multiFactorInfo: {
          uid: 'f1',
          displayName: 'Work phone',
          enrollmentTime: '',
          factorId: 'phone',
          phoneNumber: '+1******1234',
        } as never,
      },
    });
    expect(info.factor).toBe('+1******1234');
    expect(info.previousEmail).toBeNull();
  });

  it('toActionCodeInfo - should reject an operation it does not know as invalid-action-code', () => {
    expect(() => toActionCodeInfo({ operation: 'SOMETHING_NEW' as never, data: {} })).toThrow(
      expect.objectContaining({ code: 'invalid-action-code' }),
    );
  });
});

describe('credentials', () => {
  it('toFirebaseFederatedCredential - should rebuild a credential from its raw JSON', () => {
    const original = GoogleAuthProvider.credential('id-token', 'access-token');
    const rebuilt = toFirebaseFederatedCredential({
      kind: 'federated',
      providerId: 'google.com',
      raw: JSON.stringify(original.toJSON()),
    });
    expect(rebuilt).toBeInstanceOf(OAuthCredential);
    expect((rebuilt as OAuthCredential).idToken).toBe('id-token');
    expect((rebuilt as OAuthCredential).accessToken).toBe('access-token');
  });

  it('toFirebaseFederatedCredential - should build provider credentials from tokens', () => {
    const google = toFirebaseFederatedCredential({
      kind: 'federated',
      providerId: 'google.com',
      idToken: 'g',
    });
    expect(google.providerId).toBe('google.com');
    const facebook = toFirebaseFederatedCredential({
      kind: 'federated',
      providerId: 'facebook.com',
      accessToken: 'f',
    });
    expect(facebook.providerId).toBe(FacebookAuthProvider.PROVIDER_ID);
    const oidc = toFirebaseFederatedCredential({ kind: 'federated', providerId: 'oidc.acme', idToken: 'o' });
    expect(oidc.providerId).toBe('oidc.acme');
    expect((oidc as OAuthCredential).idToken).toBe('o');
  });

  it('federatedProviderFor - should put scopes, custom parameters and the login hint where each IdP reads them', () => {
    const google = federatedProviderFor('google.com', {
      scopes: ['https://www.googleapis.com/auth/contacts.readonly'],
      customParameters: { prompt: 'select_account' },
      loginHint: 'ada@example.com',
    }) as GoogleAuthProvider;
    expect(google.getScopes()).toContain('https://www.googleapis.com/auth/contacts.readonly');
    expect(google.getCustomParameters()).toEqual({ prompt: 'select_account', login_hint: 'ada@example.com' });
    const github = federatedProviderFor('github.com', { loginHint: 'ada' }) as GoogleAuthProvider;
    expect(github.getCustomParameters()).toEqual({ login: 'ada' });
    const facebook = federatedProviderFor('facebook.com', { loginHint: 'ada' }) as GoogleAuthProvider;
    expect(facebook.getCustomParameters()).toEqual({});
  });
});

describe('createFirebaseProvider', () => {
  const app = initializeApp({ apiKey: 'unit-key', projectId: 'demo-unit' }, 'unit');
  afterAll(() => deleteApp(app));

  it('capabilities - should declare lookups unreliable by default (email enumeration protection on)', () => {
    const provider = createFirebaseProvider({ app });
    expect(provider.capabilities).toEqual({
      password: true,
      emailLink: true,
      phone: true,
      anonymous: true,
      federated: [],
      popup: true,
      redirect: true,
      tenants: true,
      reliableSignInMethodLookup: false,
      actionCodes: [...ACTION_MODES],
      captcha: true,
      secondFactors: ['phone', 'totp'],
      // Revoking other sessions' refresh tokens is an Admin SDK operation: not offered in the browser.
      account: ['updateProfile', 'changeEmail', 'changePassword', 'listMethods', 'unlink', 'deleteAccount'],
    });
    expect(provider.account).toBeDefined();
  });

  it('capabilities - should declare the second factors the host names, and none for an empty list', () => {
    expect(createFirebaseProvider({ app, secondFactors: ['phone'] }).capabilities.secondFactors).toEqual([
      'phone',
    ]);
    const none = createFirebaseProvider({ app, secondFactors: [] });
    expect(none.capabilities.secondFactors).toBeUndefined();
    expect(none.secondFactors).toBeUndefined();
  });

  it('capabilities - should declare lookups reliable when protection is off, and list federated providers', () => {
    const provider = createFirebaseProvider({
      auth: getAuth(app),
      emailEnumerationProtection: false,
      federatedProviders: ['google.com', 'oidc.acme'],
    });
    expect(provider.capabilities.reliableSignInMethodLookup).toBe(true);
    expect(provider.capabilities.federated).toEqual(['google.com', 'oidc.acme']);
  });

  it('createFirebaseProvider - should force the widget language and leave it alone when told to', () => {
    const auth = getAuth(app);
    auth.languageCode = 'fr';
    createFirebaseProvider({ auth, languageCode: null });
    expect(auth.languageCode).toBe('fr');
    createFirebaseProvider({ auth });
    expect(auth.languageCode).toBe('en');
  });

  it('startPhoneSignIn - should reject a verifier it did not create with captcha-check-failed', async () => {
    const provider = createFirebaseProvider({ app });
    const foreign = { kind: 'other', render: async () => {}, isSolved: () => true, clear: () => {} };
    await expect(provider.startPhoneSignIn('+15555550100', foreign)).rejects.toMatchObject({
      code: 'captcha-check-failed',
      message: messageFor('captcha-check-failed'),
    });
  });

  it('createCaptchaVerifier - should not touch the DOM until rendered, and reject rendering without one', async () => {
    const provider = createFirebaseProvider({ app });
    expect(typeof document).toBe('undefined');
    const verifier = provider.createCaptchaVerifier('recaptcha-container');
    expect(verifier.isSolved()).toBe(false);
    await expect(verifier.render()).rejects.toMatchObject({ code: 'captcha-check-failed' });
    expect(() => verifier.clear()).not.toThrow();
  });

  it('linkWithCredential - should reject with requires-recent-login when nobody is signed in', async () => {
    const provider = createFirebaseProvider({ app });
    await expect(
      provider.linkWithCredential({ kind: 'password', email: 'ada@example.com', password: 'secret123' }),
    ).rejects.toMatchObject({ code: 'requires-recent-login' });
  });
});

describe('firebaseCode', () => {
  it('reads the auth/ code of a client SDK error and of a firebase-admin error', () => {
    expect(firebaseCode(firebaseError('auth/user-disabled'))).toBe('auth/user-disabled');
    // firebase-admin's FirebaseAuthError: a plain object shape with `code`, no FirebaseError class.
    const admin = Object.assign(new Error('The user record is disabled.'), { code: 'auth/id-token-revoked' });
    expect(firebaseCode(admin)).toBe('auth/id-token-revoked');
  });

  it('is null for anything that is not a Firebase Auth error', () => {
    for (const error of [
      undefined,
      null,
      'auth/user-disabled',
      new Error('ECONNREFUSED'),
      { code: 'app/no-app' },
      { code: 'ECONNRESET' },
      { code: 42 },
      {},
    ]) {
      expect(firebaseCode(error)).toBeNull();
    }
  });
});
