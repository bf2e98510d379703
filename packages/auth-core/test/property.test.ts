import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseActionUrl } from '../src/actionUrl.ts';
import { normalizeConfig, type WidgetConfigInput } from '../src/config.ts';
import type { FlowEvent } from '../src/events.ts';
import { errorMessages } from '../src/messages.ts';
import type { Effect, ProviderOp } from '../src/ops.ts';
import type { ProviderCapabilities, SecondFactorChallenge, SignInResult } from '../src/provider.ts';
import { type FlowContext, initialState } from '../src/start.ts';
import { CARDS, type FlowState } from '../src/states.ts';
import { transition } from '../src/transition.ts';

const ORIGIN = 'https://app.example';
const ALLOWED = [ORIGIN, 'https://partner.example'];

// Hostile and friendly URL pieces: schemes, protocol-relative, encodings, look-alike hosts, control chars.
const hostileUrl = fc.oneof(
  fc.constantFrom(
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'javascript%3Aalert(1)',
    '%6A%61vascript:alert(1)',
    ' javascript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '%2F%2Fevil.example',
    'https://evil.example',
    'https:evil.example',
    'https://app.example.evil.example',
    'https://app.example@evil.example',
    'http://app.example/',
    'https://partner.example/ok',
    '/account',
    '/account?x=1#y',
    '',
  ),
  fc.webUrl(),
  fc.string({ maxLength: 40 }),
);

const actionUrl = fc
  .record({
    mode: fc.oneof(
      fc.constantFrom(
        'resetPassword',
        'recoverEmail',
        'revertSecondFactorAddition',
        'verifyEmail',
        'verifyAndChangeEmail',
        'signIn',
        'select',
      ),
      fc.string({ maxLength: 12 }),
    ),
    oobCode: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), fc.string({ maxLength: 30 })), {
      nil: undefined,
    }),
    continueUrl: fc.option(hostileUrl, { nil: undefined }),
    signInSuccessUrl: fc.option(hostileUrl, { nil: undefined }),
    sid: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
  })
  .map(({ mode, oobCode, continueUrl, signInSuccessUrl, sid }) => {
    const q = new URLSearchParams({ mode });
    if (oobCode !== undefined) q.set('oobCode', oobCode);
    if (continueUrl !== undefined) q.set('continueUrl', continueUrl);
    if (signInSuccessUrl !== undefined) q.set('signInSuccessUrl', signInSuccessUrl);
    if (sid !== undefined) q.set('doorway_sid', sid);
    return `${ORIGIN}/login?${q}`;
  });

const email = fc.oneof(
  fc.constantFrom('ann@example.com', 'bob@acme.com', '', 'x'),
  fc.emailAddress(),
  fc.string({ maxLength: 20 }),
);
const errorCode = fc.constantFrom(...(Object.keys(errorMessages) as (keyof typeof errorMessages)[]));

const user = fc.record({
  uid: fc.string({ minLength: 1, maxLength: 8 }),
  email: fc.option(email, { nil: null }),
  displayName: fc.option(fc.string({ maxLength: 10 }), { nil: null }),
  phoneNumber: fc.constant(null),
  emailVerified: fc.boolean(),
  isAnonymous: fc.boolean(),
  providerIds: fc.array(fc.constantFrom('password', 'google.com', 'phone'), { maxLength: 2 }),
  tenantId: fc.constant(null),
});
const signInResult: fc.Arbitrary<SignInResult> = fc.record({
  user,
  isNewUser: fc.boolean(),
  providerId: fc.constantFrom('password', 'google.com', 'phone', 'anonymous'),
});
const methods = fc.array(
  fc.constantFrom('password', 'emailLink', 'google.com', 'github.com', 'facebook.com', 'phone'),
  {
    maxLength: 3,
  },
);
const credential = fc.constant({ kind: 'federated' as const, providerId: 'google.com', idToken: '{}' });

