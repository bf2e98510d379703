/**
 * The form path end to end: the server flow runner of `@doorway/auth-core/server` on the fake's server
 * provider, driven as a browser without JavaScript drives it (GET the page, POST each card's form, keep the
 * cookie the server sets).
 */
import { ConfigError, type FlowState, normalizeConfig, type WidgetConfigInput } from '@doorway/auth-core';
import { createServerFlow, openState, type ServerFlowResult } from '@doorway/auth-core/server';
import { describe, expect, it } from 'vitest';
import {
  createFakeProvider,
  createFakeServerProvider,
  createManualClock,
  type FakeProvider,
  type FakeProviderOptions,
  verifyFakeSessionToken,
} from '../src/index.ts';

const SECRET = 'server-flow-test-secret-0123456789abcdef';
const ORIGIN = 'https://app.example';
const LOGIN = `${ORIGIN}/login`;
const COOKIE = 'doorway_flow';
const PASSWORD = 'secret-pw-1';

interface Browser {
  world: FakeProvider;
  /** The flow cookie this browser holds, if any. */
  cookie: string | null;
  get(url?: string): Promise<ServerFlowResult>;
  post(fields: Record<string, string>, url?: string): Promise<ServerFlowResult>;
  /** The state sealed in the cookie, opened with the secret (as the server sees it). */
  sealed(): Promise<unknown>;
}

function browser(
  input: WidgetConfigInput,
  options: { world?: FakeProvider; fake?: FakeProviderOptions } = {},
) {
  const clock = createManualClock(Date.UTC(2025, 0, 1));
  const world = options.world ?? createFakeProvider({ clock, ...options.fake });
  let ids = 0;
  const flow = createServerFlow({ secret: SECRET, now: () => clock.now(), createId: () => `sid-${++ids}` });
  const config = normalizeConfig(input, ORIGIN);
  const b: Browser & { clock: typeof clock } = {
    world,
    clock,
    cookie: null,
    async get(url = LOGIN) {
      return send(new Request(url, { headers: headers() }));
    },
    async post(fields, url = LOGIN) {
      const h = headers();
      h.set('content-type', 'application/x-www-form-urlencoded');
      return send(
        new Request(url, { method: 'POST', headers: h, body: new URLSearchParams(fields).toString() }),
      );
    },
    async sealed() {
      return b.cookie === null ? null : openState(b.cookie, SECRET, clock.now());
    },
  };
  function headers(): Headers {
    const h = new Headers();
    if (b.cookie !== null) h.set('cookie', `other=1; ${COOKIE}=${b.cookie}; more=2`);
    return h;
  }
  async function send(request: Request): Promise<ServerFlowResult> {
    const out = await flow.handle(request, createFakeServerProvider(world), config);
    const match = new RegExp(`^${COOKIE}=([^;]*);.*Max-Age=(\\d+)`).exec(out.setCookie);
    expect(match, out.setCookie).not.toBeNull();
    b.cookie = match?.[2] === '0' ? null : (match?.[1] ?? null);
    return out;
  }
  return b;
}

/** Asserts the card rendered, that nothing is in flight, and that no password is in the state or cookie. */
async function expectCard(
  b: Browser,
  out: ServerFlowResult,
  card: FlowState['card'],
  error: string | null = null,
) {
  expect({ card: out.state.card, error: out.state.error }).toEqual({ card, error });
  expect(out.state.pending).toBeNull();
  expect(JSON.stringify(out.state)).not.toContain(PASSWORD);
  expect(JSON.stringify(await b.sealed())).not.toContain(PASSWORD);
}

const EMAIL_AND_GOOGLE: WidgetConfigInput = { signInOptions: ['email', 'google.com'] };

