/**
 * The pure flow transition: `transition(state, event, ctx) → [nextState, effects]`. No awaits, clocks,
 * randomness or provider calls happen here; the runner does those from the returned effects.
 * @module
 */
import type { ActionResult } from './action.ts';
import {
  type EmailOption,
  emailOptionOf,
  type FederatedOption,
  phoneOptionOf,
  type SignInOption,
  tenantForEmail,
} from './config.ts';
import { RESEND_COUNTDOWN_SECONDS, SUCCESS_DISPLAY_DELAY_MS } from './constants.ts';
import type { EmailLinkCheck } from './emailLinkStore.ts';
import { type ErrorInfo, isRetryableError } from './errors.ts';
import type { FlowEvent, UI_EVENT_TYPES } from './events.ts';
import type { MessageKey } from './messages.ts';
import type { Effect, ProviderOp } from './ops.ts';
import type {
  AuthCredential,
  SecondFactorChallenge,
  SecondFactorInfo,
  SignInMethod,
  SignInResult,
} from './provider.ts';
import { safeRedirect } from './redirect.ts';
import {
  normalizeEmail,
  validateCaptcha,
  validateCode,
  validateCountry,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePassword,
  validatePhoneNumber,
} from './rules.ts';
import {
  begin,
  call,
  type FlowContext,
  firstCard,
  go,
  optionsOf,
  type ProviderLoaded,
  phoneEntryCard,
  same,
  startTransition,
  type TransitionResult,
} from './start.ts';
import { ACTION_CODE_CARDS, type FlowState, type StateOf } from './states.ts';

/** Shows an error line on the current card; anything in flight is over. */
function fail(state: FlowState, error: MessageKey, effects: Effect[] = []): TransitionResult {
  const out: Effect[] = state.pending ? [{ type: 'cancelTimer', name: 'busy' }, ...effects] : effects;
  return [{ ...state, pending: null, busy: false, error }, out];
}

function federatedOption(options: readonly SignInOption[], providerId: string): FederatedOption | null {
  return (
    options.find((o): o is FederatedOption => o.provider === 'federated' && o.providerId === providerId) ??
    null
  );
}

function federatedOp(
  state: FlowState,
  ctx: FlowContext,
  option: FederatedOption,
  loginHint: string | null,
  pendingCredential: AuthCredential | null,
): ProviderOp {
  return {
    kind: 'federated',
    providerId: option.providerId,
    mode: ctx.config.signInFlow,
    loginHint,
    link: state.upgradeUid !== null,
    scopes: option.scopes,
    customParameters: option.customParameters,
    pendingCredential,
  };
}

function emailLinkUrl(state: FlowState, email: EmailOption | null): string {
  return email?.emailLinkUrl ? new URL(email.emailLinkUrl, state.pageUrl).href : state.pageUrl;
}

function sendEmailLinkOp(
  state: FlowState,
  ctx: FlowContext,
  email: string,
  pendingCredential: AuthCredential | null,
): ProviderOp {
  const option = emailOptionOf(optionsOf(state, ctx));
  return {
    kind: 'sendEmailLink',
    email,
    url: emailLinkUrl(state, option),
    pendingCredential,
    anonymousUid: state.upgradeUid,
    forceSameDevice: option?.forceSameDevice ?? false,
  };
}

/** Spec §4: where email entry leads, by the account's existing sign-in methods. */
function routeEmail(
  state: FlowState,
  ctx: FlowContext,
  email: string,
  methods: readonly SignInMethod[],
): TransitionResult {
  const options = optionsOf(state, ctx);
  const emailOption = emailOptionOf(options);
  const linkMode = emailOption?.signInMethod === 'emailLink';
  // Identifier-first picked a tenant that has no email option: offer that tenant's options instead.
  if (!emailOption && options.length > 0 && ctx.config.displayMode === 'identifierFirst') {
    return go({ ...state, tenantChosen: true }, { card: 'providerChooser', chooseTenant: false });
  }
  if (!ctx.capabilities.reliableSignInMethodLookup) {
    // Enumeration-safe: never reveal whether the account exists.
    if (!emailOption) return go(state, { card: 'unsupportedProvider', email });
    if (linkMode) return call(state, sendEmailLinkOp(state, ctx, email, null));
    return go(state, { card: 'passwordSignIn', email, offerSignUp: !emailOption.disableSignUp });
  }
  if (methods.includes('password')) {
    return emailOption
      ? go(state, { card: 'passwordSignIn', email, offerSignUp: false })
      : go(state, { card: 'unsupportedProvider', email });
  }
  if (methods.includes('emailLink')) {
    if (!emailOption) return go(state, { card: 'unsupportedProvider', email });
    return linkMode
      ? call(state, sendEmailLinkOp(state, ctx, email, null))
      : go(state, { card: 'passwordRecovery', email });
  }
  const federated = methods.find((m) => m !== 'phone');
  if (federated !== undefined) {
    return federatedOption(options, federated)
      ? go(state, { card: 'federatedSignIn', email, providerId: federated })
      : go(state, { card: 'unsupportedProvider', email });
  }
  if (methods.length > 0 || !emailOption) return go(state, { card: 'unsupportedProvider', email });
  if (emailOption.disableSignUp) {
    return go(state, {
      card: 'unauthorizedUser',
      email,
      adminEmail: emailOption.adminEmail,
      helpLink: emailOption.helpLink,
    });
  }
  if (linkMode) return call(state, sendEmailLinkOp(state, ctx, email, null));
  return go(state, { card: 'passwordSignUp', email, requireName: emailOption.requireDisplayName });
}

