/**
 * The JSON the passkey server (`@doorway/adapter-firebase/server`, `createPasskeyServer`) and the browser
 * provider's `passkeys` exchange, and the routes under the server's mount point. Types and constants
 * only: the browser side imports neither firebase-admin nor a WebAuthn library.
 *
 * | Route (under the mount point)      | Bearer ID token | Body                              | Answer                      |
 * | ---------------------------------- | --------------- | --------------------------------- | --------------------------- |
 * | `POST /registration/options`       | yes             | —                                 | {@link PasskeyCeremonyStart} |
 * | `POST /registration/verify`        | yes             | {@link PasskeyRegistrationVerify} | {@link PasskeyAdded}        |
 * | `POST /authentication/options`     | no              | —                                 | {@link PasskeyCeremonyStart} |
 * | `POST /authentication/verify`      | no              | {@link PasskeyAuthenticationVerify} | {@link PasskeySignedIn}   |
 * | `GET /credentials`                 | yes             | —                                 | {@link PasskeyList}         |
 * | `DELETE /credentials/<id>`         | yes             | —                                 | 204, no body                |
 *
 * A refusal answers a 4xx (5xx for `generic`) with {@link PasskeyErrorBody}.
 * @module
 */
import type {
  ErrorCode,
  PasskeyInfo,
  WebAuthnAuthenticationJSON,
  WebAuthnCreationOptionsJSON,
  WebAuthnRegistrationJSON,
  WebAuthnRequestOptionsJSON,
} from '@doorway/auth-core';

/** The routes under the passkey server's mount point. */
export const PASSKEY_ROUTES = {
  registrationOptions: '/registration/options',
  registrationVerify: '/registration/verify',
  authenticationOptions: '/authentication/options',
  authenticationVerify: '/authentication/verify',
  credentials: '/credentials',
} as const;

/** A ceremony's options, and the id its answer is posted back with. */
export interface PasskeyCeremonyStart<Options> {
  challengeId: string;
  options: Options;
}

/** The answer of `POST /registration/options`. */
export type PasskeyRegistrationStart = PasskeyCeremonyStart<WebAuthnCreationOptionsJSON>;
/** The answer of `POST /authentication/options`. */
export type PasskeyAuthenticationStart = PasskeyCeremonyStart<WebAuthnRequestOptionsJSON>;

/** The body of `POST /registration/verify`. */
export interface PasskeyRegistrationVerify {
  challengeId: string;
  response: WebAuthnRegistrationJSON;
  /** A name for the passkey ("Laptop"); trimmed, cut to 32 characters. */
  name?: string;
}

/** The answer of `POST /registration/verify`. */
export interface PasskeyAdded {
  passkey: PasskeyInfo;
}

/** The body of `POST /authentication/verify`. */
export interface PasskeyAuthenticationVerify {
  challengeId: string;
  response: WebAuthnAuthenticationJSON;
}

/** The answer of `POST /authentication/verify`: a firebase-admin custom token for the passkey's user. */
export interface PasskeySignedIn {
  customToken: string;
}

/** The answer of `GET /credentials`: the user's passkeys, oldest first. */
export interface PasskeyList {
  passkeys: PasskeyInfo[];
}

/**
 * A refusal: a catalogue code (`passkey-limit` when a new passkey would not fit in the user's custom
 * claims).
 */
export interface PasskeyErrorBody {
  error: { code: ErrorCode };
}
