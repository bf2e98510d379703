/**
 * What a card's form POST carries to the server and back: the event its fields encode, and the flow state
 * sealed in its cookie.
 *
 * The form encoding of UI events ({@link formEvent}): what a card's `<form method="post">` carries, read
 * back into the event the card would have sent with JavaScript on.
 *
 * Sealing ({@link sealState}, {@link openState}, {@link createSealer}): a value encrypted and authenticated
 * with a key derived from the host's secret (AES-256-GCM over WebCrypto, so it runs in Node 20 and in edge
 * runtimes alike), so a client can carry it but neither read nor change it. The form path keeps its flow
 * state in a cookie sealed this way. A sealed value is bound to its purpose (the cookie's name: in the key
 * derivation and as the cipher's additional data), so it opens for nothing else, and it carries the time
 * its flow began: it stops opening {@link SEALED_STATE_TTL_MS} after that, however often it was sealed
 * again since.
 * @module
 */
import { ConfigError } from './config.ts';
import type { FlowEvent, UI_EVENT_TYPES } from './events.ts';

// The event a card's form carries.

/** An event a person's action produces (one of `UI_EVENT_TYPES`): what a card sends. */
export type UiEvent = Extract<FlowEvent, { type: (typeof UI_EVENT_TYPES)[number] }>;

/** The form fields of the encoding, with the longest value each may have. */
const FIELD_LIMITS = {
  email: 320,
  password: 4096,
  name: 256,
  providerId: 256,
  tenantId: 256,
  factorUid: 256,
  code: 32,
} as const;

type Field = keyof typeof FIELD_LIMITS;

/** What a form offers: `URLSearchParams`, or `FormData` (whose values may also be files). */
type FormLike = Pick<URLSearchParams, 'getAll'> | Pick<FormData, 'getAll'>;

/** Thrown inside the decoder when a field is over its limit; never escapes {@link formEvent}. */
const TOO_LONG = Symbol('too long');

function lastString(form: FormLike, name: string): string | null {
  const values: readonly unknown[] = form.getAll(name);
  const last = values[values.length - 1];
  return typeof last === 'string' ? last : null;
}

function field(form: FormLike, name: Field): string {
  const value = lastString(form, name) ?? '';
  if (value.length > FIELD_LIMITS[name]) throw TOO_LONG;
  return value;
}

function decode(form: FormLike, type: string): UiEvent | null {
  switch (type) {
    case 'CHOOSE_TENANT': {
      // The default tenant travels as the empty string.
      const tenantId = field(form, 'tenantId');
      return { type, tenantId: tenantId === '' ? null : tenantId };
    }
    case 'CHOOSE_PROVIDER':
      return { type, providerId: field(form, 'providerId') };
    case 'SUBMIT_EMAIL':
    case 'SUBMIT_RECOVERY':
    case 'CONFIRM_EMAIL':
      return { type, email: field(form, 'email') };
    case 'SUBMIT_PASSWORD':
    case 'SUBMIT_NEW_PASSWORD':
      return { type, password: field(form, 'password') };
    case 'SUBMIT_SIGN_UP':
      return {
        type,
        email: field(form, 'email'),
        name: field(form, 'name'),
        password: field(form, 'password'),
      };
    case 'CHOOSE_SECOND_FACTOR':
      return { type, factorUid: field(form, 'factorUid') };
    case 'SUBMIT_SECOND_FACTOR_CODE':
      return { type, code: field(form, 'code') };
    case 'GO_TO_RECOVERY':
    case 'GO_TO_SIGN_UP':
    case 'CHANGE_PHONE':
    case 'EMAIL_NOT_RECEIVED':
    case 'RESEND_EMAIL':
    case 'SEND_LINKING_EMAIL':
    case 'CONTINUE':
    case 'RETRY':
    case 'CANCEL':
    case 'SIGN_OUT':
    case 'SIGN_IN_AGAIN':
      return { type };
    default:
      // Unknown types, and the events only a browser can send (SUBMIT_PHONE, SUBMIT_CODE, RESEND_CODE,
      // SEND_SECOND_FACTOR_SMS, SIGN_IN_FEDERATED: captcha, popup), decode to nothing.
      return null;
  }
}

/**
 * Reads the UI event a posted card form carries (the form encoding of the form path). The LAST `event`
 * value names the event (a named submit button comes after the form's hidden `event` input); each field
 * is the last value of its name (`email`, `password`, `name`, `providerId`, `tenantId`, `factorUid`, `code`), a string, `''`
 * when missing. Values are passed on as typed: the transition trims and validates them, as it does for the
 * browser's cards. A default tenant (`tenantId: null`) is posted as `''`.
 *
 * Returns `null` for no event, an unknown one, an event only a browser can send (`SUBMIT_PHONE`,
 * `SUBMIT_CODE`, `RESEND_CODE`, `SIGN_IN_FEDERATED`), or a field longer than its limit (email 320,
 * password 4096, name, provider, tenant and factor ids 256, a second factor's code 32 characters: cut short,
 * they would be another address or password). Pure; never throws.
 * @example
 * formEvent(new URLSearchParams('event=SUBMIT_EMAIL&email=ada%40example.com'))
 * // { type: 'SUBMIT_EMAIL', email: 'ada@example.com' }
 */
