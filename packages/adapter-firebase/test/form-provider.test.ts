// The server's form provider (`createFirebaseServer(...).formProvider()`, Identity Toolkit REST) against
// the Auth emulator: every op of SERVER_OPS, its errors compared with the browser provider's for the same
// situation, and the session token it hands the host turned into a session cookie. The second-factor ops
// (start / finish / cancel) are in second-factors.test.ts (SMS, emulator) and
// second-factors.unit.test.ts (TOTP, which the emulator refuses).
//
// The shared provider contract runs on the form provider in form-contract.test.ts (what it leaves to the
// browser skipped there, with the reason); this file checks what the contract does not: the errors beside
// the browser provider's and the session token.
import type { ActionCodeInfo, AuthError, AuthProvider } from '@doorway/auth-core';
import { SERVER_OPS, type ServerAuthProvider } from '@doorway/auth-core/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createFirebaseServer } from '../src/server.ts';
import {
  actionCode,
  createAccount,
  createTenant,
  expectAuthError,
  freshProvider,
  lastOobCode,
  oobCodes,
  PROJECT_ID,
  resetEmulator,
  setDisabled,
  setEmailEnumerationProtection,
  uniqueEmail,
} from './emulator.ts';

const PASSWORD = 'Secret-123';
const NEW_PASSWORD = 'N3w-secret-456';
const FIVE_MINUTES = 5 * 60 * 1000;
const CONTINUE_URL = 'http://localhost/login?signInSuccessUrl=%2Fhome';

const server = createFirebaseServer({ projectId: PROJECT_ID, emailEnumerationProtection: false });

let form: ServerAuthProvider;
let browser: FirebaseProvider;
let disposeBrowser: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  form = server.formProvider();
  ({ provider: browser, dispose: disposeBrowser } = freshProvider());
});
afterEach(() => disposeBrowser());

async function rejection(promise: Promise<unknown>): Promise<AuthError> {
  try {
    await promise;
  } catch (e) {
    return e as AuthError;
  }
  throw new Error('expected a rejection');
}

/** Runs `op` on a fresh form provider and on the browser provider and expects both to reject with `code`. */
async function bothReject(op: (p: AuthProvider) => Promise<unknown>, code: AuthError['code']): Promise<void> {
  await expectAuthError(op(server.formProvider()), code);
  await expectAuthError(op(browser), code);
}

/** The session cookie the host would set for the form provider's sign-in, read back. */
async function sessionOf(provider: ServerAuthProvider) {
  const token = provider.sessionToken();
  expect(token).toEqual(expect.any(String));
  const cookie = await server.createSessionCookie(token as string, { expiresInMs: FIVE_MINUTES });
  return server.verifySessionCookie(cookie, { checkRevoked: true });
}

describe('SERVER_OPS', () => {
  it('SERVER_OPS - should be the ops this file and the second-factor files cover', () => {
    expect([...SERVER_OPS].sort()).toEqual(
      [
        'actionCode',
        'anonymous',
        'cancelSecondFactor',
        'finishSecondFactor',
        'startSecondFactor',
        'checkEmailLink',
        'completeEmailLink',
        'confirmPasswordReset',
        'createUser',
        'lookupEmail',
        'passwordSignIn',
        'sendEmailLink',
        'sendPasswordReset',
        'setTenant',
        'signOut',
      ].sort(),
    );
  });
});