describe('the form path: password journeys', () => {
  it('chooser → email → new user → sign-up with a name → signed in with a session token', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    await expectCard(b, await b.get(), 'providerChooser');
    await expectCard(b, await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' }), 'emailEntry');
    const signUp = await b.post({ event: 'SUBMIT_EMAIL', email: ' new@example.com ' });
    await expectCard(b, signUp, 'passwordSignUp');
    expect(signUp.state).toMatchObject({ email: 'new@example.com', requireName: true });

    const noName = await b.post({
      event: 'SUBMIT_SIGN_UP',
      email: 'new@example.com',
      name: ' ',
      password: PASSWORD,
    });
    await expectCard(b, noName, 'passwordSignUp', 'name-required');
    expect(noName.state).toMatchObject({ email: 'new@example.com' });
    expect(noName.signedIn).toBeNull();

    // A refused password: the name typed comes back with the email, the password does not.
    const weak = await b.post({
      event: 'SUBMIT_SIGN_UP',
      email: 'new@example.com',
      name: 'Nova',
      password: 'abc',
    });
    await expectCard(b, weak, 'passwordSignUp', 'password-weak');
    expect(weak.state).toMatchObject({ email: 'new@example.com', name: 'Nova' });

    const done = await b.post({
      event: 'SUBMIT_SIGN_UP',
      email: 'new@example.com',
      name: 'Nova',
      password: PASSWORD,
    });
    await expectCard(b, done, 'signedIn');
    expect(done.signedIn?.result).toMatchObject({ isNewUser: true, user: { email: 'new@example.com' } });
    expect(verifyFakeSessionToken(b.world, done.signedIn?.sessionToken ?? '')).toMatchObject({
      email: 'new@example.com',
      displayName: 'Nova',
    });
    expect(done.signedIn?.redirectUrl).toBeNull();
    expect(done.redirect).toBeNull();
    expect(done.status).toBe(200);
    // The flow is over: its cookie is cleared.
    expect(done.setCookie).toMatch(/^doorway_flow=; .*Max-Age=0/);
    expect(b.cookie).toBeNull();
  });

  it('existing user: a wrong password keeps the email and no password anywhere; the right one signs in', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    await b.get(`${LOGIN}?signInSuccessUrl=%2Faccount`);
    await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
    await expectCard(b, await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' }), 'passwordSignIn');

    const wrong = await b.post({ event: 'SUBMIT_PASSWORD', password: `${PASSWORD}x` });
    await expectCard(b, wrong, 'passwordSignIn', 'wrong-password');
    expect(wrong.state).toMatchObject({ email: 'ada@example.com' });
    expect(JSON.stringify(wrong.state)).not.toContain(`${PASSWORD}x`);
    expect(JSON.stringify(await b.sealed())).not.toContain(`${PASSWORD}x`);
    expect(wrong.signedIn).toBeNull();

    const right = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, right, 'signedIn');
    expect(right.signedIn?.result.user.email).toBe('ada@example.com');
    expect(verifyFakeSessionToken(b.world, right.signedIn?.sessionToken ?? '')?.email).toBe(
      'ada@example.com',
    );
    // signInSuccessUrl from the page URL, checked by the engine: a 303 to it.
    expect(right.signedIn?.redirectUrl).toBe(`${ORIGIN}/account`);
    expect(right.redirect).toBe(`${ORIGIN}/account`);
    expect(right.status).toBe(303);
  });

  it('an unsafe signInSuccessUrl is not followed', async () => {
    const b = browser({ signInOptions: ['email'] });
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    await expectCard(b, await b.get(`${LOGIN}?signInSuccessUrl=https%3A%2F%2Fevil.example%2F`), 'emailEntry');
    await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' });
    const done = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    expect(done.signedIn?.redirectUrl).toBeNull();
    expect(done.redirect).toBeNull();
  });

  it('recovery: the reset email is sent; its link resets the password on the same page', async () => {
    const b = browser({ signInOptions: ['email'] });
    b.world.backend.createUser({ email: 'ada@example.com', password: 'old-password' });
    await b.get();
    await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' });
    await expectCard(b, await b.post({ event: 'GO_TO_RECOVERY' }), 'passwordRecovery');
    const sent = await b.post({ event: 'SUBMIT_RECOVERY', email: 'ada@example.com' });
    await expectCard(b, sent, 'recoveryEmailSent');
    const mail = b.world.backend.outbox.lastEmail('ada@example.com', 'resetPassword');
    expect(mail?.link.startsWith(`${LOGIN}?`)).toBe(true);

    // The link, opened in a browser without the cookie: the action URL goes through the engine's ops.
    const other = browser({ signInOptions: ['email'] }, { world: b.world });
    const reset = await other.get(mail?.link);
    await expectCard(other, reset, 'passwordReset');
    expect(reset.state).toMatchObject({ email: 'ada@example.com' });
    await expectCard(
      other,
      await other.post({ event: 'SUBMIT_NEW_PASSWORD', password: PASSWORD }, mail?.link),
      'passwordResetSuccess',
    );
    await expect(b.world.signInWithEmailAndPassword('ada@example.com', PASSWORD)).resolves.toBeTruthy();
  });

  it('a provider failure is an error line on the card, keeping what was typed', async () => {
    const b = browser({ signInOptions: ['email'] });
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    await b.get();
    await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' });
    b.world.backend.faults.failNext('signInWithEmailAndPassword', 'network-request-failed');
    const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, out, 'passwordSignIn', 'network-request-failed');
    expect(out.state).toMatchObject({ email: 'ada@example.com' });
  });
});

