/**
 * Action codes as the server's form provider reads them: Identity Toolkit REST answers in the operation names
 * the browser provider gives (`../shared/actionCodes.ts`).
 * @module
 */
import { type ActionCodeInfo, AuthError } from '@doorway/auth-core';
import { OPERATIONS } from '../shared/actionCodes.ts';
import { IdentityToolkitError, type OobCodeInfo } from './rest.ts';

/**
 * Our {@link ActionCodeInfo} from `accounts:resetPassword`'s answer, with the SDK's `checkActionCode`
 * checks (an answer missing what its operation needs is an internal error) and its email swap for
 * verifyAndChangeEmail (the new email / the old one).
 */
export function actionCodeInfoFromRest(info: OobCodeInfo): ActionCodeInfo {
  const type = info.requestType;
  if (!type) throw new IdentityToolkitError('auth/internal-error');
  const changing = type === 'VERIFY_AND_CHANGE_EMAIL';
  if (changing && !info.newEmail) throw new IdentityToolkitError('auth/internal-error');
  if (type === 'REVERT_SECOND_FACTOR_ADDITION' && !info.mfaInfo) {
    throw new IdentityToolkitError('auth/internal-error');
  }
  if (type !== 'EMAIL_SIGNIN' && !changing && !info.email) {
    throw new IdentityToolkitError('auth/internal-error');
  }
  const operation = Object.hasOwn(OPERATIONS, type) ? OPERATIONS[type] : undefined;
  if (operation === undefined) throw new AuthError('invalid-action-code');
  const result: ActionCodeInfo = {
    operation,
    email: (changing ? info.newEmail : info.email) || null,
    previousEmail: (changing ? info.email : info.newEmail) || null,
  };
  const factor = info.mfaInfo;
  if (factor !== undefined) {
    // The SDK knows phone and TOTP factors only.
    if (factor.phoneInfo === undefined && factor.totpInfo === undefined) {
      throw new IdentityToolkitError('auth/internal-error');
    }
    result.factor = factor.phoneInfo ?? factor.displayName ?? 'totp';
  }
  return result;
}
