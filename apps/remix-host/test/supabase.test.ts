/**
 * The host on Supabase (`DOORWAY_PROVIDER=supabase`): its configuration, the session routes and the action
 * route on `@doorway/adapter-supabase/server` (a reset link across its GET and POST, the failure card
 * without a call for modes Supabase has no links for), answered by the GoTrue TEST DOUBLE (not Supabase: see packages/adapter-supabase/README.md, "Checked against the double
 * only").
 */
import {
  createSupabaseProvider,
  formatActionCode,
  SUPABASE_EMAIL_TEMPLATES,
} from '@doorway/adapter-supabase';
import { createSupabaseServer } from '@doorway/adapter-supabase/server';
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { describe, expect, it } from 'vitest';
import { ACTION_PAGE } from '../app/action.server.ts';
import { FIREBASE_ONLY_VARIABLES, parseHostConfig, publicConfig } from '../app/config.server.ts';
import {
  endSession,
  LOGIN_FOR_ACCOUNT,
  requireAccount,
  SESSION_MAX_AGE_SECONDS,
  SIGNED_OUT,
  startSession,
} from '../app/session.server.ts';
import { configError, formBrowser, ORIGIN, request, viewOf } from './fakes.ts';

const URL_ = 'https://abcdefghijklmnop.supabase.co';
// A JWT-shaped anon key (payload {"role":"anon"}); the signature does not matter to the host.
const ANON = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"role":"anon"}').toString('base64url')}.c2lnbmF0dXJl`;
const SERVICE = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"role":"service_role"}').toString('base64url')}.c2VjcmV0`;
const SUPABASE = {
  DOORWAY_PROVIDER: 'supabase',
  DOORWAY_SUPABASE_URL: URL_,
  DOORWAY_SUPABASE_ANON_KEY: ANON,
};

describe('DOORWAY_PROVIDER=supabase configuration', () => {
  it('reads the project URL and anon key; email and password by default; no Firebase settings', () => {
    const config = parseHostConfig(SUPABASE);
    expect(config).toMatchObject({
      provider: 'supabase',
      supabase: { url: URL_, anonKey: ANON },
      firebase: null,
      emulatorHost: null,
      tenants: null,
      emailEnumerationProtection: true,
    });
    expect(config.signInOptions).toEqual([{ provider: 'email', emailLinkUrl: '/action' }]);
    // FIREBASE_* variables name their provider: ignored here (the scripts set them for every run).
    expect(
      parseHostConfig({ ...SUPABASE, FIREBASE_PROJECT_ID: 'Not A Project', FIREBASE_AUTH_EMULATOR_HOST: 'x' })
        .provider,
    ).toBe('supabase');
    expect(parseHostConfig({}).provider).toBe('firebase');
    expect(parseHostConfig({}).supabase).toBeNull();
  });

  it('gives the browser the project URL and anon key, and no Firebase configuration', () => {
    const pub = publicConfig(parseHostConfig({ ...SUPABASE, DOORWAY_SIGN_IN_OPTIONS: 'email,github.com' }));
    expect(pub).toMatchObject({
      provider: 'supabase',
      supabase: { url: URL_, anonKey: ANON },
      firebase: null,
      emulatorUrl: null,
      federatedProviders: ['github.com'],
    });
  });

  it.each(FIREBASE_ONLY_VARIABLES)('refuses the Firebase-only setting %s', (name) => {
    const error = configError({ ...SUPABASE, [name]: name === 'DOORWAY_TENANTS' ? '[]' : 'true' });
    expect(error.variable).toBe(name);
    expect(error.message).toMatch(/Firebase setting/);
  });

  it.each([
    [{ DOORWAY_SUPABASE_URL: '' }, 'DOORWAY_SUPABASE_URL', /is required/],
    [{ DOORWAY_SUPABASE_URL: 'abcdefghijklmnop.supabase.co' }, 'DOORWAY_SUPABASE_URL', /project URL/],
    [{ DOORWAY_SUPABASE_URL: 'http://abcdefghijklmnop.supabase.co' }, 'DOORWAY_SUPABASE_URL', /https/],
    [{ DOORWAY_SUPABASE_URL: 'ftp://127.0.0.1:54321' }, 'DOORWAY_SUPABASE_URL', /https/],
    [{ DOORWAY_SUPABASE_URL: 'https://user:hunter2@x.supabase.co' }, 'DOORWAY_SUPABASE_URL', /bare/],
    [{ DOORWAY_SUPABASE_URL: 'https://x.supabase.co/?key=hunter2' }, 'DOORWAY_SUPABASE_URL', /bare/],
    [{ DOORWAY_SUPABASE_ANON_KEY: '' }, 'DOORWAY_SUPABASE_ANON_KEY', /is required/],
    [{ DOORWAY_SUPABASE_ANON_KEY: 'hunter2 hunter2' }, 'DOORWAY_SUPABASE_ANON_KEY', /not an API key/],
    [{ DOORWAY_SUPABASE_ANON_KEY: SERVICE }, 'DOORWAY_SUPABASE_ANON_KEY', /secret/],
    [{ DOORWAY_SUPABASE_ANON_KEY: 'sb_secret_hunter2hunter2' }, 'DOORWAY_SUPABASE_ANON_KEY', /secret/],
    [{ DOORWAY_SUPABASE_SERVICE_ROLE_KEY: ANON }, 'DOORWAY_SUPABASE_SERVICE_ROLE_KEY', /not a service-role/],
    [
      { DOORWAY_SUPABASE_SERVICE_ROLE_KEY: 'hunter2 x' },
      'DOORWAY_SUPABASE_SERVICE_ROLE_KEY',
      /not an API key/,
    ],
  ])('refuses %j, naming %s, without printing the value', (env, variable, problem) => {
    const error = configError({ ...SUPABASE, ...env });
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(problem);
    expect(error.message).not.toMatch(/hunter2|c2VjcmV0|supabase\.co\/|abcdefghijklmnop/);
  });

  it('accepts plain http on the loopback address (a local Supabase or the GoTrue double)', () => {
    expect(
      parseHostConfig({ ...SUPABASE, DOORWAY_SUPABASE_URL: 'http://127.0.0.1:54321/' }).supabase?.url,
    ).toBe('http://127.0.0.1:54321');
    expect(
      parseHostConfig({ ...SUPABASE, DOORWAY_SUPABASE_ANON_KEY: 'sb_publishable_abc-123' }).supabase?.anonKey,
    ).toBe('sb_publishable_abc-123');
  });

  it('keeps the service-role key on the server: the config has it, what the browser sees does not', () => {
    const config = parseHostConfig({ ...SUPABASE, DOORWAY_SUPABASE_SERVICE_ROLE_KEY: SERVICE });
    expect(config.supabaseServiceRoleKey).toBe(SERVICE);
    expect(JSON.stringify(publicConfig(config))).not.toContain(SERVICE);
    expect(parseHostConfig(SUPABASE).supabaseServiceRoleKey).toBeNull();
  });

  it('refuses an unknown provider by name, not by echoing it', () => {
    const error = configError({ DOORWAY_PROVIDER: 'hunter2' });
    expect(error.variable).toBe('DOORWAY_PROVIDER');
    expect(error.message).not.toContain('hunter2');
  });
});

