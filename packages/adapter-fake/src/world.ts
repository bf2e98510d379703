/**
 * The fake's world as plain data: users, action codes, SMS sessions, sign-ins waiting for a second factor,
 * the outbox, the call log, fault switches, the fake IdP's queue, captchas and the main client session; and
 * the context every operation runs in (the world and the settings). Operations live in one module per flow.
 * @module
 */
import type {
  ActionCodeInfo,
  AuthCredential,
  AuthError,
  AuthUser,
  ProviderCapabilities,
} from '@doorway/auth-core';
import { type FakeConfig, REDIRECT_STORAGE_KEY } from './config.ts';
import type {
  FakeCall,
  FakeEmailKind,
  FakeFaults,
  FakeIdentity,
  FakeMethod,
  FakeUserRecord,
  OutboxEmail,
  OutboxSms,
} from './types.ts';
import { createCodeGenerator, createCounterIds, createWordGenerator, fail } from './util.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };

/** A user as the world stores it (the public record, writable). */
export type UserRow = Mutable<FakeUserRecord>;

/** An emailed action code. */
export interface CodeRow {
  code: string;
  kind: FakeEmailKind;
  tenantId: string | null;
  uid: string | null;
  info: ActionCodeInfo;
  /** The enrolment id (`uid`) of the second factor a revertSecondFactorAddition code removes. */
  factor: string | null;
  /** verifyAndChangeEmail from the user's own change: once applied, the old address gets a recoverEmail code. */
  recoverable?: boolean;
  expiresAt: number;
  used: boolean;
}

/** A phone verification: the SMS code sent for one `verificationId`. */
export interface SmsSession {
  phoneNumber: string;
  code: string;
  tenantId: string | null;
  expiresAt: number;
  used: boolean;
}

/**
 * A first factor that was right for an account with second factors: the sign-in it will finish as, held
 * here while the client keeps only its id (`challenge.session` is `{ pendingId }`).
 */
export interface PendingSignIn {
  uid: string;
  tenantId: string | null;
  /** The first factor's provider id, which the finished sign-in reports. */
  providerId: string;
  credential: AuthCredential | undefined;
  expiresAt: number;
}

/** A second-factor code asked for by `startSignIn` (`code` is the SMS code; `null` for TOTP). */
export interface FactorChallenge {
  pendingId: string;
  factorUid: string;
  code: string | null;
  expiresAt: number;
}

/** An enrolment in progress: a phone's SMS code (by verification id) or a TOTP secret (by enrolment id). */
export type FactorEnrollment =
  | { kind: 'phone'; uid: string; phoneNumber: string; code: string; expiresAt: number }
  | { kind: 'totp'; uid: string; secret: string };

/** Second factors in flight: pending sign-ins, their challenges, enrolments, and the secrets' source. */
export interface SecondFactorState {
  readonly pending: Map<string, PendingSignIn>;
  /** By verification id. */
  readonly challenges: Map<string, FactorChallenge>;
  readonly enrollments: Map<string, FactorEnrollment>;
  /** Seeded words for TOTP secrets, so runs are reproducible. */
  secretWords: () => number;
}

