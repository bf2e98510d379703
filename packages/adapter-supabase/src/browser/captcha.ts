/**
 * The captcha verifier the flow renders: the project's captcha widget (see `SupabaseCaptcha`), or none.
 * @module
 */
import type { CaptchaVerifier } from '@doorway/auth-core';
import type { SupabaseCaptcha } from './types.ts';

/** `createCaptchaVerifier`. */
export function createCaptchaVerifier(
  captcha: SupabaseCaptcha | undefined,
  container: unknown,
): CaptchaVerifier {
  if (!captcha) {
    // Supabase has no captcha widget of its own: without a configured one there is nothing to solve.
    return { kind: 'supabase-none', render: async () => {}, isSolved: () => true, clear: () => {} };
  }
  return {
    kind: 'supabase-captcha',
    render: () => captcha.render(container),
    isSolved: () => captcha.getToken() !== null,
    clear: () => captcha.reset(),
  };
}