describe('the form path: email link', () => {
  const LINK_ONLY: WidgetConfigInput = { signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] };

  async function requestLink() {
    const b = browser(LINK_ONLY);
    await expectCard(b, await b.get(), 'emailEntry');
    const sent = await b.post({ event: 'SUBMIT_EMAIL', email: 'lin@example.com' });
    await expectCard(b, sent, 'emailLinkSent');
    const mail = b.world.backend.outbox.lastEmail('lin@example.com', 'signIn');
    expect(mail).not.toBeNull();
    return { b, link: mail?.link ?? '' };
  }

  it('a link opened with the same cookie completes at once', async () => {
    const { b, link } = await requestLink();
    // The email-link session travels sealed with the state, never in the clear.
    expect(b.cookie).not.toContain('lin');
    expect(await b.sealed()).toMatchObject({
      storage: { 'doorway.emailLink': expect.stringContaining('sid-1') },
    });
    // Browsers drop a cookie over 4096 bytes (name, value and attributes together).
    expect(b.cookie?.length).toBeLessThan(3000);
    const done = await b.get(link);
    await expectCard(b, done, 'signedIn');
    expect(done.signedIn?.result).toMatchObject({
      providerId: 'emailLink',
      user: { email: 'lin@example.com' },
    });
    expect(verifyFakeSessionToken(b.world, done.signedIn?.sessionToken ?? '')?.email).toBe('lin@example.com');
  });

  it('the session survives a reload of the page before the link is opened', async () => {
    const { b, link } = await requestLink();
    await expectCard(b, await b.get(), 'emailEntry');
    await expectCard(b, await b.get(link), 'signedIn');
  });

  it('a link opened without the cookie asks for the email, then completes', async () => {
    const { b, link } = await requestLink();
    const other = browser(LINK_ONLY, { world: b.world });
    const confirm = await other.get(link);
    await expectCard(other, confirm, 'emailLinkConfirmation');
    expect(confirm.signedIn).toBeNull();
    const mismatch = await other.post({ event: 'CONFIRM_EMAIL', email: 'someone@example.com' }, link);
    await expectCard(other, mismatch, 'emailLinkConfirmation', 'email-mismatch');
    const done = await other.post({ event: 'CONFIRM_EMAIL', email: 'lin@example.com' }, link);
    await expectCard(other, done, 'signedIn');
    expect(done.signedIn?.result.user.email).toBe('lin@example.com');
  });

  it('"Email not received?" and resend send a second link', async () => {
    const { b } = await requestLink();
    await expectCard(b, await b.post({ event: 'EMAIL_NOT_RECEIVED' }), 'emailNotReceived');
    await expectCard(b, await b.post({ event: 'RESEND_EMAIL' }), 'emailLinkSent');
    expect(b.world.backend.outbox.emails.filter((e) => e.kind === 'signIn')).toHaveLength(2);
  });
});

