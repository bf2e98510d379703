/**
 * `createFakeProvider`: the in-memory reference implementation of {@link AuthProvider}.
 * @module
 */
import {
  ACTION_MODES,
  type ActionCodeInfo,
  type ActionLinkSettings,
  type AuthCredential,
  AuthError,
  type AuthErrorDetails,
  type AuthProvider,
  type AuthUser,
  type CaptchaVerifier,
  type ErrorCode,
  type FederatedOptions,
  PASSWORD_MIN_LENGTH,
  type ProviderCapabilities,
  type SignInMethod,
  type SignInResult,
} from '@doorway/auth-core';
import type {
  FakeBackend,
  FakeCall,
  FakeEmailKind,
  FakeFaults,
  FakeFederatedLink,
  FakeIdentity,
  FakeIdpRequest,
  FakeProvider,
  FakeProviderOptions,
  FakeUserInput,
  FakeUserPatch,
  FakeUserRecord,
  MethodSelector,
  OutboxEmail,
  OutboxSms,
  ProviderMethod,
} from './types.ts';
import {
  appendParams,
  createCodeGenerator,
  createCounterIds,
  createMemoryStorage,
  fakeFederatedCredential,
  identityFromCredential,
  isContinueUrl,
  isEmail,
  maskPhone,
  normalizeEmail,
  normalizePhone,
  readActionLink,
} from './util.ts';

/** Default lifetime of emailed action codes: 1 hour. */
export const DEFAULT_ACTION_CODE_TTL_MS = 60 * 60 * 1000;
/** Default lifetime of SMS codes: 5 minutes. */
export const DEFAULT_SMS_CODE_TTL_MS = 5 * 60 * 1000;
/** Federated providers of a fake created without `federatedProviders`. */
export const DEFAULT_FEDERATED_PROVIDERS: readonly string[] = ['google.com', 'github.com'];
/** Storage key of a pending redirect sign-in. */
export const REDIRECT_STORAGE_KEY = 'doorway-fake:redirect';
/** Base of the fake IdP's URL handed to `navigate` on a redirect sign-in. */
export const FAKE_IDP_URL = 'https://idp.fake.doorway.invalid/authorize';

const DEFAULT_FAULTS: FakeFaults = {
  network: false,
  rateLimit: false,
  signUpDisabled: false,
  enumerationProtection: false,
  latencyMs: 0,
};

// Local in a real SDK (no request), so blanket faults leave them alone.
const LOCAL_METHODS: readonly ProviderMethod[] = ['signOut', 'setTenant'];

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };
type UserRow = Mutable<FakeUserRecord>;

interface CodeRow {
  code: string;
  kind: FakeEmailKind;
  tenantId: string | null;
  uid: string | null;
  info: ActionCodeInfo;
  /** The raw phone number of a revertSecondFactorAddition code. */
  factor: string | null;
  expiresAt: number;
  used: boolean;
}

interface SmsSession {
  phoneNumber: string;
  code: string;
  tenantId: string | null;
  expiresAt: number;
  used: boolean;
}

interface PendingRedirect {
  providerId: string;
  link: boolean;
  tenantId: string | null;
  identity: FakeIdentity | null;
}

interface CaptchaState {
  solved: boolean;
  cleared: boolean;
}

type FederatedCredential = Extract<AuthCredential, { kind: 'federated' }>;

/**
 * One client of the backend: the tenant it selected and the user signed in on it. The provider has one;
 * a server provider opens one per request over the same users, codes and outbox.
 */
interface Session {
  tenantId: string | null;
  currentUid: string | null;
  /** The last user handed out, so the same data keeps the same object. */
  lastUser: AuthUser | null;
}

const newSession = (): Session => ({ tenantId: null, currentUid: null, lastUser: null });

/** Opens a new client session on a fake provider's backend (see {@link openFakeSession}). */
const sessionOpeners = new WeakMap<FakeProvider, () => AuthProvider>();

/**
 * A new client of the same in-memory backend as `world`: same users, codes, outbox and faults, its own
 * tenant and signed-in user. For the fake's server provider.
 */
export function openFakeSession(world: FakeProvider): AuthProvider {
  const open = sessionOpeners.get(world);
  if (open === undefined) throw new TypeError('openFakeSession: not a provider from createFakeProvider');
  return open();
}

// The storage may be shared with other code (sessionStorage), so what comes back is checked, not trusted.
function parsePendingRedirect(raw: string): PendingRedirect | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { providerId, link, tenantId, identity } = value as Record<string, unknown>;
  if (typeof providerId !== 'string' || typeof link !== 'boolean') return null;
  if (tenantId !== null && typeof tenantId !== 'string') return null;
  if (identity === null) return { providerId, link, tenantId, identity: null };
  if (typeof identity !== 'object') return null;
  const { sub, email, displayName, emailVerified } = identity as Record<string, unknown>;
  if (typeof sub !== 'string') return null;
  const parsed: FakeIdentity = { sub, emailVerified: emailVerified === true };
  if (typeof email === 'string') parsed.email = email;
  if (typeof displayName === 'string') parsed.displayName = displayName;
  return { providerId, link, tenantId, identity: parsed };
}

