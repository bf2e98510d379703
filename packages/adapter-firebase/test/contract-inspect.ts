// The backend inspection the provider contract (@doorway/testing) reads the Auth emulator through: shared by
// the browser provider's contract run (contract.test.ts) and the form provider's (form-contract.test.ts).
import type { AuthCredential, CaptchaVerifier } from '@doorway/auth-core';
import type {
  ContractAuthenticator,
  ContractEmailKind,
  ContractInspect,
  ContractUserInput,
} from '@doorway/testing';
import { FacebookAuthProvider, GithubAuthProvider, signInWithCredential } from 'firebase/auth';
import { toFirebaseCredential } from '../src/index.ts';
import {
  actionCode,
  clearAccounts,
  createAccount,
  freshAuth,
  lastSmsCode,
  type OobCode,
  oobCodes,
  setDisabled,
  verifyEmailOf,
} from './emulator.ts';

const KIND_TO_REQUEST: Record<ContractEmailKind, OobCode['requestType']> = {
  signIn: 'EMAIL_SIGNIN',
  resetPassword: 'PASSWORD_RESET',
  verifyEmail: 'VERIFY_EMAIL',
  recoverEmail: 'RECOVER_EMAIL',
  verifyAndChangeEmail: 'VERIFY_AND_CHANGE_EMAIL',
};

/** A credential the emulator accepts: an unsigned JSON id token (OIDC/Google) or access token (OAuth 2). */
export function federatedCredential(
  providerId: string,
  identity: { sub: string; email: string },
): AuthCredential {
  const claims = JSON.stringify({ sub: identity.sub, email: identity.email });
  return providerId === FacebookAuthProvider.PROVIDER_ID || providerId === GithubAuthProvider.PROVIDER_ID
    ? { kind: 'federated', providerId, accessToken: claims }
    : { kind: 'federated', providerId, idToken: claims };
}

/** A user created on the emulator for the suite: federated ones through a helper SDK instance. */
async function createUser(user: ContractUserInput, passwords: Map<string, string>): Promise<string> {
  if (user.federated !== undefined) {
    const helper = freshAuth();
    try {
      const credential = federatedCredential(user.federated.providerId, {
        sub: user.federated.sub,
        email: user.email ?? `${user.federated.sub}@example.com`,
      });
      return (await signInWithCredential(helper.auth, toFirebaseCredential(credential))).user.uid;
    } finally {
      await helper.dispose();
    }
  }
  if (user.email !== undefined && user.password !== undefined) passwords.set(user.email, user.password);
  const account: Parameters<typeof createAccount>[0] = {};
  if (user.email !== undefined) account.email = user.email;
  if (user.password !== undefined) account.password = user.password;
  if (user.phoneNumber !== undefined) account.phoneNumber = user.phoneNumber;
  if (user.displayName !== undefined) account.displayName = user.displayName;
  if (user.emailVerified !== undefined) account.emailVerified = user.emailVerified;
  return createAccount(account);
}

/**
 * The emulator's inspection for one harness. `solvedVerifier` is the provider's captcha verifier; the
 * passkeys group runs when `authenticator` is given.
 */
export function emulatorInspect(
  solvedVerifier: () => CaptchaVerifier,
  authenticator?: ContractAuthenticator,
): ContractInspect {
  // The harness creates users for the suite; action codes are sent by signing in as them.
  const passwords = new Map<string, string>();
  return {
    async lastEmailLink(email, kind) {
      const requestType = KIND_TO_REQUEST[kind];
      // A verify-and-change code is mailed to the new address; the emulator lists it under the old one.
      const to = (c: OobCode) => (requestType === 'VERIFY_AND_CHANGE_EMAIL' ? c.newEmail : c.email);
      const codes = (await oobCodes()).filter((c) => to(c) === email && c.requestType === requestType);
      return codes.at(-1)?.oobLink ?? null;
    },
    async lastSmsCode(phoneNumber) {
      try {
        return (await lastSmsCode(phoneNumber)).code;
      } catch {
        return null;
      }
    },
    createUser: (user) => createUser(user, passwords),
    async actionCode(email, kind, extra) {
      const password = passwords.get(email);
      if (password === undefined) return null;
      // The emulator keeps no "changed to" address on RECOVER_EMAIL codes, so checkActionCode cannot
      // report `previousEmail` as Firebase does; recoverEmail is covered by action-codes.test.ts.
      if (kind === 'recoverEmail') return null;
      const request = KIND_TO_REQUEST[kind] as 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'VERIFY_AND_CHANGE_EMAIL';
      const account: Parameters<typeof actionCode>[1] = { email, password };
      if (extra?.newEmail !== undefined) account.newEmail = extra.newEmail;
      return (await actionCode(request, account)).oobCode;
    },
    federatedCredential,
    solvedVerifier,
    disableUser: (uid) => setDisabled(uid, true),
    // Firebase enrols second factors only on verified emails.
    verifyEmail: (email) => verifyEmailOf(email),
    ...(authenticator === undefined ? {} : { authenticator }),
  };
}

/** Clears the accounts of the default project and of `tenantIds` (after each test). */
export async function clearAllAccounts(tenantIds: readonly string[]): Promise<void> {
  await Promise.all([clearAccounts(), ...tenantIds.map((id) => clearAccounts(id))]);
}