export function formEvent(form: URLSearchParams | FormData): UiEvent | null {
  try {
    const type = lastString(form, 'event');
    return type === null ? null : decode(form, type);
  } catch {
    return null;
  }
}

// The flow state sealed in the form path's cookie.

/** How long a sealed value stays valid, counted from the start of its flow (not its last sealing): 1 hour, in ms. */
export const SEALED_STATE_TTL_MS = 60 * 60 * 1000;
/** The fewest random bytes a secret must encode. */
export const MIN_SECRET_BYTES = 32;

const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Sealed values longer than this are not ours (a cookie holds about 4 kB).
const MAX_SEALED_LENGTH = 8192;
// HKDF's salt: fixed, not secret; it only has to be non-empty and Doorway's own.
const SALT = 'doorway sealed state salt v2';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The secret or secrets a value is sealed with: the first seals, every one opens (rotation). */
export type SealingSecret = string | readonly string[];

/** Options of {@link sealState} and {@link openState}. */
export interface SealOptions {
  /**
   * The secret, or the current one followed by older ones still accepted. Each must encode at least 32
   * random bytes as base64, base64url or hex (`openssl rand -base64 48`); see {@link sealingSecretProblem}.
   */
  secret: SealingSecret;
  /** What the value is for (a cookie's name): a value sealed for one purpose opens for no other. */
  purpose: string;
  /** The time now, in epoch ms. */
  now: number;
}

/**
 * Why `secret` cannot seal, or `null` when it can: it must encode at least {@link MIN_SECRET_BYTES} random
 * bytes as base64 or base64url (43+ characters) or hex (64+ digits). HKDF is not a password hash, so a
 * phrase a person made up is refused, however long; so is an encoding whose characters are too few or
 * too alike to have come from a random source.
 * @example sealingSecretProblem('correct horse battery staple, but longer') // 'must be random: …'
 */
export function sealingSecretProblem(secret: unknown): string | null {
  const problem = `must be random: at least ${MIN_SECRET_BYTES} bytes from a secure random source, encoded as base64, base64url or hex (make one with \`openssl rand -base64 48\`)`;
  if (typeof secret !== 'string') return problem;
  const distinct = new Set(secret).size;
  if (/^[0-9a-fA-F]+$/.test(secret)) {
    // 64 random hex digits use nearly all 16 of them.
    return secret.length >= MIN_SECRET_BYTES * 2 && distinct >= 10 ? null : problem;
  }
  const body = secret.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9+/_-]+$/.test(body) || Math.floor((body.length * 6) / 8) < MIN_SECRET_BYTES)
    return problem;
  // 43+ random base64 characters all but surely mix cases and use many distinct ones; words do not.
  return /[a-z]/.test(body) && /[A-Z]/.test(body) && distinct >= 16 ? null : problem;
}

/**
 * Throws {@link ConfigError} (option `secret`, or `secret[i]` in a list) unless every secret passes
 * {@link sealingSecretProblem} and there is at least one. Hosts call it (through `createServerFlow`) once
 * at setup, so a weak secret fails at start, not per request.
 */
export function assertSealingSecret(secret: unknown): asserts secret is SealingSecret {
  const list: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0) throw new ConfigError('secret', 'must hold at least one secret');
  list.forEach((s, i) => {
    const problem = sealingSecretProblem(s);
    if (problem !== null) throw new ConfigError(Array.isArray(secret) ? `secret[${i}]` : 'secret', problem);
  });
}

/** The first secret, then the older ones. */
function secretsOf(secret: SealingSecret): readonly string[] {
  return typeof secret === 'string' ? [secret] : secret;
}

/** The AES-GCM key of one secret for one purpose (HKDF-SHA-256, fixed salt, the purpose in `info`). */
async function deriveKey(secret: string, purpose: string): Promise<CryptoKey> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: encoder.encode(SALT),
      info: encoder.encode(`doorway sealed state ${VERSION}\0${purpose}`),
    },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** What {@link Sealer.open} gives back: the value and when its flow began. */
export interface Opened {
  value: unknown;
  /** When the flow began (epoch ms): the value stops opening {@link SEALED_STATE_TTL_MS} after it. */
  startedAt: number;
}

