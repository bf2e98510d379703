/**
 * The provider contract against the GoTrue double (a fresh double per test). No Supabase Auth server runs
 * here: everything below is checked against the double only.
 */
import { runProviderContract } from '@doorway/testing';
import { afterAll } from 'vitest';
import { createSupabaseHarness, server } from './harness.ts';

afterAll(() => server.close());

runProviderContract({
  name: 'adapter-supabase (GoTrue double)',
  create: () => createSupabaseHarness().contract,
  continueUrl: 'http://localhost/__/auth/action',
  // Supabase links a federated identity to the account with the same verified email by itself.
  federatedAccountExistsError: false,
  capabilities: {
    // verifyAndChangeEmail is implemented and declared, but Supabase does not return the previous email after
    // an email change, which the contract's verifyAndChangeEmail test asserts (previousEmail); the adapter's
    // own tests cover the code (test/adapter.test.ts, "action codes").
    actionCodes: ['resetPassword', 'verifyEmail'],
  },
});

// The same contract with a captcha configured: the captcha groups run, and every protected request carries the
// token (the double refuses any other).
runProviderContract({
  name: 'adapter-supabase with a captcha (GoTrue double)',
  create: () => {
    let solved = true;
    return createSupabaseHarness({
      double: { captchaToken: 'double-captcha-ok' },
      settings: {
        captcha: {
          render: async () => {},
          getToken: () => (solved ? 'double-captcha-ok' : null),
          reset: () => {
            solved = true;
          },
        },
      },
    }).contract;
  },
  continueUrl: 'http://localhost/__/auth/action',
  federatedAccountExistsError: false,
  // See above.
  capabilities: { actionCodes: ['resetPassword', 'verifyEmail'] },
});
