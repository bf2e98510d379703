/**
 * Federated sign-in: the fake IdP (queued answers, the `idp` option, a default identity), popup and
 * redirect sign-ins, federated credentials, and linking an identity to the signed-in user.
 * @module
 */
import {
  type AuthCredential,
  accountEmail,
  type FederatedOptions,
  isEmailAddress,
  type SignInResult,
} from '@doorway/auth-core';
import { FAKE_IDP_URL, REDIRECT_STORAGE_KEY } from './config.ts';
import type { FakeIdentity, FakeIdpControl, FakeIdpRequest, FakeUserInput } from './types.ts';
import {
  addProvider,
  byEmail,
  byFederated,
  currentRow,
  signInAs,
  signInFirstFactor,
  signUp,
} from './users.ts';
import { appendParams, fail, fakeFederatedCredential, identityFromCredential } from './util.ts';
import { type FakeContext, requireCapability, type Session, type UserRow, type World } from './world.ts';

type FederatedCredential = Extract<AuthCredential, { kind: 'federated' }>;

/** A redirect sign-in waiting in storage for `getRedirectResult`. */
interface PendingRedirect {
  providerId: string;
  link: boolean;
  tenantId: string | null;
  identity: FakeIdentity | null;
}

/** What a federated sign-in proved: the IdP's identity, as a credential too. */
interface Proof {
  providerId: string;
  identity: FakeIdentity;
  credential: AuthCredential;
  /** The identity's email as an account stores it. */
  email: string | null;
}

/** `backend.idp`: queued answers and popup blocks. */
export function createIdpControl(world: World): FakeIdpControl {
  const { idp } = world;
  return {
    queue: (identity) => {
      idp.queue.push({ ...identity });
    },
    cancelNext: () => {
      idp.queue.push(null);
    },
    blockPopup: (times = 1) => {
      idp.popupBlocks += times;
    },
    clear: () => {
      idp.queue.length = 0;
      idp.popupBlocks = 0;
    },
  };
}

// Queued answers first, then the `idp` option, then an identity made from the login hint.
async function idpAnswer(
  { world, config }: FakeContext,
  providerId: string,
  mode: 'popup' | 'redirect',
  opts: FederatedOptions,
): Promise<FakeIdentity | null> {
  if (world.idp.queue.length > 0) return world.idp.queue.shift() ?? null;
  const request: FakeIdpRequest = {
    providerId,
    mode,
    loginHint: opts.loginHint,
    scopes: opts.scopes ?? [],
    customParameters: opts.customParameters ?? {},
  };
  if (config.options.idp !== undefined) return config.options.idp(request);
  const email =
    opts.loginHint !== undefined && isEmailAddress(opts.loginHint) ? opts.loginHint : 'fake.user@example.com';
  return {
    sub: `${providerId}:${accountEmail(email)}`,
    email,
    displayName: 'Fake User',
    emailVerified: true,
  };
}

async function askIdp(
  ctx: FakeContext,
  providerId: string,
  mode: 'popup' | 'redirect',
  opts: FederatedOptions,
): Promise<FakeIdentity | null> {
  // An IdP vouches for the emails it returns unless told otherwise.
  const answer = await idpAnswer(ctx, providerId, mode, opts);
  return answer === null ? null : { emailVerified: true, ...answer };
}

