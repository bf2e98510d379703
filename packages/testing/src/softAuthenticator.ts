/**
 * A software authenticator for tests: a `WebAuthnClient` that answers registrations with a real `none`
 * attestation and assertions signed by an ES256 key made with WebCrypto, holding discoverable credentials
 * (passkeys) as a platform authenticator would. It checks the RP id against its page's origin as a
 * browser does, and lets a test tamper with the next answer (cancel, replay, another origin, a counter that
 * does not move). Encoding through `@simplewebauthn/server/helpers` (CBOR, COSE, base64url); Node only.
 * @module
 */
import { createHash, KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  WebAuthnAuthenticationJSON,
  WebAuthnClient,
  WebAuthnCreationOptionsJSON,
  WebAuthnGetOptions,
  WebAuthnRegistrationJSON,
  WebAuthnRequestOptionsJSON,
} from '@doorway/auth-core';
import { cose, isoBase64URL, isoCBOR, isoUint8Array } from '@simplewebauthn/server/helpers';

/** A credential the authenticator holds (no key material). */
export interface SoftCredential {
  /** The credential id, base64url. */
  id: string;
  rpId: string;
  /** The relying party's user handle (`user.id` at registration), base64url. */
  userHandle: string;
  /** The signature counter of its last answer. */
  signCount: number;
  backedUp: boolean;
}

/** Options of {@link createSoftAuthenticator}. */
export interface SoftAuthenticatorOptions {
  /** The page's origin the ceremonies run on (default `http://localhost`). */
  origin?: string;
  /** Whether new credentials are synced passkeys (backup eligible and backed up; default `true`). */
  backedUp?: boolean;
  /** Whether the authenticator verifies the person (the UV flag; default `true`). */
  userVerified?: boolean;
  /**
   * Called when a ceremony has been asked, before the authenticator answers: where a test moves a clock
   * (the person takes their time) or looks at the options.
   */
  onCeremony?: (
    kind: 'create' | 'get',
    options: WebAuthnCreationOptionsJSON | WebAuthnRequestOptionsJSON,
  ) => void | Promise<void>;
}

/** A software authenticator: a `WebAuthnClient` plus the controls a test tampers with. */
export interface SoftAuthenticator extends WebAuthnClient {
  /** The page's origin its ceremonies run on. */
  readonly origin: string;
  /** The credentials it holds, oldest first. */
  credentials(): SoftCredential[];
  /** Forgets a credential, as when the person deletes the passkey from their device. */
  forget(id: string): void;
  /** The next `get` picks this credential (default: the newest of the RP id). */
  choose(id: string): void;
  /** The next ceremony rejects with a `DOMException` of `name` (default `NotAllowedError`: dismissed). */
  cancelNext(name?: string): void;
  /** The next `get` returns the last assertion again, byte for byte (a replay). */
  replayNext(): void;
  /** The next answer says it was made on `origin`, with no RP id check (an assertion relayed from elsewhere). */
  originNext(origin: string): void;
  /** The next assertion repeats the last signature counter (a cloned authenticator). */
  holdCounterNext(): void;
  /** The last assertion it made, or `null`. */
  lastAssertion(): WebAuthnAuthenticationJSON | null;
}

/** Bytes backed by a plain `ArrayBuffer`, as the helpers take them. */
type Bytes = ReturnType<Uint8Array['slice']>;

interface HeldCredential extends SoftCredential {
  privateKey: KeyObject;
  cosePublicKey: Bytes;
}

interface Tamper {
  cancel: string | null;
  replay: boolean;
  origin: string | null;
  holdCounter: boolean;
  chosen: string | null;
}

// Authenticator data flags (WebAuthn §6.1).
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;
const ES256 = -7;

const sha256 = (data: Bytes): Bytes => new Uint8Array(createHash('sha256').update(data).digest());
const b64url = (data: Bytes): string => isoBase64URL.fromBuffer(data);

function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

/** Whether a page on `origin` may use `rpId`: its host or a parent domain of it, over https or localhost. */
export function rpIdFitsOrigin(rpId: string, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === 'localhost');
  return secure && (url.hostname === rpId || url.hostname.endsWith(`.${rpId}`));
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Bytes {
  return isoUint8Array.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function flagsOf(credential: HeldCredential, userVerified: boolean, attested: boolean): number {
  let flags = FLAG_UP;
  if (userVerified) flags |= FLAG_UV;
  if (credential.backedUp) flags |= FLAG_BE | FLAG_BS;
  if (attested) flags |= FLAG_AT;
  return flags;
}

function counterBytes(count: number): Bytes {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, count);
  return bytes;
}

