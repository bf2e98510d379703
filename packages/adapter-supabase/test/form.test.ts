/**
 * The server's form provider (`createSupabaseServer(…).formProvider()`) against the GoTrue TEST DOUBLE through
 * `double.fetch`: every op the server runner performs (through auth-core's own `execute`), the host's session
 * from its `sessionToken()`, and the same catalogue codes as the browser provider for the same situation.
 * What these prove holds for the double; see the README's "Checked against the double only".
 */

import {
  type AuthProvider,
  type FlowRuntime,
  flowEngine,
  type KeyValueStorage,
  normalizeConfig,
  type ProviderOp,
  type SecondFactorChallenge,
  type SignInResult,
  systemClock,
} from '@doorway/auth-core';
import { SERVER_OPS, type ServerAuthProvider } from '@doorway/auth-core/server';
import { createGoTrueDouble, type GoTrueDouble, type GoTrueDoubleOptions } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  createSupabaseProvider,
  formatActionCode,
  LINK_PARAMS,
  SUPABASE_EMAIL_TEMPLATES,
} from '../src/index.ts';
import { createSupabaseServer, type SupabaseFormSettings } from '../src/server.ts';

const HOST = 'http://localhost';
const LOGIN = `${HOST}/login?signInSuccessUrl=%2Faccount`;
const ACTION = `${HOST}/action`;
const PASSWORD = 'Secret-123';

const PROJECT: GoTrueDoubleOptions = {
  mailerAutoconfirm: true,
  anonymousUsers: true,
  uriAllowList: ['http://localhost/**'],
  templates: SUPABASE_EMAIL_TEMPLATES,
};

/** The double each server of {@link setup} talks to. */
const doubles = new WeakMap<object, GoTrueDouble>();

function setup(project: GoTrueDoubleOptions = {}, settings: SupabaseFormSettings = { actionUrl: ACTION }) {
  const double = createGoTrueDouble({ ...PROJECT, ...project });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
  });
  doubles.set(server, double);
  return { double, server, provider: server.formProvider(settings) };
}

/** A browser's provider on the same double (supabase-js through `double.fetch`). */
function browserOn(double: GoTrueDouble) {
  return createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { fetch: double.fetch } },
    { actionUrl: ACTION },
  );
}

function memoryStorage(): KeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

/** The runtime a server runner gives `execute` for one request. */
function runtime(provider: ServerAuthProvider, storage: KeyValueStorage = memoryStorage()): FlowRuntime {
  return {
    provider,
    source: provider,
    config: normalizeConfig({ signInOptions: ['email', 'anonymous'] }, HOST),
    clock: systemClock,
    storage,
    createId: () => 'sid-form-1',
    signOut: false,
    lastVerifier: null,
    linkSignIn: null,
  };
}

/** One op as the server runner performs it (only ops in SERVER_OPS). */
function run(op: ProviderOp, provider: ServerAuthProvider, storage?: KeyValueStorage): Promise<unknown> {
  expect(SERVER_OPS.has(op.kind)).toBe(true);
  return flowEngine.execute(op, runtime(provider, storage));
}

const requestsTo = (double: GoTrueDouble, method: string, path: string) =>
  double.requests.filter((r) => r.method === method && r.path === path).length;

/** What an authenticator app shows for `secret` at the double's time. */
const totp = (double: GoTrueDouble, secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() });

/** A new account with a verified authenticator app, made through a form provider of `server`. */
async function accountWithTotp(server: ReturnType<typeof createSupabaseServer>) {
  const provider = server.formProvider();
  const address = `mfa-${Math.random().toString(36).slice(2)}@example.com`;
  await provider.createUser(address, PASSWORD);
  const ops = provider.secondFactors;
  if (!ops) throw new Error('the form provider offers second factors');
  const { enrollmentId, secret } = await ops.startTotpEnrollment();
  const double = doubles.get(server);
  if (!double) throw new Error('a server of setup()');
  const factor = await ops.finishTotpEnrollment(enrollmentId, totp(double, secret));
  return { address, factorId: factor.uid, secret };
}