/** A plausible result for whatever is pending (so sequences reach deep cards), or junk. */
/** A `second-factor-required` challenge: one or two factors, or something malformed. */
const challenge = fc.oneof(
  fc.constantFrom(
    {
      factors: [
        { uid: 'mfa-1', kind: 'phone', displayName: null, phoneNumber: '+*******0100', enrolledAt: null },
        { uid: 'mfa-2', kind: 'totp', displayName: 'App', phoneNumber: null, enrolledAt: null },
      ],
      session: { pendingId: 'p' },
    },
    {
      factors: [
        { uid: 'mfa-1', kind: 'phone', displayName: null, phoneNumber: '+*******0100', enrolledAt: 1 },
      ],
      session: 's',
    },
    {
      factors: [{ uid: 'mfa-2', kind: 'totp', displayName: null, phoneNumber: null, enrolledAt: null }],
      session: 1,
    },
  ),
  fc.anything(),
);

function resultFor(op: ProviderOp | undefined): fc.Arbitrary<unknown> {
  switch (op?.kind) {
    case 'lookupEmail':
    case 'lookupForLinking':
      return methods;
    case 'startPhone':
    case 'startSecondFactor':
      return fc.record({ verificationId: fc.string({ minLength: 1, maxLength: 6 }) });
    case 'checkEmailLink':
      return fc.oneof(
        fc.record({
          outcome: fc.constant('sameDevice'),
          email,
          pendingCredential: fc.option(credential, { nil: null }),
        }),
        fc.constantFrom(
          { outcome: 'otherDevice' },
          { outcome: 'differentDevice' },
          { outcome: 'anonymousUserMismatch' },
          { outcome: 'sessionEnded' },
        ),
      );
    case 'actionCode':
      return fc.oneof(
        fc.record({
          card: fc.constant('passwordReset'),
          code: fc.string({ maxLength: 5 }),
          email,
          continueUrl: fc.option(hostileUrl, { nil: null }),
        }),
        fc.record({
          card: fc.constantFrom('passwordResetSuccess', 'emailVerificationSuccess'),
          continueUrl: fc.option(hostileUrl, { nil: null }),
        }),
        fc.record({
          card: fc.constant('verifyAndChangeEmailSuccess'),
          email,
          continueUrl: fc.option(hostileUrl, { nil: null }),
        }),
        fc.constantFrom(
          { card: 'widget', mode: null },
          { card: 'passwordResetFailure' },
          { card: 'emailVerificationFailure' },
          { card: 'verifyAndChangeEmailFailure' },
          { card: 'revertSecondFactorAdditionFailure' },
          { card: 'revertSecondFactorAdditionSuccess', factor: '+1 *** 0100', email: null },
          { card: 'emailChangeRevoked', email: 'ann@example.com' },
          { card: 'emailChangeRevokeFailure' },
          { card: 'recoverableError', message: 'network-request-failed' },
        ),
      );
    case 'federated':
    case 'redirectResult':
      return fc.option(signInResult, { nil: null });
    case 'loadProvider':
      return fc.record({
        currentUser: fc.option(fc.record({ uid: fc.string({ maxLength: 4 }), isAnonymous: fc.boolean() }), {
          nil: null,
        }),
        redirectPending: fc.boolean(),
        signOut: fc.boolean(),
      });
    case 'passwordSignIn':
    case 'createUser':
    case 'anonymous':
    case 'confirmPhone':
    case 'completeEmailLink':
    case 'passwordSignInAndLink':
    case 'finishSecondFactor':
      return signInResult;
    default:
      return fc.constant(undefined);
  }
}