function findLast<T>(items: readonly T[], predicate: (item: T) => boolean): T | null {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const item = items[i];
    if (item !== undefined && predicate(item)) return item;
  }
  return null;
}

function fail(code: ErrorCode, details?: AuthErrorDetails): never {
  throw new AuthError(code, details);
}

function selects(selector: MethodSelector, method: ProviderMethod): boolean {
  if (selector === true) return !LOCAL_METHODS.includes(method);
  if (selector === false) return false;
  return selector.methods.includes(method);
}

function rateLimitCode(method: ProviderMethod): ErrorCode {
  if (method === 'createUser') return 'sign-up-too-many-requests';
  if (method === 'startPhoneSignIn') return 'phone-too-many-requests';
  return 'too-many-requests';
}

function copyUser(row: UserRow): FakeUserRecord {
  return {
    ...row,
    providerIds: [...row.providerIds],
    federated: row.federated.map((f) => ({ ...f })),
    secondFactors: [...row.secondFactors],
  };
}

function toAuthUser(row: UserRow): AuthUser {
  return {
    uid: row.uid,
    email: row.email,
    displayName: row.displayName,
    phoneNumber: row.phoneNumber,
    emailVerified: row.emailVerified,
    isAnonymous: row.isAnonymous,
    providerIds: [...row.providerIds],
    tenantId: row.tenantId,
  };
}

function sameUser(a: AuthUser, b: AuthUser): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function addProvider(row: UserRow, providerId: string): void {
  if (!row.providerIds.includes(providerId)) row.providerIds.push(providerId);
  row.isAnonymous = false;
}

/**
 * Creates an in-memory provider: the reference implementation of `AuthProvider`, deterministic (injected
 * clock, counter ids, seeded SMS codes), with an outbox, a fake IdP, tenants, anonymous users and fault
 * injection on `backend`. Use it for demos, the playground and consumers' tests.
 *
 * @example
 * const provider = createFakeProvider({ clock: createManualClock(0) });
 * provider.backend.createUser({ email: 'ada@example.com', password: 'secret1' });
 * await provider.sendPasswordResetEmail('ada@example.com');
 * const { oobCode } = provider.backend.outbox.lastEmail('ada@example.com', 'resetPassword')!;
 * await provider.confirmPasswordReset(oobCode, 'n3w-secret');
 */
