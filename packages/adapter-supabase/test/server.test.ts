/**
 * The server entry (`@doorway/adapter-supabase/server`) against the GoTrue TEST DOUBLE (through
 * `double.fetch`): sessions from access tokens, expiry, sign-out everywhere, and action codes. What these
 * prove holds for the double; see the README's "Checked against the double only".
 */

import { confirmPasswordResetAction, handleActionCode } from '@doorway/auth-core';
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { describe, expect, it } from 'vitest';
import { createSupabaseProvider, formatActionCode, SUPABASE_EMAIL_TEMPLATES } from '../src/index.ts';
import { createSupabaseServer, SUPABASE_ACTION_MODES, type SupabaseServerOptions } from '../src/server.ts';

const HOST = 'http://localhost';

function setup(options: Partial<SupabaseServerOptions> = {}) {
  const double = createGoTrueDouble({
    projectUrl: 'http://server-double.supabase.test',
    mailerAutoconfirm: true,
    uriAllowList: ['http://localhost/**'],
    templates: SUPABASE_EMAIL_TEMPLATES,
  });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
    ...options,
  });
  return { double, server };
}

/** A browser's sign-up on the double; resolves its access token. */
async function signUp(double: GoTrueDouble, email: string, password = 'Secret-123', name?: string) {
  const client = createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { fetch: double.fetch } },
    { actionUrl: `${HOST}/action` },
  );
  await client.createUser(email, password, name);
  const { data } = await client.client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('no session');
  client.dispose();
  lastRefreshToken = data.session?.refresh_token ?? '';
  return token;
}

/** The refresh token of the last {@link signUp}'s browser session. */
let lastRefreshToken = '';

const requestsTo = (double: GoTrueDouble, method: string, path: string) =>
  double.requests.filter((r) => r.method === method && r.path === path).length;

