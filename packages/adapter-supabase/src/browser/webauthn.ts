/**
 * The browser's `WebAuthnClient` for passkeys: auth-core's client over `@simplewebauthn/browser`, the
 * library loaded by a dynamic `import()` on the first ceremony so that it stays out of the chunks a page
 * loads first. Tests (and hosts without WebAuthn) inject another client (`webAuthn.client`). And whether the
 * supabase-js client has its passkeys on.
 * @module
 */
import type { WebAuthnClient } from '@doorway/auth-core';
import { createLibraryWebAuthnClient } from '@doorway/auth-core/webauthn';
import type { GoTrueClient } from '@supabase/supabase-js';

/**
 * A `WebAuthnClient` over the browser's `navigator.credentials` (`startRegistration` / `startAuthentication`
 * of `@simplewebauthn/browser`). Where there is no WebAuthn it rejects with a `NotSupportedError`; the
 * browser's own errors keep their `DOMException` names.
 */
export function createBrowserWebAuthnClient(): WebAuthnClient {
  return createLibraryWebAuthnClient(() => import('@simplewebauthn/browser'));
}

/**
 * Whether supabase-js lets `auth` use passkeys (its `experimental.passkey` flag). A client whose flags
 * cannot be read is taken at its word: a call it refuses is `operation-not-allowed`.
 */
export function passkeyFlagOn(auth: GoTrueClient): boolean {
  const flags: unknown = Reflect.get(auth, 'experimental');
  if (typeof flags !== 'object' || flags === null) return true;
  return Reflect.get(flags, 'passkey') === true;
}