describe('createUser (createUser)', () => {
  it('createUser - should create and sign in the account, and its token should become a session cookie naming it', async () => {
    const email = uniqueEmail('create');
    const result = await form.createUser(email, PASSWORD, 'Ada Lovelace');
    expect(result).toMatchObject({ isNewUser: true, providerId: 'password' });
    expect(result.user).toEqual({
      uid: expect.any(String),
      email,
      displayName: 'Ada Lovelace',
      phoneNumber: null,
      emailVerified: false,
      isAnonymous: false,
      providerIds: ['password'],
      tenantId: null,
    });
    expect(form.getCurrentUser()).toEqual(result.user);
    expect(await sessionOf(form)).toMatchObject({
      uid: result.user.uid,
      email,
      displayName: 'Ada Lovelace',
      isAnonymous: false,
      signInProvider: 'password',
    });
    // The browser provider sees the same account.
    const again = await browser.signInWithEmailAndPassword(email, PASSWORD);
    expect(again.user).toEqual(result.user);
  });

  it('createUser - should leave displayName null when none is given', async () => {
    expect((await form.createUser(uniqueEmail('noname'), PASSWORD)).user.displayName).toBeNull();
  });

  it('createUser - should reject email-already-in-use, weak-password and invalid-email as the browser provider', async () => {
    const taken = uniqueEmail('taken');
    await createAccount({ email: taken, password: PASSWORD });
    await bothReject((p) => p.createUser(taken, PASSWORD), 'email-already-in-use');
    await bothReject((p) => p.createUser(uniqueEmail('weak'), 'abc'), 'weak-password');
    await bothReject((p) => p.createUser('not-an-email', PASSWORD), 'invalid-email');
    expect(form.getCurrentUser()).toBeNull();
    expect(form.sessionToken()).toBeNull();
  });
});

describe('signInWithEmailAndPassword (passwordSignIn)', () => {
  it('signInWithEmailAndPassword - should sign in an existing account with the browser provider’s user', async () => {
    const email = uniqueEmail('signin');
    const uid = await createAccount({ email, password: PASSWORD, displayName: 'Grace Hopper' });
    const result = await form.signInWithEmailAndPassword(email, PASSWORD);
    expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
    expect(result.user).toEqual((await browser.signInWithEmailAndPassword(email, PASSWORD)).user);
    expect(result.user).toMatchObject({ uid, displayName: 'Grace Hopper' });
    expect(await sessionOf(form)).toMatchObject({ uid, email, signInProvider: 'password' });
  });

  it('signInWithEmailAndPassword - should reject wrong-password, and sign nobody in', async () => {
    const email = uniqueEmail('wrong');
    await createAccount({ email, password: PASSWORD });
    await bothReject((p) => p.signInWithEmailAndPassword(email, 'Not-the-password-1'), 'wrong-password');
    const error = await rejection(form.signInWithEmailAndPassword(email, 'Not-the-password-1'));
    expect(error.message).not.toContain('Not-the-password-1');
    expect(form.getCurrentUser()).toBeNull();
    expect(form.sessionToken()).toBeNull();
  });

  it('signInWithEmailAndPassword - should reject user-not-found for an unknown email (protection off)', async () => {
    await bothReject((p) => p.signInWithEmailAndPassword(uniqueEmail('nobody'), PASSWORD), 'user-not-found');
  });

  it('signInWithEmailAndPassword - should reject invalid-email, missing-password and user-disabled', async () => {
    const email = uniqueEmail('disabled');
    const uid = await createAccount({ email, password: PASSWORD });
    await bothReject((p) => p.signInWithEmailAndPassword('not-an-email', PASSWORD), 'invalid-email');
    await bothReject((p) => p.signInWithEmailAndPassword(email, ''), 'missing-password');
    await setDisabled(uid, true);
    await bothReject((p) => p.signInWithEmailAndPassword(email, PASSWORD), 'user-disabled');
  });

  it('signOut - should forget the sign-in and its token', async () => {
    await form.createUser(uniqueEmail('out'), PASSWORD);
    expect(form.sessionToken()).not.toBeNull();
    await form.signOut();
    expect(form.getCurrentUser()).toBeNull();
    expect(form.sessionToken()).toBeNull();
    await expect(form.signOut()).resolves.toBeUndefined();
  });

  it('formProvider - should give each request its own sign-in and tenant', async () => {
    const other = server.formProvider();
    await form.createUser(uniqueEmail('mine'), PASSWORD);
    await other.setTenant(await createTenant());
    expect(other.getCurrentUser()).toBeNull();
    expect(other.sessionToken()).toBeNull();
    expect((await form.createUser(uniqueEmail('still-default'), PASSWORD)).user.tenantId).toBeNull();
  });
});

