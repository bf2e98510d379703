/**
 * Supabase `User` → Doorway `AuthUser`, and Doorway's (Firebase-style) federated provider ids ↔ Supabase's.
 * @module
 */
import type { AuthUser, SignInMethod } from '@doorway/auth-core';
import type { User } from '@supabase/supabase-js';

/** Doorway provider ids (as the widget config names them) → Supabase Auth provider names. */
export const SUPABASE_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'google.com': 'google',
  'apple.com': 'apple',
  'github.com': 'github',
  'facebook.com': 'facebook',
  'twitter.com': 'twitter',
  'x.com': 'x',
  'microsoft.com': 'azure',
  'gitlab.com': 'gitlab',
  'bitbucket.org': 'bitbucket',
  'discord.com': 'discord',
  'linkedin.com': 'linkedin_oidc',
  'slack.com': 'slack_oidc',
  'spotify.com': 'spotify',
  'twitch.tv': 'twitch',
  'zoom.us': 'zoom',
  'notion.so': 'notion',
  'figma.com': 'figma',
  'kakao.com': 'kakao',
};

/** Providers `signInWithIdToken` / `linkIdentity({ token })` accept (plus `custom:…` OIDC providers). */
const ID_TOKEN_PROVIDERS = new Set(['google', 'apple', 'azure', 'facebook', 'kakao', 'keycloak']);

/** The Supabase provider name for a Doorway provider id (unknown ids pass through, e.g. `custom:acme`). */
export function toSupabaseProvider(providerId: string): string {
  return SUPABASE_PROVIDER_NAMES[providerId] ?? providerId;
}

/**
 * The GoTrue identity provider a Doorway sign-in method is linked as: `email` stands for both `password`
 * and `emailLink`.
 */
export function identityProvider(method: SignInMethod): string {
  if (method === 'password' || method === 'emailLink') return 'email';
  return method === 'phone' ? 'phone' : toSupabaseProvider(method);
}

/**
 * The `user_metadata` that sets a display name (`full_name`), or clears it: `name` and `display_name`, which
 * an IdP may have given, too.
 */
export function displayNameData(displayName: string | null): Record<string, string | null> {
  const name = displayName?.trim() || null;
  return name ? { full_name: name } : { full_name: null, name: null, display_name: null };
}

/** The Doorway provider id for a Supabase provider name. */
export function toDoorwayProvider(provider: string): string {
  for (const [doorway, supabase] of Object.entries(SUPABASE_PROVIDER_NAMES)) {
    if (supabase === provider) return doorway;
  }
  return provider;
}

/** Whether Supabase can sign in with an ID token of this (Supabase-named) provider. */
export function acceptsIdToken(provider: string): boolean {
  return ID_TOKEN_PROVIDERS.has(provider) || provider.startsWith('custom:');
}

function metadataString(user: User, key: string): string | null {
  const value: unknown = user.user_metadata?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Maps a Supabase user to Doorway's {@link AuthUser}.
 *
 * - `displayName`: `user_metadata.full_name`, else `name`, else `display_name` (sign-up writes `full_name`;
 *   OAuth providers fill `full_name` and `name`).
 * - `phoneNumber`: GoTrue stores E.164 digits without `+`; the `+` is put back.
 * - `providerIds`: from `identities` (else `app_metadata.providers`). Supabase's `email` identity serves both
 *   password and email-link sign-in, so it becomes `password` (and `emailLink` when `emailLink` is on);
 *   `phone` stays; OAuth providers get Doorway ids (`google` → `google.com`). Anonymous users have none.
 */
export function toAuthUser(user: User, options: { emailLink: boolean }): AuthUser {
  const names = user.identities?.length
    ? user.identities.map((identity) => identity.provider)
    : Array.isArray(user.app_metadata?.providers)
      ? (user.app_metadata.providers as unknown[]).filter((p): p is string => typeof p === 'string')
      : [];
  const providerIds: string[] = [];
  const add = (id: string) => {
    if (!providerIds.includes(id)) providerIds.push(id);
  };
  for (const name of names) {
    if (name === 'email') {
      add('password');
      if (options.emailLink) add('emailLink');
    } else if (name !== 'anonymous') {
      add(toDoorwayProvider(name));
    }
  }
  return {
    uid: user.id,
    email: user.email ? user.email : null,
    displayName:
      metadataString(user, 'full_name') ??
      metadataString(user, 'name') ??
      metadataString(user, 'display_name'),
    phoneNumber: user.phone ? (user.phone.startsWith('+') ? user.phone : `+${user.phone}`) : null,
    emailVerified: Boolean(user.email_confirmed_at),
    isAnonymous: user.is_anonymous === true,
    providerIds,
    tenantId: null,
  };
}

/**
 * Whether a sign-in created the account, for sign-ins where Supabase does not say (OAuth and ID tokens): the
 * account was created in the same request that signed it in, i.e. its first sign-in is within `windowMs` of
 * its creation. A heuristic: see the README.
 */
export function looksNew(user: User, windowMs: number): boolean {
  const created = Date.parse(user.created_at);
  const lastSignIn = user.last_sign_in_at ? Date.parse(user.last_sign_in_at) : created;
  return Number.isFinite(created) && Number.isFinite(lastSignIn) && Math.abs(lastSignIn - created) < windowMs;
}
