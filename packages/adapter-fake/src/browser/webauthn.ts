/**
 * The browser's `WebAuthnClient`: auth-core's client over `@simplewebauthn/browser`, the library loaded by a
 * dynamic `import()` on the first ceremony so that it stays out of the chunks a page loads first.
 * @module
 */
import type { WebAuthnClient } from '@doorway/auth-core';
import { createLibraryWebAuthnClient } from '@doorway/auth-core/webauthn';

/**
 * A `WebAuthnClient` over the browser's `navigator.credentials` (`startRegistration` /
 * `startAuthentication` of `@simplewebauthn/browser`). Where there is no WebAuthn it rejects with a
 * `NotSupportedError`; the browser's own errors keep their `DOMException` names.
 */
export function createBrowserWebAuthnClient(): WebAuthnClient {
  return createLibraryWebAuthnClient(() => import('@simplewebauthn/browser'));
}