describe('the form path: other journeys', () => {
  it('anonymous (guest) sign-in', async () => {
    const b = browser({ signInOptions: ['email', 'anonymous'] });
    await expectCard(b, await b.get(), 'providerChooser');
    const done = await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'anonymous' });
    await expectCard(b, done, 'signedIn');
    expect(done.signedIn?.result.user.isAnonymous).toBe(true);
    expect(verifyFakeSessionToken(b.world, done.signedIn?.sessionToken ?? '')?.isAnonymous).toBe(true);
  });

  it('enumeration-safe: no lookup, the combined sign-in card, an unknown email fails like a wrong password', async () => {
    const b = browser({ signInOptions: ['email'] }, { fake: { faults: { enumerationProtection: true } } });
    await b.get();
    const card = await b.post({ event: 'SUBMIT_EMAIL', email: 'who@example.com' });
    await expectCard(b, card, 'passwordSignIn');
    expect(card.state).toMatchObject({ offerSignUp: true });
    expect(b.world.backend.calls.map((c) => c.method)).not.toContain('fetchSignInMethodsForEmail');
    await expectCard(
      b,
      await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD }),
      'passwordSignIn',
      'wrong-password',
    );
    await expectCard(b, await b.post({ event: 'GO_TO_SIGN_UP' }), 'passwordSignUp');
    const done = await b.post({
      event: 'SUBMIT_SIGN_UP',
      email: 'who@example.com',
      name: 'Who',
      password: PASSWORD,
    });
    await expectCard(b, done, 'signedIn');
  });

  it('tenants: the chosen tenant holds for the following requests', async () => {
    const input: WidgetConfigInput = {
      signInOptions: ['email'],
      tenants: [
        { id: null, displayName: 'Everyone' },
        { id: 'acme', displayName: 'Acme' },
      ],
    };
    const b = browser(input, { fake: { tenants: ['acme'] } });
    b.world.backend.createUser({ email: 'bo@acme.com', password: PASSWORD, tenantId: 'acme' });
    const chooser = await b.get();
    await expectCard(b, chooser, 'providerChooser');
    expect(chooser.state).toMatchObject({ chooseTenant: true });
    const entry = await b.post({ event: 'CHOOSE_TENANT', tenantId: 'acme' });
    await expectCard(b, entry, 'emailEntry');
    expect(entry.state).toMatchObject({ tenantId: 'acme', tenantChosen: true });
    // A new provider per request starts on the default tenant, where bo@acme.com does not exist.
    await expectCard(b, await b.post({ event: 'SUBMIT_EMAIL', email: 'bo@acme.com' }), 'passwordSignIn');
    const done = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, done, 'signedIn');
    expect(done.signedIn?.result.user.tenantId).toBe('acme');
  });

  it('tenants: the default tenant is posted as the empty string', async () => {
    const b = browser({
      signInOptions: ['email'],
      tenants: [
        { id: null, displayName: 'Everyone' },
        { id: 'acme', displayName: 'Acme' },
      ],
    });
    await b.get();
    const entry = await b.post({ event: 'CHOOSE_TENANT', tenantId: '' });
    await expectCard(b, entry, 'emailEntry');
    expect(entry.state).toMatchObject({ tenantId: null, tenantChosen: true });
  });

  it('a card that needs a browser op: the op never reaches the provider, the card says it needs JavaScript', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    await b.get();
    const out = await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'google.com' });
    await expectCard(b, out, 'providerChooser', 'javascript-required');
    expect(b.world.backend.calls.map((c) => c.method)).not.toContain('signInWithFederated');
    // The chooser still works.
    await expectCard(b, await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' }), 'emailEntry');
  });

  it('phone: the entry card renders, its submit (browser-only) is refused as a bad request', async () => {
    const b = browser({ signInOptions: ['phone'] });
    await expectCard(b, await b.get(), 'phoneEntry');
    const out = await b.post({ event: 'SUBMIT_PHONE', phoneNumber: '+16505550100', country: 'US' });
    await expectCard(b, out, 'phoneEntry');
    expect(out.status).toBe(400);
    expect(b.world.backend.calls).toHaveLength(0);
  });

  it('a page the host opens with signOut: the sign-out card, the provider signed out, then "Sign in again"', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    const flow = createServerFlow({ secret: SECRET, now: () => b.clock.now() });
    const provider = createFakeServerProvider(b.world);
    const out = await flow.handle(new Request(LOGIN), provider, normalizeConfig(EMAIL_AND_GOOGLE, ORIGIN), {
      signOut: true,
    });
    expect(out.state.card).toBe('signOut');
    expect(out.signedIn).toBeNull();
    // Without the option the same request opens on the first card.
    expect(
      (await flow.handle(new Request(LOGIN), provider, normalizeConfig(EMAIL_AND_GOOGLE, ORIGIN))).state.card,
    ).toBe('providerChooser');
  });

  it('sign-out card: "Sign in again" shows the first card', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    await b.get();
    await expectCard(b, await b.post({ event: 'SIGN_OUT' }), 'signOut');
    await expectCard(b, await b.post({ event: 'SIGN_IN_AGAIN' }), 'providerChooser');
  });
});