// Adds the identity to the signed-in user (and its email and name when the user has none).
function linkIdentity(world: World, tenant: string | null, current: UserRow, proof: Proof): void {
  const { providerId, identity, credential, email } = proof;
  if (current.federated.some((f) => f.providerId === providerId))
    fail('credential-already-in-use', { credential });
  const emailOwner = email === null ? undefined : byEmail(world, tenant, email);
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

function linkToCurrent(
  world: World,
  s: Session,
  tenant: string | null,
  proof: Proof,
  owner?: UserRow,
): SignInResult {
  const { providerId, credential, email } = proof;
  const current = currentRow(world, s);
  if (owner !== undefined && owner !== current) {
    fail('credential-already-in-use', email === null ? { credential } : { email, credential });
  }
  if (owner === undefined) linkIdentity(world, tenant, current, proof);
  return signInAs(s, current, providerId, false, credential);
}

// A new account for the identity, unless its email belongs to another account.
function signUpIdentity(ctx: FakeContext, s: Session, tenant: string | null, proof: Proof): SignInResult {
  const { providerId, identity, credential, email } = proof;
  if (email !== null && byEmail(ctx.world, tenant, email) !== undefined) {
    fail('account-exists-with-different-credential', { email, credential });
  }
  const input: FakeUserInput = {
    federated: { providerId, sub: identity.sub },
    emailVerified: identity.emailVerified ?? true,
  };
  if (email !== null) input.email = email;
  if (identity.displayName !== undefined) input.displayName = identity.displayName;
  return signInAs(s, signUp(ctx, input, tenant), providerId, true, credential);
}

/** Signs in (or links) with an identity the IdP returned, in `tenant`. */
export function federatedSignIn(
  ctx: FakeContext,
  s: Session,
  providerId: string,
  identity: FakeIdentity,
  tenant: string | null,
  linking: boolean,
): SignInResult {
  requireCapability(ctx.world.capabilities.federated.includes(providerId));
  const credential = fakeFederatedCredential(providerId, identity);
  const email = identity.email === undefined ? null : accountEmail(identity.email);
  const proof: Proof = { providerId, identity, credential, email };
  const owner = byFederated(ctx.world, tenant, providerId, identity.sub);
  if (linking) return linkToCurrent(ctx.world, s, tenant, proof, owner);
  if (owner !== undefined) return signInFirstFactor(ctx, s, owner, providerId, credential);
  return signUpIdentity(ctx, s, tenant, proof);
}

/** Signs in (or links) with a federated credential (`fakeFederatedCredential`'s shape). */
export function federatedCredentialSignIn(
  ctx: FakeContext,
  s: Session,
  credential: FederatedCredential,
  linking: boolean,
): SignInResult {
  requireCapability(ctx.world.capabilities.federated.includes(credential.providerId));
  const identity = identityFromCredential(credential) ?? fail('generic');
  return federatedSignIn(ctx, s, credential.providerId, identity, s.tenantId, linking);
}

async function popupSignIn(ctx: FakeContext, s: Session, providerId: string, opts: FederatedOptions) {
  const { world } = ctx;
  requireCapability(world.capabilities.popup);
  if (world.idp.popupBlocks > 0) {
    world.idp.popupBlocks -= 1;
    fail('popup-blocked');
  }
  const identity = await askIdp(ctx, providerId, 'popup', opts);
  if (identity === null) fail('user-cancelled');
  return federatedSignIn(ctx, s, providerId, identity, s.tenantId, opts.link === true);
}

// The IdP answers at once; the answer waits in storage, as a real redirect's would in the URL.
async function startRedirect(ctx: FakeContext, s: Session, providerId: string, opts: FederatedOptions) {
  const { world, config } = ctx;
  requireCapability(world.capabilities.redirect);
  const identity = await askIdp(ctx, providerId, 'redirect', opts);
  const pending: PendingRedirect = { providerId, link: opts.link === true, tenantId: s.tenantId, identity };
  config.storage.setItem(REDIRECT_STORAGE_KEY, JSON.stringify(pending));
  const params: Record<string, string> = { providerId };
  if (opts.loginHint !== undefined) params.login_hint = opts.loginHint;
  config.options.navigate?.(appendParams(FAKE_IDP_URL, params));
  return null;
}

/** `signInWithFederated`: a popup signs in at once; a redirect "leaves" and resolves `null`. */
export async function signInWithFederated(
  ctx: FakeContext,
  s: Session,
  providerId: string,
  opts: FederatedOptions,
): Promise<SignInResult | null> {
  requireCapability(ctx.world.capabilities.federated.includes(providerId));
  if (opts.link === true) currentRow(ctx.world, s);
  if (opts.mode === 'popup') return popupSignIn(ctx, s, providerId, opts);
  return startRedirect(ctx, s, providerId, opts);
}

// The storage may be shared with other code (sessionStorage), so what comes back is checked, not trusted.
function parseIdentity(identity: unknown): FakeIdentity | null | undefined {
  if (identity === null) return null;
  if (typeof identity !== 'object') return undefined;
  const { sub, email, displayName, emailVerified } = identity as Record<string, unknown>;
  if (typeof sub !== 'string') return undefined;
  const parsed: FakeIdentity = { sub, emailVerified: emailVerified === true };
  if (typeof email === 'string') parsed.email = email;
  if (typeof displayName === 'string') parsed.displayName = displayName;
  return parsed;
}

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
  const parsed = parseIdentity(identity);
  return parsed === undefined ? null : { providerId, link, tenantId, identity: parsed };
}

/** `getRedirectResult`: finishes the pending redirect sign-in once, or resolves `null`. */
export function getRedirectResult(ctx: FakeContext, s: Session): SignInResult | null {
  const { storage } = ctx.config;
  const raw = storage.getItem(REDIRECT_STORAGE_KEY);
  if (raw === null) return null;
  storage.removeItem(REDIRECT_STORAGE_KEY);
  const pending = parsePendingRedirect(raw);
  if (pending === null) return null;
  if (pending.identity === null) fail('user-cancelled');
  return federatedSignIn(ctx, s, pending.providerId, pending.identity, pending.tenantId, pending.link);
}