/** The link of the last email the double sent to `email`. */
function lastLink(double: GoTrueDouble, email: string): string {
  const link = [...double.outbox.emails].reverse().find((m) => m.to === email)?.link;
  if (!link) throw new Error(`no email to ${email}`);
  return link;
}

describe('capabilities', () => {
  it('are the browser provider’s, without phone, popup, redirect and captcha', () => {
    const { double, provider } = setup({}, { federatedProviders: ['google.com'] });
    const browser = createSupabaseProvider(
      { url: double.projectUrl, anonKey: double.anonKey, auth: { fetch: double.fetch } },
      { federatedProviders: ['google.com'] },
    );
    const { account: _account, ...browserCapabilities } = browser.capabilities;
    expect(provider.capabilities).toEqual({
      ...browserCapabilities,
      phone: false,
      popup: false,
      redirect: false,
      captcha: false,
      // A phone factor's SMS is the browser's (server/formFactors.ts).
      secondFactors: ['totp'],
    });
    expect(provider.capabilities).toMatchObject({ reliableSignInMethodLookup: false, anonymous: true });
    // Account management is the browser provider's (the form provider has no account page yet).
    expect(provider.account).toBeUndefined();
    browser.dispose();
  });
});

describe('the server ops, as the runner’s execute performs them', () => {
  it('covers every op of SERVER_OPS in this file', () => {
    // The ops exercised below; a new server op must get a test here.
    expect([...SERVER_OPS].sort()).toEqual(
      [
        'actionCode',
        'anonymous',
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
        'startSecondFactor',
        'finishSecondFactor',
        'cancelSecondFactor',
      ].sort(),
    );
  });

  it('lookupEmail: no request (Supabase has no reliable lookup), so the flow uses its combined card', async () => {
    const { double, provider } = setup();
    double.admin.createUser({ email: 'known@example.com', password: PASSWORD, email_confirm: true });
    const before = double.requests.length;
    await expect(
      run({ kind: 'lookupEmail', email: 'known@example.com', tenantId: null }, provider),
    ).resolves.toEqual([]);
    await expect(
      run({ kind: 'lookupEmail', email: 'nobody@example.com', tenantId: undefined }, provider),
    ).resolves.toEqual([]);
    expect(double.requests.length).toBe(before);
    await expectAuthError(provider.fetchSignInMethodsForEmail('not-an-email'), 'invalid-email');
  });

  it('setTenant: the project itself only', async () => {
    const { provider } = setup();
    await expect(run({ kind: 'setTenant', tenantId: null }, provider)).resolves.toBeUndefined();
    await expectAuthError(
      run({ kind: 'setTenant', tenantId: 'tenant-a' }, provider),
      'operation-not-allowed',
    );
    await expectAuthError(
      run({ kind: 'lookupEmail', email: 'a@example.com', tenantId: 'tenant-a' }, provider),
      'operation-not-allowed',
    );
  });

  it('createUser: POST /signup with the name as full_name; signed in, its token is the host’s session', async () => {
    const { double, server, provider } = setup();
    const result = (await run(
      { kind: 'createUser', email: 'ada@example.com', password: PASSWORD, name: 'Ada Lovelace', link: false },
      provider,
    )) as SignInResult;
    expect(result).toMatchObject({ isNewUser: true, providerId: 'password' });
    expect(result.user).toMatchObject({
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
      isAnonymous: false,
    });
    expect(result.user.providerIds).toEqual(['password', 'emailLink']);
    expect(provider.getCurrentUser()).toEqual(result.user);
    expect(double.admin.listUsers()[0]?.user_metadata).toMatchObject({ full_name: 'Ada Lovelace' });
    expect(requestsTo(double, 'POST', '/signup')).toBe(1);

    const token = provider.sessionToken();
    if (token === null) throw new Error('no session token');
    await expect(server.createSessionCookie(token)).resolves.toBe(token);
    const session = await server.forRequest().verifySessionCookie(token);
    expect(session).toMatchObject({
      uid: result.user.uid,
      email: 'ada@example.com',
      signInProvider: 'password',
    });
  });

  it('passwordSignIn: one POST /token?grant_type=password; the user and their session token', async () => {
    const { double, server, provider } = setup();
    const created = double.admin.createUser({
      email: 'grace@example.com',
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: 'Grace Hopper' },
    });
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
    const before = double.requests.length;
    const result = (await run(
      { kind: 'passwordSignIn', email: 'grace@example.com', password: PASSWORD, link: false },
      provider,
    )) as SignInResult;
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /token']);
    expect(result).toMatchObject({ isNewUser: false, providerId: 'password' });
    expect(result.user).toMatchObject({ uid: created.id, displayName: 'Grace Hopper', emailVerified: true });
    expect((await server.verifySession(provider.sessionToken()))?.session.uid).toBe(created.id);
    // One provider per request: the next request's provider knows nobody.
    expect(server.formProvider().getCurrentUser()).toBeNull();
  });

  it('sendPasswordReset, actionCode and confirmPasswordReset: the emailed link resets the password over three requests', async () => {
    const { double, server, provider } = setup();
    double.admin.createUser({ email: 'reset@example.com', password: 'Old-Secret-1', email_confirm: true });
    await run({ kind: 'sendPasswordReset', email: 'reset@example.com', url: LOGIN }, provider);
    const mail = double.outbox.lastEmail('reset@example.com', 'recovery');
    const link = mail?.link ?? '';
    // POST /recover with redirect_to: the link lands on the flow's URL with the reset mode and the code.
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${HOST}/login`);
    expect(url.searchParams.get('signInSuccessUrl')).toBe('/account');
    expect(url.searchParams.get('mode')).toBe('resetPassword');
    expect(url.searchParams.get('oobCode')).toMatch(/^recovery-/);

    const shown = await run({ kind: 'actionCode', url: link }, server.formProvider());
    expect(shown).toMatchObject({ card: 'passwordReset', email: 'reset@example.com' });
    const code = url.searchParams.get('oobCode') ?? '';
    await expectAuthError(
      run({ kind: 'confirmPasswordReset', code, password: 'abc' }, server.formProvider()),
      'weak-password',
    );
    await run({ kind: 'confirmPasswordReset', code, password: 'New-Secret-2' }, server.formProvider());

    const next = server.formProvider();
    await expectAuthError(
      next.signInWithEmailAndPassword('reset@example.com', 'Old-Secret-1'),
      'wrong-password',
    );
    await next.signInWithEmailAndPassword('reset@example.com', 'New-Secret-2');
    await expectAuthError(
      run({ kind: 'confirmPasswordReset', code, password: 'Third-Secret-3' }, server.formProvider()),
      'invalid-action-code',
    );
  });

  it('sendEmailLink, checkEmailLink, completeEmailLink: a magic link requested and opened in the same browser', async () => {
    const { double, server, provider } = setup();
    double.admin.createUser({ email: 'link@example.com', password: PASSWORD, email_confirm: true });
    const storage = memoryStorage();
    const before = double.requests.length;
    await run(
      {
        kind: 'sendEmailLink',
        email: 'link@example.com',
        url: LOGIN,
        pendingCredential: null,
        anonymousUid: null,
        forceSameDevice: false,
      },
      provider,
      storage,
    );
    // An existing account: one POST /otp (create_user false).
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /otp']);
    const link = lastLink(double, 'link@example.com');
    expect(double.outbox.lastEmail('link@example.com')?.type).toBe('magiclink');
    expect(new URL(link).searchParams.get('mode')).toBe('signIn');
    expect(new URL(link).searchParams.get(LINK_PARAMS.emailHash)).toMatch(/^[0-9a-f]{16}$/);

    // The next request (the link opened): same browser, so the stored email completes it at once.
    const opened = server.formProvider();
    expect(opened.isSignInWithEmailLink(link)).toBe(true);
    const check = await run({ kind: 'checkEmailLink', url: link, upgradeUid: null }, opened, storage);
    expect(check).toEqual({ outcome: 'sameDevice', email: 'link@example.com', pendingCredential: null });
    const result = (await run(
      { kind: 'completeEmailLink', email: 'link@example.com', link, pendingCredential: null, upgrade: false },
      opened,
      storage,
    )) as SignInResult;
    expect(result).toMatchObject({ isNewUser: false, providerId: 'emailLink' });
    expect(result.user.email).toBe('link@example.com');
    expect(requestsTo(double, 'POST', '/verify')).toBe(1);
    const session = await server.verifySession(opened.sessionToken());
    expect(session?.session).toMatchObject({ email: 'link@example.com', signInProvider: 'otp' });

    // Another browser has no stored email: the flow asks for it.
    await expect(
      run({ kind: 'checkEmailLink', url: link, upgradeUid: null }, server.formProvider()),
    ).resolves.toEqual({
      outcome: 'otherDevice',
    });
  });

  it('anonymous: POST /signup without credentials; an anonymous session for the host', async () => {
    const { double, server, provider } = setup();
    const result = (await run({ kind: 'anonymous' }, provider)) as SignInResult;
    expect(result).toMatchObject({ isNewUser: true, providerId: 'anonymous' });
    expect(result.user).toMatchObject({ isAnonymous: true, email: null, providerIds: [] });
    expect(requestsTo(double, 'POST', '/signup')).toBe(1);
    const session = await server.verifySession(provider.sessionToken());
    expect(session?.session).toMatchObject({
      uid: result.user.uid,
      isAnonymous: true,
      signInProvider: 'anonymous',
    });
  });

  it('signOut: POST /logout with the access token; the token no longer verifies', async () => {
    const { double, server, provider } = setup();
    double.admin.createUser({ email: 'bye@example.com', password: PASSWORD, email_confirm: true });
    await provider.signInWithEmailAndPassword('bye@example.com', PASSWORD);
    const token = provider.sessionToken();
    expect(await server.forRequest().verifySessionCookie(token)).not.toBeNull();
    await run({ kind: 'signOut' }, provider);
    expect(requestsTo(double, 'POST', '/logout')).toBe(1);
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
    expect(await server.forRequest().verifySessionCookie(token)).toBeNull();
    // Nobody signed in: resolves without asking GoTrue.
    await run({ kind: 'signOut' }, provider);
    await server.formProvider().signOut();
    expect(requestsTo(double, 'POST', '/logout')).toBe(1);
  });

  it('startSecondFactor, finishSecondFactor: an authenticator app finishes a password sign-in over REST; its aal2 token is the host’s', async () => {
    const { double, server, provider } = setup();
    const { address, factorId, secret } = await accountWithTotp(server);
    const error = await expectAuthError(
      run({ kind: 'passwordSignIn', email: address, password: PASSWORD, link: false }, provider),
      'second-factor-required',
    );
    expect(provider.sessionToken()).toBeNull();
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    const later = server.formProvider();
    const started = (await run(
      { kind: 'startSecondFactor', challenge, factorUid: factorId, sms: false, verifier: null },
      later,
    )) as { verificationId: string };
    expect(requestsTo(double, 'POST', `/factors/${factorId}/challenge`)).toBe(2);
    const result = (await run(
      {
        kind: 'finishSecondFactor',
        challenge,
        verificationId: started.verificationId,
        code: totp(double, secret),
      },
      later,
    )) as SignInResult;
    expect(result).toMatchObject({ providerId: 'password', isNewUser: false });
    const session = await server.verifySession(later.sessionToken());
    expect(session?.session).toMatchObject({ uid: result.user.uid, signInProvider: 'password' });
  });

  it('cancelSecondFactor: POST /logout with the pending aal1 token; nobody signed in', async () => {
    const { double, server, provider } = setup();
    const { address } = await accountWithTotp(server);
    const error = await expectAuthError(
      provider.signInWithEmailAndPassword(address, PASSWORD),
      'second-factor-required',
    );
    const challenge = error.challenge as SecondFactorChallenge;
    const pending = (challenge.serverSession as { accessToken: string }).accessToken;
    const before = requestsTo(double, 'POST', '/logout');
    await run({ kind: 'cancelSecondFactor', challenge }, provider);
    expect(requestsTo(double, 'POST', '/logout')).toBe(before + 1);
    expect(provider.getCurrentUser()).toBeNull();
    // Its session is gone at GoTrue (the host would refuse the aal1 token anyway).
    const response = await double.fetch(`${double.authUrl}/user`, {
      headers: {
        apikey: double.anonKey,
        authorization: `Bearer ${pending}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(((await response.json()) as { code: string }).code).toBe('session_not_found');
    expect(await server.verifySession(pending)).toBeNull();
  });

  it('actionCode: an email verification link, applied once', async () => {
    const { double, server } = setup({ mailerAutoconfirm: false });
    const link = double.admin.generateLink({
      type: 'signup',
      email: 'verify@example.com',
      password: PASSWORD,
    });
    const code = formatActionCode('signup', link.hashed_token);
    const url = `${ACTION}?mode=verifyEmail&oobCode=${code}`;
    await expect(run({ kind: 'actionCode', url }, server.formProvider())).resolves.toEqual({
      card: 'emailVerificationSuccess',
      continueUrl: null,
    });
    expect(double.admin.listUsers()[0]?.email_confirmed_at).toBeTruthy();
    await expect(run({ kind: 'actionCode', url }, server.formProvider())).resolves.toEqual({
      card: 'emailVerificationFailure',
    });
  });

  it('applyActionCode: a code applied once is refused the second time, by the same provider too', async () => {
    const { double, server } = setup({ mailerAutoconfirm: false });
    const link = double.admin.generateLink({
      type: 'signup',
      email: 'twice@example.com',
      password: PASSWORD,
    });
    const code = formatActionCode('signup', link.hashed_token);
    const provider = server.formProvider();
    await expect(provider.checkActionCode(code)).resolves.toMatchObject({ operation: 'verifyEmail' });
    await provider.applyActionCode(code);
    expect(requestsTo(double, 'POST', '/verify')).toBe(1);
    await expectAuthError(provider.applyActionCode(code), 'invalid-action-code');
  });
});