/** Seals and opens values for one purpose with one set of secrets; keys are derived once. */
export interface Sealer {
  /** Seals `value` (JSON-serialisable) for a flow that began at `startedAt`. */
  seal(value: unknown, startedAt: number): Promise<string>;
  /**
   * Opens what `seal` sealed (with any of the secrets, for this purpose). `null` when it is malformed,
   * tampered with, sealed with another secret or for another purpose, or its flow began
   * {@link SEALED_STATE_TTL_MS} or more before `now`. Never throws.
   */
  open(sealed: unknown, now: number): Promise<Opened | null>;
}

/**
 * A {@link Sealer} for `purpose`. Throws {@link ConfigError} at once for a secret that is not random
 * enough ({@link assertSealingSecret}); the keys are derived on first use.
 */
export function createSealer(secret: SealingSecret, purpose: string): Sealer {
  assertSealingSecret(secret);
  const secrets = secretsOf(secret);
  const additionalData = encoder.encode(`doorway sealed state ${VERSION}\0${purpose}`);
  let keys: Promise<CryptoKey[]> | null = null;
  const keysOf = () => {
    keys ??= Promise.all(secrets.map((s) => deriveKey(s, purpose)));
    return keys;
  };
  return {
    async seal(value, startedAt) {
      const [key] = await keysOf();
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const plain = encoder.encode(JSON.stringify({ start: startedAt, value }));
      const cipher = new Uint8Array(
        await globalThis.crypto.subtle.encrypt(
          { name: 'AES-GCM', iv, additionalData },
          key as CryptoKey,
          plain,
        ),
      );
      const out = new Uint8Array(IV_BYTES + cipher.length);
      out.set(iv);
      out.set(cipher, IV_BYTES);
      return `${VERSION}.${toBase64Url(out)}`;
    },
    async open(sealed, now) {
      try {
        const bytes = sealedBytes(sealed);
        if (!bytes) return null;
        for (const key of await keysOf()) {
          const plain = await decrypt(bytes, key, additionalData);
          if (plain !== null) return readPayload(plain, now);
        }
        return null;
      } catch {
        return null;
      }
    },
  };
}

/** The IV, ciphertext and tag of a sealed string, or `null` when it is not one of ours. */
function sealedBytes(sealed: unknown): Uint8Array<ArrayBuffer> | null {
  if (typeof sealed !== 'string' || sealed.length > MAX_SEALED_LENGTH) return null;
  const [version, body, extra] = sealed.split('.');
  if (version !== VERSION || body === undefined || extra !== undefined) return null;
  const bytes = fromBase64Url(body);
  return bytes && bytes.length >= IV_BYTES + TAG_BYTES ? bytes : null;
}

async function decrypt(
  bytes: Uint8Array<ArrayBuffer>,
  key: CryptoKey,
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(
      await globalThis.crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData },
        key,
        bytes.subarray(IV_BYTES),
      ),
    );
  } catch {
    return null; // another key, or not ours
  }
}

function readPayload(plain: Uint8Array, now: number): Opened | null {
  const payload: unknown = JSON.parse(decoder.decode(plain));
  if (typeof payload !== 'object' || payload === null) return null;
  const { start, value } = payload as { start?: unknown; value?: unknown };
  if (typeof start !== 'number' || !Number.isFinite(start) || !(now < start + SEALED_STATE_TTL_MS))
    return null;
  return { value: value ?? null, startedAt: start };
}

/**
 * Seals a JSON-serialisable value for `options.purpose`: AES-256-GCM with a key derived from the first
 * secret (HKDF-SHA-256), a random 12-byte IV, the purpose as additional data, base64url, `v2.` first. The
 * value stops opening an hour after `startedAt` (default `options.now`: the flow begins now); to seal a
 * flow again, pass the `startedAt` {@link openState} handed back, so its lifetime does not slide. Throws
 * {@link ConfigError} for a secret that is not random enough.
 * @example
 * const options = { secret: process.env.FLOW_SECRET!, purpose: 'doorway_flow', now: Date.now() };
 * const sealed = await sealState({ card: 'emailEntry' }, options);
 * await openState(sealed, options); // { value: { card: 'emailEntry' }, startedAt: options.now }
 */
export async function sealState(
  value: unknown,
  options: SealOptions & { startedAt?: number },
): Promise<string> {
  return createSealer(options.secret, options.purpose).seal(value, options.startedAt ?? options.now);
}

/**
 * Opens what {@link sealState} sealed for the same purpose with one of the secrets: the value and when its
 * flow began. `null` when the input is malformed, tampered with, sealed with another secret or for another
 * purpose, or its flow began an hour or more before `now` (or a secret is not random enough). Never throws.
 */
export async function openState(sealed: unknown, options: SealOptions): Promise<Opened | null> {
  let sealer: Sealer;
  try {
    sealer = createSealer(options.secret, options.purpose);
  } catch {
    return null;
  }
  return sealer.open(sealed, options.now);
}
