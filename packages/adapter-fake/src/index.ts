/**
 * `@doorway/adapter-fake`: the in-memory reference provider of Doorway. Deterministic (injected clock,
 * counter ids, seeded SMS codes and TOTP secrets), with an outbox of sent emails and SMS, a fake federated
 * IdP, tenants, anonymous users, second factors (SMS and TOTP), passkeys (WebAuthn, verified by
 * `@simplewebauthn/server`) and fault injection. For demos, the playground and consumers' tests.
 *
 * @example
 * import { createFakeProvider } from '@doorway/adapter-fake';
 * const provider = createFakeProvider();
 * provider.backend.createUser({ email: 'ada@example.com', password: 'secret1', displayName: 'Ada' });
 * const { user } = await provider.signInWithEmailAndPassword('ada@example.com', 'secret1');
 * @module
 */

export { createBrowserWebAuthnClient } from './browser/webauthn.ts';
export {
  DEFAULT_ACTION_CODE_TTL_MS,
  DEFAULT_FEDERATED_PROVIDERS,
  DEFAULT_SMS_CODE_TTL_MS,
  FAKE_IDP_URL,
  PASSKEY_CHALLENGE_TTL_MS,
  REDIRECT_STORAGE_KEY,
  SECOND_FACTOR_SIGN_IN_TTL_MS,
} from './config.ts';
export { createFakeProvider, openFakeSession } from './provider.ts';
export { createFakeServerProvider, verifyFakeSessionToken } from './server/form.ts';
export type * from './types.ts';
export { createManualClock, createMemoryStorage, fakeFederatedCredential } from './util.ts';