describe('the form path: what a visitor cannot forge', () => {
  async function atPassword() {
    const b = browser({ signInOptions: ['email'] });
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    await b.get();
    await expectCard(b, await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' }), 'passwordSignIn');
    b.world.backend.clearCalls();
    return b;
  }

  it('a forged POST without a cookie gets the first card and no session', async () => {
    const b = await atPassword();
    b.cookie = null;
    const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD, email: 'ada@example.com' });
    await expectCard(b, out, 'emailEntry');
    expect(out.signedIn).toBeNull();
    expect(b.world.backend.calls).toHaveLength(0);
  });

  it('a tampered cookie: the first card and no session', async () => {
    const b = await atPassword();
    const bytes = Buffer.from((b.cookie ?? '').slice(3), 'base64url');
    bytes[20] = (bytes[20] ?? 0) ^ 0x01;
    b.cookie = `v1.${bytes.toString('base64url')}`;
    const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, out, 'emailEntry');
    expect(out.signedIn).toBeNull();
    expect(b.world.backend.calls).toHaveLength(0);
  });

  it('a cookie sealed with another secret, or expired: the first card', async () => {
    const b = await atPassword();
    const sealed = b.cookie;
    const intruder = browser({ signInOptions: ['email'] }, { world: b.world });
    const forged = createServerFlow({ secret: 'another-secret-of-at-least-32-characters' });
    const out = await forged.handle(
      new Request(LOGIN),
      createFakeServerProvider(b.world),
      normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    );
    intruder.cookie = /^doorway_flow=([^;]*)/.exec(out.setCookie)?.[1] ?? null;
    await expectCard(
      intruder,
      await intruder.post({ event: 'SUBMIT_EMAIL', email: 'x@example.com' }),
      'emailEntry',
    );

    b.cookie = sealed;
    b.clock.advance(60 * 60 * 1000);
    const expired = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, expired, 'emailEntry');
    expect(expired.signedIn).toBeNull();
  });

  it('a POST claiming a step the visitor never reached changes nothing', async () => {
    const b = browser(EMAIL_AND_GOOGLE);
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    await b.get();
    const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
    await expectCard(b, out, 'providerChooser');
    expect(out.signedIn).toBeNull();
    expect(b.world.backend.calls).toHaveLength(0);
  });

  it('a POST with no event, an unknown one or an unreadable body: the same card, 400', async () => {
    const b = await atPassword();
    const bodies: Record<string, string>[] = [
      {},
      { event: 'START', url: 'https://evil.example' },
      { event: 'PROVIDER_RESOLVED' },
    ];
    for (const fields of bodies) {
      const out = await b.post(fields);
      await expectCard(b, out, 'passwordSignIn');
      expect(out.status).toBe(400);
    }
    const flow = createServerFlow({ secret: SECRET, now: () => b.clock.now() });
    const out = await flow.handle(
      new Request(LOGIN, {
        method: 'POST',
        headers: { cookie: `${COOKIE}=${b.cookie}`, 'content-type': 'multipart/form-data; boundary=x' },
        body: 'not multipart at all',
      }),
      createFakeServerProvider(b.world),
      normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    );
    expect(out.state.card).toBe('passwordSignIn');
    expect(out.status).toBe(400);
  });
});

describe('createServerFlow', () => {
  it('a sign-in whose provider gives no session token starts no session: an error card', async () => {
    const world = createFakeProvider();
    world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    const config = normalizeConfig({ signInOptions: ['email', 'anonymous'] }, ORIGIN);
    const flow = createServerFlow({ secret: SECRET });
    const first = await flow.handle(new Request(LOGIN), createFakeServerProvider(world), config);
    const provider = createFakeServerProvider(world);
    const tokenless = Object.assign(Object.create(provider) as typeof provider, { sessionToken: () => null });
    const out = await flow.handle(
      new Request(LOGIN, {
        method: 'POST',
        headers: { cookie: first.setCookie.split(';')[0] ?? '' },
        body: new URLSearchParams({ event: 'CHOOSE_PROVIDER', providerId: 'anonymous' }),
      }),
      tokenless,
      config,
    );
    expect(out.signedIn).toBeNull();
    expect(out.redirect).toBeNull();
    expect(out.state).toMatchObject({ card: 'recoverableError', message: 'generic', retry: null });
  });

  it('refuses a secret shorter than 32 characters at setup', () => {
    expect(() => createServerFlow({ secret: 'too-short' })).toThrow(ConfigError);
    expect(() => createServerFlow({ secret: 'x'.repeat(31) })).toThrow(/`secret`/);
    expect(() => createServerFlow({ secret: 'x'.repeat(32) })).not.toThrow();
  });

  it('sets an httpOnly, SameSite=Lax, 1-hour cookie, Secure except on localhost', async () => {
    const world = createFakeProvider();
    const config = (origin: string) => normalizeConfig({ signInOptions: ['email'] }, origin);
    const flow = createServerFlow({ secret: SECRET });
    const https = await flow.handle(new Request(LOGIN), createFakeServerProvider(world), config(ORIGIN));
    expect(https.setCookie).toMatch(
      /^doorway_flow=v1\.[\w-]+; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure$/,
    );
    const local = await flow.handle(
      new Request('http://localhost:3000/login'),
      createFakeServerProvider(world),
      config('http://localhost:3000'),
    );
    expect(local.setCookie).not.toContain('Secure');
    const named = createServerFlow({ secret: SECRET, cookieName: '__Host-flow', secure: true });
    const out = await named.handle(
      new Request('http://localhost:3000/login'),
      createFakeServerProvider(world),
      config('http://localhost:3000'),
    );
    expect(out.setCookie).toMatch(/^__Host-flow=v1\..*; Secure$/);
  });
});
