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

import { type ContractHarness, runProviderContract } from '@doorway/testing';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';
import { afterAll } from 'vitest';
import { createFirebaseServer, createPasskeyServer } from '../src/server.ts';
import { clearAllAccounts, emulatorInspect } from './contract-inspect.ts';
import { createTenant, freshProvider, PROJECT_ID, setEmailEnumerationProtection } from './emulator.ts';

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
  return {
    provider,
    inspect: emulatorInspect(() => provider.createCaptchaVerifier(null), authenticator),
    async dispose() {
      await dispose();
      await clearAllAccounts(tenantIds);
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