describe('magic links', () => {
  it('a new email gets a sign-up link (two POST /otp); completing it signs a new user in', async () => {
    const { double, provider } = setup();
    await provider.sendSignInLinkToEmail('new@example.com', { url: LOGIN, handleCodeInApp: true });
    expect(requestsTo(double, 'POST', '/otp')).toBe(2);
    const link = lastLink(double, 'new@example.com');
    expect(new URL(link).searchParams.get(LINK_PARAMS.isNew)).toBe('1');
    const result = await provider.signInWithEmailLink('new@example.com', link);
    expect(result).toMatchObject({ isNewUser: true, providerId: 'emailLink' });
    expect(result.user).toMatchObject({ email: 'new@example.com', emailVerified: true });
  });

  it('with emailLinkSignUp off, a new email gets nothing and the call says nothing', async () => {
    const { double, provider } = setup({}, { emailLinkSignUp: false });
    await provider.sendSignInLinkToEmail('stranger@example.com', { url: LOGIN, handleCodeInApp: true });
    expect(double.outbox.emails).toHaveLength(0);
    expect(double.admin.listUsers()).toHaveLength(0);
  });

  it('refuses another email (without using the link), a used link, and a PKCE return', async () => {
    const { double, server, provider } = setup();
    double.admin.createUser({ email: 'mine@example.com', password: PASSWORD, email_confirm: true });
    await provider.sendSignInLinkToEmail('mine@example.com', { url: LOGIN, handleCodeInApp: true });
    const link = lastLink(double, 'mine@example.com');
    await expectAuthError(provider.signInWithEmailLink('other@example.com', link), 'email-mismatch');
    expect(requestsTo(double, 'POST', '/verify')).toBe(0);
    expect(provider.getCurrentUser()).toBeNull();

    await server.formProvider().signInWithEmailLink('mine@example.com', link);
    await expectAuthError(
      server.formProvider().signInWithEmailLink('mine@example.com', link),
      'invalid-action-code',
    );

    // A link of Supabase's own PKCE templates: its code verifier is in the browser that asked for it.
    const before = double.requests.length;
    await expectAuthError(
      provider.signInWithEmailLink('mine@example.com', `${HOST}/login?mode=signIn&code=3b2a1c`),
      'session-expired',
    );
    expect(double.requests.length).toBe(before);
    await expectAuthError(
      provider.signInWithEmailLink('mine@example.com', `${HOST}/login`),
      'invalid-action-code',
    );
  });

  it('a link without the email hash, used with another email: refused, and the session it opened ends', async () => {
    const { double, provider } = setup();
    double.admin.createUser({ email: 'owner@example.com', password: PASSWORD, email_confirm: true });
    const generated = double.admin.generateLink({ type: 'magiclink', email: 'owner@example.com' });
    const link = `${HOST}/login?mode=signIn&oobCode=${formatActionCode('magiclink', generated.hashed_token)}`;
    await expectAuthError(provider.signInWithEmailLink('someone@example.com', link), 'email-mismatch');
    expect(provider.getCurrentUser()).toBeNull();
    expect(provider.sessionToken()).toBeNull();
    expect(requestsTo(double, 'POST', '/logout')).toBe(1);
    // The session GoTrue opened for the link's owner is gone.
    expect(double.snapshot().sessions).toHaveLength(0);
  });

  it('an upgrade (link: true) needs the anonymous user’s session, which the server never holds', async () => {
    const { double, provider } = setup();
    await provider.sendSignInLinkToEmail('up@example.com', { url: LOGIN, handleCodeInApp: true });
    await expectAuthError(
      provider.signInWithEmailLink('up@example.com', lastLink(double, 'up@example.com'), { link: true }),
      'requires-recent-login',
    );
  });
});