const uiEvent: fc.Arbitrary<FlowEvent> = fc.oneof(
  fc.record({ type: fc.constant('CHOOSE_TENANT'), tenantId: fc.constantFrom(null, 'acme', 'nope') }),
  fc.record({
    type: fc.constant('CHOOSE_PROVIDER'),
    providerId: fc.constantFrom('email', 'phone', 'anonymous', 'google.com', 'github.com', 'x'),
  }),
  fc.record({ type: fc.constant('SUBMIT_EMAIL'), email }),
  fc.record({ type: fc.constant('SUBMIT_PASSWORD'), password: fc.string({ maxLength: 10 }) }),
  fc.record({
    type: fc.constant('SUBMIT_SIGN_UP'),
    email,
    name: fc.string({ maxLength: 8 }),
    password: fc.string({ maxLength: 10 }),
  }),
  fc.record({ type: fc.constant('SUBMIT_RECOVERY'), email }),
  fc.record({
    type: fc.constant('SUBMIT_PHONE'),
    phoneNumber: fc.oneof(fc.constant('+15555550100'), fc.string({ maxLength: 16 })),
    country: fc.constantFrom('US', 'GB', 'FR', 'zz', ''),
    captchaSolved: fc.boolean(),
    verifier: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('SUBMIT_CODE'),
    code: fc.oneof(fc.constant('123456'), fc.string({ maxLength: 8 })),
  }),
  fc.record({ type: fc.constant('CONFIRM_EMAIL'), email }),
  fc.record({
    type: fc.constant('CHOOSE_SECOND_FACTOR'),
    factorUid: fc.constantFrom('mfa-1', 'mfa-2', 'nope'),
  }),
  fc.record({
    type: fc.constant('SEND_SECOND_FACTOR_SMS'),
    captchaSolved: fc.boolean(),
    verifier: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('SUBMIT_SECOND_FACTOR_CODE'),
    code: fc.oneof(fc.constant('123456'), fc.string({ maxLength: 8 })),
  }),
  fc.record({ type: fc.constant('SUBMIT_NEW_PASSWORD'), password: fc.string({ maxLength: 10 }) }),
  fc.constantFrom<FlowEvent>(
    { type: 'GO_TO_RECOVERY' },
    { type: 'GO_TO_SIGN_UP' },
    { type: 'RESEND_CODE' },
    { type: 'CHANGE_PHONE' },
    { type: 'EMAIL_NOT_RECEIVED' },
    { type: 'RESEND_EMAIL' },
    { type: 'SIGN_IN_FEDERATED' },
    { type: 'SEND_LINKING_EMAIL' },
    { type: 'CONTINUE' },
    { type: 'RETRY' },
    { type: 'CANCEL' },
    { type: 'SIGN_OUT' },
    { type: 'SIGN_IN_AGAIN' },
    { type: 'TIMER', name: 'busy' },
    { type: 'TIMER', name: 'resend' },
    { type: 'TIMER', name: 'success' },
  ),
  fc.record({ type: fc.constant('CALLBACK_RESULT'), redirect: fc.boolean() }),
);

/** One step: a person's event, or the provider settling what is pending (rightly, wrongly, or stale). */
type Step =
  | { kind: 'ui'; event: FlowEvent }
  | { kind: 'resolve'; pick: number; stale: boolean }
  | { kind: 'reject'; code: keyof typeof errorMessages; withCred: boolean; challenge: unknown };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: uiEvent.map((event) => ({ kind: 'ui' as const, event })) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('resolve' as const), pick: fc.nat(), stale: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reject' as const),
      code: fc.oneof(
        { weight: 4, arbitrary: errorCode },
        { weight: 1, arbitrary: fc.constant('second-factor-required' as const) },
      ),
      withCred: fc.boolean(),
      challenge,
    }),
  },
);

const configs: WidgetConfigInput[] = [
  {
    signInOptions: ['email', 'google.com', 'phone', 'anonymous'],
    signInSuccessUrl: '/home',
    allowedOrigins: ['https://partner.example'],
  },
  {
    signInOptions: [{ provider: 'email', signInMethod: 'emailLink', forceSameDevice: true }, 'github.com'],
    signInFlow: 'redirect',
    allowedOrigins: ['https://partner.example'],
  },
  {
    signInOptions: [
      { provider: 'email', disableSignUp: true },
      { provider: 'phone', allowedCountries: ['US'] },
    ],
    displayMode: 'identifierFirst',
    tenants: [
      { id: null, displayName: 'All' },
      { id: 'acme', displayName: 'ACME', emailDomains: ['acme.com'] },
    ],
    autoUpgradeAnonymousUsers: true,
    allowedOrigins: ['https://partner.example'],
  },
  {
    signInOptions: ['email', 'google.com'],
    tenants: [
      { id: 'a', displayName: 'A' },
      { id: 'acme', displayName: 'ACME', signInOptions: ['phone', 'anonymous'] },
    ],
    allowedOrigins: ['https://partner.example'],
  },
];

function isAllowed(url: string): boolean {
  try {
    const u = new URL(url);
    return ALLOWED.includes(u.origin) && (u.protocol === 'https:' || u.protocol === 'http:');
  } catch {
    return false;
  }
}