export function createFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  const clock = options.clock ?? { now: () => Date.now() };
  const actionCodeTtl = options.actionCodeTtlMs ?? DEFAULT_ACTION_CODE_TTL_MS;
  const smsCodeTtl = options.smsCodeTtlMs ?? DEFAULT_SMS_CODE_TTL_MS;
  const actionUrl = options.actionUrl ?? 'http://localhost/__/auth/action';
  const storage = options.storage ?? createMemoryStorage();
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const initialFaults: FakeFaults = { ...DEFAULT_FAULTS, ...options.faults };

  let counterIds = createCounterIds();
  let smsCodes = createCodeGenerator(options.seed ?? 1);
  const createId = (prefix: 'uid' | 'oob' | 'vid'): string => (options.createId ?? counterIds)(prefix);

  const users = new Map<string, UserRow>();
  const codes = new Map<string, CodeRow>();
  const smsSessions = new Map<string, SmsSession>();
  const emails: OutboxEmail[] = [];
  const sms: OutboxSms[] = [];
  const calls: FakeCall[] = [];
  const failures = new Map<ProviderMethod, AuthError[]>();
  // failNth: the failure fires on the call whose per-method count reaches `at`.
  const callCounts = new Map<ProviderMethod, number>();
  let failuresAt: { method: ProviderMethod; at: number; error: AuthError }[] = [];
  const idpQueue: (FakeIdentity | null)[] = [];
  const captchas = new Set<CaptchaState>();
  const captchaStates = new WeakMap<object, CaptchaState>();
  const listeners = new Set<() => void>();
  let popupBlocks = 0;
  let faults: FakeFaults = { ...initialFaults };
  const main = newSession();

  const baseCapabilities: ProviderCapabilities = {
    password: true,
    emailLink: true,
    phone: true,
    anonymous: true,
    federated: [...(options.federatedProviders ?? DEFAULT_FEDERATED_PROVIDERS)],
    popup: true,
    redirect: true,
    tenants: true,
    reliableSignInMethodLookup: true,
    actionCodes: [...ACTION_MODES],
    captcha: true,
    ...options.capabilities,
  };
  let capabilities = baseCapabilities;
  // Keeps the capabilities object's identity until enumeration protection flips.
  function refreshCapabilities(): void {
    const reliable = options.capabilities?.reliableSignInMethodLookup ?? !faults.enumerationProtection;
    if (capabilities.reliableSignInMethodLookup !== reliable) {
      capabilities = { ...baseCapabilities, reliableSignInMethodLookup: reliable };
    }
  }
  refreshCapabilities();

  function notify(): void {
    for (const listener of [...listeners]) listener();
  }

  function requireCapability(enabled: boolean): void {
    if (!enabled) fail('operation-not-allowed');
  }

  // Every async method goes through here: logged, delayed, faulted, and errors normalised to AuthError.
  async function call<T>(method: ProviderMethod, run: () => T | Promise<T>): Promise<T> {
    calls.push({ method, at: clock.now() });
    const count = (callCounts.get(method) ?? 0) + 1;
    callCounts.set(method, count);
    const planned = failuresAt.find((f) => f.method === method && f.at === count);
    if (planned !== undefined) failuresAt = failuresAt.filter((f) => f !== planned);
    try {
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (planned !== undefined) throw planned.error;
      const injected = failures.get(method)?.shift();
      if (injected !== undefined) throw injected;
      if (selects(faults.network, method)) fail('network-request-failed');
      if (selects(faults.rateLimit, method)) fail(rateLimitCode(method));
      return await run();
    } catch (error) {
      throw error instanceof AuthError ? error : new AuthError('generic');
    } finally {
      notify();
    }
  }

  // ---- users ----

  function usersOf(tenant: string | null): UserRow[] {
    return [...users.values()].filter((u) => u.tenantId === tenant);
  }
  function byEmail(tenant: string | null, email: string): UserRow | undefined {
    const wanted = normalizeEmail(email);
    return usersOf(tenant).find((u) => u.email === wanted);
  }
  function byPhone(tenant: string | null, phone: string): UserRow | undefined {
    return usersOf(tenant).find((u) => u.phoneNumber === phone);
  }
  function byFederated(tenant: string | null, providerId: string, sub: string): UserRow | undefined {
    return usersOf(tenant).find((u) => u.federated.some((f) => f.providerId === providerId && f.sub === sub));
  }
  function requireUser(uid: string): UserRow {
    return users.get(uid) ?? fail('user-not-found');
  }

  function insertUser(input: FakeUserInput, tenant: string | null): UserRow {
    const email = input.email === undefined ? null : normalizeEmail(input.email);
    if (email !== null && !isEmail(email)) fail('invalid-email');
    if (email !== null && byEmail(tenant, email)) fail('email-already-in-use');
    const phone = input.phoneNumber === undefined ? null : normalizePhone(input.phoneNumber);
    if (input.phoneNumber !== undefined && phone === null) fail('invalid-phone-number');
    if (phone !== null && byPhone(tenant, phone)) fail('credential-already-in-use');
    const federated: FakeFederatedLink[] =
      input.federated === undefined
        ? []
        : Array.isArray(input.federated)
          ? [...input.federated]
          : [input.federated];
    for (const f of federated)
      if (byFederated(tenant, f.providerId, f.sub)) fail('credential-already-in-use');
    const providerIds: string[] = [];
    if (input.password !== undefined) providerIds.push('password');
    if (input.emailLink === true) providerIds.push('emailLink');
    if (phone !== null) providerIds.push('phone');
    for (const f of federated) if (!providerIds.includes(f.providerId)) providerIds.push(f.providerId);
    const row: UserRow = {
      uid: createId('uid'),
      tenantId: tenant,
      email,
      password: input.password ?? null,
      displayName: input.displayName ?? null,
      phoneNumber: phone,
      emailVerified: input.emailVerified ?? false,
      isAnonymous: input.isAnonymous ?? false,
      disabled: input.disabled ?? false,
      providerIds,
      federated: federated.map((f) => ({ providerId: f.providerId, sub: f.sub })),
      secondFactors: [],
      createdAt: clock.now(),
    };
    users.set(row.uid, row);
    return row;
  }

  // Client-side account creation: subject to signUpDisabled (the admin's createUser is not).
  function signUp(input: FakeUserInput, tenant: string | null): UserRow {
    if (faults.signUpDisabled) fail('sign-up-disabled');
    return insertUser(input, tenant);
  }

  function signInAs(
    s: Session,
    row: UserRow,
    providerId: string,
    isNewUser: boolean,
    credential?: AuthCredential,
  ): SignInResult {
    if (row.disabled) fail('user-disabled');
    s.currentUid = row.uid;
    const result: SignInResult = { user: toAuthUser(row), isNewUser, providerId };
    if (credential !== undefined) result.credential = credential;
    return result;
  }

  function currentRow(s: Session): UserRow {
    const row = s.currentUid === null ? undefined : users.get(s.currentUid);
    return row ?? fail('requires-recent-login');
  }

  function checkEmail(email: string): string {
    if (!isEmail(email)) fail('invalid-email');
    return normalizeEmail(email);
  }

  // ---- action codes ----

  function issueCode(
    tenantId: string | null,
    kind: FakeEmailKind,
    to: string,
    uid: string | null,
    info: ActionCodeInfo,
    settings: ActionLinkSettings | undefined,
    factor: string | null = null,
  ): OutboxEmail {
    if (settings !== undefined && !isContinueUrl(settings.url)) fail('invalid-continue-uri');
    const code = createId('oob');
    const owner = uid === null ? tenantId : (users.get(uid)?.tenantId ?? tenantId);
    codes.set(code, {
      code,
      kind,
      tenantId: owner,
      uid,
      info,
      factor,
      expiresAt: clock.now() + actionCodeTtl,
      used: false,
    });
    const params: Record<string, string> = { mode: kind, oobCode: code, apiKey: 'fake' };
    if (owner !== null) params.tenantId = owner;
    const email: OutboxEmail = {
      to,
      kind,
      link: appendParams(settings?.url ?? actionUrl, params),
      oobCode: code,
      sentAt: clock.now(),
      tenantId: owner,
    };
    emails.push(email);
    return email;
  }

  function lookupCode(s: Session, code: string, kinds?: readonly FakeEmailKind[]): CodeRow {
    const row = codes.get(code);
    if (row === undefined || row.used || row.tenantId !== s.tenantId) fail('invalid-action-code');
    if (kinds !== undefined && !kinds.includes(row.kind)) fail('invalid-action-code');
    if (clock.now() >= row.expiresAt) fail('expired-action-code');
    if (row.uid !== null && !users.has(row.uid)) fail('invalid-action-code');
    return row;
  }

  function codeUser(row: CodeRow): UserRow {
    return (row.uid === null ? undefined : users.get(row.uid)) ?? fail('invalid-action-code');
  }

  // ---- sign-in paths shared by several methods ----

  function passwordSignIn(s: Session, email: string, password: string): SignInResult {
    requireCapability(capabilities.password);
    const row = byEmail(s.tenantId, checkEmail(email));
    if (row === undefined) fail(faults.enumerationProtection ? 'wrong-password' : 'user-not-found');
    if (row.password === null || row.password !== password) fail('wrong-password');
    return signInAs(s, row, 'password', false);
  }

  function emailLinkCode(s: Session, email: string, link: string): { code: CodeRow; email: string } {
    const normalized = checkEmail(email);
    const params = readActionLink(link);
    if (params === null || params.mode !== 'signIn') fail('invalid-action-code');
    const code = lookupCode(s, params.oobCode, ['signIn']);
    if (code.info.email !== normalized) fail('email-mismatch');
    return { code, email: normalized };
  }

  function emailLinkSignIn(s: Session, email: string, link: string, linkToCurrent: boolean): SignInResult {
    requireCapability(capabilities.emailLink);
    const { code, email: address } = emailLinkCode(s, email, link);
    const owner = byEmail(s.tenantId, address);
    if (linkToCurrent) {
      const current = currentRow(s);
      if (owner !== undefined && owner !== current) {
        fail('email-already-in-use', {
          email: address,
          credential: { kind: 'emailLink', email: address, link },
        });
      }
      code.used = true;
      current.email = address;
      current.emailVerified = true;
      addProvider(current, 'emailLink');
      return signInAs(s, current, 'emailLink', false);
    }
    if (owner !== undefined) {
      if (owner.disabled) fail('user-disabled');
      code.used = true;
      owner.emailVerified = true;
      addProvider(owner, 'emailLink');
      return signInAs(s, owner, 'emailLink', false);
    }
    const row = signUp({ email: address, emailLink: true, emailVerified: true }, s.tenantId);
    code.used = true;
    return signInAs(s, row, 'emailLink', true);
  }

  function phoneSession(s: Session, verificationId: string, code: string): SmsSession {
    const session = smsSessions.get(verificationId);
    if (session === undefined || session.used || session.tenantId !== s.tenantId) fail('code-expired');
    if (clock.now() >= session.expiresAt) fail('code-expired');
    if (session.code !== code) fail('invalid-verification-code');
    return session;
  }

  function phoneSignIn(
    s: Session,
    verificationId: string,
    code: string,
    linkToCurrent: boolean,
  ): SignInResult {
    requireCapability(capabilities.phone);
    const session = phoneSession(s, verificationId, code);
    const owner = byPhone(s.tenantId, session.phoneNumber);
    if (linkToCurrent) {
      const current = currentRow(s);
      if (owner !== undefined && owner !== current) {
        fail('credential-already-in-use', { credential: { kind: 'phone', verificationId, code } });
      }
      session.used = true;
      current.phoneNumber = session.phoneNumber;
      addProvider(current, 'phone');
      return signInAs(s, current, 'phone', false);
    }
    if (owner !== undefined) {
      if (owner.disabled) fail('user-disabled');
      session.used = true;
      return signInAs(s, owner, 'phone', false);
    }
    const row = signUp({ phoneNumber: session.phoneNumber }, s.tenantId);
    session.used = true;
    return signInAs(s, row, 'phone', true);
  }

  function federatedSignIn(
    s: Session,
    providerId: string,
    identity: FakeIdentity,
    tenant: string | null,
    linkToCurrent: boolean,
  ): SignInResult {
    requireCapability(capabilities.federated.includes(providerId));
    const credential = fakeFederatedCredential(providerId, identity);
    const email = identity.email === undefined ? null : normalizeEmail(identity.email);
    const owner = byFederated(tenant, providerId, identity.sub);
    if (linkToCurrent) {
      const current = currentRow(s);
      if (owner !== undefined && owner !== current) {
        fail('credential-already-in-use', email === null ? { credential } : { email, credential });
      }
      if (owner === undefined) {
        if (current.federated.some((f) => f.providerId === providerId))
          fail('credential-already-in-use', { credential });
        const emailOwner = email === null ? undefined : byEmail(tenant, email);
        if (email !== null && emailOwner !== undefined && emailOwner !== current) {
          fail('email-already-in-use', { email, credential });
        }
        current.federated.push({ providerId, sub: identity.sub });
        if (current.email === null && email !== null) {
          current.email = email;
          current.emailVerified = identity.emailVerified ?? true;
        }
        if (current.displayName === null && identity.displayName !== undefined) {
          current.displayName = identity.displayName;
        }
        addProvider(current, providerId);
      }
      return signInAs(s, current, providerId, false, credential);
    }
    if (owner !== undefined) return signInAs(s, owner, providerId, false, credential);
    if (email !== null && byEmail(tenant, email) !== undefined) {
      fail('account-exists-with-different-credential', { email, credential });
    }
    const input: FakeUserInput = {
      federated: { providerId, sub: identity.sub },
      emailVerified: identity.emailVerified ?? true,
    };
    if (email !== null) input.email = email;
    if (identity.displayName !== undefined) input.displayName = identity.displayName;
    return signInAs(s, signUp(input, tenant), providerId, true, credential);
  }

  function federatedCredentialSignIn(
    s: Session,
    credential: FederatedCredential,
    linkToCurrent: boolean,
  ): SignInResult {
    requireCapability(capabilities.federated.includes(credential.providerId));
    const identity = identityFromCredential(credential) ?? fail('generic');
    return federatedSignIn(s, credential.providerId, identity, s.tenantId, linkToCurrent);
  }

  async function askIdp(
    providerId: string,
    mode: 'popup' | 'redirect',
    opts: FederatedOptions,
  ): Promise<FakeIdentity | null> {
    // An IdP vouches for the emails it returns unless told otherwise.
    const answer = await idpAnswer(providerId, mode, opts);
    return answer === null ? null : { emailVerified: true, ...answer };
  }

  async function idpAnswer(
    providerId: string,
    mode: 'popup' | 'redirect',
    opts: FederatedOptions,
  ): Promise<FakeIdentity | null> {
    if (idpQueue.length > 0) return idpQueue.shift() ?? null;
    const request: FakeIdpRequest = {
      providerId,
      mode,
      loginHint: opts.loginHint,
      scopes: opts.scopes ?? [],
      customParameters: opts.customParameters ?? {},
    };
    if (options.idp !== undefined) return options.idp(request);
    const email =
      opts.loginHint !== undefined && isEmail(opts.loginHint) ? opts.loginHint : 'fake.user@example.com';
    return {
      sub: `${providerId}:${normalizeEmail(email)}`,
      email,
      displayName: 'Fake User',
      emailVerified: true,
    };
  }

  function passwordLink(s: Session, email: string, password: string): SignInResult {
    requireCapability(capabilities.password);
    const address = checkEmail(email);
    const current = currentRow(s);
    const credential: AuthCredential = { kind: 'password', email, password };
    if (current.providerIds.includes('password'))
      fail('credential-already-in-use', { email: address, credential });
    const owner = byEmail(s.tenantId, address);
    if (owner !== undefined && owner !== current)
      fail('email-already-in-use', { email: address, credential });
    if (password.length < PASSWORD_MIN_LENGTH) fail('weak-password');
    current.email = address;
    current.password = password;
    addProvider(current, 'password');
    return signInAs(s, current, 'password', false);
  }

  // ---- backend (admin) ----

  function requireEmail(row: UserRow): string {
    return row.email ?? fail('invalid-email');
  }

  function freeEmail(email: string, tenant: string | null, except: UserRow): string {
    const address = checkEmail(email);
    const owner = byEmail(tenant, address);
    if (owner !== undefined && owner !== except) fail('email-already-in-use');
    return address;
  }

  function admin<T>(run: () => T): T {
    try {
      return run();
    } finally {
      notify();
    }
  }

  const backend: FakeBackend = {
    outbox: {
      emails,
      sms,
      lastEmail: (to, kind) => {
        const address = normalizeEmail(to);
        return findLast(
          emails,
          (e) => normalizeEmail(e.to) === address && (kind === undefined || e.kind === kind),
        );
      },
      lastSms: (to) => {
        const phone = normalizePhone(to) ?? to;
        return findLast(sms, (s) => s.to === phone);
      },
      clear: () =>
        admin(() => {
          emails.length = 0;
          sms.length = 0;
        }),
    },
    faults: {
      set: (patch) =>
        admin(() => {
          faults = { ...faults, ...patch };
          refreshCapabilities();
        }),
      get: () => ({ ...faults }),
      reset: () =>
        admin(() => {
          faults = { ...initialFaults };
          failures.clear();
          failuresAt = [];
          refreshCapabilities();
        }),
      failNext: (method, code, details) => {
        const queue = failures.get(method) ?? [];
        queue.push(new AuthError(code, details));
        failures.set(method, queue);
      },
      failNth: (method, nth, code, details) => {
        if (!Number.isInteger(nth) || nth < 1)
          throw new RangeError('failNth: nth must be a positive integer');
        const at = (callCounts.get(method) ?? 0) + nth;
        failuresAt.push({ method, at, error: new AuthError(code, details) });
      },
    },
    idp: {
      queue: (identity) => {
        idpQueue.push({ ...identity });
      },
      cancelNext: () => {
        idpQueue.push(null);
      },
      blockPopup: (times = 1) => {
        popupBlocks += times;
      },
      clear: () => {
        idpQueue.length = 0;
        popupBlocks = 0;
      },
    },
    captcha: {
      autoSolve: true,
      solve: (verifier) => {
        const state =
          typeof verifier === 'object' && verifier !== null ? captchaStates.get(verifier) : undefined;
        if (verifier !== undefined) {
          if (state !== undefined) state.solved = true;
          return;
        }
        for (const s of captchas) s.solved = true;
      },
    },
    calls,
    clearCalls: () => {
      calls.length = 0;
    },
    get tenantId() {
      return main.tenantId;
    },
    createUser: (input) =>
      admin(() => insertUser(input, input.tenantId === undefined ? main.tenantId : input.tenantId).uid),
    getUser: (uid) => {
      const row = users.get(uid);
      return row === undefined ? null : copyUser(row);
    },
    findUserByEmail: (email, tenant) => {
      const row = byEmail(tenant === undefined ? main.tenantId : tenant, email);
      return row === undefined ? null : copyUser(row);
    },
    listUsers: (tenant) => usersOf(tenant === undefined ? main.tenantId : tenant).map(copyUser),
    updateUser: (uid, patch: FakeUserPatch) =>
      admin(() => {
        const row = requireUser(uid);
        if (patch.email !== undefined)
          row.email = patch.email === null ? null : freeEmail(patch.email, row.tenantId, row);
        if (patch.phoneNumber !== undefined) {
          row.phoneNumber =
            patch.phoneNumber === null
              ? null
              : (normalizePhone(patch.phoneNumber) ?? fail('invalid-phone-number'));
        }
        if (patch.password !== undefined) {
          row.password = patch.password;
          if (patch.password !== null) addProvider(row, 'password');
        }
        if (patch.displayName !== undefined) row.displayName = patch.displayName;
        if (patch.disabled !== undefined) row.disabled = patch.disabled;
        if (patch.emailVerified !== undefined) row.emailVerified = patch.emailVerified;
      }),
    deleteUser: (uid) =>
      admin(() => {
        users.delete(uid);
        if (main.currentUid === uid) main.currentUid = null;
      }),
    sendVerificationEmail: (uid, settings) =>
      admin(() => {
        const row = requireUser(uid);
        const email = requireEmail(row);
        return issueCode(
          main.tenantId,
          'verifyEmail',
          email,
          uid,
          { operation: 'verifyEmail', email, previousEmail: null },
          settings,
        );
      }),
    sendPasswordReset: (uid, settings) =>
      admin(() => {
        const row = requireUser(uid);
        const email = requireEmail(row);
        return issueCode(
          main.tenantId,
          'resetPassword',
          email,
          uid,
          { operation: 'resetPassword', email, previousEmail: null },
          settings,
        );
      }),
    changeEmail: (uid, newEmail, settings) =>
      admin(() => {
        const row = requireUser(uid);
        const old = requireEmail(row);
        const address = freeEmail(newEmail, row.tenantId, row);
        row.email = address;
        row.emailVerified = false;
        const info: ActionCodeInfo = { operation: 'recoverEmail', email: old, previousEmail: address };
        return issueCode(main.tenantId, 'recoverEmail', old, uid, info, settings);
      }),
    verifyAndChangeEmail: (uid, newEmail, settings) =>
      admin(() => {
        const row = requireUser(uid);
        const old = requireEmail(row);
        const address = freeEmail(newEmail, row.tenantId, row);
        const info: ActionCodeInfo = {
          operation: 'verifyAndChangeEmail',
          email: address,
          previousEmail: old,
        };
        return issueCode(main.tenantId, 'verifyAndChangeEmail', address, uid, info, settings);
      }),
    addSecondFactor: (uid, phoneNumber, settings) =>
      admin(() => {
        const row = requireUser(uid);
        const email = requireEmail(row);
        const phone = normalizePhone(phoneNumber) ?? fail('invalid-phone-number');
        row.secondFactors.push(phone);
        const info: ActionCodeInfo = {
          operation: 'revertSecondFactorAddition',
          email,
          previousEmail: null,
          factor: maskPhone(phone),
        };
        return issueCode(main.tenantId, 'revertSecondFactorAddition', email, uid, info, settings, phone);
      }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    reset: () =>
      admin(() => {
        users.clear();
        codes.clear();
        smsSessions.clear();
        emails.length = 0;
        sms.length = 0;
        calls.length = 0;
        failures.clear();
        failuresAt = [];
        callCounts.clear();
        idpQueue.length = 0;
        captchas.clear();
        popupBlocks = 0;
        faults = { ...initialFaults };
        main.tenantId = null;
        main.currentUid = null;
        counterIds = createCounterIds();
        smsCodes = createCodeGenerator(options.seed ?? 1);
        storage.removeItem(REDIRECT_STORAGE_KEY);
        refreshCapabilities();
        seed();
      }),
  };

  function seed(): void {
    for (const input of options.users ?? []) insertUser(input, input.tenantId ?? null);
  }
  seed();

  // ---- the provider: a client on a session ----

  function client<T extends object>(s: Session, extra: T): AuthProvider & T {
    return {
      ...extra,
      get capabilities() {
        return capabilities;
      },

      getCurrentUser() {
        const row = s.currentUid === null ? undefined : users.get(s.currentUid);
        if (row === undefined) {
          s.lastUser = null;
          return null;
        }
        const user = toAuthUser(row);
        // Same data, same object: callers may compare snapshots by identity.
        if (s.lastUser === null || !sameUser(s.lastUser, user)) s.lastUser = user;
        return s.lastUser;
      },

      setTenant: (tenant) =>
        call('setTenant', () => {
          if (
            tenant !== null &&
            (!capabilities.tenants || (options.tenants !== undefined && !options.tenants.includes(tenant)))
          ) {
            fail('generic');
          }
          s.tenantId = tenant;
        }),

      fetchSignInMethodsForEmail: (email) =>
        call('fetchSignInMethodsForEmail', (): SignInMethod[] => {
          const address = checkEmail(email);
          if (faults.enumerationProtection) return [];
          const row = byEmail(s.tenantId, address);
          return row === undefined ? [] : row.providerIds.filter((id) => id !== 'phone');
        }),

      signInWithEmailAndPassword: (email, password) =>
        call('signInWithEmailAndPassword', () => passwordSignIn(s, email, password)),

      createUser: (email, password, displayName) =>
        call('createUser', () => {
          requireCapability(capabilities.password);
          if (faults.signUpDisabled) fail('sign-up-disabled');
          const address = checkEmail(email);
          if (password.length < PASSWORD_MIN_LENGTH) fail('weak-password');
          if (byEmail(s.tenantId, address) !== undefined) fail('email-already-in-use', { email: address });
          const input: FakeUserInput = { email: address, password };
          const name = displayName?.trim();
          if (name) input.displayName = name;
          return signInAs(s, signUp(input, s.tenantId), 'password', true);
        }),

      signInWithCredential: (credential) =>
        call('signInWithCredential', () => {
          switch (credential.kind) {
            case 'password':
              return passwordSignIn(s, credential.email, credential.password);
            case 'emailLink':
              return emailLinkSignIn(s, credential.email, credential.link, false);
            case 'phone':
              return phoneSignIn(s, credential.verificationId, credential.code, false);
            case 'federated':
              return federatedCredentialSignIn(s, credential, false);
          }
        }),

      signInWithFederated: (providerId, opts) =>
        call('signInWithFederated', async () => {
          requireCapability(capabilities.federated.includes(providerId));
          const link = opts.link === true;
          if (link) currentRow(s);
          if (opts.mode === 'popup') {
            requireCapability(capabilities.popup);
            if (popupBlocks > 0) {
              popupBlocks -= 1;
              fail('popup-blocked');
            }
            const identity = await askIdp(providerId, 'popup', opts);
            if (identity === null) fail('user-cancelled');
            return federatedSignIn(s, providerId, identity, s.tenantId, link);
          }
          requireCapability(capabilities.redirect);
          const identity = await askIdp(providerId, 'redirect', opts);
          const pending: PendingRedirect = { providerId, link, tenantId: s.tenantId, identity };
          storage.setItem(REDIRECT_STORAGE_KEY, JSON.stringify(pending));
          const params: Record<string, string> = { providerId };
          if (opts.loginHint !== undefined) params.login_hint = opts.loginHint;
          options.navigate?.(appendParams(FAKE_IDP_URL, params));
          return null;
        }),

      getRedirectResult: () =>
        call('getRedirectResult', () => {
          const raw = storage.getItem(REDIRECT_STORAGE_KEY);
          if (raw === null) return null;
          storage.removeItem(REDIRECT_STORAGE_KEY);
          const pending = parsePendingRedirect(raw);
          if (pending === null) return null;
          if (pending.identity === null) fail('user-cancelled');
          return federatedSignIn(s, pending.providerId, pending.identity, pending.tenantId, pending.link);
        }),

      signInAnonymously: () =>
        call('signInAnonymously', () => {
          requireCapability(capabilities.anonymous);
          return signInAs(s, signUp({ isAnonymous: true }, s.tenantId), 'anonymous', true);
        }),

      createCaptchaVerifier(_container: unknown): CaptchaVerifier {
        const state: CaptchaState = { solved: false, cleared: false };
        captchas.add(state);
        const verifier: CaptchaVerifier = {
          kind: 'fake',
          render: async () => {
            if (state.cleared) fail('captcha-check-failed');
          },
          isSolved: () => !state.cleared && (backend.captcha.autoSolve || state.solved),
          clear: () => {
            state.cleared = true;
            captchas.delete(state);
          },
        };
        captchaStates.set(verifier, state);
        return verifier;
      },

      startPhoneSignIn: (phoneNumber, verifier) =>
        call('startPhoneSignIn', () => {
          requireCapability(capabilities.phone);
          const phone = normalizePhone(phoneNumber) ?? fail('invalid-phone-number');
          if ((options.blockedCountryPrefixes ?? []).some((prefix) => phone.startsWith(prefix))) {
            fail('unsupported-country');
          }
          if (!verifier.isSolved()) fail('captcha-check-failed');
          const verificationId = createId('vid');
          const code = smsCodes();
          const now = clock.now();
          smsSessions.set(verificationId, {
            phoneNumber: phone,
            code,
            tenantId: s.tenantId,
            expiresAt: now + smsCodeTtl,
            used: false,
          });
          sms.push({ to: phone, code, verificationId, sentAt: now, tenantId: s.tenantId });
          return { verificationId };
        }),

      confirmPhoneCode: (verificationId, code, opts) =>
        call('confirmPhoneCode', () => phoneSignIn(s, verificationId, code, opts?.link === true)),

      sendSignInLinkToEmail: (email, settings) =>
        call('sendSignInLinkToEmail', () => {
          requireCapability(capabilities.emailLink);
          const address = checkEmail(email);
          if (!isContinueUrl(settings.url)) fail('invalid-continue-uri');
          issueCode(
            s.tenantId,
            'signIn',
            address,
            null,
            { operation: 'signIn', email: address, previousEmail: null },
            settings,
          );
        }),

      isSignInWithEmailLink(link) {
        return readActionLink(link)?.mode === 'signIn';
      },

      signInWithEmailLink: (email, link, opts) =>
        call('signInWithEmailLink', () => emailLinkSignIn(s, email, link, opts?.link === true)),

      sendPasswordResetEmail: (email, settings) =>
        call('sendPasswordResetEmail', () => {
          const address = checkEmail(email);
          if (settings !== undefined && !isContinueUrl(settings.url)) fail('invalid-continue-uri');
          const row = byEmail(s.tenantId, address);
          if (row === undefined) {
            if (faults.enumerationProtection) return;
            fail('user-not-found');
          }
          const info: ActionCodeInfo = { operation: 'resetPassword', email: address, previousEmail: null };
          issueCode(s.tenantId, 'resetPassword', address, row.uid, info, settings);
        }),

      verifyPasswordResetCode: (code) =>
        call('verifyPasswordResetCode', () => {
          const row = lookupCode(s, code, ['resetPassword']);
          return requireEmail(codeUser(row));
        }),

      confirmPasswordReset: (code, newPassword) =>
        call('confirmPasswordReset', () => {
          const row = lookupCode(s, code, ['resetPassword']);
          const user = codeUser(row);
          if (newPassword.length < PASSWORD_MIN_LENGTH) fail('weak-password');
          row.used = true;
          user.password = newPassword;
          user.emailVerified = true;
          addProvider(user, 'password');
        }),

      checkActionCode: (code) =>
        call('checkActionCode', (): ActionCodeInfo => ({ ...lookupCode(s, code).info })),

      applyActionCode: (code) =>
        call('applyActionCode', () => {
          const row = lookupCode(s, code, [
            'verifyEmail',
            'recoverEmail',
            'verifyAndChangeEmail',
            'revertSecondFactorAddition',
          ]);
          const user = codeUser(row);
          switch (row.kind) {
            case 'verifyEmail':
              if (user.email !== row.info.email) fail('invalid-action-code');
              user.emailVerified = true;
              break;
            case 'recoverEmail':
            case 'verifyAndChangeEmail': {
              const target = row.info.email ?? fail('invalid-action-code');
              user.email = freeEmail(target, user.tenantId, user);
              user.emailVerified = true;
              break;
            }
            default:
              user.secondFactors = user.secondFactors.filter((f) => f !== row.factor);
          }
          row.used = true;
        }),

      linkWithCredential: (credential) =>
        call('linkWithCredential', () => {
          switch (credential.kind) {
            case 'password':
              return passwordLink(s, credential.email, credential.password);
            case 'emailLink':
              return emailLinkSignIn(s, credential.email, credential.link, true);
            case 'phone':
              return phoneSignIn(s, credential.verificationId, credential.code, true);
            case 'federated':
              return federatedCredentialSignIn(s, credential, true);
          }
        }),

      signOut: () =>
        call('signOut', () => {
          s.currentUid = null;
        }),
    };
  }

  const provider: FakeProvider = client(main, { backend });
  sessionOpeners.set(provider, () => client(newSession(), {}));
  return provider;
}
