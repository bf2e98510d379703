// Second factors without the emulator, which refuses TOTP: the browser provider (the real SDK, only the
// network answered by a small fake Identity Toolkit) and the form provider (REST) meet the same answers,
// and must send the same multi-factor requests and reach the same results and catalogue codes.
import type {
  AuthError,
  AuthProvider,
  SecondFactorChallenge,
  SecondFactorInfo,
  SignInResult,
} from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFirebaseProvider } from '../src/index.ts';
import { createFirebaseFormProvider } from '../src/server/form.ts';

const API_KEY = 'unit-key';
const EMAIL = 'ada@example.com';
const PASSWORD = 'Secret-password-123';
const UID = 'uid-1';
const PENDING = 'mfa-pending-credential-that-stays-out-of-the-browser-challenge';
const SECRET = 'JBSWY3DPEHPK3PXP';
const TOTP_SESSION = 'totp-enrolment-session';
const RIGHT_CODE = '123456';
const ENROLLED_AT = '2024-01-02T03:04:05Z';

/** A call the fake saw: its path (after the API root, without the key) and its JSON body. */
interface SeenCall {
  path: string;
  body: Record<string, unknown>;
}

interface MfaEnrollment {
  mfaEnrollmentId: string;
  displayName?: string;
  phoneInfo?: string;
  totpInfo?: Record<string, never>;
  enrolledAt: string;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const restError = (message: string) => json({ error: { code: 400, message, errors: [] } }, 400);

const ISSUED_AT = Math.floor(Date.now() / 1000);

/** The `n`th unsigned ID token, with the claims the SDK reads (it never checks a signature). */
function idToken(n: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: UID, user_id: UID, iat: ISSUED_AT, exp: ISSUED_AT + 3600, n, email: EMAIL };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.signature`;
}

/**
 * A fake Identity Toolkit for one account: password sign-in (pending when it has factors), lookup, and
 * the v2 multi-factor calls. `failFinalize` makes the next `mfaSignIn:finalize` fail with that name.
 */
function fakeToolkit(factors: MfaEnrollment[] = []) {
  const calls: SeenCall[] = [];
  const state = { factors, tokens: 0, failFinalize: null as string | null };
  const tokens = () => ({ idToken: idToken(++state.tokens), refreshToken: `refresh-${state.tokens}` });
  const masked = () =>
    state.factors.map((f) => ({ ...f, phoneInfo: f.phoneInfo?.replace(/\d(?=\d{4})/g, '*') }));
  const answer = (path: string, body: Record<string, unknown>): Response => {
    if (path.endsWith('accounts:signInWithPassword')) {
      if (state.factors.length > 0) {
        return json({ localId: UID, email: EMAIL, mfaPendingCredential: PENDING, mfaInfo: masked() });
      }
      return json({ localId: UID, email: EMAIL, ...tokens(), expiresIn: '3600' });
    }
    if (path.endsWith('accounts:lookup')) {
      const user = { localId: UID, email: EMAIL, emailVerified: true, mfaInfo: state.factors };
      return json({ users: [{ ...user, providerUserInfo: [{ providerId: 'password', email: EMAIL }] }] });
    }
    if (path.endsWith('mfaEnrollment:start')) {
      const totpSessionInfo = {
        sharedSecretKey: SECRET,
        verificationCodeLength: 6,
        hashingAlgorithm: 'SHA1',
        periodSec: 30,
        sessionInfo: TOTP_SESSION,
        finalizeEnrollmentTime: new Date(Date.now() + 600_000).toISOString(),
      };
      return json({ totpSessionInfo });
    }
    if (path.endsWith('mfaEnrollment:finalize')) {
      const info = body.totpVerificationInfo as { verificationCode?: string };
      if (info.verificationCode !== RIGHT_CODE) return restError('INVALID_CODE');
      const displayName = typeof body.displayName === 'string' ? body.displayName : undefined;
      const enrolled = { mfaEnrollmentId: 'totp-factor-1', totpInfo: {}, enrolledAt: ENROLLED_AT };
      state.factors.push(displayName === undefined ? enrolled : { ...enrolled, displayName });
      return json(tokens());
    }
    if (path.endsWith('mfaSignIn:finalize')) {
      const failure = state.failFinalize;
      state.failFinalize = null;
      if (failure !== null) return restError(failure);
      const info = body.totpVerificationInfo as { verificationCode?: string };
      return info.verificationCode === RIGHT_CODE ? json(tokens()) : restError('INVALID_CODE');
    }
    return json({ error: { code: 404, message: `NOT_FAKED : ${path}` } }, 404);
  };
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    const path = url.pathname.replace(/^\/identitytoolkit\.googleapis\.com/, '');
    calls.push({ path, body });
    return answer(path, body);
  };
  return { fetch: fetch as typeof fetch, calls, state };
}

type Toolkit = ReturnType<typeof fakeToolkit>;

const phoneFactor = (): MfaEnrollment => ({
  mfaEnrollmentId: 'phone-factor-1',
  displayName: 'Work phone',
  phoneInfo: '+15555551234',
  enrolledAt: ENROLLED_AT,
});
const totpFactor = (): MfaEnrollment => ({
  mfaEnrollmentId: 'totp-factor-1',
  displayName: 'Authenticator',
  totpInfo: {},
  enrolledAt: ENROLLED_AT,
});

const apps: FirebaseApp[] = [];
// A new name per app: the SDK's in-memory persistence is shared, keyed by API key and app name.
let appCount = 0;
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(apps.splice(0).map((app) => deleteApp(app)));
});

/** A browser provider whose SDK talks to `toolkit` (the SDK reads the global fetch at each call). */
function browserOn(toolkit: Toolkit): AuthProvider {
  vi.stubGlobal('fetch', toolkit.fetch);
  const app = initializeApp({ apiKey: API_KEY, projectId: 'demo-unit' }, `second-factors-${++appCount}`);
  apps.push(app);
  return createFirebaseProvider({ app, languageCode: null, totpIssuer: 'Doorway Test' });
}

function formOn(toolkit: Toolkit): ServerAuthProvider {
  return createFirebaseFormProvider({
    apiKey: API_KEY,
    fetch: toolkit.fetch,
    languageCode: null,
    totpIssuer: 'Doorway Test',
  });
}

async function rejection(promise: Promise<unknown>): Promise<AuthError> {
  try {
    await promise;
  } catch (e) {
    return e as AuthError;
  }
  throw new Error('expected a rejection');
}

/** The challenge of a password sign-in, after a trip through JSON (as a server's sealed state keeps it). */
async function challengeOf(provider: AuthProvider): Promise<SecondFactorChallenge> {
  const error = await rejection(provider.signInWithEmailAndPassword(EMAIL, PASSWORD));
  expect(error.code).toBe('second-factor-required');
  expect(error.challenge).toBeDefined();
  return JSON.parse(JSON.stringify(error.challenge)) as SecondFactorChallenge;
}

/** The bodies of the calls to one endpoint. */
const bodiesOf = (toolkit: Toolkit, endpoint: string) =>
  toolkit.calls.filter((c) => c.path.endsWith(endpoint)).map((c) => c.body);

describe('second-factor-required', () => {
  it('signInWithEmailAndPassword - should list the same factors from both providers, phone masked, and sign nobody in', async () => {
    const browserToolkit = fakeToolkit([phoneFactor(), totpFactor()]);
    const browser = browserOn(browserToolkit);
    const fromBrowser = await challengeOf(browser);
    const form = formOn(fakeToolkit([phoneFactor(), totpFactor()]));
    const fromForm = await challengeOf(form);
    const enrolledAt = Date.parse(ENROLLED_AT);
    expect(fromBrowser.factors).toEqual([
      {
        uid: 'phone-factor-1',
        kind: 'phone',
        displayName: 'Work phone',
        phoneNumber: '+*******1234',
        enrolledAt,
      },
      { uid: 'totp-factor-1', kind: 'totp', displayName: 'Authenticator', phoneNumber: null, enrolledAt },
    ]);
    expect(fromForm.factors).toEqual(fromBrowser.factors);
    expect(browser.getCurrentUser()).toBeNull();
    expect(form.getCurrentUser()).toBeNull();
    expect(form.sessionToken()).toBeNull();
  });

  it('challenge.session - should hold only a random id in the browser, and the pending credential on the server', async () => {
    const fromBrowser = await challengeOf(browserOn(fakeToolkit([totpFactor()])));
    expect(Object.keys(fromBrowser.session as object)).toEqual(['resolverId']);
    expect(JSON.stringify(fromBrowser)).not.toContain(PENDING);
    const fromForm = await challengeOf(formOn(fakeToolkit([totpFactor()])));
    expect(fromForm.session).toEqual({
      mfaPendingCredential: PENDING,
      providerId: 'password',
      mfaInfo: [expect.objectContaining({ mfaEnrollmentId: 'totp-factor-1', totpInfo: {} })],
    });
  });
});

describe('TOTP sign-in', () => {
  it('secondFactors.startSignIn / finishSignIn - should make no call to open a TOTP check, and finalize as the SDK does', async () => {
    const browserToolkit = fakeToolkit([totpFactor()]);
    const browser = browserOn(browserToolkit);
    const formToolkit = fakeToolkit([totpFactor()]);
    const form = formOn(formToolkit);
    const results: SignInResult[] = [];
    for (const [provider, toolkit] of [
      [browser, browserToolkit],
      [form, formToolkit],
    ] as const) {
      const challenge = await challengeOf(provider);
      const before = toolkit.calls.length;
      const { verificationId } = await provider.secondFactors!.startSignIn(challenge, 'totp-factor-1');
      expect(toolkit.calls.length).toBe(before);
      const wrong = await rejection(
        provider.secondFactors!.finishSignIn(challenge, verificationId, '000000'),
      );
      expect(wrong.code).toBe('invalid-verification-code');
      expect(provider.getCurrentUser()).toBeNull();
      results.push(await provider.secondFactors!.finishSignIn(challenge, verificationId, RIGHT_CODE));
    }
    const expected = {
      mfaPendingCredential: PENDING,
      mfaEnrollmentId: 'totp-factor-1',
      totpVerificationInfo: { verificationCode: RIGHT_CODE },
    };
    expect(bodiesOf(browserToolkit, 'mfaSignIn:finalize').at(-1)).toEqual(expected);
    expect(bodiesOf(formToolkit, 'mfaSignIn:finalize').at(-1)).toEqual(expected);
    expect(results[0]).toMatchObject({
      providerId: 'password',
      isNewUser: false,
      user: { uid: UID, email: EMAIL },
    });
    expect(results[1]).toEqual(results[0]);
    expect(browser.getCurrentUser()?.uid).toBe(UID);
    expect(form.sessionToken()).toBe(idToken(1));
  });

  it.each([
    ['INVALID_MFA_PENDING_CREDENTIAL', 'code-expired'],
    ['MISSING_MFA_PENDING_CREDENTIAL', 'code-expired'],
    ['MFA_ENROLLMENT_NOT_FOUND', 'code-expired'],
    ['INVALID_CODE', 'invalid-verification-code'],
    ['TOO_MANY_ATTEMPTS_TRY_LATER', 'too-many-requests'],
    ['INTERNAL_ERROR', 'generic'],
  ])('secondFactors.finishSignIn - should reject %s with %s from both providers', async (message, code) => {
    for (const on of [browserOn, formOn]) {
      const toolkit = fakeToolkit([totpFactor()]);
      const provider = on(toolkit);
      const challenge = await challengeOf(provider);
      const { verificationId } = await provider.secondFactors!.startSignIn(challenge, 'totp-factor-1');
      toolkit.state.failFinalize = message;
      const error = await rejection(
        provider.secondFactors!.finishSignIn(challenge, verificationId, RIGHT_CODE),
      );
      expect(error.code, `${on.name} / ${message}`).toBe(code);
      expect(provider.getCurrentUser()).toBeNull();
    }
  });

  it('secondFactors - should reject a challenge that is none of theirs, or a factor it does not list, with code-expired', async () => {
    for (const on of [browserOn, formOn]) {
      const toolkit = fakeToolkit([totpFactor()]);
      const provider = on(toolkit);
      const challenge = await challengeOf(provider);
      const before = toolkit.calls.length;
      const ops = provider.secondFactors!;
      const forged = {
        factors: challenge.factors,
        session: { resolverId: 'forged', mfaPendingCredential: '' },
      };
      for (const broken of [
        forged,
        { factors: [], session: null },
        null as unknown as SecondFactorChallenge,
      ]) {
        expect((await rejection(ops.startSignIn(broken, 'totp-factor-1'))).code).toBe('code-expired');
        expect((await rejection(ops.finishSignIn(broken, 'totp:totp-factor-1', RIGHT_CODE))).code).toBe(
          'code-expired',
        );
      }
      expect((await rejection(ops.startSignIn(challenge, 'no-such-factor'))).code).toBe('code-expired');
      expect(toolkit.calls.length).toBe(before);
    }
  });

  it('secondFactors.cancelSignIn - should forget the browser’s pending sign-in: finishing it is code-expired', async () => {
    const browser = browserOn(fakeToolkit([totpFactor()]));
    const challenge = await challengeOf(browser);
    const { verificationId } = await browser.secondFactors!.startSignIn(challenge, 'totp-factor-1');
    await browser.secondFactors!.cancelSignIn(challenge);
    const error = await rejection(browser.secondFactors!.finishSignIn(challenge, verificationId, RIGHT_CODE));
    expect(error.code).toBe('code-expired');
    expect(browser.getCurrentUser()).toBeNull();
  });
});

describe('TOTP enrolment', () => {
  it('secondFactors.startTotpEnrollment / finishTotpEnrollment - should send the SDK’s requests and enrol the secret', async () => {
    const browserToolkit = fakeToolkit();
    const formToolkit = fakeToolkit();
    const enrolled: SecondFactorInfo[] = [];
    for (const provider of [browserOn(browserToolkit), formOn(formToolkit)]) {
      await provider.signInWithEmailAndPassword(EMAIL, PASSWORD);
      const { enrollmentId, secret, uri } = await provider.secondFactors!.startTotpEnrollment();
      expect(secret).toBe(SECRET);
      const parsed = new URL(uri);
      expect(parsed.protocol).toBe('otpauth:');
      expect(parsed.host).toBe('totp');
      expect(decodeURIComponent(parsed.pathname)).toBe(`/Doorway Test:${EMAIL}`);
      expect(parsed.searchParams.get('secret')).toBe(SECRET);
      expect(parsed.searchParams.get('issuer')).toBe('Doorway Test');
      const wrong = await rejection(provider.secondFactors!.finishTotpEnrollment(enrollmentId, '000000'));
      expect(wrong.code).toBe('invalid-verification-code');
      enrolled.push(
        await provider.secondFactors!.finishTotpEnrollment(enrollmentId, RIGHT_CODE, 'Phone app'),
      );
      expect(await provider.secondFactors!.list()).toEqual([enrolled.at(-1)]);
    }
    expect(enrolled[0]).toEqual({
      uid: 'totp-factor-1',
      kind: 'totp',
      displayName: 'Phone app',
      phoneNumber: null,
      enrolledAt: Date.parse(ENROLLED_AT),
    });
    expect(enrolled[1]).toEqual(enrolled[0]);
    for (const toolkit of [browserToolkit, formToolkit]) {
      expect(bodiesOf(toolkit, 'mfaEnrollment:start')).toEqual([
        { idToken: idToken(1), totpEnrollmentInfo: {} },
      ]);
      expect(bodiesOf(toolkit, 'mfaEnrollment:finalize').at(-1)).toEqual({
        idToken: idToken(1),
        displayName: 'Phone app',
        totpVerificationInfo: { sessionInfo: TOTP_SESSION, verificationCode: RIGHT_CODE },
      });
    }
  });

  it('secondFactors.finishTotpEnrollment - should reject an enrolment the browser provider did not start with code-expired', async () => {
    const browser = browserOn(fakeToolkit());
    await browser.signInWithEmailAndPassword(EMAIL, PASSWORD);
    const error = await rejection(browser.secondFactors!.finishTotpEnrollment('never-started', RIGHT_CODE));
    expect(error.code).toBe('code-expired');
  });
});

describe('form provider: what needs the browser, or a sign-in', () => {
  it('secondFactors - should reject SMS sends with javascript-required, making no call', async () => {
    const toolkit = fakeToolkit([phoneFactor()]);
    const form = formOn(toolkit);
    const challenge = await challengeOf(form);
    const before = toolkit.calls.length;
    const verifier = { kind: 'x', render: async () => {}, isSolved: () => true, clear: () => {} };
    const ops = form.secondFactors!;
    for (const call of [
      ops.startSignIn(challenge, 'phone-factor-1', verifier),
      ops.startPhoneEnrollment('+15555550100', verifier),
      ops.finishPhoneEnrollment('session', '123456'),
    ]) {
      expect((await rejection(call)).code).toBe('javascript-required');
    }
    expect(toolkit.calls.length).toBe(before);
  });

  it('secondFactors - should reject enrolment, listing and removal with requires-recent-login before a sign-in', async () => {
    const toolkit = fakeToolkit();
    const ops = formOn(toolkit).secondFactors!;
    for (const call of [
      ops.list(),
      ops.startTotpEnrollment(),
      ops.finishTotpEnrollment('s', '1'),
      ops.unenroll('f'),
    ]) {
      expect((await rejection(call)).code).toBe('requires-recent-login');
    }
    expect(toolkit.calls).toEqual([]);
  });
});
