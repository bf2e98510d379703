// The shared AuthProvider contract (@doorway/testing) on the server's form provider
// (`createFirebaseServer(...).formProvider()`, Identity Toolkit REST) against the Auth emulator, twice: with
// email enumeration protection off (reliable lookups) and on (the enumeration-safe variants). The browser
// provider's run is contract.test.ts; the inspection of the emulator is the same (contract-inspect.ts).
//
// What the server cannot do is off as the form provider declares it (phone, popup, redirect, captcha,
// passkeys), and the emulator has SMS second factors only (as in contract.test.ts), which the form provider
// runs with no captcha. Beyond its capabilities, `skip` names what it leaves to the browser, each with the
// reason (reported as skipped): the tests that sign in or link through `signInWithCredential` /
// `linkWithCredential` or link an email link to the signed-in user, which need the browser's session.
import { type ContractHarness, runProviderContract } from '@doorway/testing';
import { afterAll } from 'vitest';
import { createFirebaseServer } from '../src/server.ts';
import { clearAllAccounts, emulatorInspect } from './contract-inspect.ts';
import { createTenant, PROJECT_ID, setEmailEnumerationProtection } from './emulator.ts';

const tenantIds = [
  await createTenant({ displayName: 'form-contract-a' }),
  await createTenant({ displayName: 'form-contract-b' }),
] as const;

async function createHarness(enumerationProtection: boolean): Promise<ContractHarness> {
  await setEmailEnumerationProtection(enumerationProtection);
  const server = createFirebaseServer({
    projectId: PROJECT_ID,
    emailEnumerationProtection: enumerationProtection,
    federatedProviders: ['facebook.com', 'google.com'],
    secondFactors: ['phone'],
  });
  const provider = server.formProvider();
  return {
    provider,
    inspect: emulatorInspect(() => ({
      kind: 'none',
      render: async () => {},
      isSolved: () => true,
      clear: () => {},
    })),
    dispose: () => clearAllAccounts(tenantIds),
  };
}

// The protected run leaves protection on: back to the emulator default for the next file.
afterAll(() => setEmailEnumerationProtection(false));

const BROWSER_CREDENTIALS =
  'signInWithCredential and linkWithCredential are browser-only on the server (operation-not-allowed); the form ' +
  'path signs in with the method a credential stands for (form-provider.test.ts)';
const BROWSER_UPGRADE =
  "upgrading an anonymous user links a credential to the browser's session, which the server does not hold";
const BROWSER_FEDERATED = 'federated sign-in and linking need the browser (popup, redirect or credential)';
const BROWSER_ENROLMENT =
  'the form provider leaves second-factor enrolment and removal to the browser (javascript-required); its ' +
  'second-factor sign-in runs in second-factors.test.ts';

/** What the form provider leaves to the browser, by the contract's group and test titles. */
const skip: Record<string, string> = {
  'signInWithCredential - should sign in with a password credential': BROWSER_CREDENTIALS,
  'signInWithCredential - should reject wrong-password for a password credential with a wrong password':
    BROWSER_CREDENTIALS,
  'signInWithCredential - should sign in with an emailLink credential': BROWSER_CREDENTIALS,
  'upgrade with a password (capability: password)': BROWSER_UPGRADE,
  'upgrade with an email link (capability: emailLink)': BROWSER_UPGRADE,
  'upgrade with a federated credential (capability: federated, hook: federatedCredential)': BROWSER_UPGRADE,
  'federated credentials (capability: federated, hook: federatedCredential)': BROWSER_FEDERATED,
  'SMS second factor (secondFactors: phone)': BROWSER_ENROLMENT,
  'secondFactors.unenroll - should remove the factor from the list; password sign-in then needs none':
    BROWSER_ENROLMENT,
  'secondFactors.cancelSignIn - should leave nobody signed in': BROWSER_ENROLMENT,
  'secondFactors.startPhoneEnrollment - should reject requires-recent-login with nobody signed in':
    BROWSER_ENROLMENT,
};

runProviderContract({
  name: 'adapter-firebase form provider (emulator, enumeration protection off)',
  create: () => createHarness(false),
  tenantIds,
  skip,
});

runProviderContract({
  name: 'adapter-firebase form provider (emulator, enumeration protection on)',
  create: () => createHarness(true),
  tenantIds,
  skip,
});