/** Authenticator data: RP id hash, flags, counter and, at registration, the attested credential. */
function authenticatorData(credential: HeldCredential, flags: number, attested: boolean): Bytes {
  const parts = [sha256(isoUint8Array.fromUTF8String(credential.rpId)), new Uint8Array([flags])];
  parts.push(counterBytes(credential.signCount));
  if (attested) {
    const id = isoBase64URL.toBuffer(credential.id);
    const length = new Uint8Array([id.length >> 8, id.length & 0xff]);
    parts.push(new Uint8Array(16), length, id, credential.cosePublicKey);
  }
  return isoUint8Array.concat(parts);
}

/** A new ES256 key pair (WebCrypto), its private half for signing and its public half as a COSE key. */
async function newKey(): Promise<{ privateKey: KeyObject; cosePublicKey: Bytes }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const coseKey = new Map<number, number | Bytes>([
    [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
    [cose.COSEKEYS.alg, cose.COSEALG.ES256],
    [cose.COSEKEYS.crv, cose.COSECRV.P256],
    [cose.COSEKEYS.x, isoBase64URL.toBuffer(jwk.x ?? '')],
    [cose.COSEKEYS.y, isoBase64URL.toBuffer(jwk.y ?? '')],
  ]);
  return { privateKey: KeyObject.from(pair.privateKey), cosePublicKey: isoCBOR.encode(coseKey) };
}

/** The ECDSA signature (DER, as WebAuthn carries it) over authenticator data and the client data's hash. */
function signAssertion(credential: HeldCredential, authData: Bytes, data: Bytes): Bytes {
  const signed = isoUint8Array.concat([authData, sha256(data)]);
  return new Uint8Array(sign('sha256', signed, { key: credential.privateKey, dsaEncoding: 'der' }));
}

/**
 * Creates a software authenticator whose ceremonies run on `options.origin`: hand it to the adapter as its
 * `WebAuthnClient`, and to the contract harness as `inspect.authenticator`.
 * @example
 * const authenticator = createSoftAuthenticator({ origin: 'http://localhost' });
 * const provider = createFakeProvider({ webAuthnClient: authenticator });
 */
export function createSoftAuthenticator(options: SoftAuthenticatorOptions = {}): SoftAuthenticator {
  const origin = options.origin ?? 'http://localhost';
  const held: HeldCredential[] = [];
  const tamper: Tamper = { cancel: null, replay: false, origin: null, holdCounter: false, chosen: null };
  let last: WebAuthnAuthenticationJSON | null = null;
  const ceremony = { origin, options, held, tamper };
  return {
    origin,
    credentials: () =>
      held.map(({ id, rpId, userHandle, signCount, backedUp }) => ({
        id,
        rpId,
        userHandle,
        signCount,
        backedUp,
      })),
    forget: (id) => {
      const at = held.findIndex((c) => c.id === id);
      if (at !== -1) held.splice(at, 1);
    },
    choose: (id) => {
      tamper.chosen = id;
    },
    cancelNext: (name = 'NotAllowedError') => {
      tamper.cancel = name;
    },
    replayNext: () => {
      tamper.replay = true;
    },
    originNext: (other) => {
      tamper.origin = other;
    },
    holdCounterNext: () => {
      tamper.holdCounter = true;
    },
    lastAssertion: () => last,
    create: (creation, signal) => register(ceremony, creation, signal),
    get: async (request, how) => {
      last = await assert(ceremony, request, how, last);
      return last;
    },
  };
}

interface Ceremony {
  origin: string;
  options: SoftAuthenticatorOptions;
  held: HeldCredential[];
  tamper: Tamper;
}

