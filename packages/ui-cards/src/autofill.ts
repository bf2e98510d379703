/**
 * Passkey autofill: while the email card shows, a conditional WebAuthn request waits for the person to pick
 * a passkey from the email field's suggestions (`autocomplete="username webauthn"`); its answer goes to the
 * flow. A lazy chunk of its own, loaded by the email card only where passkeys are offered.
 * @module
 */
import type { AuthProvider, ErrorInfo } from '@doorway/auth-core';
import type { UiEvent } from './context.ts';

/**
 * The catalogue code of a provider's rejection (an `AuthError`'s), else `generic`. Written here rather than
 * imported: a value shared with the engine would make the bundler split a chunk the first card then loads.
 */
function codeOf(error: unknown): ErrorInfo['code'] {
  const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' ? (code as ErrorInfo['code']) : 'generic';
}

/** Waits for a passkey picked from the autofill until `signal` aborts (the card went away). */
export async function autofill(
  provider: AuthProvider,
  send: (event: UiEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const passkeys = provider.passkeys;
  if (!passkeys) return;
  try {
    const result = await passkeys.signIn({ conditional: true, signal });
    if (!signal.aborted) send({ type: 'PASSKEY_AUTOFILLED', result });
  } catch (error) {
    if (!signal.aborted) send({ type: 'PASSKEY_AUTOFILL_FAILED', error: { code: codeOf(error) } });
  }
}