describe('email enumeration protection', () => {
  // resetEmulator (beforeEach) turns protection off again for the next test and file.
  beforeEach(() => setEmailEnumerationProtection(true));

  it('signInWithEmailAndPassword - should reject an unknown email exactly like a wrong password, as the browser provider', async () => {
    const email = uniqueEmail('exists');
    await createAccount({ email, password: PASSWORD });
    await bothReject((p) => p.signInWithEmailAndPassword(email, 'Nope-1234'), 'wrong-password');
    await bothReject(
      (p) => p.signInWithEmailAndPassword(uniqueEmail('nobody'), 'Nope-1234'),
      'wrong-password',
    );
    const wrong = await rejection(form.signInWithEmailAndPassword(email, 'Nope-1234'));
    const unknown = await rejection(form.signInWithEmailAndPassword(uniqueEmail('nobody'), 'Nope-1234'));
    expect(unknown.message).toBe(wrong.message);
  });

  it('fetchSignInMethodsForEmail / sendPasswordResetEmail - should reveal nothing about an account', async () => {
    const email = uniqueEmail('hidden');
    await createAccount({ email, password: PASSWORD });
    expect(await form.fetchSignInMethodsForEmail(email)).toEqual([]);
    const ghost = uniqueEmail('ghost');
    await expect(form.sendPasswordResetEmail(ghost, { url: CONTINUE_URL })).resolves.toBeUndefined();
    expect((await oobCodes()).filter((c) => c.email === ghost)).toEqual([]);
  });

  it('capabilities - should declare lookups unreliable by default, as the browser provider', () => {
    const protectedServer = createFirebaseServer({ projectId: PROJECT_ID });
    expect(protectedServer.formProvider().capabilities.reliableSignInMethodLookup).toBe(false);
    expect(form.capabilities.reliableSignInMethodLookup).toBe(true);
  });
});

describe('fetchSignInMethodsForEmail (lookupEmail)', () => {
  it('fetchSignInMethodsForEmail - should list the methods the browser provider lists', async () => {
    const password = uniqueEmail('methods');
    await createAccount({ email: password, password: PASSWORD });
    expect(await form.fetchSignInMethodsForEmail(password)).toEqual(['password']);
    expect(await form.fetchSignInMethodsForEmail(uniqueEmail('unknown'))).toEqual([]);
    const linked = uniqueEmail('linked');
    await form.sendSignInLinkToEmail(linked, { url: CONTINUE_URL, handleCodeInApp: true });
    await form.signInWithEmailLink(linked, (await lastOobCode(linked, 'EMAIL_SIGNIN')).oobLink);
    expect(await form.fetchSignInMethodsForEmail(linked)).toEqual(['emailLink']);
    expect(await browser.fetchSignInMethodsForEmail(linked)).toEqual(['emailLink']);
    await bothReject((p) => p.fetchSignInMethodsForEmail('not-an-email'), 'invalid-email');
  });
});

