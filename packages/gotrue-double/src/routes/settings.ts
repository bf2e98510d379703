/**
 * GET /settings and GET /health, as GoTrue answers them.
 * @module
 */
import type { DoubleContext } from '../context.ts';

/** The OAuth providers GoTrue lists in its settings. */
const LISTED_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin_oidc',
  'notion',
  'slack_oidc',
  'spotify',
  'twitch',
  'twitter',
  'workos',
  'zoom',
];

/** GET /settings's body. */
export function settingsJson(ctx: DoubleContext): Record<string, unknown> {
  const { config } = ctx;
  const external: Record<string, boolean> = {
    anonymous_users: config.anonymousUsers,
    email: true,
    phone: true,
  };
  for (const p of LISTED_PROVIDERS) external[p] = config.externalProviders.has(p);
  return {
    external,
    disable_signup: config.disableSignup,
    mailer_autoconfirm: config.mailerAutoconfirm,
    phone_autoconfirm: config.smsAutoconfirm,
    sms_provider: 'twilio',
    saml_enabled: false,
    passkeys_enabled: config.passkey.enabled,
  };
}

/** GET /health's body. */
export const HEALTH = { version: 'double', name: 'GoTrue', description: 'GoTrue double' };
