/**
 * The browser's `WebAuthnClient` without a library: WebAuthn Level 3's JSON methods
 * (`PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`, and the
 * credential's `toJSON()`) around `navigator.credentials`. Where a browser lacks them (or WebAuthn, or
 * passkey autofill for a conditional `get`) it rejects with a `NotSupportedError`; a host that must
 * reach such browsers passes a client of its own (e.g. over `@simplewebauthn/browser`).
 * @module
 */
import type {
  WebAuthnAuthenticationJSON,
  WebAuthnClient,
  WebAuthnCreationOptionsJSON,
  WebAuthnRegistrationJSON,
  WebAuthnRequestOptionsJSON,
} from '@doorway/auth-core';

/** The Level 3 statics of `PublicKeyCredential` this client needs (typed here: not every DOM lib has them). */
interface PublicKeyCredentialLevel3 {
  parseCreationOptionsFromJSON?(options: WebAuthnCreationOptionsJSON): unknown;
  parseRequestOptionsFromJSON?(options: WebAuthnRequestOptionsJSON): unknown;
  isConditionalMediationAvailable?(): Promise<boolean>;
}

interface CredentialsContainerLike {
  create(options: { publicKey: unknown; signal?: AbortSignal }): Promise<unknown>;
  get(options: { publicKey: unknown; mediation?: string; signal?: AbortSignal }): Promise<unknown>;
}

function unsupported(what: string): never {
  throw new DOMException(`${what} is not supported in this browser.`, 'NotSupportedError');
}

/** `PublicKeyCredential` and `navigator.credentials`, or a `NotSupportedError`. */
function webAuthn(): { statics: PublicKeyCredentialLevel3; credentials: CredentialsContainerLike } {
  const scope = globalThis as {
    PublicKeyCredential?: PublicKeyCredentialLevel3;
    navigator?: { credentials?: CredentialsContainerLike };
  };
  const statics = scope.PublicKeyCredential;
  const credentials = scope.navigator?.credentials;
  if (statics === undefined || credentials === undefined) unsupported('WebAuthn');
  return { statics, credentials };
}

/** The credential's JSON form (`toJSON()`, WebAuthn Level 3). */
function toJSON<T>(credential: unknown): T {
  if (credential === null || typeof credential !== 'object' || !('toJSON' in credential)) {
    return unsupported('WebAuthn JSON');
  }
  return (credential as { toJSON(): T }).toJSON();
}

/** A {@link WebAuthnClient} over the browser's `navigator.credentials` and WebAuthn Level 3's JSON methods. */
export function createNativeWebAuthnClient(): WebAuthnClient {
  return {
    async create(options, signal) {
      const { statics, credentials } = webAuthn();
      if (statics.parseCreationOptionsFromJSON === undefined) unsupported('WebAuthn JSON');
      const publicKey = statics.parseCreationOptionsFromJSON(options);
      const request = signal === undefined ? { publicKey } : { publicKey, signal };
      return toJSON<WebAuthnRegistrationJSON>(await credentials.create(request));
    },
    async get(options, { conditional, signal }) {
      const { statics, credentials } = webAuthn();
      if (statics.parseRequestOptionsFromJSON === undefined) unsupported('WebAuthn JSON');
      if (conditional && !(await statics.isConditionalMediationAvailable?.()))
        unsupported('Passkey autofill');
      const publicKey = statics.parseRequestOptionsFromJSON(options);
      const mediation = conditional ? 'conditional' : 'optional';
      const request = signal === undefined ? { publicKey, mediation } : { publicKey, mediation, signal };
      return toJSON<WebAuthnAuthenticationJSON>(await credentials.get(request));
    },
  };
}