/** Where an `account-exists-with-different-credential` leads, by the existing account's methods. */
function routeLinking(
  state: FlowState,
  ctx: FlowContext,
  email: string,
  credential: AuthCredential,
  methods: readonly SignInMethod[],
): TransitionResult {
  const options = optionsOf(state, ctx);
  const emailOption = emailOptionOf(options);
  if (methods.includes('password') || (methods.length === 0 && emailOption?.signInMethod === 'password')) {
    if (emailOption) return go(state, { card: 'passwordLinking', email, pendingCredential: credential });
  }
  if (methods.includes('emailLink') || (methods.length === 0 && emailOption?.signInMethod === 'emailLink')) {
    if (emailOption) return go(state, { card: 'emailLinkLinking', email, pendingCredential: credential });
  }
  const federated = methods.find((m) => federatedOption(options, m) !== null);
  if (federated !== undefined) {
    return go(state, {
      card: 'federatedLinking',
      email,
      providerId: federated,
      pendingCredential: credential,
    });
  }
  return go(state, { card: 'unsupportedProvider', email });
}

/** Sign-in is done: "Signed in!" / "Verified!" for 1 s, the success callback, then the redirect. */
function succeed(
  state: FlowState,
  result: SignInResult,
  message: 'signedIn' | 'verified' = 'signedIn',
): TransitionResult {
  return go(state, { card: 'signedIn', message, result, elapsed: false, redirect: null }, [
    { type: 'signInSuccess', result, redirectUrl: state.redirectUrl },
    { type: 'startTimer', name: 'success', ms: SUCCESS_DISPLAY_DELAY_MS },
  ]);
}

function fromActionResult(
  state: FlowState,
  ctx: FlowContext,
  result: ActionResult,
  op: ProviderOp,
): TransitionResult {
  switch (result.card) {
    case 'widget':
      return firstCard(state, ctx);
    case 'recoverableError':
      return go(state, { card: 'recoverableError', message: result.message, retry: op });
    case 'passwordReset': {
      const [next, effects] = go(state, {
        card: 'passwordReset',
        code: result.code,
        email: result.email,
        continueUrl: result.continueUrl,
      });
      return [result.error ? { ...next, error: result.error } : next, effects];
    }
    default:
      return go(state, result);
  }
}