describe('password reset (sendPasswordReset, actionCode, confirmPasswordReset)', () => {
  it('sendPasswordResetEmail - should email a code that checks, verifies and confirms like the browser provider’s', async () => {
    const email = uniqueEmail('reset');
    const uid = await createAccount({ email, password: PASSWORD });
    await form.sendPasswordResetEmail(email, { url: CONTINUE_URL });
    const { oobCode, oobLink } = await lastOobCode(email, 'PASSWORD_RESET');
    expect(new URL(oobLink).searchParams.get('continueUrl')).toBe(CONTINUE_URL);
    expect(await form.checkActionCode(oobCode)).toEqual<ActionCodeInfo>({
      operation: 'resetPassword',
      email,
      previousEmail: null,
    });
    expect(await form.verifyPasswordResetCode(oobCode)).toBe(email);
    await expectAuthError(form.confirmPasswordReset(oobCode, 'abc'), 'weak-password');
    await form.confirmPasswordReset(oobCode, NEW_PASSWORD);
    await expectAuthError(form.signInWithEmailAndPassword(email, PASSWORD), 'wrong-password');
    expect((await form.signInWithEmailAndPassword(email, NEW_PASSWORD)).user.uid).toBe(uid);
    await bothReject((p) => p.confirmPasswordReset(oobCode, 'Another-789'), 'invalid-action-code');
    await bothReject((p) => p.verifyPasswordResetCode(oobCode), 'invalid-action-code');
  });

  it('sendPasswordResetEmail - should work without link settings', async () => {
    const email = uniqueEmail('plain');
    await createAccount({ email, password: PASSWORD });
    await form.sendPasswordResetEmail(email);
    expect(
      new URL((await lastOobCode(email, 'PASSWORD_RESET')).oobLink).searchParams.get('continueUrl'),
    ).toBeNull();
  });

  it('sendPasswordResetEmail - should reject user-not-found (protection off) and invalid-email', async () => {
    await bothReject((p) => p.sendPasswordResetEmail(uniqueEmail('ghost')), 'user-not-found');
    await bothReject((p) => p.sendPasswordResetEmail('not-an-email'), 'invalid-email');
  });

  it('verifyPasswordResetCode - should refuse an email sign-in code, which names no email', async () => {
    const email = uniqueEmail('notreset');
    await form.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
    const { oobCode } = await lastOobCode(email, 'EMAIL_SIGNIN');
    await expectAuthError(form.verifyPasswordResetCode(oobCode), 'invalid-action-code');
  });
});

describe('email link (sendEmailLink, checkEmailLink, completeEmailLink)', () => {
  async function sendLink(provider: AuthProvider, email: string): Promise<string> {
    await provider.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
    return (await lastOobCode(email, 'EMAIL_SIGNIN')).oobLink;
  }

  it('sendSignInLinkToEmail + signInWithEmailLink - should create the account of a new email and sign it in', async () => {
    const email = uniqueEmail('newlink');
    const link = await sendLink(form, email);
    expect(new URL(link).searchParams.get('continueUrl')).toBe(CONTINUE_URL);
    expect(form.isSignInWithEmailLink(link)).toBe(true);
    expect(form.isSignInWithEmailLink(CONTINUE_URL)).toBe(false);
    const result = await form.signInWithEmailLink(email, link);
    expect(result).toMatchObject({ isNewUser: true, providerId: 'emailLink' });
    expect(result.user).toMatchObject({
      email,
      emailVerified: true,
      isAnonymous: false,
      providerIds: ['password'],
    });
    expect(await sessionOf(form)).toMatchObject({ uid: result.user.uid, email, emailVerified: true });
  });

  it('signInWithEmailLink - should sign in to an existing account, as the browser provider', async () => {
    const email = uniqueEmail('oldlink');
    const uid = await createAccount({ email, password: PASSWORD });
    const result = await form.signInWithEmailLink(email, await sendLink(form, email));
    expect(result).toMatchObject({ isNewUser: false, providerId: 'emailLink', user: { uid } });
    const fromBrowser = await browser.signInWithEmailLink(email, await sendLink(browser, email));
    expect(fromBrowser.user).toEqual(result.user);
  });

  it('signInWithEmailLink - should reject email-mismatch, a used link and a made-up code as the browser provider', async () => {
    const email = uniqueEmail('intended');
    const link = await sendLink(form, email);
    await bothReject((p) => p.signInWithEmailLink(uniqueEmail('other'), link), 'email-mismatch');
    await form.signInWithEmailLink(email, link);
    await bothReject((p) => p.signInWithEmailLink(email, link), 'invalid-action-code');
    const code = new URL(link).searchParams.get('oobCode') as string;
    await bothReject(
      (p) => p.signInWithEmailLink(email, link.replace(code, 'made-up-code')),
      'invalid-action-code',
    );
    await bothReject((p) => p.signInWithEmailLink(email, CONTINUE_URL), 'invalid-action-code');
  });

  it('sendSignInLinkToEmail - should reject invalid-email and invalid-continue-uri as the browser provider', async () => {
    await bothReject(
      (p) => p.sendSignInLinkToEmail('not-an-email', { url: CONTINUE_URL, handleCodeInApp: true }),
      'invalid-email',
    );
    await bothReject(
      (p) => p.sendSignInLinkToEmail(uniqueEmail('baduri'), { url: 'not a url', handleCodeInApp: true }),
      'invalid-continue-uri',
    );
  });
});