describe('sessions from access tokens', () => {
  it('accepts a fresh access token as the session cookie and reads the user with one GET /user', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'ada@example.com', 'Secret-123', 'Ada Lovelace');
    const before = requestsTo(double, 'GET', '/user');
    const cookie = await server.createSessionCookie(token, { expiresInMs: 5 * 24 * 3600 * 1000 });
    expect(cookie).toBe(token);
    const signedIn = await server.verifySession(cookie);
    expect(requestsTo(double, 'GET', '/user')).toBe(before + 2);
    expect(signedIn?.session).toMatchObject({
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
      isAnonymous: false,
      tenantId: null,
      signInProvider: 'password',
      identities: ['email'],
    });
    expect(signedIn?.user).toMatchObject({
      email: 'ada@example.com',
      providerIds: ['password', 'emailLink'],
    });
    // Honest about expiry: the session ends with the access token (GoTrue's default JWT expiry: 3600 s).
    const exp = signedIn?.session.expiresAt ?? 0;
    expect(exp - (signedIn?.session.authTime ?? 0)).toBe(3600 * 1000);
  });

  it('refuses malformed, forged and expired tokens', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'bob@example.com');
    await expectAuthError(server.createSessionCookie('not-a-token'), 'session-expired');
    const [head, , sig] = token.split('.');
    const forged = `${head}.${btoa(JSON.stringify({ sub: 'someone', exp: 9e9 })).replace(/=+$/, '')}.${sig}`;
    await expectAuthError(server.createSessionCookie(forged), 'session-expired');
    expect(await server.verifySession(forged)).toBeNull();
    expect(await server.verifySession('')).toBeNull();
    expect(await server.verifySession(null)).toBeNull();
    // Expired on GoTrue's clock: GoTrue refuses it.
    double.clock.advance(3601 * 1000);
    expect(await server.verifySession(token)).toBeNull();
    await expectAuthError(server.createSessionCookie(token), 'session-expired');
  });

  it('refuses an expired token without asking GoTrue', async () => {
    const { double } = setup();
    const token = await signUp(double, 'late@example.com');
    const server = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
      now: () => double.clock.now() + 2 * 3600 * 1000,
    });
    const before = double.requests.length;
    expect(await server.verifySession(token)).toBeNull();
    await expectAuthError(server.createSessionCookie(token), 'session-expired');
    expect(double.requests.length).toBe(before);
  });

  it('banned users: user-disabled at sign-in, no session afterwards', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'banned@example.com');
    const cookie = await server.createSessionCookie(token);
    const [user] = double.admin.listUsers();
    double.admin.updateUserById(String(user?.id), { ban_duration: '876000h' });
    expect(await server.verifySession(cookie)).toBeNull();
    const again = await signUp(double, 'other@example.com');
    double.faults.failNext('GET /user', { status: 403, code: 'user_banned' });
    await expectAuthError(server.createSessionCookie(again), 'user-disabled');
  });

  it('sign-out revokes every session of the user, the browser’s too', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'carol@example.com');
    const cookie = await server.createSessionCookie(token);
    const refreshToken = lastRefreshToken;
    expect(refreshToken).not.toBe('');
    await server.revokeSession(cookie);
    expect(requestsTo(double, 'POST', '/logout')).toBe(1);
    expect(await server.verifySession(cookie)).toBeNull();
    // The browser's refresh token died with it.
    const refreshed = await double.fetch(`${double.authUrl}/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: double.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(refreshed.ok).toBe(false);
    // Revoking again is a no-op, not an error.
    await server.revokeSession(cookie);
  });

  it('network failures and 5xx reject network-request-failed (not "signed out")', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'dave@example.com');
    double.faults.network = true;
    await expectAuthError(server.verifySession(token), 'network-request-failed');
    await expectAuthError(server.createSessionCookie(token), 'network-request-failed');
    double.faults.network = false;
    double.faults.serverError = true;
    await expectAuthError(server.verifySession(token), 'network-request-failed');
    await expectAuthError(server.revokeSession(token), 'network-request-failed');
  });

  it('forRequest: Firebase-shaped session operations bound to the token it verified', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'erin@example.com');
    const scope = server.forRequest();
    await expectAuthError(scope.getUser('anyone'), 'operation-not-allowed');
    const session = await scope.verifySessionCookie(token, { checkRevoked: true });
    expect(session?.email).toBe('erin@example.com');
    const uid = session?.uid ?? '';
    expect((await scope.getUser(uid))?.email).toBe('erin@example.com');
    await expectAuthError(scope.revokeSessions('someone-else'), 'operation-not-allowed');
    await scope.revokeSessions(uid);
    expect(await server.forRequest().verifySessionCookie(token)).toBeNull();
  });
});

describe('action codes on the server', () => {
  it('declares the modes Supabase has links for', () => {
    expect([...SUPABASE_ACTION_MODES].sort()).toEqual([
      'resetPassword',
      'verifyAndChangeEmail',
      'verifyEmail',
    ]);
  });

  it('password reset: the link is used when the form is shown, and the form’s POST (a new provider) finishes it', async () => {
    const { double, server } = setup();
    await signUp(double, 'reset@example.com', 'Old-Secret-1');
    const link = double.admin.generateLink({ type: 'recovery', email: 'reset@example.com' });
    const code = formatActionCode('recovery', link.hashed_token);
    const url = `${HOST}/action?mode=resetPassword&oobCode=${code}&continueUrl=${encodeURIComponent(`${HOST}/account`)}`;

    const shown = await handleActionCode(url, server.serverProvider());
    expect(shown).toMatchObject({ card: 'passwordReset', email: 'reset@example.com' });
    expect(requestsTo(double, 'POST', '/verify')).toBe(1);

    // The POST: checked again (no second /verify: GoTrue would refuse the used token), then a weak password…
    const post = server.serverProvider();
    const checked = await handleActionCode(url, post);
    if (checked.card !== 'passwordReset') throw new Error(checked.card);
    const weak = await confirmPasswordResetAction(checked.code, checked.email, 'x', post);
    expect(weak).toMatchObject({ card: 'passwordReset' });
    double.faults.failNext('PUT /user', { status: 422, code: 'weak_password' });
    await expectAuthError(post.confirmPasswordReset(code, 'Longer-Secret-2'), 'weak-password');
    // …and a good one.
    const done = await confirmPasswordResetAction(
      checked.code,
      checked.email,
      'New-Secret-3',
      post,
      checked.continueUrl,
    );
    expect(done).toEqual({ card: 'passwordResetSuccess', continueUrl: `${HOST}/account` });
    expect(requestsTo(double, 'POST', '/verify')).toBe(1);

    // The new password works, the old one not; the link is used up.
    const client = createSupabaseProvider({
      url: double.projectUrl,
      anonKey: double.anonKey,
      auth: { fetch: double.fetch },
    });
    await expectAuthError(
      client.signInWithEmailAndPassword('reset@example.com', 'Old-Secret-1'),
      'wrong-password',
    );
    await client.signInWithEmailAndPassword('reset@example.com', 'New-Secret-3');
    expect(await handleActionCode(url, server.serverProvider())).toEqual({ card: 'passwordResetFailure' });
  });

  it('a password reset ends the account’s sessions', async () => {
    const { double, server } = setup();
    const token = await signUp(double, 'gone@example.com');
    const cookie = await server.createSessionCookie(token);
    const link = double.admin.generateLink({ type: 'recovery', email: 'gone@example.com' });
    const code = formatActionCode('recovery', link.hashed_token);
    await server.serverProvider().confirmPasswordReset(code, 'Brand-New-4');
    expect(await server.verifySession(cookie)).toBeNull();
  });

  it('a verified reset link expires with its recovery session', async () => {
    const { double } = setup();
    let skew = 0;
    const server = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
      now: () => double.clock.now() + skew,
    });
    await signUp(double, 'slow@example.com');
    const code = formatActionCode(
      'recovery',
      double.admin.generateLink({ type: 'recovery', email: 'slow@example.com' }).hashed_token,
    );
    expect(await server.serverProvider().verifyPasswordResetCode(code)).toBe('slow@example.com');
    skew = 2 * 3600 * 1000;
    await expectAuthError(
      server.serverProvider().confirmPasswordReset(code, 'Too-Late-5'),
      'invalid-action-code',
    );
  });

  it('email verification through handleActionCode, once; the session GoTrue opened is closed', async () => {
    const double = createGoTrueDouble({
      projectUrl: 'http://verify-double.supabase.test',
      uriAllowList: ['http://localhost/**'],
      templates: SUPABASE_EMAIL_TEMPLATES,
    });
    const server = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
    });
    const link = double.admin.generateLink({
      type: 'signup',
      email: 'new@example.com',
      password: 'Secret-123',
    });
    const url = `${HOST}/action?mode=verifyEmail&oobCode=${formatActionCode('signup', link.hashed_token)}`;
    expect(await handleActionCode(url, server.serverProvider())).toEqual({
      card: 'emailVerificationSuccess',
      continueUrl: null,
    });
    expect(double.admin.listUsers()[0]?.email_confirmed_at).toBeTruthy();
    expect(requestsTo(double, 'POST', '/logout')).toBe(1);
    expect(await handleActionCode(url, server.serverProvider())).toEqual({
      card: 'emailVerificationFailure',
    });
  });

  it('verify and change email: one /verify for check + apply, the new address shown', async () => {
    const double = createGoTrueDouble({
      projectUrl: 'http://change-double.supabase.test',
      mailerAutoconfirm: true,
      secureEmailChange: false,
      uriAllowList: ['http://localhost/**'],
      templates: SUPABASE_EMAIL_TEMPLATES,
    });
    const server = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
    });
    await signUp(double, 'before@example.com');
    const link = double.admin.generateLink({
      type: 'email_change_new',
      email: 'before@example.com',
      new_email: 'after@example.com',
    });
    const url = `${HOST}/action?mode=verifyAndChangeEmail&oobCode=${formatActionCode('email_change', link.hashed_token)}`;
    expect(await handleActionCode(url, server.serverProvider())).toEqual({
      card: 'verifyAndChangeEmailSuccess',
      email: 'after@example.com',
      continueUrl: null,
    });
    expect(requestsTo(double, 'POST', '/verify')).toBe(1);
  });

  it('refuses sign-in links, garbage codes and tenants; a network failure is recoverable', async () => {
    const { double, server } = setup();
    await signUp(double, 'frank@example.com');
    const magic = double.admin.generateLink({ type: 'magiclink', email: 'frank@example.com' });
    const provider = server.serverProvider();
    await expectAuthError(
      provider.checkActionCode(formatActionCode('magiclink', magic.hashed_token)),
      'operation-not-allowed',
    );
    await expectAuthError(provider.verifyPasswordResetCode('garbage'), 'invalid-action-code');
    await expectAuthError(
      provider.verifyPasswordResetCode(formatActionCode('signup', 'abcdef0123456789')),
      'invalid-action-code',
    );
    await expectAuthError(provider.setTenant('tenant-1'), 'operation-not-allowed');
    expect(requestsTo(double, 'POST', '/verify')).toBe(0);
    double.faults.network = true;
    const url = `${HOST}/action?mode=verifyEmail&oobCode=${formatActionCode('signup', 'abcdef0123456789')}`;
    expect(await handleActionCode(url, server.serverProvider())).toEqual({
      card: 'recoverableError',
      message: 'network-request-failed',
    });
  });
});