describe('recovery emails', () => {
  it('without link settings the link lands on the action route; an unknown email gets none, quietly', async () => {
    const { double, provider } = setup();
    double.admin.createUser({ email: 'forgot@example.com', password: PASSWORD, email_confirm: true });
    await provider.sendPasswordResetEmail('forgot@example.com');
    const link = new URL(double.outbox.lastEmail('forgot@example.com', 'recovery')?.link ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(ACTION);
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    await expect(provider.sendPasswordResetEmail('ghost@example.com')).resolves.toBeUndefined();
    expect(double.outbox.lastEmail('ghost@example.com')).toBeNull();
  });

  it('with "Confirm email" on, a sign-up waits for its confirmation link, which lands on the action route', async () => {
    const { double, provider } = setup({ mailerAutoconfirm: false });
    await expectAuthError(provider.createUser('later@example.com', PASSWORD), 'operation-not-allowed');
    expect(provider.sessionToken()).toBeNull();
    const link = new URL(double.outbox.lastEmail('later@example.com', 'signup')?.link ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(ACTION);
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
  });
});

describe('browser-only methods', () => {
  it('reject operation-not-allowed without asking GoTrue', async () => {
    const { double, provider } = setup();
    const verifier = { kind: 'none', render: async () => {}, isSolved: () => true, clear: () => {} };
    expect(() => provider.createCaptchaVerifier(null)).toThrowError(
      expect.objectContaining({ code: 'operation-not-allowed' }),
    );
    await expectAuthError(provider.startPhoneSignIn('+16505550101', verifier), 'operation-not-allowed');
    await expectAuthError(provider.confirmPhoneCode('id', '123456'), 'operation-not-allowed');
    await expectAuthError(
      provider.signInWithFederated('google.com', { mode: 'popup' }),
      'operation-not-allowed',
    );
    await expectAuthError(provider.getRedirectResult(), 'operation-not-allowed');
    await expectAuthError(
      provider.signInWithCredential({ kind: 'password', email: 'a@example.com', password: PASSWORD }),
      'operation-not-allowed',
    );
    await expectAuthError(
      provider.linkWithCredential({ kind: 'password', email: 'a@example.com', password: PASSWORD }),
      'operation-not-allowed',
    );
    expect(double.requests).toHaveLength(0);
  });
});

/** A situation, set up the same way on two doubles: one for the browser provider, one for the form provider. */
interface Situation {
  name: string;
  project?: GoTrueDoubleOptions;
  arrange?: (double: GoTrueDouble) => void;
  act: (provider: AuthProvider, double: GoTrueDouble) => Promise<unknown>;
  code: string;
}

const confirmed = (double: GoTrueDouble, email: string) =>
  double.admin.createUser({ email, password: PASSWORD, email_confirm: true });

async function useLinkTwice(provider: AuthProvider, double: GoTrueDouble) {
  await provider.sendSignInLinkToEmail('twice@example.com', { url: LOGIN, handleCodeInApp: true });
  const link = lastLink(double, 'twice@example.com');
  await provider.signInWithEmailLink('twice@example.com', link);
  await provider.signOut();
  return provider.signInWithEmailLink('twice@example.com', link);
}

const SITUATIONS: Situation[] = [
  {
    name: 'wrong password',
    arrange: (d) => confirmed(d, 'user@example.com'),
    act: (p) => p.signInWithEmailAndPassword('user@example.com', 'Not-the-password-1'),
    code: 'wrong-password',
  },
  {
    name: 'unknown email at sign-in (no enumeration)',
    act: (p) => p.signInWithEmailAndPassword('nobody@example.com', PASSWORD),
    code: 'wrong-password',
  },
  {
    name: 'malformed email at sign-in',
    act: (p) => p.signInWithEmailAndPassword('not-an-email', PASSWORD),
    code: 'invalid-email',
  },
  {
    name: 'email not confirmed yet',
    project: { mailerAutoconfirm: false },
    arrange: (d) => d.admin.createUser({ email: 'pending@example.com', password: PASSWORD }),
    act: (p) => p.signInWithEmailAndPassword('pending@example.com', PASSWORD),
    code: 'operation-not-allowed',
  },
  {
    name: 'banned user',
    arrange: (d) =>
      d.admin.updateUserById(String(confirmed(d, 'banned@example.com').id), { ban_duration: '876000h' }),
    act: (p) => p.signInWithEmailAndPassword('banned@example.com', PASSWORD),
    code: 'user-disabled',
  },
  {
    name: 'password sign-in rate limit',
    arrange: (d) => d.faults.failNext('POST /token', { status: 429, code: 'over_request_rate_limit' }),
    act: (p) => p.signInWithEmailAndPassword('user@example.com', PASSWORD),
    code: 'too-many-requests',
  },
  {
    name: 'email taken ("Confirm email" off)',
    arrange: (d) => confirmed(d, 'taken@example.com'),
    act: (p) => p.createUser('taken@example.com', PASSWORD),
    code: 'email-already-in-use',
  },
  {
    name: 'email taken ("Confirm email" on: GoTrue answers a decoy user)',
    project: { mailerAutoconfirm: false },
    arrange: (d) => confirmed(d, 'taken@example.com'),
    act: (p) => p.createUser('taken@example.com', PASSWORD),
    code: 'email-already-in-use',
  },
  { name: 'weak password', act: (p) => p.createUser('weak@example.com', 'abc'), code: 'weak-password' },
  {
    name: 'malformed email at sign-up',
    act: (p) => p.createUser('not-an-email', PASSWORD),
    code: 'invalid-email',
  },
  {
    name: 'sign-up disabled',
    project: { disableSignup: true },
    act: (p) => p.createUser('closed@example.com', PASSWORD),
    code: 'sign-up-disabled',
  },
  {
    name: 'sign-up rate limit',
    arrange: (d) => d.faults.failNext('POST /signup', { status: 429, code: 'over_request_rate_limit' }),
    act: (p) => p.createUser('busy@example.com', PASSWORD),
    code: 'sign-up-too-many-requests',
  },
  {
    name: 'recovery email rate limit',
    arrange: (d) => confirmed(d, 'again@example.com'),
    act: async (p) => {
      await p.sendPasswordResetEmail('again@example.com', { url: LOGIN });
      return p.sendPasswordResetEmail('again@example.com', { url: LOGIN });
    },
    code: 'too-many-requests',
  },
  {
    name: 'magic link rate limit',
    arrange: (d) => confirmed(d, 'again@example.com'),
    act: async (p) => {
      await p.sendSignInLinkToEmail('again@example.com', { url: LOGIN, handleCodeInApp: true });
      return p.sendSignInLinkToEmail('again@example.com', { url: LOGIN, handleCodeInApp: true });
    },
    code: 'too-many-requests',
  },
  {
    name: 'malformed continue URL',
    act: (p) => p.sendSignInLinkToEmail('someone@example.com', { url: 'not a url', handleCodeInApp: true }),
    code: 'invalid-continue-uri',
  },
  { name: 'a magic link used twice', act: useLinkTwice, code: 'invalid-action-code' },
  {
    name: 'an expired magic link',
    arrange: (d) => confirmed(d, 'late@example.com'),
    act: async (p, d) => {
      await p.sendSignInLinkToEmail('late@example.com', { url: LOGIN, handleCodeInApp: true });
      d.clock.advance(3601 * 1000);
      return p.signInWithEmailLink('late@example.com', lastLink(d, 'late@example.com'));
    },
    code: 'invalid-action-code',
  },
  {
    name: 'anonymous sign-ins disabled',
    project: { anonymousUsers: false },
    act: (p) => p.signInAnonymously(),
    code: 'operation-not-allowed',
  },
  {
    name: 'a project with a captcha (the server has no token to send)',
    project: { captchaToken: 'captcha-ok' },
    act: (p) => p.signInWithEmailAndPassword('user@example.com', PASSWORD),
    code: 'captcha-check-failed',
  },
  {
    name: 'GoTrue unreachable',
    arrange: (d) => {
      d.faults.network = true;
    },
    act: (p) => p.sendPasswordResetEmail('user@example.com', { url: LOGIN }),
    code: 'network-request-failed',
  },
  {
    name: 'GoTrue failing (5xx)',
    arrange: (d) => {
      d.faults.serverError = true;
    },
    act: (p) => p.createUser('user@example.com', PASSWORD),
    code: 'network-request-failed',
  },
];

describe('catalogue codes: the browser provider’s for the same situation', () => {
  it.each(SITUATIONS)('$name → $code', async ({ project, arrange, act, code }) => {
    const onBrowser = setup(project);
    arrange?.(onBrowser.double);
    const browser = browserOn(onBrowser.double);
    const browserError = await expectAuthError(act(browser, onBrowser.double), code as never);
    browser.dispose();

    const onServer = setup(project);
    arrange?.(onServer.double);
    const serverError = await expectAuthError(act(onServer.provider, onServer.double), code as never);
    expect(serverError.code).toBe(browserError.code);
    expect(serverError.message).toBe(browserError.message);
    // Never a secret in what the flow shows or logs.
    expect(serverError.message).not.toContain(PASSWORD);
    expect(onServer.provider.sessionToken()).toBeNull();
  });
});
