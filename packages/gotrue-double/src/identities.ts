/**
 * External identities (external.go, identity.go): the account an IdP identity signs in, with automatic
 * linking by verified email, and manual linking of an identity to a signed-in user.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { emailExists, GoTrueDoubleError, signupDisabled, userBanned } from './errors.ts';
import { sendConfirmation } from './mailer.ts';
import type { DoubleIdpIdentity, UserRecord } from './types.ts';
import {
  addIdentity,
  confirmEmail,
  findByEmail,
  findIdentity,
  isBanned,
  newUser,
  updateProviders,
} from './users.ts';

/** The identity data GoTrue stores for an IdP identity. */
export function identityData(
  ctx: DoubleContext,
  provider: string,
  identity: DoubleIdpIdentity,
): Record<string, unknown> {
  return {
    iss: `${ctx.idpUrl}/${provider}`,
    sub: identity.sub,
    email: identity.email,
    email_verified: identity.emailVerified ?? true,
    phone_verified: false,
    provider_id: identity.sub,
    ...(identity.displayName ? { name: identity.displayName, full_name: identity.displayName } : {}),
  };
}

/** The user the identity already belongs to, the verified-email user it links to, or a new user. */
function userOfIdentity(ctx: DoubleContext, provider: string, identity: DoubleIdpIdentity): UserRecord {
  const data = identityData(ctx, provider, identity);
  const existing = findIdentity(ctx, provider, identity.sub);
  if (existing) {
    const user = ctx.store.users.get(existing.userId) as UserRecord;
    existing.identityData = data;
    existing.lastSignInAt = ctx.clock.now();
    Object.assign(user.userMetadata, data);
    return user;
  }
  const sameEmail = (identity.emailVerified ?? true) ? findByEmail(ctx, identity.email) : undefined;
  if (sameEmail) {
    addIdentity(ctx, sameEmail, provider, identity.sub, data);
    Object.assign(sameEmail.userMetadata, data);
    return sameEmail;
  }
  if (ctx.config.disableSignup) throw signupDisabled();
  const user = newUser(ctx, {
    email: identity.email.toLowerCase(),
    userMetadata: { ...data },
    appMetadata: { provider, providers: [provider] },
  });
  addIdentity(ctx, user, provider, identity.sub, data);
  return user;
}

/** An unverified IdP address: a confirmation mail goes out and the sign-in is refused with `code`. */
function needsVerification(ctx: DoubleContext, user: UserRecord, provider: string, code: string) {
  sendConfirmation(ctx, user, ctx.config.siteUrl, false);
  return new GoTrueDoubleError(
    422,
    code,
    `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
  );
}

/** external.go's createAccountFromExternalIdentity, with automatic linking by verified email. */
export function accountFromIdentity(
  ctx: DoubleContext,
  provider: string,
  identity: DoubleIdpIdentity,
): UserRecord {
  const user = userOfIdentity(ctx, provider, identity);
  if (isBanned(ctx, user)) throw userBanned();
  if (user.emailConfirmedAt === null) {
    if ((identity.emailVerified ?? true) || ctx.config.mailerAutoconfirm) confirmEmail(ctx, user);
    else throw needsVerification(ctx, user, provider, 'provider_email_needs_verification');
  }
  return user;
}

/** identity.go's linkIdentityToUser. */
export function linkIdentityToUser(
  ctx: DoubleContext,
  target: UserRecord,
  provider: string,
  identity: DoubleIdpIdentity,
): UserRecord {
  const existing = findIdentity(ctx, provider, identity.sub);
  if (existing) {
    const message =
      existing.userId === target.id
        ? 'Identity is already linked'
        : 'Identity is already linked to another user';
    throw new GoTrueDoubleError(422, 'identity_already_exists', message);
  }
  const data = identityData(ctx, provider, identity);
  if (target.email === '' && findByEmail(ctx, identity.email)) throw emailExists(400);
  addIdentity(ctx, target, provider, identity.sub, data);
  if (target.email === '') {
    target.email = identity.email.toLowerCase();
    if (!(identity.emailVerified ?? true))
      throw needsVerification(ctx, target, provider, 'email_not_confirmed');
    confirmEmail(ctx, target);
    target.isAnonymous = false;
  }
  updateProviders(target);
  return target;
}
