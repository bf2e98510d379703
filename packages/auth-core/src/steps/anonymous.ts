/**
 * Anonymous sign-in and its upgrade: a person signed in anonymously who signs in with a real method
 * keeps the anonymous account (linked), unless that credential already has an account of its own (a
 * merge conflict, handed to the app's `signInFailure` with the credential).
 * @module
 */
import type { ErrorInfo } from '../errors.ts';
import type { ProviderOp } from '../ops.ts';
import type { AuthCredential } from '../provider.ts';
import type { FlowState } from '../states.ts';
import { fail, isSignInResult, signInDone } from './shared.ts';
import type { Step, TransitionResult } from './step.ts';

const MERGE_CONFLICT_CODES = new Set(['email-already-in-use', 'credential-already-in-use']);

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

/** An upgrade that failed because the credential has an account already: the merge conflict, or `null`. */
export function mergeConflict(state: FlowState, op: ProviderOp, error: ErrorInfo): TransitionResult | null {
  if (state.upgradeUid === null || !MERGE_CONFLICT_CODES.has(error.code) || !isUpgradeOp(op)) return null;
  const credential = error.credential ?? credentialOf(op);
  const info: ErrorInfo = { code: 'anonymous-upgrade-merge-conflict' };
  if (credential) info.credential = credential;
  return fail(state, 'anonymous-upgrade-merge-conflict', [{ type: 'signInFailure', error: info }]);
}

export const anonymous = {
  ops: {
    anonymous: { shape: isSignInResult, resolved: signInDone },
  },
} satisfies Step;
