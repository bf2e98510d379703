/**
 * Issue 24: the aal1 session of a sign-in that waits for its second factor on the form path. The server flow
 * runner of `@doorway/auth-core/server` on the Supabase form provider, against the GoTrue TEST DOUBLE, driven
 * as a browser without JavaScript drives it: the challenge keeps no refresh token, the state handed to the
 * page holds no token at all, the sealed cookie (opened with the secret) only the aal1 access token the next
 * POST needs; the code finishes on the server, Cancel signs the aal1 session out at GoTrue.
 */
import { normalizeConfig, type SecondFactorChallenge, type WidgetConfigInput } from '@doorway/auth-core';
import { createServerFlow, openState, type ServerFlowResult } from '@doorway/auth-core/server';
import { createGoTrueDouble, type GoTrueDouble } from '@doorway/gotrue-double';
import { expectAuthError } from '@doorway/testing';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createSupabaseProvider } from '../src/index.ts';
import { createSupabaseServer } from '../src/server.ts';

/** A sealing secret as the host's must be: 32 random bytes, base64url. */
const SEAL = 'qDbxJxxtRM3UWDwwFAnvvfHsJ61hupEK90VTU8magn4';
const ORIGIN = 'http://localhost';
const LOGIN = `${ORIGIN}/login`;
const PASSWORD = 'Secret-123';
const CONFIG: WidgetConfigInput = { signInOptions: ['email'] };
/** Anything shaped like a JWT (an access token): three base64url parts, the first two JSON objects. */
const JWT = /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/;

/** The tokens GoTrue handed out, read off its answers as they pass (the double keeps them to itself). */
interface Issued {
  access: string[];
  refresh: string[];
}

/** The double, with a fetch that records every session GoTrue answers with. */
function world() {
  const double = createGoTrueDouble({ mailerAutoconfirm: true });
  const issued: Issued = { access: [], refresh: [] };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await double.fetch(input, init);
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    if (typeof body === 'object' && body !== null) {
      const { access_token: access, refresh_token: refresh } = body as Record<string, unknown>;
      if (typeof access === 'string') issued.access.push(access);
      if (typeof refresh === 'string') issued.refresh.push(refresh);
    }
    return response;
  };
  const server = createSupabaseServer({ url: double.projectUrl, anonKey: double.anonKey, fetch });
  return { double, server, issued };
}

const totp = (double: GoTrueDouble, secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: double.clock.now() });

/** A password account with a verified authenticator app, made on a form provider: its email and secret. */
async function accountWithTotp(w: ReturnType<typeof world>) {
  const provider = w.server.formProvider();
  const address = `secrets-${Math.random().toString(36).slice(2)}@example.com`;
  await provider.createUser(address, PASSWORD);
  const ops = provider.secondFactors;
  if (!ops) throw new Error('the form provider offers second factors');
  const { enrollmentId, secret } = await ops.startTotpEnrollment();
  await ops.finishTotpEnrollment(enrollmentId, totp(w.double, secret));
  return { address, secret };
}

/** A browser without JavaScript on the form path: each request a new form provider, the cookie kept. */
function browser(w: ReturnType<typeof world>) {
  const flow = createServerFlow({ secret: SEAL });
  const config = normalizeConfig(CONFIG, ORIGIN);
  // The flow cookie as the server set it last (its name says whether it is `__Host-` prefixed).
  let cookie: { name: string; value: string } | null = null;
  const send = async (request: Request): Promise<ServerFlowResult> => {
    const out = await flow.handle(request, w.server.formProvider(), config);
    const match = /^([^=;]+)=([^;]*);.*Max-Age=(\d+)/.exec(out.setCookie);
    cookie = match?.[3] === '0' || !match ? null : { name: match[1] ?? '', value: match[2] ?? '' };
    return out;
  };
  return {
    get: () => send(new Request(LOGIN)),
    post: (fields: Record<string, string>) =>
      send(
        new Request(LOGIN, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(cookie === null ? {} : { cookie: `${cookie.name}=${cookie.value}` }),
          },
          body: new URLSearchParams(fields).toString(),
        }),
      ),
    /** The sealed state, opened as the server opens it (sealed for the cookie's name). */
    sealed: async () =>
      cookie === null
        ? null
        : ((await openState(cookie.value, { secret: SEAL, purpose: cookie.name, now: Date.now() }))?.value ??
          null),
  };
}

/** Email and password posted for `address`: the second-factor card the server rendered. */
async function toChallenge(b: ReturnType<typeof browser>, address: string): Promise<ServerFlowResult> {
  await b.get();
  await b.post({ event: 'CHOOSE_PROVIDER', providerId: 'email' });
  await b.post({ event: 'SUBMIT_EMAIL', email: address });
  const out = await b.post({ event: 'SUBMIT_PASSWORD', password: PASSWORD });
  expect(out.state.card).toBe('secondFactorCode');
  expect(out.signedIn).toBeNull();
  return out;
}

