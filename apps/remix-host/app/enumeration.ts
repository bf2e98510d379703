/**
 * Email enumeration protection applied by the host itself, for browser and server alike. A project may
 * have the provider's own protection off (the Auth emulator's default) while the host is configured as
 * protected (`DOORWAY_EMAIL_ENUMERATION_PROTECTION=true`): the flow then makes no sign-in-method lookup,
 * but the provider still answers "no such account" to a password sign-in or a reset email. This wrapper
 * makes those answers read as the provider's own protection would.
 * @module
 */
import { AuthError, type AuthProvider, toErrorInfo } from '@doorway/auth-core';

/**
 * `provider` with the answers that would tell an unknown address apart hidden: a password sign-in for an
 * unknown address rejects `wrong-password` (the same card and message as a wrong password), and a reset
 * email to one resolves (the flow shows "Check your email" as for any address). Everything else is the
 * provider's.
 * @example
 * const provider = config.emailEnumerationProtection ? withEnumerationProtection(base) : base;
 */
export function withEnumerationProtection<
  P extends Pick<AuthProvider, 'signInWithEmailAndPassword' | 'sendPasswordResetEmail'>,
>(provider: P): P {
  return {
    ...provider,
    async signInWithEmailAndPassword(email, password) {
      try {
        return await provider.signInWithEmailAndPassword(email, password);
      } catch (error) {
        if (toErrorInfo(error).code === 'user-not-found') throw new AuthError('wrong-password');
        throw error;
      }
    },
    async sendPasswordResetEmail(email, settings) {
      try {
        await provider.sendPasswordResetEmail(email, settings);
      } catch (error) {
        // Nothing is sent to an unknown address, and nothing says so.
        if (toErrorInfo(error).code !== 'user-not-found') throw error;
      }
    },
  };
}
