/**
 * Password accounts as both providers read GoTrue's answers: what a sign-up sends besides the credentials,
 * and what a sign-up without a session means.
 * @module
 */
import { AuthError } from '@doorway/auth-core';
import type { User } from '@supabase/supabase-js';

/** The user metadata a sign-up stores: the display name as `full_name` (what OAuth providers fill too). */
export function signUpData(displayName: string | undefined): Record<string, string> {
  return displayName ? { full_name: displayName } : {};
}

/**
 * The refusal of a sign-up GoTrue answered without a session ("Confirm email" is on). An existing account
 * comes back as a decoy user without identities (Supabase's documented signal); otherwise the account waits
 * for its confirmation link, which the catalogue has no "check your email" code for.
 */
export function signUpWithoutSession(user: User | null | undefined, email: string): AuthError {
  if (!user?.identities?.length) return new AuthError('email-already-in-use', { email });
  return new AuthError('operation-not-allowed', { email });
}