const challengeOf = (value: unknown): SecondFactorChallenge =>
  (value as { state: { challenge: SecondFactorChallenge } }).state.challenge;

describe('the aal1 session of a form sign-in waiting for its second factor (issue 24)', () => {
  it('the form provider’s challenge keeps the aal1 access token for the server, and no refresh token', async () => {
    const w = world();
    const { address } = await accountWithTotp(w);
    const provider = w.server.formProvider();
    const error = await expectAuthError(
      provider.signInWithEmailAndPassword(address, PASSWORD),
      'second-factor-required',
    );
    const aal1 = w.issued.access.at(-1) ?? '';
    const refresh = w.issued.refresh.at(-1) ?? '';
    expect(refresh).not.toBe('');
    const text = JSON.stringify(error.challenge);
    expect(text).not.toContain(refresh);
    expect(text).not.toMatch(/refresh/i);
    // The token lives in `serverSession` only, which the runner seals and leaves out of the page.
    expect(error.challenge?.serverSession).toEqual({ kind: 'supabase-aal1', accessToken: aal1 });
    expect(JSON.stringify(error.challenge?.session)).not.toMatch(JWT);
  });

  it('the rendered state holds no access or refresh token; the sealed cookie only the access token; the code finishes on the server', async () => {
    const w = world();
    const { address, secret } = await accountWithTotp(w);
    const b = browser(w);
    const out = await toChallenge(b, address);
    const aal1 = w.issued.access.at(-1) ?? '';
    const refresh = w.issued.refresh.at(-1) ?? '';
    const page = JSON.stringify(out.state);
    expect(page).not.toContain(aal1);
    expect(page).not.toContain(refresh);
    expect(page).not.toMatch(JWT);
    expect(challengeOf(out).serverSession).toBeNull();
    expect(challengeOf(out).factors).toHaveLength(1);

    const sealed = JSON.stringify(await b.sealed());
    expect(sealed).not.toContain(refresh);
    expect(sealed).not.toMatch(/refresh/i);
    expect(challengeOf(await b.sealed()).serverSession).toEqual({ kind: 'supabase-aal1', accessToken: aal1 });

    // A wrong code keeps the card (and still nothing in the page); the right one signs in at aal2.
    const wrong = await b.post({ event: 'SUBMIT_SECOND_FACTOR_CODE', code: '000000' });
    expect({ card: wrong.state.card, error: wrong.state.error }).toEqual({
      card: 'secondFactorCode',
      error: 'invalid-verification-code',
    });
    expect(JSON.stringify(wrong.state)).not.toMatch(JWT);
    const done = await b.post({ event: 'SUBMIT_SECOND_FACTOR_CODE', code: totp(w.double, secret) });
    expect(done.signedIn?.result).toMatchObject({ providerId: 'password', isNewUser: false });
    expect(await w.server.verifySession(done.signedIn?.sessionToken ?? null)).not.toBeNull();
  });

  it('the page’s copy of the challenge gives the browser nothing to take over (code-expired)', async () => {
    const w = world();
    const { address } = await accountWithTotp(w);
    const out = await toChallenge(browser(w), address);
    const shown = challengeOf(out);
    const [factor] = shown.factors;
    const client = createSupabaseProvider(
      { url: w.double.projectUrl, anonKey: w.double.anonKey, auth: { fetch: w.double.fetch } },
      {},
    );
    const ops = client.secondFactors;
    if (!ops || !factor) throw new Error('a factor, and the browser provider’s second factors');
    await expectAuthError(ops.startSignIn(shown, factor.uid), 'code-expired');
    await expectAuthError(ops.finishSignIn(shown, `mfa:${factor.uid}:any`, '123456'), 'code-expired');
    // Nothing reached GoTrue from the browser, and nobody is signed in there.
    expect(client.getCurrentUser()).toBeNull();
    client.dispose();
  });

  it('Cancel signs the aal1 session out at GoTrue (POST /logout, scope local)', async () => {
    const w = world();
    const { address } = await accountWithTotp(w);
    const b = browser(w);
    await toChallenge(b, address);
    const aal1 = w.issued.access.at(-1) ?? '';
    const refresh = w.issued.refresh.at(-1) ?? '';
    const logouts = () => w.double.requests.filter((r) => r.method === 'POST' && r.path === '/logout').length;
    const before = logouts();
    const out = await b.post({ event: 'CANCEL' });
    expect(out.state.card).not.toMatch(/^secondFactor/);
    expect(logouts()).toBe(before + 1);
    const user = await w.double.fetch(`${w.double.authUrl}/user`, {
      headers: {
        apikey: w.double.anonKey,
        authorization: `Bearer ${aal1}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(((await user.json()) as { code: string }).code).toBe('session_not_found');
    // The refresh token the server never passed on is dead with its session too.
    const refreshed = await w.double.fetch(`${w.double.authUrl}/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: w.double.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refresh }),
    });
    expect(refreshed.ok).toBe(false);
  });
});
