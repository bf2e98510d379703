/**
 * A password reset of an account with a verified second factor, against the GoTrue double (which, as
 * GoTrue does, changes such an account's password only at aal2, and a recovery session is at aal1): the new
 * password waits for the second factor of the recovery session, then is set and signs the person in.
 */
import {
  createFlow,
  createMemoryStorage,
  type Flow,
  normalizeConfig,
  type SecondFactorChallenge,
} from '@doorway/auth-core';
import { createServerFlow, type ServerFlowResult } from '@doorway/auth-core/server';
import type { GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { Secret, TOTP } from 'otpauth';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatActionCode, type SupabaseProvider } from '../src/index.ts';
import { createSupabaseServer } from '../src/server.ts';
import { createSupabaseHarness, type SupabaseHarness, server } from './harness.ts';

afterAll(() => server.close());

const PASSWORD = 'Secret-123';
const NEW_PASSWORD = 'Brand-New-456';
let n = 0;
const email = () => `reset-mfa-${++n}@example.com`;

const totpCode = (double: GoTrueDouble, secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() });

function factorsOf(provider: Pick<SupabaseProvider, 'secondFactors'>) {
  const ops = provider.secondFactors;
  if (!ops) throw new Error('secondFactors missing');
  return ops;
}

/** A password account with a verified TOTP factor, signed out, and the recovery link mailed to it. */
async function resetLinkWithTotp(h: SupabaseHarness) {
  const address = email();
  const { user } = await h.provider.createUser(address, PASSWORD);
  const ops = factorsOf(h.provider);
  const { enrollmentId, secret } = await ops.startTotpEnrollment();
  const factor = await ops.finishTotpEnrollment(enrollmentId, totpCode(h.double, secret));
  await h.provider.signOut();
  await h.provider.sendPasswordResetEmail(address);
  const link = h.double.outbox.lastEmail(address, 'recovery')?.link ?? '';
  const code = new URL(link).searchParams.get('oobCode') ?? '';
  return { address, uid: user.uid, factor, secret, link, code };
}

/**
 * `password` opens the account (its sign-in asks for the second factor) and `old` does not: tried from
 * another browser, so that the sessions of this one are left alone.
 */
async function expectPassword(h: SupabaseHarness, address: string, password: string, old?: string) {
  const other = createSupabaseHarness({ on: h.double });
  await expectAuthError(
    other.provider.signInWithEmailAndPassword(address, password),
    'second-factor-required',
  );
  if (old !== undefined) {
    await expectAuthError(other.provider.signInWithEmailAndPassword(address, old), 'wrong-password');
  }
}

describe('browser provider: a password reset with a second factor', () => {
  it('confirmPasswordReset - should reject second-factor-required with the recovery session challenge, and set the password once the factor is verified', async () => {
    const h = createSupabaseHarness();
    const { address, uid, factor, secret, code } = await resetLinkWithTotp(h);
    await expect(h.provider.verifyPasswordResetCode(code)).resolves.toBe(address);
    // The recovery session is at aal1: nobody is signed in while it waits for the second factor.
    expect(h.provider.getCurrentUser()).toBeNull();
    const error = await expectAuthError(
      h.provider.confirmPasswordReset(code, NEW_PASSWORD),
      'second-factor-required',
    );
    expect(h.provider.getCurrentUser()).toBeNull();
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    expect(challenge.factors).toEqual([expect.objectContaining({ uid: factor.uid, kind: 'totp' })]);
    // Not changed yet.
    await expectPassword(h, address, PASSWORD, NEW_PASSWORD);

    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    await expectAuthError(ops.finishSignIn(challenge, verificationId, '000000'), 'invalid-verification-code');
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret));
    expect(result).toMatchObject({ user: { uid, email: address }, providerId: 'password' });
    expect(h.provider.getCurrentUser()?.uid).toBe(uid);

    await expectPassword(h, address, NEW_PASSWORD, PASSWORD);
    // The code was used up with the reset.
    await expectAuthError(h.provider.confirmPasswordReset(code, 'Third-Secret-789'), 'invalid-action-code');
  });

  it('cancelSignIn - should drop a reset waiting for its second factor and leave the password as it was', async () => {
    const h = createSupabaseHarness();
    const { address, code } = await resetLinkWithTotp(h);
    const error = await expectAuthError(
      h.provider.confirmPasswordReset(code, NEW_PASSWORD),
      'second-factor-required',
    );
    if (!error.challenge) throw new Error('no challenge');
    await factorsOf(h.provider).cancelSignIn(error.challenge);
    expect(h.provider.getCurrentUser()).toBeNull();
    await expectPassword(h, address, PASSWORD, NEW_PASSWORD);
    await expectAuthError(h.provider.confirmPasswordReset(code, NEW_PASSWORD), 'invalid-action-code');
  });

  it('finishSignIn - should reject weak-password and leave nobody signed in when GoTrue refuses the waiting password only then', async () => {
    const h = createSupabaseHarness();
    const { address, factor, secret, code } = await resetLinkWithTotp(h);
    const error = await expectAuthError(
      h.provider.confirmPasswordReset(code, NEW_PASSWORD),
      'second-factor-required',
    );
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    const ops = factorsOf(h.provider);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    h.double.faults.failNext('PUT /user', { status: 422, code: 'weak_password', message: 'too weak' });
    await expectAuthError(
      ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret)),
      'weak-password',
    );
    expect(h.provider.getCurrentUser()).toBeNull();
    await expectPassword(h, address, PASSWORD, NEW_PASSWORD);
    await expectAuthError(h.provider.confirmPasswordReset(code, NEW_PASSWORD), 'invalid-action-code');
  });
});

