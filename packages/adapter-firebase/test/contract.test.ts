// The shared AuthProvider contract (@doorway/testing) against the Firebase Auth emulator, twice: with
// email enumeration protection off (reliable lookups) and on (the enumeration-safe variants).
//
// Left out on purpose, so those contract groups are gated off by their titles:
// - `inspect.idp`: the SDK's popup/redirect load apis.google.com, which cannot run offline. The
//   Firebase side of federated sign-in runs through `federatedCredential` instead.
// - TOTP second factors: the emulator refuses TOTP enrolment (`mfaEnrollment:start` without
//   `phoneEnrollmentInfo` answers INVALID_ARGUMENT "Missing phoneEnrollmentInfo"), so the provider here
//   declares `secondFactors: ['phone']` and the authenticator-app group is gated off. The TOTP code runs
//   on the real SDK against a fake Identity Toolkit in second-factors.unit.test.ts.
//
// Passkeys: the app's passkey server (`createPasskeyServer`) answers the provider through an injected
// fetch, the ceremonies run on the software authenticator of @doorway/testing.

import type { AuthCredential } from '@doorway/auth-core';
import {
  type ContractEmailKind,
  type ContractHarness,
  type ContractUserInput,
  runProviderContract,
} from '@doorway/testing';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { FacebookAuthProvider, GithubAuthProvider, signInWithCredential } from 'firebase/auth';
import { afterAll } from 'vitest';
import { toFirebaseCredential } from '../src/index.ts';
import { createFirebaseServer, createPasskeyServer } from '../src/server.ts';
import {
  actionCode,
  clearAccounts,
  createAccount,
  createTenant,
  freshAuth,
  freshProvider,
  lastSmsCode,
  type OobCode,
  oobCodes,
  PROJECT_ID,
  setDisabled,
  setEmailEnumerationProtection,
  verifyEmailOf,
} from './emulator.ts';

// The app's passkey server, served to the provider through an injected fetch (no HTTP server).
const ORIGIN = 'http://localhost';
const passkeyServer = createPasskeyServer({
  auth: createFirebaseServer({ projectId: PROJECT_ID }).adminAuth,
  rpId: 'localhost',
  rpName: 'Doorway',
  origins: [ORIGIN],
  // The shared contract lists a user's passkeys after a removal with the same sign-in; ending the
  // sessions on removal (the default) is tested in passkey-server.test.ts and passkey-writes.unit.test.ts.
  endSessionsOnRemoval: false,
});
const servePasskeys: typeof fetch = (input, init) =>
  passkeyServer.handle(new Request(new URL(String(input), ORIGIN), init));

const tenantIds = [
  await createTenant({ displayName: 'contract-a' }),
  await createTenant({ displayName: 'contract-b' }),
] as const;

const KIND_TO_REQUEST: Record<ContractEmailKind, OobCode['requestType']> = {
  signIn: 'EMAIL_SIGNIN',
  resetPassword: 'PASSWORD_RESET',
  verifyEmail: 'VERIFY_EMAIL',
  recoverEmail: 'RECOVER_EMAIL',
  verifyAndChangeEmail: 'VERIFY_AND_CHANGE_EMAIL',
};

/** A credential the emulator accepts: an unsigned JSON id token (OIDC/Google) or access token (OAuth 2). */
function federatedCredential(providerId: string, identity: { sub: string; email: string }): AuthCredential {
  const claims = JSON.stringify({ sub: identity.sub, email: identity.email });
  return providerId === FacebookAuthProvider.PROVIDER_ID || providerId === GithubAuthProvider.PROVIDER_ID
    ? { kind: 'federated', providerId, accessToken: claims }
    : { kind: 'federated', providerId, idToken: claims };
}

async function createHarness(enumerationProtection: boolean): Promise<ContractHarness> {
  await setEmailEnumerationProtection(enumerationProtection);
  const authenticator = createSoftAuthenticator({ origin: ORIGIN });
  const { provider, dispose } = freshProvider({
    emailEnumerationProtection: enumerationProtection,
    // Facebook first: it is not a trusted email provider, so a same-email password account raises
    // account-exists-with-different-credential (a verified Google email takes the account over instead).
    federatedProviders: ['facebook.com', 'google.com'],
    // The emulator has SMS second factors only (see the top of this file).
    secondFactors: ['phone'],
    passkeys: { endpoint: '/passkeys', fetch: servePasskeys, webAuthnClient: authenticator },
  });
  // The harness creates users for the suite; action codes are sent by signing in as them.
  const passwords = new Map<string, string>();

  async function createUser(user: ContractUserInput): Promise<string> {
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

  return {
    provider,
    inspect: {
      async lastEmailLink(email, kind) {
        const requestType = KIND_TO_REQUEST[kind];
        const codes = (await oobCodes()).filter((c) => c.email === email && c.requestType === requestType);
        return codes.at(-1)?.oobLink ?? null;
      },
      async lastSmsCode(phoneNumber) {
        try {
          return (await lastSmsCode(phoneNumber)).code;
        } catch {
          return null;
        }
      },
      createUser,
      async actionCode(email, kind, extra) {
        const password = passwords.get(email);
        if (password === undefined) return null;
        // The emulator keeps no "changed to" address on RECOVER_EMAIL codes, so checkActionCode cannot
        // report `previousEmail` as Firebase does; recoverEmail is covered by action-codes.test.ts.
        if (kind === 'recoverEmail') return null;
        const request = KIND_TO_REQUEST[kind] as
          | 'VERIFY_EMAIL'
          | 'PASSWORD_RESET'
          | 'VERIFY_AND_CHANGE_EMAIL';
        const account: Parameters<typeof actionCode>[1] = { email, password };
        if (extra?.newEmail !== undefined) account.newEmail = extra.newEmail;
        return (await actionCode(request, account)).oobCode;
      },
      federatedCredential,
      solvedVerifier: () => provider.createCaptchaVerifier(null),
      disableUser: (uid) => setDisabled(uid, true),
      // Firebase enrols second factors only on verified emails.
      verifyEmail: (email) => verifyEmailOf(email),
      authenticator,
    },
    async dispose() {
      await dispose();
      await Promise.all([clearAccounts(), ...tenantIds.map((id) => clearAccounts(id))]);
    },
  };
}

// The protected run leaves protection on: back to the emulator default for the next file.
afterAll(() => setEmailEnumerationProtection(false));

runProviderContract({
  name: 'adapter-firebase (emulator, enumeration protection off)',
  create: () => createHarness(false),
  tenantIds,
});

runProviderContract({
  name: 'adapter-firebase (emulator, enumeration protection on)',
  create: () => createHarness(true),
  tenantIds,
});
