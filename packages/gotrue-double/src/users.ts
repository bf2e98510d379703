/**
 * GoTrue's users and identities in the double's store: lookups, new rows, confirmation and the JSON GoTrue
 * answers a user with.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { userNotFound } from './errors.ts';
import { randomUUID } from './hash.ts';
import type { FactorRecord, Identity, UserRecord } from './types.ts';
import { iso } from './util.ts';

/** The user with this address (compared lower-cased). */
export function findByEmail(ctx: DoubleContext, email: string): UserRecord | undefined {
  const e = email.toLowerCase();
  for (const u of ctx.store.users.values()) if (u.email !== '' && u.email === e) return u;
  return undefined;
}

/** The user with this phone number (digits only). */
export function findByPhone(ctx: DoubleContext, phone: string): UserRecord | undefined {
  for (const u of ctx.store.users.values()) if (u.phone !== '' && u.phone === phone) return u;
  return undefined;
}

/** The user with this id, or 404 user_not_found. */
export function requireUser(ctx: DoubleContext, id: string): UserRecord {
  const user = ctx.store.users.get(id);
  if (!user) throw userNotFound();
  return user;
}

/** Whether a ban is still running. */
export function isBanned(ctx: DoubleContext, u: UserRecord): boolean {
  return u.bannedUntil !== null && u.bannedUntil > ctx.clock.now();
}

/** A new user row with `fields` over the empty defaults, stored. */
export function newUser(ctx: DoubleContext, fields: Partial<UserRecord>): UserRecord {
  const t = ctx.clock.now();
  const user: UserRecord = {
    id: randomUUID(),
    email: '',
    phone: '',
    password: null,
    emailConfirmedAt: null,
    phoneConfirmedAt: null,
    confirmationToken: '',
    confirmationSentAt: null,
    recoveryToken: '',
    recoverySentAt: null,
    emailChange: '',
    emailChangeTokenNew: '',
    emailChangeTokenCurrent: '',
    emailChangeSentAt: null,
    emailChangeConfirmStatus: 0,
    phoneChange: '',
    phoneChangeToken: '',
    phoneChangeSentAt: null,
    invitedAt: null,
    lastSignInAt: null,
    createdAt: t,
    updatedAt: t,
    isAnonymous: false,
    bannedUntil: null,
    appMetadata: {},
    userMetadata: {},
    identities: [],
    factors: [],
    passkeys: [],
    ...fields,
  };
  ctx.store.users.set(user.id, user);
  return user;
}

/** Adds an identity of `provider` (subject `sub`) to `user`. */
export function addIdentity(
  ctx: DoubleContext,
  user: UserRecord,
  provider: string,
  sub: string,
  data: Record<string, unknown>,
): Identity {
  const t = ctx.clock.now();
  const identity: Identity = {
    identityId: randomUUID(),
    id: sub,
    userId: user.id,
    provider,
    identityData: { sub, ...data },
    createdAt: t,
    updatedAt: t,
    lastSignInAt: t,
  };
  user.identities.push(identity);
  updateProviders(user);
  return identity;
}

/** `app_metadata.providers` from the user's identities (and `provider`, the first, if unset). */
export function updateProviders(user: UserRecord): void {
  const providers = [...new Set(user.identities.map((i) => i.provider))];
  if (providers.length === 0) return;
  user.appMetadata.providers = providers;
  if (typeof user.appMetadata.provider !== 'string') user.appMetadata.provider = providers[0];
}

/** The identity of `provider` with subject `sub`, whoever has it. */
export function findIdentity(ctx: DoubleContext, provider: string, sub: string): Identity | undefined {
  for (const u of ctx.store.users.values()) {
    const found = u.identities.find((i) => i.provider === provider && i.id === sub);
    if (found) return found;
  }
  return undefined;
}

/** Marks the user's email confirmed (and its identities' `email_verified`). */
export function confirmEmail(ctx: DoubleContext, user: UserRecord): void {
  user.emailConfirmedAt ??= ctx.clock.now();
  user.confirmationToken = '';
  for (const i of user.identities) {
    if (i.provider === 'email' || i.identityData.email === user.email) i.identityData.email_verified = true;
  }
}

/** A new email-and-password user (unconfirmed) with its `email` identity. */
export function signupEmailUser(
  ctx: DoubleContext,
  email: string,
  password: string,
  data: Record<string, unknown>,
): UserRecord {
  return signupUser(ctx, 'email', { email, password }, data);
}

/** A new phone-and-password user (unconfirmed) with its `phone` identity. */
export function signupPhoneUser(
  ctx: DoubleContext,
  phone: string,
  password: string,
  data: Record<string, unknown>,
): UserRecord {
  return signupUser(ctx, 'phone', { phone, password }, data);
}

function signupUser(
  ctx: DoubleContext,
  provider: 'email' | 'phone',
  fields: { email?: string; phone?: string; password: string },
  data: Record<string, unknown>,
): UserRecord {
  const user = newUser(ctx, {
    ...fields,
    userMetadata: { ...data },
    appMetadata: { provider, providers: [provider] },
  });
  const address = provider === 'email' ? { email: fields.email } : { phone: fields.phone };
  addIdentity(ctx, user, provider, user.id, {
    ...address,
    email_verified: false,
    phone_verified: false,
    ...data,
  });
  return user;
}

function identityJson(i: Identity): Record<string, unknown> {
  return {
    identity_id: i.identityId,
    id: i.id,
    user_id: i.userId,
    identity_data: { ...i.identityData },
    provider: i.provider,
    last_sign_in_at: iso(i.lastSignInAt),
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    email: typeof i.identityData.email === 'string' ? i.identityData.email : undefined,
  };
}

/** A factor as GoTrue answers it (in the user's `factors`; its secret and challenges never). */
export function factorJson(f: FactorRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: f.id,
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
    status: f.status,
    friendly_name: f.friendlyName || undefined,
    factor_type: f.factorType,
    phone: f.phone,
    last_challenged_at: iso(f.lastChallengedAt) ?? null,
  };
  if (json.friendly_name === undefined) delete json.friendly_name;
  return json;
}

/** The user as GoTrue answers it (unset fields left out). */
export function userJson(u: UserRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: iso(u.emailConfirmedAt),
    phone: u.phone,
    phone_confirmed_at: iso(u.phoneConfirmedAt),
    confirmation_sent_at: iso(u.confirmationSentAt),
    confirmed_at: iso(u.emailConfirmedAt ?? u.phoneConfirmedAt),
    recovery_sent_at: iso(u.recoverySentAt),
    new_email: u.emailChange || undefined,
    email_change_sent_at: iso(u.emailChangeSentAt),
    new_phone: u.phoneChange || undefined,
    phone_change_sent_at: iso(u.phoneChangeSentAt),
    invited_at: iso(u.invitedAt),
    last_sign_in_at: iso(u.lastSignInAt),
    banned_until: iso(u.bannedUntil),
    app_metadata: { ...u.appMetadata },
    user_metadata: { ...u.userMetadata },
    identities: u.identities.map(identityJson),
    factors: u.factors.length > 0 ? u.factors.map(factorJson) : undefined,
    created_at: iso(u.createdAt),
    updated_at: iso(u.updatedAt),
    is_anonymous: u.isAnonymous,
  };
  for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
  return json;
}