function widget(provider: SupabaseProvider, url: string): Flow {
  return createFlow({
    provider,
    config: normalizeConfig(
      { displayMode: 'identifierFirst', signInOptions: [{ provider: 'email' }] },
      'http://localhost',
    ),
    url,
    storage: createMemoryStorage(),
    createId: () => `sid-${++n}`,
    navigate: () => {},
  });
}

async function card(flow: Flow, name: string): Promise<void> {
  await vi.waitFor(() => expect(flow.getSnapshot().card).toBe(name), { timeout: 3000 });
}

describe('widget: the reset link of an account with a second factor', () => {
  it('passwordReset - should ask for the authenticator code after the new password, then sign in with it', async () => {
    const h = createSupabaseHarness();
    const { address, uid, secret, link } = await resetLinkWithTotp(h);
    const flow = widget(h.provider, link);
    await card(flow, 'passwordReset');
    flow.send({ type: 'SUBMIT_NEW_PASSWORD', password: NEW_PASSWORD });
    // The only factor is an authenticator app: its check opens at once.
    await card(flow, 'secondFactorCode');
    expect(flow.getSnapshot().error ?? null).toBeNull();
    flow.send({ type: 'SUBMIT_SECOND_FACTOR_CODE', code: totpCode(h.double, secret) });
    await card(flow, 'signedIn');
    expect(h.provider.getCurrentUser()?.uid).toBe(uid);
    flow.dispose();
    await expectPassword(h, address, NEW_PASSWORD, PASSWORD);
  });
});

describe('server: a reset link of an account with a second factor, over the form provider', () => {
  it('confirmPasswordReset - should reject second-factor-required with a server challenge, and a later request sets the password with the TOTP code', async () => {
    const h = createSupabaseHarness();
    const { address, uid, factor, secret } = await resetLinkWithTotp(h);
    const server = createSupabaseServer({
      url: h.double.projectUrl,
      anonKey: h.double.anonKey,
      fetch: h.double.fetch,
    });
    const link = h.double.admin.generateLink({ type: 'recovery', email: address });
    const code = formatActionCode('recovery', link.hashed_token);
    await expect(server.formProvider().verifyPasswordResetCode(code)).resolves.toBe(address);

    const first = server.formProvider();
    const error = await expectAuthError(
      first.confirmPasswordReset(code, NEW_PASSWORD),
      'second-factor-required',
    );
    expect(first.sessionToken()).toBeNull();
    // The flow seals the challenge in its state; the next request takes it from there.
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    expect(challenge.factors).toEqual([expect.objectContaining({ uid: factor.uid, kind: 'totp' })]);
    expect(challenge.serverSession).toBeDefined();
    await expectPassword(h, address, PASSWORD, NEW_PASSWORD);

    const second = server.formProvider();
    const ops = factorsOf(second);
    const { verificationId } = await ops.startSignIn(challenge, factor.uid);
    await expectAuthError(ops.finishSignIn(challenge, verificationId, '000000'), 'invalid-verification-code');
    const result = await ops.finishSignIn(challenge, verificationId, totpCode(h.double, secret));
    expect(result).toMatchObject({ providerId: 'password', user: { uid, email: address } });
    const session = await server.verifySession(second.sessionToken());
    expect(session?.session.uid).toBe(uid);

    await expectPassword(h, address, NEW_PASSWORD, PASSWORD);
    await expectAuthError(
      server.formProvider().confirmPasswordReset(code, 'Third-Secret-789'),
      'invalid-action-code',
    );
  });

  it('cancelSignIn - should leave the password as it was when the reset waiting for its second factor is cancelled', async () => {
    const h = createSupabaseHarness();
    const { address, factor } = await resetLinkWithTotp(h);
    const server = createSupabaseServer({
      url: h.double.projectUrl,
      anonKey: h.double.anonKey,
      fetch: h.double.fetch,
    });
    const code = formatActionCode(
      'recovery',
      h.double.admin.generateLink({ type: 'recovery', email: address }).hashed_token,
    );
    const error = await expectAuthError(
      server.formProvider().confirmPasswordReset(code, NEW_PASSWORD),
      'second-factor-required',
    );
    const challenge = JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
    await factorsOf(server.formProvider()).cancelSignIn(challenge);
    // The recovery session ended with the cancel: its challenge cannot be finished any more.
    await expectAuthError(
      factorsOf(server.formProvider()).startSignIn(challenge, factor.uid),
      'code-expired',
    );
    await expectPassword(h, address, PASSWORD, NEW_PASSWORD);
    await expectAuthError(
      server.formProvider().confirmPasswordReset(code, NEW_PASSWORD),
      'invalid-action-code',
    );
  });
});