/** Takes the tampering of the next answer: the page's origin it claims, and whether to check the RP id. */
async function begin(
  c: Ceremony,
  kind: 'create' | 'get',
  options: WebAuthnCreationOptionsJSON | WebAuthnRequestOptionsJSON,
  rpId: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const { tamper } = c;
  const cancel = tamper.cancel;
  const claimed = tamper.origin;
  tamper.cancel = null;
  tamper.origin = null;
  if (signal?.aborted) throw domError('AbortError', 'The ceremony was aborted.');
  if (claimed === null && !rpIdFitsOrigin(rpId, c.origin)) {
    throw domError('SecurityError', `The RP id ${rpId} is not valid for ${c.origin}.`);
  }
  await c.options.onCeremony?.(kind, options);
  if (cancel !== null) throw domError(cancel, 'The operation either timed out or was not allowed.');
  if (signal?.aborted) throw domError('AbortError', 'The ceremony was aborted.');
  return claimed ?? c.origin;
}

/** `navigator.credentials.create()`: a new discoverable ES256 credential with a `none` attestation. */
async function register(
  c: Ceremony,
  options: WebAuthnCreationOptionsJSON,
  signal: AbortSignal | undefined,
): Promise<WebAuthnRegistrationJSON> {
  const rpId = options.rp.id ?? new URL(c.origin).hostname;
  const origin = await begin(c, 'create', options, rpId, signal);
  if (!options.pubKeyCredParams.some((p) => p.alg === ES256)) {
    throw domError('NotSupportedError', 'No supported algorithm.');
  }
  const excluded = new Set((options.excludeCredentials ?? []).map((d) => d.id));
  if (c.held.some((h) => h.rpId === rpId && excluded.has(h.id))) {
    throw domError('InvalidStateError', 'The authenticator already holds one of these credentials.');
  }
  const credential: HeldCredential = {
    id: b64url(new Uint8Array(randomBytes(16))),
    rpId,
    userHandle: options.user.id,
    signCount: 0,
    backedUp: c.options.backedUp ?? true,
    ...(await newKey()),
  };
  // One discoverable credential per RP id and user: a new one replaces the old.
  const same = c.held.findIndex((h) => h.rpId === rpId && h.userHandle === credential.userHandle);
  if (same !== -1) c.held.splice(same, 1);
  c.held.push(credential);
  const authData = authenticatorData(
    credential,
    flagsOf(credential, c.options.userVerified ?? true, true),
    true,
  );
  const attestation = new Map<string, string | Bytes | Map<string, string>>([
    ['fmt', 'none'],
    ['attStmt', new Map<string, string>()],
    ['authData', authData],
  ]);
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
      attestationObject: b64url(isoCBOR.encode(attestation)),
      transports: ['internal', 'hybrid'],
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
}

/** The credential a `get` uses: the chosen one, else an allowed one, else the newest of the RP id. */
function pick(c: Ceremony, rpId: string, request: WebAuthnRequestOptionsJSON): HeldCredential {
  const chosen = c.tamper.chosen;
  c.tamper.chosen = null;
  const allowed = new Set((request.allowCredentials ?? []).map((d) => d.id));
  const usable = c.held.filter((h) => h.rpId === rpId && (allowed.size === 0 || allowed.has(h.id)));
  const credential = chosen === null ? usable.at(-1) : usable.find((h) => h.id === chosen);
  // A browser with no passkey to offer leaves the person only "Cancel".
  if (credential === undefined) throw domError('NotAllowedError', 'No credential available.');
  return credential;
}

/** `navigator.credentials.get()`: an assertion signed by a held credential (or, tampered, a replay). */
async function assert(
  c: Ceremony,
  request: WebAuthnRequestOptionsJSON,
  how: WebAuthnGetOptions,
  last: WebAuthnAuthenticationJSON | null,
): Promise<WebAuthnAuthenticationJSON> {
  const rpId = request.rpId ?? new URL(c.origin).hostname;
  const replay = c.tamper.replay;
  c.tamper.replay = false;
  const origin = await begin(c, 'get', request, rpId, how.signal);
  if (replay && last !== null) return structuredClone(last);
  const credential = pick(c, rpId, request);
  if (c.tamper.holdCounter) c.tamper.holdCounter = false;
  else credential.signCount += 1;
  const flags = flagsOf(credential, c.options.userVerified ?? true, false);
  const authData = authenticatorData(credential, flags, false);
  const data = clientData('webauthn.get', request.challenge, origin);
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    response: {
      clientDataJSON: b64url(data),
      authenticatorData: b64url(authData),
      signature: b64url(signAssertion(credential, authData, data)),
      userHandle: credential.userHandle,
    },
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
  };
}