/** A passkey as the world stores it: the public record plus the COSE public key it verifies with. */
export interface PasskeyRow {
  id: string;
  uid: string;
  name: string | null;
  publicKey: ReturnType<Uint8Array['slice']>;
  counter: number;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * A ceremony waiting for its authenticator: the challenge it was given (the map's key), what it is for
 * and on which session. Taken once, when the answer comes.
 */
export interface PasskeyCeremony {
  kind: 'create' | 'get';
  /** `create`: the user adding the passkey. */
  uid: string | null;
  session: Session;
  expiresAt: number;
}

/** Passkeys by credential id, and the ceremonies in flight by challenge. */
export interface PasskeyState {
  readonly credentials: Map<string, PasskeyRow>;
  readonly ceremonies: Map<string, PasskeyCeremony>;
}

/** One captcha verifier's state. */
export interface CaptchaState {
  solved: boolean;
  cleared: boolean;
}

/**
 * One client of the backend: the tenant it selected and the user signed in on it. The provider has one;
 * a server provider opens one per request over the same users, codes and outbox.
 */
export interface Session {
  tenantId: string | null;
  currentUid: string | null;
  /** The last user handed out, so the same data keeps the same object. */
  lastUser: AuthUser | null;
  /** When the user signed in on it, in {@link sessionStamp}s: a sign-out everywhere before then ends it. */
  signedInAt: number;
}

let stamps = 0;

/** A new, ever-growing mark of time for sessions (the injected clock may stand still). */
export function sessionStamp(): number {
  stamps += 1;
  return stamps;
}

/** A failure `failNth` planned: it fires on the call whose per-method count reaches `at`. */
export interface PlannedFailure {
  method: FakeMethod;
  at: number;
  error: AuthError;
}

/** Fault switches and the one-shot failures waiting for their call. */
export interface FaultState {
  switches: FakeFaults;
  /** `failNext` failures, per method, in order. */
  readonly next: Map<FakeMethod, AuthError[]>;
  /** Calls so far per method, for `failNth`. */
  readonly counts: Map<FakeMethod, number>;
  planned: PlannedFailure[];
}

/** Everything the fake backend holds. Arrays and maps keep their identity: the outbox and log are live. */
export interface World {
  readonly users: Map<string, UserRow>;
  readonly codes: Map<string, CodeRow>;
  readonly smsSessions: Map<string, SmsSession>;
  readonly secondFactors: SecondFactorState;
  readonly passkeys: PasskeyState;
  readonly emails: OutboxEmail[];
  readonly sms: OutboxSms[];
  readonly calls: FakeCall[];
  readonly faults: FaultState;
  /** Queued IdP answers (`null`: cancelled) and popups still to block. */
  readonly idp: { readonly queue: (FakeIdentity | null)[]; popupBlocks: number };
  readonly captcha: {
    autoSolve: boolean;
    readonly live: Set<CaptchaState>;
    readonly states: WeakMap<object, CaptchaState>;
  };
  readonly listeners: Set<() => void>;
  /** Per user: sessions signed in before this {@link sessionStamp} are signed out (sign-out everywhere). */
  readonly signedOutBefore: Map<string, number>;
  /** The advertised capabilities; a new object only when enumeration protection flips. */
  capabilities: ProviderCapabilities;
  ids: (prefix: string) => string;
  smsCodes: () => string;
  /** The provider's own session (the server provider opens others). */
  readonly main: Session;
}

/** What every operation runs over: the world and the fixed settings. */
export interface FakeContext {
  readonly world: World;
  readonly config: FakeConfig;
}

/** A session with no tenant and nobody signed in. */
export const newSession = (): Session => ({
  tenantId: null,
  currentUid: null,
  lastUser: null,
  signedInAt: 0,
});

/** An empty world for `config`. */
export function createWorld(config: FakeConfig): World {
  return {
    users: new Map(),
    codes: new Map(),
    smsSessions: new Map(),
    secondFactors: newSecondFactorState(config),
    passkeys: { credentials: new Map(), ceremonies: new Map() },
    emails: [],
    sms: [],
    calls: [],
    faults: { switches: { ...config.initialFaults }, next: new Map(), counts: new Map(), planned: [] },
    idp: { queue: [], popupBlocks: 0 },
    captcha: { autoSolve: true, live: new Set(), states: new WeakMap() },
    listeners: new Set(),
    signedOutBefore: new Map(),
    capabilities: config.baseCapabilities,
    ids: createCounterIds(),
    smsCodes: createCodeGenerator(config.options.seed ?? 1),
    main: newSession(),
  };
}

const SECRET_SEED_SALT = 0x70f0a7e5;

function newSecondFactorState(config: FakeConfig): SecondFactorState {
  return {
    pending: new Map(),
    challenges: new Map(),
    enrollments: new Map(),
    secretWords: createWordGenerator((config.options.seed ?? 1) ^ SECRET_SEED_SALT),
  };
}

/** A new id: from the `createId` option, else the world's counters. */
export function nextId({ world, config }: FakeContext, prefix: 'uid' | 'oob' | 'vid'): string {
  return (config.options.createId ?? world.ids)(prefix);
}

/** Tells the subscribers something changed. */
export function notify(world: World): void {
  for (const listener of [...world.listeners]) listener();
}

/** Runs an admin change, then tells the subscribers (even when it throws). */
export function admin<T>(world: World, run: () => T): T {
  try {
    return run();
  } finally {
    notify(world);
  }
}

/**
 * Applies enumeration protection to the advertised capabilities, keeping the object's identity until it
 * flips (callers compare capabilities by identity).
 */
export function refreshCapabilities({ world, config }: FakeContext): void {
  const reliable =
    config.options.capabilities?.reliableSignInMethodLookup ?? !world.faults.switches.enumerationProtection;
  if (world.capabilities.reliableSignInMethodLookup !== reliable) {
    world.capabilities = { ...config.baseCapabilities, reliableSignInMethodLookup: reliable };
  }
}

/** Rejects with `operation-not-allowed` when a capability is off. */
export function requireCapability(enabled: boolean): void {
  if (!enabled) fail('operation-not-allowed');
}

/**
 * Forgets everything but the listeners and the captcha switch: users, codes, second factors in flight,
 * passkeys and their ceremonies, outbox, calls, IdP queue, pending redirect, faults, the main session, ids, SMS codes and secrets. The
 * caller seeds the initial users.
 */
export function resetWorld(ctx: FakeContext): void {
  const { world, config } = ctx;
  world.users.clear();
  world.codes.clear();
  world.smsSessions.clear();
  world.secondFactors.pending.clear();
  world.secondFactors.challenges.clear();
  world.secondFactors.enrollments.clear();
  world.secondFactors.secretWords = newSecondFactorState(config).secretWords;
  world.passkeys.credentials.clear();
  world.passkeys.ceremonies.clear();
  world.emails.length = 0;
  world.sms.length = 0;
  world.calls.length = 0;
  world.faults.switches = { ...config.initialFaults };
  world.faults.next.clear();
  world.faults.planned = [];
  world.faults.counts.clear();
  world.idp.queue.length = 0;
  world.idp.popupBlocks = 0;
  world.captcha.live.clear();
  world.signedOutBefore.clear();
  world.main.tenantId = null;
  world.main.currentUid = null;
  world.ids = createCounterIds();
  world.smsCodes = createCodeGenerator(config.options.seed ?? 1);
  config.storage.removeItem(REDIRECT_STORAGE_KEY);
  refreshCapabilities(ctx);
}
