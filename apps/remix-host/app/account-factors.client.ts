/**
 * The account card's provider when its operations run on the server (`POST /account/second-factors`, see
 * `account-factors.server.ts`): authenticator apps only, each call a same-origin JSON POST that the
 * session cookie authorises; a refusal comes back as the same catalogue error the provider gave.
 * @module
 */
import {
  AuthError,
  type SecondFactorInfo,
  type SecondFactorOperations,
  type TotpEnrollment,
} from '@doorway/auth-core';
import type { AccountProvider } from '@doorway/ui-cards/account';
import { postAccountCall } from './account-calls.client.ts';
import { ACCOUNT_FACTORS_PATH } from './public-config.ts';

const post = <T>(body: Record<string, unknown>) => postAccountCall<T>(ACCOUNT_FACTORS_PATH, body);

const browserOnly = async (): Promise<never> => {
  throw new AuthError('operation-not-allowed');
};

const operations: SecondFactorOperations = {
  list: () => post<SecondFactorInfo[]>({ op: 'list' }),
  startTotpEnrollment: () => post<TotpEnrollment>({ op: 'startTotpEnrollment' }),
  finishTotpEnrollment: (enrollmentId, code, displayName) =>
    post<SecondFactorInfo>({ op: 'finishTotpEnrollment', enrollmentId, code, displayName }),
  unenroll: async (factorUid) => {
    await post<null>({ op: 'unenroll', factorUid });
  },
  // A sign-in's challenge is the widget's, and texting a code needs the browser's captcha.
  startSignIn: browserOnly,
  finishSignIn: browserOnly,
  cancelSignIn: async () => undefined,
  startPhoneEnrollment: browserOnly,
  finishPhoneEnrollment: browserOnly,
};

/** The account card's provider on the server's operations. */
export const serverAccountProvider: AccountProvider = {
  capabilities: { secondFactors: ['totp'] },
  secondFactors: operations,
  createCaptchaVerifier: () => {
    throw new AuthError('operation-not-allowed');
  },
};