/** A browser without JavaScript on the form path: each request a new form provider, the flow cookie kept. */
function formBrowser(server: ReturnType<typeof createSupabaseServer>) {
  const flow = createServerFlow({ secret: 'qDbxJxxtRM3UWDwwFAnvvfHsJ61hupEK90VTU8magn4' });
  const config = normalizeConfig({ signInOptions: ['email'] }, 'http://localhost');
  let cookie: string | null = null;
  const cookies: string[] = [];
  const send = async (request: Request): Promise<ServerFlowResult> => {
    const out = await flow.handle(request, server.formProvider(), config);
    const match = /^([^=;]+=[^;]*);.*Max-Age=(\d+)/.exec(out.setCookie);
    cookie = match?.[2] === '0' || !match ? null : (match[1] ?? null);
    if (cookie !== null) cookies.push(cookie);
    return out;
  };
  return {
    cookies,
    get: (url: string) => send(new Request(url)),
    post: (url: string, fields: Record<string, string>) =>
      send(
        new Request(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(cookie === null ? {} : { cookie }),
          },
          body: new URLSearchParams(fields).toString(),
        }),
      ),
  };
}

describe('form path: the reset link of an account with a second factor, without JavaScript', () => {
  it('passwordReset - should ask for the authenticator code after the new password, then sign in with it', async () => {
    const h = createSupabaseHarness();
    const { address, uid, secret } = await resetLinkWithTotp(h);
    const server = createSupabaseServer({
      url: h.double.projectUrl,
      anonKey: h.double.anonKey,
      fetch: h.double.fetch,
    });
    const code = formatActionCode(
      'recovery',
      h.double.admin.generateLink({ type: 'recovery', email: address }).hashed_token,
    );
    const url = `http://localhost/login?mode=resetPassword&oobCode=${encodeURIComponent(code)}`;
    const b = formBrowser(server);
    expect((await b.get(url)).state.card).toBe('passwordReset');
    const asked = await b.post(url, { event: 'SUBMIT_NEW_PASSWORD', password: NEW_PASSWORD });
    expect(asked.state.card).toBe('secondFactorCode');
    expect(asked.signedIn).toBeNull();
    // The waiting password stays in the server's memory: not in the page's state, not in the flow cookie.
    expect(JSON.stringify(asked.state)).not.toContain(NEW_PASSWORD);
    expect(b.cookies.join(' ')).not.toContain(NEW_PASSWORD);
    const done = await b.post(url, { event: 'SUBMIT_SECOND_FACTOR_CODE', code: totpCode(h.double, secret) });
    expect(done.state.card).toBe('signedIn');
    expect(done.signedIn?.result.user.uid).toBe(uid);
    // The host's session is the aal2 one the code gave.
    expect((await server.verifySession(done.signedIn?.sessionToken ?? null))?.session.uid).toBe(uid);
    await expectPassword(h, address, NEW_PASSWORD, PASSWORD);
  });
});