describe('anonymous (anonymous)', () => {
  it('signInAnonymously - should sign in a new anonymous user whose session says so', async () => {
    const result = await form.signInAnonymously();
    expect(result).toMatchObject({ isNewUser: true, providerId: 'anonymous' });
    expect(result.user).toMatchObject({ isAnonymous: true, email: null, providerIds: [], tenantId: null });
    expect(form.getCurrentUser()).toEqual(result.user);
    expect(await sessionOf(form)).toMatchObject({
      uid: result.user.uid,
      isAnonymous: true,
      signInProvider: 'anonymous',
    });
  });

  it('signInWithEmailLink - should upgrade the anonymous user of this request when link is true', async () => {
    const anonymous = await form.signInAnonymously();
    const email = uniqueEmail('upgrade');
    await form.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
    const result = await form.signInWithEmailLink(email, (await lastOobCode(email, 'EMAIL_SIGNIN')).oobLink, {
      link: true,
    });
    expect(result).toMatchObject({ isNewUser: false, providerId: 'emailLink' });
    expect(result.user).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
    expect(await sessionOf(form)).toMatchObject({ uid: anonymous.user.uid, email, isAnonymous: false });
  });

  it('signInWithEmailLink - should reject requires-recent-login with link true and nobody signed in, as the browser provider', async () => {
    const email = uniqueEmail('nolink');
    await form.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
    const link = (await lastOobCode(email, 'EMAIL_SIGNIN')).oobLink;
    await bothReject((p) => p.signInWithEmailLink(email, link, { link: true }), 'requires-recent-login');
  });
});

describe('tenants (setTenant)', () => {
  it('setTenant - should keep the users of one tenant invisible in another and in the default tenant', async () => {
    const tenantA = await createTenant();
    const tenantB = await createTenant();
    const email = uniqueEmail('tenant');
    await form.setTenant(tenantA);
    const inA = await form.createUser(email, PASSWORD);
    expect(inA.user.tenantId).toBe(tenantA);
    expect(form.getCurrentUser()?.tenantId).toBe(tenantA);

    const b = server.formProvider();
    await b.setTenant(tenantB);
    await expectAuthError(b.signInWithEmailAndPassword(email, PASSWORD), 'user-not-found');
    expect(await b.fetchSignInMethodsForEmail(email)).toEqual([]);
    const inB = await b.createUser(email, PASSWORD);
    expect(inB.user).toMatchObject({ tenantId: tenantB });
    expect(inB.user.uid).not.toBe(inA.user.uid);

    await b.setTenant(null);
    await expectAuthError(b.signInWithEmailAndPassword(email, PASSWORD), 'user-not-found');
    const again = server.formProvider();
    await again.setTenant(tenantA);
    expect((await again.signInWithEmailAndPassword(email, PASSWORD)).user.uid).toBe(inA.user.uid);
  });

  it('setTenant - should send and complete a tenant’s email link, and refuse it in another tenant as the browser provider', async () => {
    const tenant = await createTenant();
    const email = uniqueEmail('tenantlink');
    await form.setTenant(tenant);
    await form.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
    const { oobLink } = await lastOobCode(email, 'EMAIL_SIGNIN', tenant);
    expect(new URL(oobLink).searchParams.get('tenantId')).toBe(tenant);
    await bothReject((p) => p.signInWithEmailLink(email, oobLink), 'invalid-action-code');
    const result = await form.signInWithEmailLink(email, oobLink);
    expect(result.user).toMatchObject({ email, tenantId: tenant });
  });

  it('setTenant - should reset a tenant user’s password', async () => {
    const tenant = await createTenant();
    const email = uniqueEmail('tenantreset');
    await createAccount({ email, password: PASSWORD, tenantId: tenant });
    await form.setTenant(tenant);
    await form.sendPasswordResetEmail(email, { url: CONTINUE_URL });
    const { oobCode } = await lastOobCode(email, 'PASSWORD_RESET', tenant);
    expect(await form.verifyPasswordResetCode(oobCode)).toBe(email);
    await form.confirmPasswordReset(oobCode, NEW_PASSWORD);
    expect((await form.signInWithEmailAndPassword(email, NEW_PASSWORD)).user.tenantId).toBe(tenant);
  });

  it('signInAnonymously - should reject operation-not-allowed in a tenant without anonymous users, as the browser provider', async () => {
    const tenant = await createTenant({ enableAnonymousUser: false });
    await form.setTenant(tenant);
    await browser.setTenant(tenant);
    await expectAuthError(form.signInAnonymously(), 'operation-not-allowed');
    await expectAuthError(browser.signInAnonymously(), 'operation-not-allowed');
  });
});

