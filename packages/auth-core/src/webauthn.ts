/**
 * The WebAuthn ceremony as plain JSON (WebAuthn Level 3's `*JSON` dictionaries), and the client that runs
 * it: what passkey sign-in and registration ask of the browser, and the catalogue code a ceremony's
 * rejection means. auth-core runs no ceremony and imports no WebAuthn library; adapters inject a
 * {@link WebAuthnClient} (a browser's, or a software authenticator in tests).
 * @module
 */
import type { ErrorCode } from './messages.ts';

/** Binary data as base64url without padding, as the JSON forms carry it. */
export type Base64URLString = string;

/** How a credential's authenticator is reached. */
export type WebAuthnAttachment = 'platform' | 'cross-platform';

/** Whether the authenticator must check the person (PIN, biometrics). */
export type WebAuthnUserVerification = 'required' | 'preferred' | 'discouraged';

/** A credential the ceremony allows or excludes, by id. */
export interface WebAuthnCredentialDescriptorJSON {
  id: Base64URLString;
  type: string;
  transports?: string[];
}

/** What `navigator.credentials.create()` is asked, as JSON (a registration). */
export interface WebAuthnCreationOptionsJSON {
  rp: { name: string; id?: string };
  user: { id: Base64URLString; name: string; displayName: string };
  challenge: Base64URLString;
  pubKeyCredParams: { alg: number; type: 'public-key' }[];
  timeout?: number;
  excludeCredentials?: WebAuthnCredentialDescriptorJSON[];
  authenticatorSelection?: {
    authenticatorAttachment?: WebAuthnAttachment;
    requireResidentKey?: boolean;
    residentKey?: 'required' | 'preferred' | 'discouraged';
    userVerification?: WebAuthnUserVerification;
  };
  attestation?: 'none' | 'indirect' | 'direct' | 'enterprise';
}

/** What `navigator.credentials.get()` is asked, as JSON (an assertion). */
export interface WebAuthnRequestOptionsJSON {
  challenge: Base64URLString;
  timeout?: number;
  rpId?: string;
  /** Empty or absent: any discoverable credential of the relying party (a passkey). */
  allowCredentials?: WebAuthnCredentialDescriptorJSON[];
  userVerification?: WebAuthnUserVerification;
}

/** A new credential, as JSON (`RegistrationResponseJSON`). */
export interface WebAuthnRegistrationJSON {
  id: Base64URLString;
  rawId: Base64URLString;
  type: 'public-key';
  response: {
    clientDataJSON: Base64URLString;
    attestationObject: Base64URLString;
    authenticatorData?: Base64URLString;
    transports?: string[];
    publicKeyAlgorithm?: number;
    publicKey?: Base64URLString;
  };
  authenticatorAttachment?: WebAuthnAttachment;
  clientExtensionResults: object;
}

/** A signed assertion, as JSON (`AuthenticationResponseJSON`). */
export interface WebAuthnAuthenticationJSON {
  id: Base64URLString;
  rawId: Base64URLString;
  type: 'public-key';
  response: {
    clientDataJSON: Base64URLString;
    authenticatorData: Base64URLString;
    signature: Base64URLString;
    userHandle?: Base64URLString;
  };
  authenticatorAttachment?: WebAuthnAttachment;
  clientExtensionResults: object;
}

/** How one `get` ceremony runs. */
export interface WebAuthnGetOptions {
  /** Conditional mediation: the browser offers passkeys in the autofill of a `webauthn` input. */
  conditional: boolean;
  /** Aborts the ceremony (then the client rejects with an `AbortError`). */
  signal?: AbortSignal;
}

/**
 * Runs WebAuthn ceremonies: in a browser through `navigator.credentials`, in tests a software
 * authenticator. An adapter builds the options and verifies the answers; the client only carries them to
 * an authenticator and back. It rejects as the browser does, with an error whose `name` is the
 * `DOMException` name: `NotAllowedError` (cancelled or timed out), `AbortError`, `InvalidStateError` (the
 * authenticator already holds a credential of `excludeCredentials`), `SecurityError` (the RP id does not
 * fit the page's origin), `NotSupportedError` (no WebAuthn).
 */
export interface WebAuthnClient {
  /** Registers a new credential (`navigator.credentials.create`). */
  create(options: WebAuthnCreationOptionsJSON, signal?: AbortSignal): Promise<WebAuthnRegistrationJSON>;
  /** Signs an assertion (`navigator.credentials.get`). */
  get(options: WebAuthnRequestOptionsJSON, how: WebAuthnGetOptions): Promise<WebAuthnAuthenticationJSON>;
}

/**
 * The catalogue code a {@link WebAuthnClient}'s rejection means, by its `DOMException` name: dismissed, timed
 * out or aborted (`NotAllowedError`, `AbortError`) is `user-cancelled`; no WebAuthn (`NotSupportedError`), or
 * none for this page (`SecurityError`: the relying party does not fit the page's origin, as on an IP
 * address) `passkeys-unsupported`, so the email field's passkey autofill stays quiet there instead of
 * showing an error mid-typing; an authenticator that already holds one of the user's passkeys
 * (`InvalidStateError`) `credential-already-in-use`; anything else `generic`.
 */
export function passkeyCeremonyCode(error: unknown): ErrorCode {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  switch (name) {
    case 'NotAllowedError':
    case 'AbortError':
      return 'user-cancelled';
    case 'NotSupportedError':
    case 'SecurityError':
      return 'passkeys-unsupported';
    case 'InvalidStateError':
      return 'credential-already-in-use';
    default:
      return 'generic';
  }
}
