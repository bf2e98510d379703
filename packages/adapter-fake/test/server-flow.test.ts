/**
 * The form path end to end: the server flow runner of `@doorway/auth-core/server` on the fake's server
 * provider, driven as a browser without JavaScript drives it (GET the page, POST each card's form, keep the
 * cookie the server sets).
 */
import { ConfigError, type FlowState, normalizeConfig, type WidgetConfigInput } from '@doorway/auth-core';
import {
  capPageUrl,
  createServerFlow,
  MAX_PAGE_URL_LENGTH,
  openState,
  type ServerFlowResult,
} from '@doorway/auth-core/server';
import { describe, expect, it } from 'vitest';
import {
  createFakeProvider,
  createFakeServerProvider,
  createManualClock,
  type FakeProvider,
  type FakeProviderOptions,
  verifyFakeSessionToken,
} from '../src/index.ts';

// A test value shaped as `openssl rand -base64 48` output.
const SECRET = '9q8MYcxYs4g4Ok1UV-J5T9zL5dlilEFsS7lpt1PQr-c';
const ORIGIN = 'https://app.example';
const LOGIN = `${ORIGIN}/login`;
// The page is https: the flow cookie has the `__Host-` prefix (issue 24).
const COOKIE = '__Host-doorway_flow';
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
      if (b.cookie === null) return null;
      return (
        (await openState(b.cookie, { secret: SECRET, purpose: COOKIE, now: clock.now() }))?.value ?? null
      );
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
    expect(done.setCookie).toMatch(/^__Host-doorway_flow=; .*Max-Age=0/);
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

  it('issue 24: a link opened with the same cookie signs nobody in by its GET; the confirmation POST does', async () => {
    const { b, link } = await requestLink();
    // The email-link session travels sealed with the state, never in the clear.
    expect(b.cookie).not.toContain('lin');
    expect(await b.sealed()).toMatchObject({
      storage: { 'doorway.emailLink': expect.stringContaining('sid-1') },
    });
    // Browsers drop a cookie over 4096 bytes (name, value and attributes together).
    expect(b.cookie?.length).toBeLessThan(3000);
    const opened = await b.get(link);
    await expectCard(b, opened, 'emailLinkConfirmation');
    expect(opened.signedIn).toBeNull();
    // Never prefilled from the cookie: whoever opens the link types the address.
    expect(opened.state).toMatchObject({ email: '' });
    expect(JSON.stringify(opened.state)).not.toContain('lin@example.com');
    expect(b.world.backend.calls.map((c) => c.method)).not.toContain('signInWithEmailLink');
    const done = await b.post({ event: 'CONFIRM_EMAIL', email: 'lin@example.com' }, link);
    await expectCard(b, done, 'signedIn');
    expect(done.signedIn?.result).toMatchObject({
      providerId: 'emailLink',
      user: { email: 'lin@example.com' },
    });
    expect(verifyFakeSessionToken(b.world, done.signedIn?.sessionToken ?? '')?.email).toBe('lin@example.com');
  });

  it('issue 24: a planted cookie holding another person’s link session signs the visitor in as nobody', async () => {
    const { b: attacker, link } = await requestLink();
    const victim = browser(LINK_ONLY, { world: attacker.world });
    victim.cookie = attacker.cookie;
    const opened = await victim.get(link);
    await expectCard(victim, opened, 'emailLinkConfirmation');
    expect(opened.signedIn).toBeNull();
    expect(opened.state).toMatchObject({ email: '' });
    // The visitor's own address does not match the link: still nobody signed in.
    const mine = await victim.post({ event: 'CONFIRM_EMAIL', email: 'victim@example.com' }, link);
    await expectCard(victim, mine, 'emailLinkConfirmation', 'email-mismatch');
    expect(mine.signedIn).toBeNull();
  });

  it('a same-device-only link: the session survives a reload, and the link still asks before signing in', async () => {
    const SAME_DEVICE: WidgetConfigInput = {
      signInOptions: [{ provider: 'email', signInMethod: 'emailLink', forceSameDevice: true }],
    };
    const b = browser(SAME_DEVICE);
    await b.get();
    await b.post({ event: 'SUBMIT_EMAIL', email: 'lin@example.com' });
    const link = b.world.backend.outbox.lastEmail('lin@example.com', 'signIn')?.link ?? '';
    await expectCard(b, await b.get(), 'emailEntry');
    await expectCard(b, await b.get(link), 'emailLinkConfirmation');
    await expectCard(b, await b.post({ event: 'CONFIRM_EMAIL', email: 'lin@example.com' }, link), 'signedIn');
    // Without that browser's session the link is refused as opened on another device.
    const other = browser(SAME_DEVICE, { world: b.world });
    await expectCard(other, await other.get(link), 'differentDeviceError');
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

/** A visitor without scripts on the password card of Ada's account, with the backend's calls cleared. */
async function atPassword() {
  const b = browser({ signInOptions: ['email'] });
  b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
  await b.get();
  await expectCard(b, await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' }), 'passwordSignIn');
  b.world.backend.clearCalls();
  return b;
}

describe('the form path: what a visitor cannot forge', () => {
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
    const forged = createServerFlow({ secret: 'h2sC1NkV21XqZ5_i8QOzuzSH-q_lQDVtueX-EhaaC4o' });
    const out = await forged.handle(
      new Request(LOGIN),
      createFakeServerProvider(b.world),
      normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    );
    intruder.cookie = /^__Host-doorway_flow=([^;]*)/.exec(out.setCookie)?.[1] ?? null;
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

  it('issue 24: refuses a secret that is not random at setup, and takes a rotation list', () => {
    expect(() => createServerFlow({ secret: 'too-short' })).toThrow(ConfigError);
    expect(() => createServerFlow({ secret: 'x'.repeat(64) })).toThrow(/`secret` must be random/);
    expect(() => createServerFlow({ secret: 'server-flow-test-secret-0123456789abcdef' })).toThrow(
      /openssl rand -base64 48/,
    );
    expect(() => createServerFlow({ secret: SECRET })).not.toThrow();
    expect(() => createServerFlow({ secret: [SECRET, 'x'.repeat(64)] })).toThrow(/`secret\[1\]`/);
  });

  it('issue 24: `__Host-doorway_flow` (Secure, Path=/) on a secure page, `doorway_flow` on plain-http localhost', async () => {
    const world = createFakeProvider();
    const config = (origin: string) => normalizeConfig({ signInOptions: ['email'] }, origin);
    const flow = createServerFlow({ secret: SECRET });
    const https = await flow.handle(new Request(LOGIN), createFakeServerProvider(world), config(ORIGIN));
    expect(https.setCookie).toMatch(
      /^__Host-doorway_flow=v2\.[\w-]+; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure$/,
    );
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      const local = await flow.handle(
        new Request(`${origin}/login`),
        createFakeServerProvider(world),
        config(origin),
      );
      expect(local.setCookie).toMatch(
        /^doorway_flow=v2\.[\w-]+; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax$/,
      );
    }
    // Any other host name is Secure, as the session cookie is, whatever the scheme a proxy forwards.
    const proxied = await flow.handle(
      new Request('http://app.internal/login'),
      createFakeServerProvider(world),
      config('http://app.internal'),
    );
    expect(proxied.setCookie).toMatch(/^__Host-doorway_flow=.*; Secure$/);
    const named = createServerFlow({ secret: SECRET, cookieName: '__Host-flow' });
    const out = await named.handle(
      new Request('http://localhost:3000/login'),
      createFakeServerProvider(world),
      config('http://localhost:3000'),
    );
    expect(out.setCookie).toMatch(/^__Host-flow=v2\..*; Secure$/);
  });
});

describe('the form path: planted and copied flow cookies (issue 24)', () => {
  function post(cookie: string, fields: Record<string, string>, url = LOGIN): Request {
    return new Request(url, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  it('two flow cookies of the name: neither is used, the POST is refused (400) and the cookie cleared', async () => {
    const b = await atPassword();
    const mine = b.cookie ?? '';
    const other = await atPassword();
    const flow = createServerFlow({ secret: SECRET, now: () => b.clock.now() });
    const config = normalizeConfig({ signInOptions: ['email'] }, ORIGIN);
    for (const cookie of [
      `${COOKIE}=${other.cookie}; ${COOKIE}=${mine}`,
      `${COOKIE}=${mine}; ${COOKIE}=${mine}`,
    ]) {
      const out = await flow.handle(
        post(cookie, { event: 'SUBMIT_PASSWORD', password: PASSWORD }),
        createFakeServerProvider(b.world),
        config,
      );
      expect(out.status).toBe(400);
      expect(out.signedIn).toBeNull();
      expect(out.state.card).toBe('emailEntry');
      expect(out.setCookie).toMatch(/^__Host-doorway_flow=; Path=\/; Max-Age=0;/);
      const get = await flow.handle(
        new Request(LOGIN, { headers: { cookie } }),
        createFakeServerProvider(b.world),
        config,
      );
      expect(get.state.card).toBe('emailEntry');
      expect(get.setCookie).toMatch(/Max-Age=0/);
    }
    expect(b.world.backend.calls.map((c) => c.method)).not.toContain('signInWithEmailAndPassword');
    // One cookie alone still works.
    await expectCard(b, await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD }), 'signedIn');
  });

  it('a cookie without the `__Host-` prefix (plantable from a sibling or plain-http origin) is not read on a secure page', async () => {
    const b = await atPassword();
    const flow = createServerFlow({ secret: SECRET, now: () => b.clock.now() });
    const out = await flow.handle(
      post(`doorway_flow=${b.cookie}`, { event: 'SUBMIT_PASSWORD', password: PASSWORD }),
      createFakeServerProvider(b.world),
      normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    );
    expect(out.state.card).toBe('emailEntry');
    expect(out.signedIn).toBeNull();
  });

  it('bound to its cookie name: a value sealed as `doorway_flow` does not open as `__Host-doorway_flow`', async () => {
    const local = 'http://localhost:3000';
    const config = normalizeConfig({ signInOptions: ['email'] }, local);
    const world = createFakeProvider();
    world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    const flow = createServerFlow({ secret: SECRET });
    const first = await flow.handle(new Request(`${local}/login`), createFakeServerProvider(world), config);
    const plain = /^doorway_flow=([^;]*)/.exec(first.setCookie)?.[1] ?? '';
    const next = await flow.handle(
      post(`doorway_flow=${plain}`, { event: 'SUBMIT_EMAIL', email: 'ada@example.com' }, `${local}/login`),
      createFakeServerProvider(world),
      config,
    );
    expect(next.state.card).toBe('passwordSignIn');
    const moved = await flow.handle(
      post(`__Host-doorway_flow=${plain}`, { event: 'SUBMIT_EMAIL', email: 'ada@example.com' }),
      createFakeServerProvider(world),
      normalizeConfig({ signInOptions: ['email'] }, ORIGIN),
    );
    expect(moved.state.card).toBe('emailEntry');
  });

  it('a copy of a flow cookie stops working an hour after the flow began, however often it was re-sealed', async () => {
    const b = await atPassword();
    const copy = b.cookie;
    // The visitor keeps the flow going: each answer re-seals it, keeping its start and counting down.
    for (let i = 0; i < 5; i++) {
      b.clock.advance(10 * 60 * 1000);
      const out = await b.post({ event: 'SUBMIT_PASSWORD', password: 'not-it-1' });
      await expectCard(b, out, 'passwordSignIn', 'wrong-password');
      expect(out.setCookie).toContain(`Max-Age=${3600 - (i + 1) * 600}`);
    }
    const latest = b.cookie;
    b.clock.advance(10 * 60 * 1000 - 1);
    await expectCard(
      b,
      await b.post({ event: 'SUBMIT_PASSWORD', password: 'not-it-1' }),
      'passwordSignIn',
      'wrong-password',
    );
    b.clock.advance(1);
    for (const cookie of [copy, latest, b.cookie]) {
      b.cookie = cookie;
      const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
      await expectCard(b, out, 'emailEntry');
      expect(out.signedIn).toBeNull();
    }
  });

  it('a 3 kB query of unknown parameters: dropped, the cookie fits, the sign-in works', async () => {
    const b = browser({ signInOptions: ['email'] });
    b.world.backend.createUser({ email: 'ada@example.com', password: PASSWORD });
    const junk = Array.from({ length: 60 }, (_, i) => `utm_${i}=${'x'.repeat(45)}`).join('&');
    const page = `${LOGIN}?${junk}&signInSuccessUrl=%2Faccount`;
    expect(page.length).toBeGreaterThan(3000);
    const first = await b.get(page);
    await expectCard(b, first, 'emailEntry');
    expect(first.state.pageUrl).toBe(`${LOGIN}?signInSuccessUrl=%2Faccount`);
    await b.post({ event: 'SUBMIT_EMAIL', email: 'ada@example.com' }, page);
    expect(`${COOKIE}=${b.cookie}`.length).toBeLessThanOrEqual(4096);
    const done = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD }, page);
    await expectCard(b, done, 'signedIn');
    expect(done.redirect).toBe(`${ORIGIN}/account`);
  });

  it('what the cookie holds stays under 4 kB even when the kept parameters are long', async () => {
    const b = browser({ signInOptions: [{ provider: 'email', signInMethod: 'emailLink' }] });
    const long = encodeURIComponent(`/account?${'y'.repeat(3000)}`);
    const page = `${LOGIN}?signInSuccessUrl=${long}&tenantId=${'t'.repeat(900)}&lang=${'l'.repeat(900)}`;
    const first = await b.get(page);
    expect(first.state.pageUrl.length).toBeLessThanOrEqual(MAX_PAGE_URL_LENGTH);
    const email = `${'e'.repeat(300)}@example.com`;
    await b.post({ event: 'SUBMIT_EMAIL', email }, page);
    expect(b.cookie).not.toBeNull();
    expect(`${COOKIE}=${b.cookie}`.length).toBeLessThanOrEqual(4096);
    expect(capPageUrl(`${LOGIN}?a=1&mode=signIn&b=2#frag`, new Set())).toBe(`${LOGIN}?mode=signIn`);
    expect(capPageUrl(`${LOGIN}?token_hash=abc&type=magiclink`, new Set(['token_hash', 'type']))).toBe(
      `${LOGIN}?token_hash=abc&type=magiclink`,
    );
  });
});