describe('action codes (actionCode)', () => {
  async function account(): Promise<string> {
    const email = uniqueEmail('codes');
    await createAccount({ email, password: PASSWORD });
    return email;
  }

  it('checkActionCode - should describe every kind of code as the browser provider does', async () => {
    for (const kind of [
      'VERIFY_EMAIL',
      'PASSWORD_RESET',
      'RECOVER_EMAIL',
      'VERIFY_AND_CHANGE_EMAIL',
      'EMAIL_SIGNIN',
    ] as const) {
      const { oobCode } = await actionCode(kind, { email: await account(), password: PASSWORD });
      const info = await form.checkActionCode(oobCode);
      expect(info, kind).toEqual(await browser.checkActionCode(oobCode));
    }
  });

  it('applyActionCode - should verify an email, then reject the used code with invalid-action-code', async () => {
    const email = await account();
    const { oobCode } = await actionCode('VERIFY_EMAIL', { email, password: PASSWORD });
    await form.applyActionCode(oobCode);
    expect((await form.signInWithEmailAndPassword(email, PASSWORD)).user.emailVerified).toBe(true);
    await bothReject((p) => p.applyActionCode(oobCode), 'invalid-action-code');
    await bothReject((p) => p.checkActionCode(oobCode), 'invalid-action-code');
  });

  it('applyActionCode - should change the email with a verifyAndChangeEmail code', async () => {
    const email = await account();
    const next = uniqueEmail('next');
    const { oobCode } = await actionCode('VERIFY_AND_CHANGE_EMAIL', {
      email,
      password: PASSWORD,
      newEmail: next,
    });
    expect(await form.checkActionCode(oobCode)).toEqual<ActionCodeInfo>({
      operation: 'verifyAndChangeEmail',
      email: next,
      previousEmail: email,
    });
    await form.applyActionCode(oobCode);
    expect((await form.signInWithEmailAndPassword(next, PASSWORD)).user).toMatchObject({
      email: next,
      emailVerified: true,
    });
  });

  it('action codes - should reject made-up codes with invalid-action-code as the browser provider', async () => {
    await bothReject((p) => p.checkActionCode('made-up-code'), 'invalid-action-code');
    await bothReject((p) => p.applyActionCode('made-up-code'), 'invalid-action-code');
    await bothReject((p) => p.verifyPasswordResetCode('made-up-code'), 'invalid-action-code');
    await bothReject((p) => p.confirmPasswordReset('made-up-code', NEW_PASSWORD), 'invalid-action-code');
  });
});
