/**
 * What the host adds to the form path's provider (`app/services.server.ts`, `app/enumeration.ts`):
 * emailed URLs on the public origin whatever `Host` a request names, and its own email enumeration
 * protection when the provider's is off (issue 24, items 5 and 6).
 */
import { createFakeProvider, createFakeServerProvider, type FakeProvider } from '@doorway/adapter-fake';
import { type ActionLinkSettings, AuthError, type AuthProvider } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { describe, expect, it } from 'vitest';
import { type HostConfig, parseHostConfig } from '../app/config.server.ts';
import { withEnumerationProtection } from '../app/enumeration.ts';
import { type LoginView, runFormPath } from '../app/form-path.server.ts';
import { emailOrigin, hostFormProvider, onOrigin, withLinksOn } from '../app/services.server.ts';
import { fakeSessions, request } from './fakes.ts';

const at = (base: string) => request('/login', { base });

describe('emailOrigin (issue 24)', () => {
  const dev = { publicOrigin: null, port: 3000 };

  it('is the configured public origin, whatever the request says', () => {
    const configured = { publicOrigin: 'https://app.example', port: 3000 };
    for (const base of ['http://evil.example:3000', 'http://127.0.0.1:3000', 'https://app.example']) {
      expect(emailOrigin(at(base), configured)).toBe('https://app.example');
    }
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:4000', 'http://[::1]:3000'])(
    'without one, keeps a loopback request origin %s',
    (base) => {
      expect(emailOrigin(at(base), dev)).toBe(new URL(base).origin);
    },
  );

  it.each([
    'http://evil.example:3000',
    'https://evil.example',
    'http://127.0.0.1.evil.example',
    'http://localhost.evil.example:3000',
    'http://10.0.0.5:3000',
  ])('without one, sends any other request origin (%s) to http://localhost:<PORT>', (base) => {
    expect(emailOrigin(at(base), dev)).toBe('http://localhost:3000');
    expect(emailOrigin(at(base), { publicOrigin: null, port: 8080 })).toBe('http://localhost:8080');
  });
});

describe('onOrigin', () => {
  it('moves a URL of the origin, keeping its path, query and fragment', () => {
    expect(
      onOrigin(
        'http://evil.example:3000/action?doorway_sid=1&x=%2F#f',
        'http://evil.example:3000',
        'https://app.example',
      ),
    ).toBe('https://app.example/action?doorway_sid=1&x=%2F#f');
  });

  it('leaves URLs of other origins and non-URLs as they are', () => {
    const from = 'http://evil.example:3000';
    expect(onOrigin('https://other.example/x', from, 'https://app.example')).toBe('https://other.example/x');
    expect(onOrigin('/login', from, 'https://app.example')).toBe('/login');
    expect(onOrigin('', from, 'https://app.example')).toBe('');
    expect(onOrigin('http://evil.example:3000/x', from, from)).toBe('http://evil.example:3000/x');
  });
});

type Sender = Pick<AuthProvider, 'sendSignInLinkToEmail' | 'sendPasswordResetEmail'>;

/** A provider that records the link settings it is given. */
function recorder(): Sender & { sent: (ActionLinkSettings | undefined)[] } {
  const sent: (ActionLinkSettings | undefined)[] = [];
  return {
    sent,
    async sendSignInLinkToEmail(_email, settings) {
      sent.push(settings);
    },
    async sendPasswordResetEmail(_email, settings) {
      sent.push(settings);
    },
  };
}

describe('withLinksOn (issue 24)', () => {
  it('moves the continue URLs the request produced to the public origin, the rest as given', async () => {
    const base = recorder();
    const provider = withLinksOn(base, 'http://evil.example:3000', 'https://app.example');
    await provider.sendSignInLinkToEmail('ada@example.com', {
      url: 'http://evil.example:3000/action?doorway_sid=abc',
      handleCodeInApp: true,
    });
    await provider.sendPasswordResetEmail('ada@example.com', { url: 'http://evil.example:3000/login' });
    await provider.sendPasswordResetEmail('ada@example.com', { url: 'https://admin.example/login' });
    await provider.sendPasswordResetEmail('ada@example.com');
    expect(base.sent).toEqual([
      { url: 'https://app.example/action?doorway_sid=abc', handleCodeInApp: true },
      { url: 'https://app.example/login' },
      { url: 'https://admin.example/login' },
      undefined,
    ]);
  });
});

describe('withEnumerationProtection (issue 24)', () => {
  function failing(code: ConstructorParameters<typeof AuthError>[0]) {
    const calls: string[] = [];
    const provider: Pick<AuthProvider, 'signInWithEmailAndPassword' | 'sendPasswordResetEmail'> = {
      async signInWithEmailAndPassword(email) {
        calls.push(`signIn ${email}`);
        throw new AuthError(code);
      },
      async sendPasswordResetEmail(email) {
        calls.push(`reset ${email}`);
        throw new AuthError(code);
      },
    };
    return { calls, provider: withEnumerationProtection(provider) };
  }

  it('answers a password sign-in for an unknown address as a wrong password', async () => {
    const { calls, provider } = failing('user-not-found');
    await expect(provider.signInWithEmailAndPassword('nobody@example.com', 'x')).rejects.toMatchObject({
      code: 'wrong-password',
    });
    expect(calls).toEqual(['signIn nobody@example.com']);
  });

  it('resolves a reset email to an unknown address (the provider was still asked)', async () => {
    const { calls, provider } = failing('user-not-found');
    await expect(provider.sendPasswordResetEmail('nobody@example.com')).resolves.toBeUndefined();
    expect(calls).toEqual(['reset nobody@example.com']);
  });

  it.each([
    'wrong-password',
    'too-many-requests',
    'network-request-failed',
    'user-disabled',
    'invalid-email',
  ] as const)('passes %s on unchanged', async (code) => {
    const { provider } = failing(code);
    await expect(provider.signInWithEmailAndPassword('a@example.com', 'x')).rejects.toMatchObject({ code });
    await expect(provider.sendPasswordResetEmail('a@example.com')).rejects.toMatchObject({ code });
  });
});

/**
 * The fake's server provider as the Firebase form provider is on a project whose own protection is off
 * but declared on to the host: no reliable lookup, and "no such account" answers.
 */
function unprotected(world: FakeProvider): ServerAuthProvider {
  const provider = createFakeServerProvider(world);
  return { ...provider, capabilities: { ...provider.capabilities, reliableSignInMethodLookup: false } };
}

/** A browser without JavaScript at `base`, on the host's wrapped form provider over the fake. */
function browserAt(base: string, config: HostConfig, world = createFakeProvider()) {
  const jar = new Map<string, string>();
  const deps = {
    config,
    provider: (req: Request) => hostFormProvider(unprotected(world), req, config),
    sessions: () => fakeSessions(),
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function send(req: Request): Promise<LoginView> {
    const out = await runFormPath(req, deps);
    if (out instanceof Response) throw new Error(`expected a page, got ${out.status}`);
    for (const line of out.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return out.view;
  }
  const post = (fields: Record<string, string>) =>
    send(
      request('/login', {
        base,
        method: 'POST',
        origin: new URL(base).origin,
        headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  return { world, get: () => send(request('/login', { base, headers: { cookie: cookie() } })), post };
}

/** Walks to the recovery card of `email` and sends the reset email. */
async function recover(b: ReturnType<typeof browserAt>, email: string): Promise<LoginView> {
  await b.get();
  await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
  await b.post({ event: 'SUBMIT_EMAIL', email });
  await b.post({ event: 'GO_TO_RECOVERY' });
  return b.post({ event: 'SUBMIT_RECOVERY', email });
}

describe('the form path behind a forged Host (issue 24)', () => {
  it('a recovery asked for with Host: evil.example:3000 emails a link to http://localhost:<PORT>', async () => {
    const config = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email' });
    const b = browserAt('http://evil.example:3000', config);
    b.world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    expect((await recover(b, 'ada@example.com')).state.card).toBe('recoveryEmailSent');
    const mail = b.world.backend.outbox.lastEmail('ada@example.com', 'resetPassword');
    expect(mail?.link).toMatch(/^http:\/\/localhost:3000\/login\?/);
    expect(mail?.link).not.toContain('evil.example');
  });

  it('with DOORWAY_PUBLIC_ORIGIN, every emailed link is on it (reset and email-link sign-in)', async () => {
    const config = parseHostConfig({
      DOORWAY_SIGN_IN_OPTIONS: 'email',
      DOORWAY_PUBLIC_ORIGIN: 'https://app.example',
    });
    const b = browserAt('http://evil.example:3000', config);
    b.world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    await recover(b, 'ada@example.com');
    expect(b.world.backend.outbox.lastEmail('ada@example.com', 'resetPassword')?.link).toMatch(
      /^https:\/\/app\.example\/login\?/,
    );

    const linkConfig = parseHostConfig({
      DOORWAY_SIGN_IN_OPTIONS: 'emailLink',
      DOORWAY_PUBLIC_ORIGIN: 'https://app.example',
    });
    const l = browserAt('http://evil.example:3000', linkConfig);
    await l.get();
    expect((await l.post({ event: 'SUBMIT_EMAIL', email: 'bo@example.com' })).state.card).toBe(
      'emailLinkSent',
    );
    expect(l.world.backend.outbox.lastEmail('bo@example.com', 'signIn')?.link).toMatch(
      /^https:\/\/app\.example\/action\?/,
    );
  });
});

describe('enumeration protection on the form path (issue 24)', () => {
  const config = parseHostConfig({
    DOORWAY_SIGN_IN_OPTIONS: 'email',
    DOORWAY_EMAIL_ENUMERATION_PROTECTION: 'true',
  });

  it('a wrong password for an unknown address reads as one for a known address', async () => {
    const b = browserAt('http://127.0.0.1:3000', config);
    b.world.backend.createUser({ email: 'ada@example.com', password: 'secret123' });
    const views: LoginView[] = [];
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      await b.get();
      await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
      const card = await b.post({ event: 'SUBMIT_EMAIL', email });
      expect(card.state).toMatchObject({ card: 'passwordSignIn', email });
      views.push(await b.post({ event: 'SUBMIT_PASSWORD', password: 'not-the-password' }));
    }
    const [known, unknown] = views.map((v) => ({ card: v.state.card, error: v.state.error }));
    expect(known).toEqual({ card: 'passwordSignIn', error: 'wrong-password' });
    expect(unknown).toEqual(known);
  });

  it('recovery says the email was sent for an unknown address too (and sends nothing)', async () => {
    const b = browserAt('http://127.0.0.1:3000', config);
    const view = await recover(b, 'nobody@example.com');
    expect(view.state).toMatchObject({ card: 'recoveryEmailSent', email: 'nobody@example.com' });
    expect(b.world.backend.outbox.lastEmail('nobody@example.com')).toBeNull();
  });

  it('without the flag, the provider’s own answers stand (the emulator’s default)', async () => {
    const off = parseHostConfig({ DOORWAY_SIGN_IN_OPTIONS: 'email' });
    const b = browserAt('http://127.0.0.1:3000', off);
    const view = await recover(b, 'nobody@example.com');
    expect(view.state).toMatchObject({ card: 'passwordRecovery', error: 'user-not-found' });
  });
});
