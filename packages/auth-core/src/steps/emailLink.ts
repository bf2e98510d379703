/**
 * Sign-in by email link: sending the link, the link coming back (same device or not), confirming the
 * email on another device, and "email not received".
 * @module
 */
import { type EmailOption, emailOptionOf } from '../config.ts';
import type { EmailLinkCheck } from '../emailLinkStore.ts';
import { isRetryableError } from '../errors.ts';
import type { ProviderOp } from '../ops.ts';
import type { AuthCredential } from '../provider.ts';
import { typedEmail } from '../rules.ts';
import type { FlowState } from '../states.ts';
import { fail, isObject, isSignInResult, signInDone } from './shared.ts';
import { call, type FlowContext, go, optionsOf, type Step, same, type TransitionResult } from './step.ts';

function emailLinkUrl(state: FlowState, email: EmailOption | null): string {
  return email?.emailLinkUrl ? new URL(email.emailLinkUrl, state.pageUrl).href : state.pageUrl;
}

/** The op that emails a sign-in link (with a credential to link once it is used, when there is one). */
export function sendEmailLinkOp(
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

const LINK_OUTCOMES = new Set([
  'sameDevice',
  'otherDevice',
  'differentDevice',
  'anonymousUserMismatch',
  'sessionEnded',
]);

export const emailLink = {
  ui: {
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
      const { email, invalid } = typedEmail(event.email);
      const typed = { ...state, email } as FlowState;
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
  },
  ops: {
    sendEmailLink: {
      resolved: (state, _ctx, op) =>
        go(state, { card: 'emailLinkSent', email: op.email, pendingCredential: op.pendingCredential }),
    },
    checkEmailLink: {
      shape: (result) =>
        isObject(result) &&
        LINK_OUTCOMES.has(String(result.outcome)) &&
        (result.outcome !== 'sameDevice' || typeof result.email === 'string'),
      resolved: (state, _ctx, _op, result) => onEmailLinkCheck(state, result as EmailLinkCheck),
    },
    completeEmailLink: {
      shape: isSignInResult,
      resolved: signInDone,
      rejected: (state, _ctx, op, { code }) => {
        if (state.card === 'emailLinkConfirmation') return fail(state, code);
        return go(state, {
          card: 'recoverableError',
          message: code,
          retry: isRetryableError(code) ? op : null,
        });
      },
    },
  },
  cards: {
    emailNotReceived: {
      cancel: (state) =>
        go(state, { card: 'emailLinkSent', email: state.email, pendingCredential: state.pendingCredential }),
    },
  },
} satisfies Step;
