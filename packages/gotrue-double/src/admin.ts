/**
 * GoTrue's admin API (the service role's), in process: create users, generate links (no mail is sent), ban
 * and confirm, and the double-only ways to give users IdP identities.
 * @module
 */
import type { DoubleContext } from './context.ts';
import { emailExists, phoneExists, userNotFound } from './errors.ts';
import { randomUUID } from './hash.ts';
import { accountFromIdentity, identityData } from './identities.ts';
import type { DoubleIdpIdentity, GoTrueDoubleAdmin, UserRecord } from './types.ts';
import {
  addIdentity,
  confirmEmail,
  findByEmail,
  findByPhone,
  newUser,
  requireUser,
  signupEmailUser,
  userJson,
} from './users.ts';
import { otp, sha224 } from './util.ts';
import { referrer, validateEmail, validatePhone } from './validate.ts';

type CreateUserAttrs = Parameters<GoTrueDoubleAdmin['createUser']>[0];
type LinkParams = Parameters<GoTrueDoubleAdmin['generateLink']>[0];

/** POST /admin/users. */
function createUser(ctx: DoubleContext, attrs: CreateUserAttrs): Record<string, unknown> {
  const email = attrs.email ? validateEmail(attrs.email) : '';
  const phone = attrs.phone ? validatePhone(attrs.phone) : '';
  if (email && findByEmail(ctx, email)) throw emailExists();
  if (phone && findByPhone(ctx, phone)) throw phoneExists();
  const provider = email ? 'email' : 'phone';
  const user = newUser(ctx, {
    email,
    phone,
    password: attrs.password ?? null,
    userMetadata: { ...(attrs.user_metadata ?? {}) },
    appMetadata: { provider, providers: [provider] },
    emailConfirmedAt: email && attrs.email_confirm ? ctx.clock.now() : null,
    phoneConfirmedAt: phone && attrs.phone_confirm ? ctx.clock.now() : null,
  });
  const emailVerified = Boolean(attrs.email_confirm);
  if (email)
    addIdentity(ctx, user, 'email', user.id, { email, email_verified: emailVerified, phone_verified: false });
  if (phone)
    addIdentity(ctx, user, 'phone', user.id, {
      phone,
      email_verified: false,
      phone_verified: Boolean(attrs.phone_confirm),
    });
  return userJson(user);
}

/** A generated link's token: its hash as stored, the code, and the verification type. */
interface LinkToken {
  user: UserRecord;
  hashed: string;
  code: string;
  type: string;
}

function signupLinkToken(
  ctx: DoubleContext,
  params: LinkParams,
  email: string,
  user: UserRecord | undefined,
): LinkToken {
  if (user?.emailConfirmedAt) throw emailExists();
  const target = user ?? signupEmailUser(ctx, email, params.password ?? randomUUID(), {});
  if (params.type === 'invite') target.invitedAt = ctx.clock.now();
  const code = otp();
  target.confirmationToken = sha224(email + code);
  target.confirmationSentAt = ctx.clock.now();
  return { user: target, hashed: target.confirmationToken, code, type: params.type };
}

function emailChangeLinkToken(ctx: DoubleContext, params: LinkParams, user: UserRecord): LinkToken {
  const newEmail = validateEmail(params.new_email ?? '');
  if (findByEmail(ctx, newEmail)) throw emailExists();
  const codeNew = otp();
  const codeCurrent = otp();
  user.emailChange = newEmail;
  user.emailChangeTokenNew = sha224(newEmail + codeNew);
  user.emailChangeTokenCurrent = ctx.config.secureEmailChange ? sha224(user.email + codeCurrent) : '';
  user.emailChangeConfirmStatus = 0;
  user.emailChangeSentAt = ctx.clock.now();
  const current = params.type === 'email_change_current';
  return {
    user,
    hashed: current ? user.emailChangeTokenCurrent : user.emailChangeTokenNew,
    code: current ? codeCurrent : codeNew,
    type: 'email_change',
  };
}

/** POST /admin/generate_link (no mail is sent). */
function generateLink(ctx: DoubleContext, params: LinkParams): ReturnType<GoTrueDoubleAdmin['generateLink']> {
  const email = validateEmail(params.email);
  const user = findByEmail(ctx, email);
  const redirectTo = referrer(ctx, params.redirect_to ?? null);
  let link: LinkToken;
  if (params.type === 'signup' || params.type === 'invite') link = signupLinkToken(ctx, params, email, user);
  else if (!user) throw userNotFound('User with this email not found');
  else if (params.type === 'magiclink' || params.type === 'recovery') {
    const code = otp();
    user.recoveryToken = sha224(email + code);
    user.recoverySentAt = ctx.clock.now();
    link = { user, hashed: user.recoveryToken, code, type: params.type };
  } else link = emailChangeLinkToken(ctx, params, user);
  return {
    action_link: `${ctx.authUrl}/verify?token=${link.hashed}&type=${link.type}&redirect_to=${encodeURIComponent(redirectTo)}`,
    email_otp: link.code,
    hashed_token: link.hashed,
    redirect_to: redirectTo,
    verification_type: link.type,
    user: userJson(link.user),
  };
}

/** PUT /admin/users/{id}: `ban_duration` (`'876000h'`, `'none'`), email confirmation. */
function updateUserById(
  ctx: DoubleContext,
  id: string,
  attrs: { ban_duration?: string; email_confirm?: boolean },
): Record<string, unknown> {
  const user = requireUser(ctx, id);
  if (attrs.ban_duration === 'none') user.bannedUntil = null;
  else if (attrs.ban_duration) {
    const hours = Number.parseInt(attrs.ban_duration, 10);
    user.bannedUntil = ctx.clock.now() + (Number.isFinite(hours) ? hours : 876000) * 3_600_000;
    // User.Ban sets banned_until only: the sessions stay, and every use of them is refused (user_banned).
  }
  if (attrs.email_confirm) confirmEmail(ctx, user);
  return userJson(user);
}

/** The admin side of a double. */
export function adminOf(ctx: DoubleContext): GoTrueDoubleAdmin {
  return {
    createUser: (attrs) => createUser(ctx, attrs),
    generateLink: (params) => generateLink(ctx, params),
    updateUserById: (id, attrs) => updateUserById(ctx, id, attrs),
    getUserById: (id) => userJson(requireUser(ctx, id)),
    listUsers: () => [...ctx.store.users.values()].map(userJson),
    addIdentity(id: string, provider: string, identity: DoubleIdpIdentity) {
      const user = requireUser(ctx, id);
      addIdentity(ctx, user, provider, identity.sub, identityData(ctx, provider, identity));
      return userJson(user);
    },
    createFederatedUser: (provider, identity) => userJson(accountFromIdentity(ctx, provider, identity)),
  };
}
