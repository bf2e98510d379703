/**
 * The provider contract on the server's form provider (`createSupabaseServer(…).formProvider()`), against the
 * GoTrue double through `double.fetch` (a fresh double per test). Checked against the double only.
 *
 * What the server cannot do is off, as the form provider declares it (phone, popup, redirect, captcha), plus:
 * - `anonymous`: the form provider signs anonymous users in (test/form.test.ts), but the contract's anonymous
 *   group is about upgrading them (`linkWithCredential`, `signInWithEmailLink(…, { link: true })`), which needs
 *   the anonymous user's session: only the browser holds it. So the contract runs on a project with anonymous
 *   sign-ins off, where it checks that `signInAnonymously` rejects `operation-not-allowed`.
 * - `actionCodes` without `verifyAndChangeEmail`: as for the browser provider (test/contract.test.ts), Supabase
 *   does not return the previous email the contract asserts.
 * - No `federatedCredential` or `idp` hook: federated sign-in needs the browser.
 *
 * `signInWithCredential` rejects `operation-not-allowed` on the server (browser-only by the design of
 * `ServerAuthProvider`; test/form.test.ts checks it). The contract's three credential tests (a password
 * credential, a wrong one, an email-link credential) are not gated on a capability, so here they run on the
 * methods those credentials stand for, through {@link credentialsByMethod}.
 */
import type { AuthProvider } from '@doorway/auth-core';
import type { ServerAuthProvider } from '@doorway/auth-core/server';
import { createGoTrueDouble } from '@doorway/gotrue-double';
import { runProviderContract } from '@doorway/testing';
import { createSupabaseServer } from '../src/server.ts';
import { CONTRACT_PROJECT, doubleInspect } from './inspect.ts';

const ACTION_URL = 'http://localhost/__/auth/action';

/** The form provider, with password and email-link credentials signed in by their own methods. */
function credentialsByMethod(provider: ServerAuthProvider): AuthProvider {
  return {
    ...provider,
    async signInWithCredential(credential) {
      if (credential.kind === 'password') {
        return provider.signInWithEmailAndPassword(credential.email, credential.password);
      }
      if (credential.kind === 'emailLink')
        return provider.signInWithEmailLink(credential.email, credential.link);
      return provider.signInWithCredential(credential);
    },
  };
}

runProviderContract({
  name: 'adapter-supabase form provider (GoTrue double)',
  create: () => {
    const double = createGoTrueDouble({ ...CONTRACT_PROJECT, anonymousUsers: false });
    const server = createSupabaseServer({
      url: double.projectUrl,
      anonKey: double.anonKey,
      fetch: double.fetch,
    });
    const provider = server.formProvider({ actionUrl: ACTION_URL });
    const { federatedCredential: _, ...inspect } = doubleInspect(double, () => ({
      kind: 'none',
      render: async () => {},
      isSolved: () => true,
      clear: () => {},
    }));
    return { provider: credentialsByMethod(provider), inspect };
  },
  continueUrl: ACTION_URL,
  capabilities: { anonymous: false, actionCodes: ['resetPassword', 'verifyEmail'] },
});