function checkInvariants(state: FlowState, effects: readonly Effect[]): void {
  expect(CARDS).toContain(state.card);
  if (state.redirectUrl !== null) expect(isAllowed(state.redirectUrl)).toBe(true);
  for (const e of effects) {
    if (e.type === 'redirect') expect(isAllowed(e.url), `redirect to ${e.url}`).toBe(true);
    if (e.type === 'signInSuccess' && e.redirectUrl !== null) expect(isAllowed(e.redirectUrl)).toBe(true);
  }
}

describe('flow properties', () => {
  it('10,000 random event sequences: nothing throws, every snapshot is a card, no redirect leaves the allowed origins', () => {
    let cardsSeen = new Set<string>();
    fc.assert(
      fc.property(
        fc.nat({ max: configs.length - 1 }),
        fc.boolean(),
        actionUrl,
        fc.option(fc.record({ uid: fc.constant('anon1'), isAnonymous: fc.boolean() }), { nil: null }),
        fc.array(step, { maxLength: 30 }),
        fc.array(fc.anything(), { maxLength: 30 }),
        (configIndex, reliable, url, currentUser, steps, junk) => {
          const capabilities: ProviderCapabilities = {
            password: true,
            emailLink: true,
            phone: true,
            anonymous: true,
            federated: ['google.com', 'github.com'],
            popup: true,
            redirect: true,
            tenants: true,
            reliableSignInMethodLookup: reliable,
            actionCodes: [],
            captcha: true,
            secondFactors: ['phone', 'totp'],
          };
          const ctx: FlowContext = {
            config: normalizeConfig(configs[configIndex] as WidgetConfigInput, ORIGIN),
            capabilities,
          };
          const start: FlowEvent = {
            type: 'START',
            url,
            currentUser: currentUser
              ? {
                  ...{
                    email: null,
                    displayName: null,
                    phoneNumber: null,
                    emailVerified: false,
                    providerIds: [],
                    tenantId: null,
                  },
                  ...currentUser,
                }
              : null,
            redirectPending: junk.length % 2 === 0,
          };
          let [state, effects] = transition(initialState(), start, ctx);
          checkInvariants(state, effects);
          for (const [i, s] of steps.entries()) {
            let event: FlowEvent;
            if (s.kind === 'ui') event = s.event;
            else if (s.kind === 'reject') {
              event = {
                type: 'PROVIDER_REJECTED',
                id: state.pending?.id ?? 0,
                error: s.withCred
                  ? {
                      code: s.code,
                      email: 'ann@example.com',
                      credential: { kind: 'federated', providerId: 'github.com' },
                    }
                  : { code: s.code, challenge: s.challenge as SecondFactorChallenge },
              };
            } else {
              const samples = fc.sample(resultFor(state.pending?.op), { numRuns: 1, seed: s.pick });
              const result = s.pick % 13 === 0 ? junk[i % Math.max(1, junk.length)] : samples[0];
              event = { type: 'PROVIDER_RESOLVED', id: (state.pending?.id ?? 0) - (s.stale ? 1 : 0), result };
            }
            [state, effects] = transition(state, event, ctx);
            checkInvariants(state, effects);
            cardsSeen.add(state.card);
          }
        },
      ),
      { numRuns: 10_000 },
    );
    // The sequences are worth something only if they reach far into the flow.
    expect(cardsSeen.size).toBeGreaterThan(25);
    for (const card of ['secondFactorChooser', 'secondFactorPhone', 'secondFactorCode']) {
      expect(cardsSeen).toContain(card);
    }
    cardsSeen = new Set();
    // A bound on a hung run, not a speed check: on a loaded 2-core machine the 10,000 runs take about a minute.
  }, 180_000);

  it('10,000 random action URLs parse without throwing and never yield an implausible code', () => {
    fc.assert(
      fc.property(
        fc.oneof(actionUrl, fc.string({ maxLength: 200 }), fc.webUrl({ withQueryParameters: true })),
        (url) => {
          const parsed = parseActionUrl(url);
          if (parsed !== null) {
            expect([
              'resetPassword',
              'recoverEmail',
              'revertSecondFactorAddition',
              'verifyEmail',
              'verifyAndChangeEmail',
              'signIn',
              'select',
            ]).toContain(parsed.mode);
            if (parsed.oobCode !== null) expect(parsed.oobCode).toMatch(/^[\w-]{1,2048}$/);
          }
        },
      ),
      { numRuns: 10_000 },
    );
  }, 60_000);
});