/** A browser's sign-up on the double; resolves its access token. */
async function signUp(double: GoTrueDouble, email: string, password: string, name: string) {
  const client = createSupabaseProvider(
    { url: double.projectUrl, anonKey: double.anonKey, auth: { fetch: double.fetch } },
    { actionUrl: `${ORIGIN}/action` },
  );
  await client.createUser(email, password, name);
  const { data } = await client.client.auth.getSession();
  client.dispose();
  return data.session?.access_token ?? '';
}

function onDouble() {
  const double = createGoTrueDouble({
    projectUrl: 'http://host-double.supabase.test',
    mailerAutoconfirm: true,
    siteUrl: ORIGIN,
    templates: SUPABASE_EMAIL_TEMPLATES,
  });
  const server = createSupabaseServer({
    url: double.projectUrl,
    anonKey: double.anonKey,
    fetch: double.fetch,
  });
  return { double, server };
}

const cookieOf = (response: Response) =>
  /doorway_session=([^;]*)/.exec(response.headers.get('set-cookie') ?? '')?.[1];

describe('session routes on the Supabase server (GoTrue double)', () => {
  const post = (path: string, body: string, origin: string | null = ORIGIN) =>
    request(path, { method: 'POST', origin, body, headers: { 'content-type': 'application/json' } });

  it('POST /session → the same cookie flags as on Firebase; /account shows the user; /logout revokes', async () => {
    const { double, server } = onDouble();
    const token = await signUp(double, 'ada@example.com', 'Secret-123', 'Ada Lovelace');
    const started = await startSession(
      post('/session', JSON.stringify({ idToken: token })),
      server.forRequest(),
      [],
    );
    expect(started.status).toBe(204);
    // The same flags; the cookie lasts as long as the access token (an hour), not the host's five days.
    const setCookie = started.headers.get('set-cookie') ?? '';
    expect(setCookie.replace(/Max-Age=\d+/, 'Max-Age=N')).toBe(
      `doorway_session=${token}; Max-Age=N; Path=/; HttpOnly; SameSite=Lax`,
    );
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)?.[1]);
    expect(maxAge).toBeGreaterThan(3590);
    // (Rounded up to the second: the token's iat is a whole second.)
    expect(maxAge).toBeLessThanOrEqual(3601);
    expect(maxAge).toBeLessThan(SESSION_MAX_AGE_SECONDS);
    const cookie = `doorway_session=${cookieOf(started)}`;

    const account = await requireAccount(request('/account', { headers: { cookie } }), server.forRequest());
    expect(account).toMatchObject({
      email: 'ada@example.com',
      displayName: 'Ada Lovelace',
      emailVerified: true,
      isAnonymous: false,
      signInProvider: 'password',
      providers: ['password', 'emailLink'],
    });

    const out = await endSession(post('/logout', '', ORIGIN), server.forRequest(), []);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(SIGNED_OUT);
    expect(out.headers.get('set-cookie')).toBe('doorway_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    // No cookie on that request: nothing revoked yet. With it, every session of the user ends.
    const logout = request('/logout', { method: 'POST', origin: ORIGIN, headers: { cookie } });
    await endSession(logout, server.forRequest(), []);
    expect(double.requests.filter((r) => r.method === 'POST' && r.path === '/logout')).toHaveLength(1);
    // The replayed cookie no longer opens the account.
    const replay = await requireAccount(
      request('/account', { headers: { cookie } }),
      server.forRequest(),
    ).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(Response);
    expect((replay as Response).headers.get('location')).toBe(LOGIN_FOR_ACCOUNT);
  });

  it('refuses a bad or expired token with 401, a cross-origin post with 403; 503 when GoTrue is down', async () => {
    const { double, server } = onDouble();
    const token = await signUp(double, 'bob@example.com', 'Secret-123', 'Bob');
    const body = JSON.stringify({ idToken: token });
    expect(
      (await startSession(post('/session', body, 'https://evil.example'), server.forRequest(), [])).status,
    ).toBe(403);
    const forged = await startSession(post('/session', '{"idToken":"a.b.c"}'), server.forRequest(), []);
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: 'Your sign-in session has expired. Please try again.' });
    double.faults.network = true;
    expect((await startSession(post('/session', body), server.forRequest(), [])).status).toBe(503);
    double.faults.network = false;
    double.clock.advance(3601 * 1000);
    expect((await startSession(post('/session', body), server.forRequest(), [])).status).toBe(401);
  });
});

