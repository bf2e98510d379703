/**
 * {@link runProviderContract}: one vitest suite composed of the capability groups.
 * @module
 */
import { afterEach, beforeEach, describe, type RunnerTestSuite } from 'vitest';
import { requireValue } from './assert.ts';
import { type ContractContext, createContractContext } from './context.ts';
import { accountTests } from './groups/account.ts';
import { actionCodeTests } from './groups/actionCodes.ts';
import { anonymousTests } from './groups/anonymous.ts';
import { basicsTests } from './groups/basics.ts';
import { emailLinkTests } from './groups/emailLink.ts';
import { emailPasswordTests } from './groups/emailPassword.ts';
import { federatedCredentialTests } from './groups/federatedCredentials.ts';
import { federatedPopupTests, federatedRedirectTests } from './groups/federatedIdp.ts';
import { passkeyTests } from './groups/passkeys.ts';
import { passwordResetTests } from './groups/passwordReset.ts';
import { phoneTests } from './groups/phone.ts';
import { secondFactorTests } from './groups/secondFactors.ts';
import { signInMethodLookupTests } from './groups/signInMethodLookup.ts';
import { tenantTests } from './groups/tenants.ts';
import { skipNote, suiteTitled, unknownSkips } from './skip.ts';
import type { ContractHarness, ProviderContractOptions } from './types.ts';

// In this order, so the suite reads as it always has: basics first, tenants last.
const GROUPS: readonly ((h: ContractContext) => void)[] = [
  basicsTests,
  emailPasswordTests,
  signInMethodLookupTests,
  passwordResetTests,
  emailLinkTests,
  anonymousTests,
  phoneTests,
  secondFactorTests,
  passkeyTests,
  accountTests,
  federatedCredentialTests,
  federatedPopupTests,
  federatedRedirectTests,
  actionCodeTests,
  tenantTests,
];

/**
 * Registers the provider contract suite: one `describe` named after `options.name`, with tests named
 * `"<method> - should …"`. Call it at the top level of a `*.test.ts` file.
 *
 * Groups run only where the provider (or `options.capabilities`) declares the capability, and some need
 * an optional harness hook (`actionCode`, `federatedCredential`, `idp`, `disableUser`, `authenticator`);
 * their titles say which. The second-factor group runs the kinds `capabilities.secondFactors` lists (with
 * `password`); the passkeys group needs `capabilities.passkeys`, `password` and an `inspect.authenticator`; the
 * account group runs the operations `capabilities.account` lists (with `password`).
 * When `reliableSignInMethodLookup` is `false`, the enumeration-safe variants run instead: no lookup, and
 * an unknown email fails like a wrong password (`wrong-password`).
 *
 * `options.skip` names what the backend cannot do beyond its capabilities (a group's or a test's title,
 * with the reason): those tests are reported skipped with the reason, and a title that names no test fails
 * the suite.
 */
export function runProviderContract(options: ProviderContractOptions): void {
  describe(`${options.name} — AuthProvider contract`, async () => {
    let harness: ContractHarness | undefined;
    // Gates are decided at collection time, from one throw-away harness.
    const h = await createContractContext(options, () => requireValue(harness, 'a harness (inside a test)'));
    const skips = options.skip ?? {};
    // The suite's own describe, found from the first test (hooks' arguments differ across vitest majors;
    // a test's parents do not), and the skip titles that name nothing in it.
    let top: RunnerTestSuite | undefined;
    let unknown: string[] = [];
    beforeEach(async (context) => {
      if (top === undefined) {
        top = suiteTitled(context.task, `${options.name} — AuthProvider contract`);
        unknown = top === undefined ? Object.keys(skips) : unknownSkips(skips, top);
      }
      if (unknown.length > 0) throw new Error(`skip: no test or group is titled ${unknown.join(', ')}`);
      // A skipped test gets no harness.
      const note = skipNote(skips, context.task, top);
      if (note !== undefined) context.skip(note);
      harness = await options.create();
    });
    afterEach(async () => {
      await harness?.dispose?.();
      harness = undefined;
    });
    for (const register of GROUPS) register(h);
  });
}
