/**
 * What the provider contract reads and drives behind a Supabase provider, on the GoTrue double: its outbox,
 * its admin side and its IdP's ID tokens. Shared by the browser provider's harness and the server's form
 * provider's; no msw here (the double answers through `double.fetch` too).
 */

import type { CaptchaVerifier } from '@doorway/auth-core';
import type { GoTrueDouble, GoTrueDoubleOptions } from '@doorway/gotrue-double';
import type { ContractEmailKind, ContractInspect } from '@doorway/testing';
import { formatActionCode, SUPABASE_EMAIL_TEMPLATES, toSupabaseProvider } from '../src/index.ts';

/** Doorway's templates, in the double's template names. */
export const DOORWAY_TEMPLATES = {
  confirmation: SUPABASE_EMAIL_TEMPLATES.confirmation,
  magicLink: SUPABASE_EMAIL_TEMPLATES.magicLink,
  recovery: SUPABASE_EMAIL_TEMPLATES.recovery,
  emailChange: SUPABASE_EMAIL_TEMPLATES.emailChange,
  invite: SUPABASE_EMAIL_TEMPLATES.invite,
} as const;

/** The project settings the contract runs with (see the README for why each). */
export const CONTRACT_PROJECT: GoTrueDoubleOptions = {
  mailerAutoconfirm: true,
  smsAutoconfirm: false,
  anonymousUsers: true,
  manualLinking: true,
  secureEmailChange: false,
  uriAllowList: ['http://localhost/**'],
  templates: DOORWAY_TEMPLATES,
  // Phone MFA is opt-in in GoTrue; a 1 s max frequency lets the contract text a factor at enrolment and
  // again at sign-in a few requests later (the double's clock moves 1 s per request).
  mfa: { totp: true, phone: true, phoneMaxFrequencySeconds: 1 },
  // The app's pages are on http://localhost (the harness's browser and software authenticator).
  passkey: { rpId: 'localhost', rpOrigins: ['http://localhost'] },
};

const KIND_TYPES: Record<ContractEmailKind, readonly string[]> = {
  signIn: ['magiclink', 'signup', 'email_change'],
  resetPassword: ['recovery'],
  verifyEmail: ['signup'],
  recoverEmail: [],
  verifyAndChangeEmail: ['email_change'],
};

/** The contract's view of `double` (no IdP driving: that needs the browser harness's popups). */
export function doubleInspect(
  double: GoTrueDouble,
  solvedVerifier: () => CaptchaVerifier,
): Omit<ContractInspect, 'idp'> {
  return {
    lastEmailLink: async (email, kind) => {
      const types = KIND_TYPES[kind];
      const mail = [...double.outbox.emails]
        .reverse()
        .find((m) => m.to === email.toLowerCase() && types.includes(m.type));
      return mail?.link ?? null;
    },
    lastSmsCode: async (phoneNumber) => double.outbox.lastSms(phoneNumber)?.otp ?? null,
    createUser: async (user) => {
      if (user.federated) {
        const created = double.admin.createFederatedUser(toSupabaseProvider(user.federated.providerId), {
          sub: user.federated.sub,
          email: user.email ?? `${user.federated.sub}@idp.example`,
        });
        return String(created.id);
      }
      const created = double.admin.createUser({
        ...(user.email ? { email: user.email, email_confirm: user.emailVerified ?? true } : {}),
        ...(user.phoneNumber ? { phone: user.phoneNumber, phone_confirm: true } : {}),
        ...(user.password ? { password: user.password } : {}),
        ...(user.displayName ? { user_metadata: { full_name: user.displayName } } : {}),
      });
      return String(created.id);
    },
    actionCode: async (email, kind, extra) => {
      // GoTrue's admin generate_link, turned into the oobCode Doorway's templates would put in the mail.
      if (kind === 'recoverEmail') return null; // Supabase has no "undo email change" link.
      const type =
        kind === 'verifyEmail'
          ? 'signup'
          : kind === 'resetPassword'
            ? 'recovery'
            : ('email_change_new' as const);
      // GoTrue mints no confirmation for an address that is already confirmed (generate_link answers
      // email_exists): the contract then skips, saying the backend cannot produce the code.
      const target = double.admin.listUsers().find((u) => u.email === email.toLowerCase());
      if (type === 'signup' && target?.email_confirmed_at !== undefined) return null;
      const link = double.admin.generateLink({
        type,
        email,
        ...(extra?.newEmail ? { new_email: extra.newEmail } : {}),
      });
      return formatActionCode(link.verification_type as 'signup', link.hashed_token);
    },
    federatedCredential: (providerId, identity) => ({
      kind: 'federated',
      providerId,
      idToken: double.idp.idToken(toSupabaseProvider(providerId), identity),
    }),
    solvedVerifier,
    // TOTP codes are for the double's simulated time, as its authenticator app would show them.
    now: () => double.clock.now(),
    disableUser: async (uid) => {
      double.admin.updateUserById(uid, { ban_duration: '876000h' });
    },
  };
}