describe('the action route on the Supabase server (GoTrue double)', () => {
  /** A browser without JavaScript on `/action`, the form path on the double's Supabase server. */
  function actionBrowser(server: ReturnType<typeof onDouble>['server']) {
    return formBrowser({
      config: parseHostConfig(SUPABASE),
      provider: () => server.formProvider(),
      sessions: () => server.forRequest(),
      page: ACTION_PAGE,
    });
  }

  it('password reset: the link shows the form (its token used once, by the GET), the POST sets the password', async () => {
    const { double, server } = onDouble();
    await signUp(double, 'carol@example.com', 'Old-Secret-1', 'Carol');
    const link = double.admin.generateLink({ type: 'recovery', email: 'carol@example.com' });
    const code = formatActionCode('recovery', link.hashed_token);
    const page = `/action?mode=resetPassword&oobCode=${code}&continueUrl=${encodeURIComponent(`${ORIGIN}/login`)}`;
    const b = actionBrowser(server);
    const form = viewOf(await b.get(page));
    expect(form.state).toMatchObject({ card: 'passwordReset', email: 'carol@example.com', code: '' });
    expect(JSON.stringify(form)).not.toContain(link.hashed_token);

    const weak = viewOf(await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'abc' }));
    expect(weak.state).toMatchObject({ card: 'passwordReset', error: 'password-weak' });
    const done = viewOf(await b.post(page, { event: 'SUBMIT_NEW_PASSWORD', password: 'New-Secret-2' }));
    expect(done.state.card).toBe('passwordResetSuccess');
    expect(double.requests.filter((r) => r.path === '/verify')).toHaveLength(1);

    const client = createSupabaseProvider({
      url: double.projectUrl,
      anonKey: double.anonKey,
      auth: { fetch: double.fetch },
    });
    expect((await client.signInWithEmailAndPassword('carol@example.com', 'New-Secret-2')).user.email).toBe(
      'carol@example.com',
    );
    client.dispose();
    // The link is spent.
    expect(viewOf(await actionBrowser(server).get(page)).state.card).toBe('passwordResetFailure');
  });

  it.each([
    ['recoverEmail', 'emailChangeRevokeFailure'],
    ['revertSecondFactorAddition', 'revertSecondFactorAdditionFailure'],
  ])(
    '%s (no such links on Supabase): the failure card, and GoTrue never sees the code',
    async (mode, card) => {
      const { double, server } = onDouble();
      // A well-formed code of a type the server would verify (and so use up) if it were asked.
      const code = formatActionCode('email_change', 'a'.repeat(40));
      const out = viewOf(await actionBrowser(server).get(`/action?mode=${mode}&oobCode=${code}`));
      expect(out.state.card).toBe(card);
      expect(double.requests.filter((r) => r.path === '/verify')).toEqual([]);
    },
  );

  it('the sign-in widget for sign-in links and unknown modes', async () => {
    const { server } = onDouble();
    for (const query of ['mode=nope', 'mode=select', '']) {
      expect(viewOf(await actionBrowser(server).get(`/action?${query}`)).state.card, query).toBe(
        'emailEntry',
      );
    }
  });
});