function onEmailLinkCheck(state: FlowState, check: EmailLinkCheck): TransitionResult {
  switch (check.outcome) {
    case 'sameDevice':
      return call(state, {
        kind: 'completeEmailLink',
        email: check.email,
        link: state.pageUrl,
        pendingCredential: check.pendingCredential,
        upgrade: state.upgradeUid !== null,
      });
    case 'otherDevice':
      return go(state, { card: 'emailLinkConfirmation', email: '', link: state.pageUrl });
    case 'differentDevice':
      return go(state, { card: 'differentDeviceError' });
    case 'anonymousUserMismatch':
      return go(state, { card: 'anonymousUserMismatch' });
    case 'sessionEnded':
      return go(state, { card: 'sessionEnded' });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isSignInResult = (v: unknown): v is SignInResult =>
  isObject(v) && isObject(v.user) && typeof v.user.uid === 'string' && typeof v.providerId === 'string';
const ACTION_CARDS: ReadonlySet<string> = new Set(['widget', ...ACTION_CODE_CARDS, 'recoverableError']);
const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const LINK_OUTCOMES = new Set([
  'sameDevice',
  'otherDevice',
  'differentDevice',
  'anonymousUserMismatch',
  'sessionEnded',
]);

/** Whether a provider result has the shape its op promises; anything else is treated as a `generic` failure. */
function wellFormed(op: ProviderOp, result: unknown): boolean {
  switch (op.kind) {
    case 'lookupEmail':
    case 'lookupForLinking':
      return Array.isArray(result) && result.every((m) => typeof m === 'string');
    case 'startPhone':
    case 'startSecondFactor':
      return isObject(result) && typeof result.verificationId === 'string';
    case 'checkEmailLink':
      return (
        isObject(result) &&
        LINK_OUTCOMES.has(String(result.outcome)) &&
        (result.outcome !== 'sameDevice' || typeof result.email === 'string')
      );
    case 'actionCode':
      return (
        isObject(result) &&
        ACTION_CARDS.has(String(result.card)) &&
        optionalString(result.continueUrl) &&
        optionalString(result.email) &&
        (result.card !== 'passwordReset' ||
          (typeof result.code === 'string' && typeof result.email === 'string')) &&
        (result.card !== 'recoverableError' || typeof result.message === 'string')
      );
    case 'loadProvider':
      return isObject(result);
    case 'federated':
    case 'redirectResult':
      return result === null || isSignInResult(result);
    case 'passwordSignIn':
    case 'createUser':
    case 'anonymous':
    case 'passkey':
    case 'confirmPhone':
    case 'completeEmailLink':
    case 'passwordSignInAndLink':
    case 'finishSecondFactor':
      return isSignInResult(result);
    default:
      return true;
  }
}

const FACTOR_KINDS: ReadonlySet<unknown> = new Set(['phone', 'totp']);
const isFactor = (v: unknown): v is SecondFactorInfo =>
  isObject(v) && typeof v.uid === 'string' && FACTOR_KINDS.has(v.kind);

/** The challenge a `second-factor-required` carries, if it is one a card can show (at least one factor). */
function challengeOf(v: unknown): SecondFactorChallenge | null {
  if (!isObject(v) || !Array.isArray(v.factors) || v.factors.length === 0) return null;
  return v.factors.every(isFactor) ? (v as unknown as SecondFactorChallenge) : null;
}

const SECOND_FACTOR_CARDS: ReadonlySet<string> = new Set([
  'secondFactorChooser',
  'secondFactorPhone',
  'secondFactorCode',
]);

/** One factor of a challenge: an SMS factor asks for the captcha first; a TOTP factor opens its check. */
function openFactor(
  state: FlowState,
  challenge: SecondFactorChallenge,
  factor: SecondFactorInfo,
): TransitionResult {
  if (factor.kind === 'phone') return go(state, { card: 'secondFactorPhone', challenge, factor });
  return call(state, {
    kind: 'startSecondFactor',
    challenge,
    factorUid: factor.uid,
    sms: false,
    verifier: null,
  });
}

/** A first factor was right and the account has a second: the chooser, or the only factor at once. */
function askSecondFactor(state: FlowState, ctx: FlowContext, challenge: unknown): TransitionResult {
  const valid = challengeOf(challenge);
  if (valid === null || !ctx.capabilities.secondFactors?.length) return fail(state, 'generic');
  const [only] = valid.factors;
  if (valid.factors.length > 1 || only === undefined) {
    return go(state, { card: 'secondFactorChooser', challenge: valid });
  }
  return openFactor(state, valid, only);
}

/** Where a second factor's step that failed leads. */
function secondFactorRejected(
  state: FlowState,
  ctx: FlowContext,
  op: Extract<ProviderOp, { kind: 'startSecondFactor' | 'finishSecondFactor' | 'cancelSecondFactor' }>,
  code: ErrorInfo['code'],
): TransitionResult {
  const stop: Effect[] = [{ type: 'cancelTimer', name: 'resend' }];
  if (op.kind === 'cancelSecondFactor') return firstCard(state, ctx);
  const smsCode = state.card === 'secondFactorCode' && state.factor.kind === 'phone' ? state.factor : null;
  if (code === 'code-expired' && op.kind === 'finishSecondFactor' && smsCode !== null) {
    // An SMS code that expired: back to the chooser (or the only factor's card) to text another.
    const { challenge } = op;
    const [next, effects] =
      challenge.factors.length > 1
        ? go(state, { card: 'secondFactorChooser', challenge }, stop)
        : go(state, { card: 'secondFactorPhone', challenge, factor: smsCode }, stop);
    return [{ ...next, error: code }, effects];
  }
  if (code === 'code-expired') {
    // The pending sign-in is over (it expired, or the backend forgot it): start again.
    const [next, effects] = firstCard(state, ctx, 'session-expired');
    return [next, [...stop, ...effects]];
  }
  if (SECOND_FACTOR_CARDS.has(state.card)) return fail(state, code);
  // The only factor could not be opened from the first factor's card: show the chooser with the error.
  const [next, effects] = go(state, { card: 'secondFactorChooser', challenge: op.challenge });
  return [{ ...next, error: code }, effects];
}

/** A successful provider call, by what was asked. */
function resolved(state: FlowState, ctx: FlowContext, op: ProviderOp, result: unknown): TransitionResult {
  if (!wellFormed(op, result)) return rejected(state, ctx, op, { code: 'generic' });
  switch (op.kind) {
    case 'loadProvider': {
      const r = result as ProviderLoaded;
      const [s] = go(state, { card: 'spinner' });
      return begin(s, ctx, state.pageUrl, r.currentUser, r.redirectPending, r.signOut);
    }
    case 'setTenant': {
      const chosen: FlowState = { ...state, tenantId: op.tenantId, tenantChosen: true };
      return firstCard(chosen, ctx);
    }
    case 'lookupEmail': {
      const next = op.tenantId === undefined ? state : { ...state, tenantId: op.tenantId };
      return routeEmail(next, ctx, op.email, result as SignInMethod[]);
    }
    case 'lookupForLinking':
      return routeLinking(state, ctx, op.email, op.credential, result as SignInMethod[]);
    case 'sendPasswordReset':
      return go(state, { card: 'recoveryEmailSent', email: op.email });
    case 'startPhone': {
      const phone = state.card === 'phoneEntry' || state.card === 'phoneCode' ? state : null;
      const { verificationId } = result as { verificationId: string };
      return go(
        state,
        {
          card: 'phoneCode',
          phoneNumber: op.phoneNumber,
          country: phone?.country ?? 'US',
          verificationId,
          resendIn: RESEND_COUNTDOWN_SECONDS,
        },
        [
          { type: 'cancelTimer', name: 'resend' },
          { type: 'startTimer', name: 'resend', ms: 1000 },
        ],
      );
    }
    case 'confirmPhone': {
      const [next, effects] = succeed(state, result as SignInResult, 'verified');
      return [next, [{ type: 'cancelTimer', name: 'resend' }, ...effects]];
    }
    case 'startSecondFactor': {
      const factor = op.challenge.factors.find((f) => f.uid === op.factorUid);
      if (!factor) return rejected(state, ctx, op, { code: 'code-expired' });
      const { verificationId } = result as { verificationId: string };
      const resendIn = op.sms ? RESEND_COUNTDOWN_SECONDS : 0;
      const timers: Effect[] = op.sms
        ? [
            { type: 'cancelTimer', name: 'resend' },
            { type: 'startTimer', name: 'resend', ms: 1000 },
          ]
        : [];
      const card = {
        card: 'secondFactorCode',
        challenge: op.challenge,
        factor,
        verificationId,
        resendIn,
      } as const;
      return go(state, card, timers);
    }
    case 'finishSecondFactor': {
      const [next, effects] = succeed(state, result as SignInResult);
      return [next, [{ type: 'cancelTimer', name: 'resend' }, ...effects]];
    }
    case 'cancelSecondFactor':
      return firstCard(state, ctx);
    case 'sendEmailLink':
      return go(state, { card: 'emailLinkSent', email: op.email, pendingCredential: op.pendingCredential });
    case 'checkEmailLink':
      return onEmailLinkCheck(state, result as EmailLinkCheck);
    case 'federated': {
      if (result === null) return [{ ...state, busy: true }, []]; // redirecting away: keep the spinner up
      const r = result as SignInResult;
      if (
        state.card === 'federatedSignIn' &&
        r.user.email &&
        r.user.email.toLowerCase() !== state.email.toLowerCase()
      ) {
        return go(state, { card: 'emailMismatch', enteredEmail: state.email, result: r });
      }
      return succeed(state, r);
    }
    case 'redirectResult':
      return result === null ? firstCard(state, ctx) : succeed(state, result as SignInResult);
    case 'passwordSignIn':
    case 'createUser':
    case 'anonymous':
    case 'passkey':
    case 'completeEmailLink':
    case 'passwordSignInAndLink':
      return succeed(state, result as SignInResult);
    case 'actionCode':
      return fromActionResult(state, ctx, result as ActionResult, op);
    case 'confirmPasswordReset':
      return go(state, {
        card: 'passwordResetSuccess',
        continueUrl: state.card === 'passwordReset' ? state.continueUrl : null,
      });
    case 'signOut':
      return state.card === 'emailMismatch' ? firstCard(state, ctx) : go(state, { card: 'signOut' });
  }
}

const MERGE_CONFLICT_CODES = new Set(['email-already-in-use', 'credential-already-in-use']);

/** A failed provider call, by what was asked: inline errors keep the card (and what was typed). */
function rejected(state: FlowState, ctx: FlowContext, op: ProviderOp, error: ErrorInfo): TransitionResult {
  const { code } = error;
  if (code === 'web-storage-unsupported') return go(state, { card: 'unrecoverableError', message: code });
  if (
    op.kind === 'startSecondFactor' ||
    op.kind === 'finishSecondFactor' ||
    op.kind === 'cancelSecondFactor'
  ) {
    return secondFactorRejected(state, ctx, op, code);
  }
  if (code === 'second-factor-required') return askSecondFactor(state, ctx, error.challenge);
  if (state.upgradeUid !== null && MERGE_CONFLICT_CODES.has(code) && isUpgradeOp(op)) {
    const credential = error.credential ?? credentialOf(op);
    const info: ErrorInfo = { code: 'anonymous-upgrade-merge-conflict' };
    if (credential) info.credential = credential;
    return fail(state, 'anonymous-upgrade-merge-conflict', [{ type: 'signInFailure', error: info }]);
  }
  switch (op.kind) {
    case 'loadProvider':
      return go(state, { card: 'unrecoverableError', message: code });
    case 'federated':
    case 'redirectResult':
      if (code === 'account-exists-with-different-credential' && error.email && error.credential) {
        return call(state, { kind: 'lookupForLinking', email: error.email, credential: error.credential });
      }
      if (state.card === 'spinner') {
        return isRetryableError(code)
          ? go(state, { card: 'recoverableError', message: code, retry: op })
          : firstCard(state, ctx, code);
      }
      return fail(state, code);
    case 'confirmPhone':
      if (code === 'code-expired' && state.card === 'phoneCode') {
        const [next, effects] = go(
          state,
          { card: 'phoneEntry', phoneNumber: state.phoneNumber, country: state.country },
          [{ type: 'cancelTimer', name: 'resend' }],
        );
        return [{ ...next, error: code }, effects];
      }
      return fail(state, code);
    case 'completeEmailLink':
      if (state.card === 'emailLinkConfirmation') return fail(state, code);
      return go(state, {
        card: 'recoverableError',
        message: code,
        retry: isRetryableError(code) ? op : null,
      });
    case 'confirmPasswordReset':
      if (code === 'expired-action-code' || code === 'invalid-action-code') {
        return go(state, { card: 'passwordResetFailure' });
      }
      return fail(state, code);
    case 'passkey':
      // A dismissed passkey dialog is the person's choice, not a missing permission.
      return fail(state, code === 'user-cancelled' ? 'passkey-cancelled' : code);
    case 'signOut':
      if (state.card === 'emailMismatch') return firstCard(state, ctx);
      return go(state, { card: 'recoverableError', message: code, retry: op });
    default:
      if (state.card === 'spinner') {
        return go(state, {
          card: 'recoverableError',
          message: code,
          retry: isRetryableError(code) ? op : null,
        });
      }
      return fail(state, code);
  }
}

function isUpgradeOp(op: ProviderOp): boolean {
  switch (op.kind) {
    case 'passwordSignIn':
    case 'createUser':
    case 'confirmPhone':
    case 'federated':
      return op.link;
    case 'completeEmailLink':
      return op.upgrade;
    default:
      return false;
  }
}

function credentialOf(op: ProviderOp): AuthCredential | null {
  switch (op.kind) {
    case 'passwordSignIn':
    case 'createUser':
      return { kind: 'password', email: op.email, password: op.password };
    case 'confirmPhone':
      return { kind: 'phone', verificationId: op.verificationId, code: op.code };
    case 'completeEmailLink':
      return { kind: 'emailLink', email: op.email, link: op.link };
    default:
      return null;
  }
}

/** Validates a form's fields in order and returns the first message, if any. */
function firstError(...checks: (MessageKey | null)[]): MessageKey | null {
  return checks.find((c) => c !== null) ?? null;
}

type UiEventType = (typeof UI_EVENT_TYPES)[number];
type UiHandler<T extends UiEventType> = (
  state: FlowState,
  event: Extract<FlowEvent, { type: T }>,
  ctx: FlowContext,
) => TransitionResult;

/** An email field as typed (trimmed, kept on the card) and its validation message, if any. */
function typedEmail(
  state: FlowState,
  raw: string,
): { typed: FlowState; email: string; invalid: MessageKey | null } {
  const email = normalizeEmail(raw);
  return { typed: { ...state, email } as FlowState, email, invalid: validateEmail(email, undefined) };
}

const onChooseProvider: UiHandler<'CHOOSE_PROVIDER'> = (state, event, ctx) => {
  // Identifier-first shows email entry first, with the other options beside it.
  const fromEmail = state.card === 'emailEntry' && ctx.config.displayMode === 'identifierFirst';
  if (!fromEmail && (state.card !== 'providerChooser' || state.chooseTenant)) return same(state);
  const options = optionsOf(state, ctx);
  const id = event.providerId;
  if ((id === 'email' || id === 'password' || id === 'emailLink') && emailOptionOf(options)) {
    return go(state, { card: 'emailEntry', email: '' });
  }
  if (id === 'phone' && phoneOptionOf(options)) return go(state, phoneEntryCard(options, ''));
  if ((id === 'anonymous' || id === 'passkey') && options.some((o) => o.provider === id)) {
    return call(state, { kind: id });
  }
  const federated = federatedOption(options, id);
  return federated ? call(state, federatedOp(state, ctx, federated, null, null)) : same(state);
};

const onSubmitEmail: UiHandler<'SUBMIT_EMAIL'> = (state, event, ctx) => {
  if (state.card !== 'emailEntry') return same(state);
  const { typed, email, invalid } = typedEmail(state, event.email);
  if (invalid) return fail(typed, invalid);
  const tenant = ctx.config.displayMode === 'identifierFirst' ? tenantForEmail(ctx.config, email) : null;
  const tenantChange = tenant !== null && tenant.id !== state.tenantId ? tenant.id : undefined;
  if (!ctx.capabilities.reliableSignInMethodLookup && tenantChange === undefined) {
    return routeEmail(typed, ctx, email, []);
  }
  return call(typed, { kind: 'lookupEmail', email, tenantId: tenantChange });
};

const onSubmitSignUp: UiHandler<'SUBMIT_SIGN_UP'> = (state, event) => {
  if (state.card !== 'passwordSignUp') return same(state);
  const email = normalizeEmail(event.email);
  const name = typeof event.name === 'string' ? event.name.trim() : '';
  const typed: FlowState = { ...state, email, name };
  const invalid = firstError(
    validateEmail(email, undefined),
    validateName(name, { required: state.requireName }),
    validateNewPassword(event.password, undefined),
  );
  if (invalid) return fail(typed, invalid);
  const link = state.upgradeUid !== null;
  return call(typed, {
    kind: 'createUser',
    email,
    password: event.password,
    name: name === '' ? null : name,
    link,
  });
};

const onSubmitPhone: UiHandler<'SUBMIT_PHONE'> = (state, event, ctx) => {
  if (state.card !== 'phoneEntry') return same(state);
  const phone = phoneOptionOf(optionsOf(state, ctx));
  const typed: FlowState = {
    ...state,
    phoneNumber: String(event.phoneNumber ?? ''),
    country: String(event.country ?? ''),
  };
  const invalid = firstError(
    validateCountry(event.country, {
      allowed: phone?.allowedCountries ?? null,
      blocked: phone?.blockedCountries ?? [],
    }),
    validatePhoneNumber(event.phoneNumber, undefined),
    validateCaptcha(event.captchaSolved === true),
  );
  if (invalid) return fail(typed, invalid);
  return call(typed, { kind: 'startPhone', phoneNumber: event.phoneNumber, verifier: event.verifier });
};

/** What each of a person's events does, one small handler each. */
const UI_EVENTS: { [T in UiEventType]: UiHandler<T> } = {
  CHOOSE_TENANT: (state, event, ctx) => {
    if (state.card !== 'providerChooser' || !state.chooseTenant || !ctx.config.tenants) return same(state);
    if (!ctx.config.tenants.some((t) => t.id === event.tenantId)) return same(state);
    return call(state, { kind: 'setTenant', tenantId: event.tenantId });
  },
  CHOOSE_PROVIDER: onChooseProvider,
  SUBMIT_EMAIL: onSubmitEmail,
  SUBMIT_PASSWORD: (state, event) => {
    if (state.card !== 'passwordSignIn' && state.card !== 'passwordLinking') return same(state);
    const invalid = validatePassword(event.password, undefined);
    if (invalid) return fail(state, invalid);
    if (state.card === 'passwordLinking') {
      const credential = state.pendingCredential;
      return call(state, {
        kind: 'passwordSignInAndLink',
        email: state.email,
        password: event.password,
        credential,
      });
    }
    const link = state.upgradeUid !== null;
    return call(state, { kind: 'passwordSignIn', email: state.email, password: event.password, link });
  },
  GO_TO_RECOVERY: (state) => {
    if (state.card !== 'passwordSignIn' && state.card !== 'passwordLinking') return same(state);
    return go(state, { card: 'passwordRecovery', email: state.email });
  },
  GO_TO_SIGN_UP: (state, _event, ctx) => {
    const emailOption = emailOptionOf(optionsOf(state, ctx));
    if (state.card !== 'passwordSignIn' || !state.offerSignUp || !emailOption) return same(state);
    return go(state, {
      card: 'passwordSignUp',
      email: state.email,
      requireName: emailOption.requireDisplayName,
    });
  },
  SUBMIT_SIGN_UP: onSubmitSignUp,
  SUBMIT_RECOVERY: (state, event) => {
    if (state.card !== 'passwordRecovery') return same(state);
    const { typed, email, invalid } = typedEmail(state, event.email);
    if (invalid) return fail(typed, invalid);
    return call(typed, { kind: 'sendPasswordReset', email, url: state.pageUrl });
  },
  SUBMIT_PHONE: onSubmitPhone,
  SUBMIT_CODE: (state, event) => {
    if (state.card !== 'phoneCode') return same(state);
    const invalid = validateCode(event.code, undefined);
    if (invalid) return fail(state, invalid);
    const { verificationId } = state;
    return call(state, {
      kind: 'confirmPhone',
      verificationId,
      code: event.code.trim(),
      link: state.upgradeUid !== null,
    });
  },
  RESEND_CODE: (state) => {
    if (state.card === 'secondFactorCode' && state.factor.kind === 'phone' && state.resendIn <= 0) {
      const { challenge, factor } = state;
      return call(state, {
        kind: 'startSecondFactor',
        challenge,
        factorUid: factor.uid,
        sms: true,
        verifier: null,
      });
    }
    if (state.card !== 'phoneCode' || state.resendIn > 0) return same(state);
    return call(state, { kind: 'startPhone', phoneNumber: state.phoneNumber, verifier: null });
  },
  CHOOSE_SECOND_FACTOR: (state, event) => {
    if (state.card !== 'secondFactorChooser') return same(state);
    const factor = state.challenge.factors.find((f) => f.uid === event.factorUid);
    return factor ? openFactor(state, state.challenge, factor) : same(state);
  },
  SEND_SECOND_FACTOR_SMS: (state, event) => {
    if (state.card !== 'secondFactorPhone') return same(state);
    const invalid = validateCaptcha(event.captchaSolved === true);
    if (invalid) return fail(state, invalid);
    const { challenge, factor } = state;
    return call(state, {
      kind: 'startSecondFactor',
      challenge,
      factorUid: factor.uid,
      sms: true,
      verifier: event.verifier,
    });
  },
  SUBMIT_SECOND_FACTOR_CODE: (state, event) => {
    if (state.card !== 'secondFactorCode') return same(state);
    const code = typeof event.code === 'string' ? event.code.trim() : '';
    const invalid = validateCode(code, undefined);
    if (invalid) return fail(state, invalid);
    const { challenge, verificationId } = state;
    return call(state, { kind: 'finishSecondFactor', challenge, verificationId, code });
  },
  CHANGE_PHONE: (state) => {
    if (state.card !== 'phoneCode') return same(state);
    return go(state, { card: 'phoneEntry', phoneNumber: state.phoneNumber, country: state.country }, [
      { type: 'cancelTimer', name: 'resend' },
    ]);
  },
  EMAIL_NOT_RECEIVED: (state) => {
    if (state.card !== 'emailLinkSent') return same(state);
    return go(state, {
      card: 'emailNotReceived',
      email: state.email,
      pendingCredential: state.pendingCredential,
    });
  },
  RESEND_EMAIL: (state, _event, ctx) => {
    if (state.card !== 'emailNotReceived') return same(state);
    return call(state, sendEmailLinkOp(state, ctx, state.email, state.pendingCredential));
  },
  CONFIRM_EMAIL: (state, event) => {
    if (state.card !== 'emailLinkConfirmation') return same(state);
    const { typed, email, invalid } = typedEmail(state, event.email);
    if (invalid) return fail(typed, invalid);
    const upgrade = state.upgradeUid !== null;
    return call(typed, {
      kind: 'completeEmailLink',
      email,
      link: state.link,
      pendingCredential: null,
      upgrade,
    });
  },
  SIGN_IN_FEDERATED: (state, _event, ctx) => {
    if (state.card !== 'federatedSignIn' && state.card !== 'federatedLinking') return same(state);
    const option = federatedOption(optionsOf(state, ctx), state.providerId);
    if (!option) return same(state);
    const pending = state.card === 'federatedLinking' ? state.pendingCredential : null;
    return call(state, federatedOp(state, ctx, option, state.email, pending));
  },
  SEND_LINKING_EMAIL: (state, _event, ctx) => {
    if (state.card !== 'emailLinkLinking') return same(state);
    return call(state, sendEmailLinkOp(state, ctx, state.email, state.pendingCredential));
  },
  SUBMIT_NEW_PASSWORD: (state, event) => {
    if (state.card !== 'passwordReset') return same(state);
    const invalid = validateNewPassword(event.password, undefined);
    if (invalid) return fail(state, invalid);
    return call(state, { kind: 'confirmPasswordReset', code: state.code, password: event.password });
  },
  CONTINUE: (state, _event, ctx) => onContinue(state, ctx),
  RETRY: (state, _event, ctx) => {
    if (state.card !== 'recoverableError') return same(state);
    return state.retry ? call(state, state.retry, { card: 'spinner' }) : firstCard(state, ctx);
  },
  CANCEL: (state, _event, ctx) => onCancel(state, ctx),
  SIGN_OUT: (state) => {
    if (state.card !== 'signedIn' && state.card !== 'providerChooser') return same(state);
    return call(state, { kind: 'signOut' }, { card: 'spinner' });
  },
  SIGN_IN_AGAIN: (state, _event, ctx) => (state.card === 'signOut' ? firstCard(state, ctx) : same(state)),
};

function onUiEvent(state: FlowState, event: FlowEvent, ctx: FlowContext): TransitionResult {
  const handler = (UI_EVENTS as Partial<Record<string, UiHandler<UiEventType>>>)[event.type];
  return handler ? handler(state, event as Extract<FlowEvent, { type: UiEventType }>, ctx) : same(state);
}

function onContinue(state: FlowState, ctx: FlowContext): TransitionResult {
  switch (state.card) {
    case 'emailMismatch':
      return succeed(state, state.result);
    case 'recoveryEmailSent':
      return go(state, {
        card: 'passwordSignIn',
        email: state.email,
        offerSignUp:
          !ctx.capabilities.reliableSignInMethodLookup &&
          !emailOptionOf(optionsOf(state, ctx))?.disableSignUp,
      });
    case 'passwordResetSuccess':
    case 'emailVerificationSuccess':
    case 'verifyAndChangeEmailSuccess': {
      // Checked again here: a continue URL only ever leaves through safeRedirect.
      const url = safeRedirect(state.continueUrl, ctx.config.allowedOrigins);
      return url ? [state, [{ type: 'redirect', url }]] : firstCard(state, ctx);
    }
    case 'emailChangeRevoked':
    case 'revertSecondFactorAdditionSuccess':
      return call(state, {
        kind: 'sendPasswordReset',
        email: (state as { email: string | null }).email ?? '',
        url: state.pageUrl,
      });
    default:
      return same(state);
  }
}

function onCancel(state: FlowState, ctx: FlowContext): TransitionResult {
  if (state.pending && state.card !== 'spinner') return same(state);
  switch (state.card) {
    case 'spinner':
    case 'signedIn':
    case 'passwordReset':
    case 'passwordResetSuccess':
    case 'passwordResetFailure':
    case 'emailVerificationSuccess':
    case 'emailVerificationFailure':
    case 'verifyAndChangeEmailSuccess':
    case 'verifyAndChangeEmailFailure':
    case 'revertSecondFactorAdditionSuccess':
    case 'revertSecondFactorAdditionFailure':
    case 'emailChangeRevoked':
    case 'emailChangeRevokeFailure':
    case 'unrecoverableError':
      return same(state);
    case 'providerChooser':
      if (state.chooseTenant || !ctx.config.tenants || ctx.config.tenants.length < 2) return same(state);
      return go({ ...state, tenantChosen: false }, { card: 'providerChooser', chooseTenant: true });
    case 'passwordRecovery':
      return go(state, {
        card: 'passwordSignIn',
        email: state.email,
        offerSignUp:
          !ctx.capabilities.reliableSignInMethodLookup &&
          !emailOptionOf(optionsOf(state, ctx))?.disableSignUp,
      });
    case 'emailMismatch':
      return call(state, { kind: 'signOut' });
    case 'secondFactorChooser':
    case 'secondFactorPhone':
    case 'secondFactorCode':
      return call(state, { kind: 'cancelSecondFactor', challenge: state.challenge });
    case 'phoneCode':
      return go(state, { card: 'phoneEntry', phoneNumber: state.phoneNumber, country: state.country }, [
        { type: 'cancelTimer', name: 'resend' },
      ]);
    case 'emailNotReceived':
      return go(state, {
        card: 'emailLinkSent',
        email: state.email,
        pendingCredential: state.pendingCredential,
      });
    default: {
      const [next, effects] = firstCard(state, ctx);
      // Going back from a card to itself (single-option widgets) must not loop.
      return next.card === state.card ? same(state) : [next, effects];
    }
  }
}

/**
 * The flow's transition function. Pure: the same state, event and context always give the same result.
 * Unknown or out-of-place events leave the state as it is (same object, no effects).
 */
export function transition(state: FlowState, event: FlowEvent, ctx: FlowContext): TransitionResult {
  switch (event.type) {
    case 'START':
      return startTransition(state, event, ctx) as TransitionResult;
    case 'PROVIDER_RESOLVED':
      if (!state.pending || state.pending.id !== event.id) return same(state);
      return resolved(state, ctx, state.pending.op, event.result);
    case 'PROVIDER_REJECTED':
      if (!state.pending || state.pending.id !== event.id) return same(state);
      return rejected(state, ctx, state.pending.op, event.error);
    case 'PASSKEY_AUTOFILLED':
      // Only where the autofill runs and nothing else is under way.
      if (state.card !== 'emailEntry' || state.pending || !isSignInResult(event.result)) return same(state);
      return succeed(state, event.result);
    case 'PASSKEY_AUTOFILL_FAILED': {
      const { code } = event.error;
      if (state.card !== 'emailEntry' || state.pending) return same(state);
      // The passkey was right and the account has a second factor: asked for, as after the button.
      if (code === 'second-factor-required') return askSecondFactor(state, ctx, event.error.challenge);
      // Dismissed, or no autofill in this browser: the email form is still there, nothing to say.
      return code === 'user-cancelled' || code === 'passkeys-unsupported' ? same(state) : fail(state, code);
    }
    case 'TIMER':
      return onTimer(state, event.name);
    case 'CALLBACK_RESULT': {
      if (state.card !== 'signedIn' || state.redirect !== null) return same(state);
      const redirect = event.redirect && state.redirectUrl !== null;
      const next: FlowState = { ...state, redirect };
      return [
        next,
        redirect && state.elapsed && state.redirectUrl ? [{ type: 'redirect', url: state.redirectUrl }] : [],
      ];
    }
    default:
      // A person's event while a call is in flight would start a second call: ignore it (double submit).
      if (state.pending && event.type !== 'CANCEL') return same(state);
      return onUiEvent(state, event, ctx);
  }
}

function onTimer(state: FlowState, name: 'busy' | 'resend' | 'success'): TransitionResult {
  switch (name) {
    case 'busy':
      return state.pending && !state.busy ? [{ ...state, busy: true }, []] : same(state);
    case 'resend': {
      if ((state.card !== 'phoneCode' && state.card !== 'secondFactorCode') || state.resendIn <= 0) {
        return same(state);
      }
      const resendIn = state.resendIn - 1;
      const next: StateOf<'phoneCode' | 'secondFactorCode'> = { ...state, resendIn };
      return [next, resendIn > 0 ? [{ type: 'startTimer', name: 'resend', ms: 1000 }] : []];
    }
    case 'success': {
      if (state.card !== 'signedIn' || state.elapsed) return same(state);
      const next: FlowState = { ...state, elapsed: true };
      return [
        next,
        state.redirect === true && state.redirectUrl ? [{ type: 'redirect', url: state.redirectUrl }] : [],
      ];
    }
  }
}
