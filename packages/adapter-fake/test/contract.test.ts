import { type ContractHarness, runProviderContract } from '@doorway/testing';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';
import {
  createFakeProvider,
  createManualClock,
  type FakeProviderOptions,
  fakeFederatedCredential,
} from '../src/index.ts';

/** A fresh fake (on a manual clock, its passkeys on a software authenticator) wrapped as a contract harness. */
function createContractHarness(options: FakeProviderOptions = {}): ContractHarness {
  const clock = createManualClock(Date.UTC(2025, 0, 1));
  const authenticator = createSoftAuthenticator();
  const provider = createFakeProvider({ clock, webAuthn: { client: authenticator }, ...options });
  const { backend } = provider;
  return {
    provider,
    inspect: {
      now: () => clock.now(),
      lastEmailLink: async (email, kind) => backend.outbox.lastEmail(email, kind)?.link ?? null,
      lastSmsCode: async (phoneNumber) => backend.outbox.lastSms(phoneNumber)?.code ?? null,
      createUser: async (user) => backend.createUser(user),
      actionCode: async (email, kind, extra) => {
        const user = backend.findUserByEmail(email);
        if (user === null) return null;
        switch (kind) {
          case 'verifyEmail':
            return backend.sendVerificationEmail(user.uid).oobCode;
          case 'resetPassword':
            return backend.sendPasswordReset(user.uid).oobCode;
          case 'recoverEmail':
            return backend.changeEmail(user.uid, extra?.newEmail ?? `changed.${email}`).oobCode;
          case 'verifyAndChangeEmail':
            return backend.verifyAndChangeEmail(user.uid, extra?.newEmail ?? `new.${email}`).oobCode;
        }
      },
      federatedCredential: (providerId, identity) => fakeFederatedCredential(providerId, identity),
      solvedVerifier: () => provider.createCaptchaVerifier(null),
      disableUser: async (uid) => backend.updateUser(uid, { disabled: true }),
      idp: backend.idp,
      authenticator,
    },
  };
}

// The reference provider passes the whole contract, in each of its modes.
runProviderContract({ name: 'adapter-fake', create: () => createContractHarness() });

// Exercises the enumeration-safe variants (no lookup, unknown email fails like a wrong password).
runProviderContract({
  name: 'adapter-fake with email enumeration protection',
  create: () => createContractHarness({ faults: { enumerationProtection: true } }),
});

// Exercises the capability gates and the operation-not-allowed checks of a narrower provider.
runProviderContract({
  name: 'adapter-fake without anonymous, phone, federated, popup, redirect, tenants or passkeys, TOTP its only second factor',
  create: () =>
    createContractHarness({
      capabilities: {
        anonymous: false,
        phone: false,
        federated: [],
        tenants: false,
        popup: false,
        redirect: false,
        secondFactors: ['totp'],
        passkeys: false,
      },
    }),
});
