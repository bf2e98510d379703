/**
 * Passkey autofill: while the email card shows, a conditional WebAuthn request waits for the person to pick
 * a passkey from the email field's suggestions (`autocomplete="username webauthn"`); its answer goes to the
 * flow. A lazy chunk of its own, loaded by the email card only where passkeys are offered.
 * @module
 */
import type { AuthProvider, ErrorInfo } from '@doorway/auth-core';
import type { UiEvent } from './context.ts';

/**
 * A provider's rejection (an `AuthError`) as the flow reads it: its catalogue code, else `generic`, and the
 * challenge a `second-factor-required` carries (the engine checks it). Written here rather than imported
 * (`toErrorInfo`): a value shared with the engine would make the bundler split a chunk the first card then
 * loads.
 */
function infoOf(error: unknown): ErrorInfo {
  const read = (key: string): unknown =>
    typeof error === 'object' && error !== null ? Reflect.get(error, key) : undefined;
  const code = read('code');
  const info: ErrorInfo = { code: typeof code === 'string' ? (code as ErrorInfo['code']) : 'generic' };
  const challenge = read('challenge');
  if (info.code === 'second-factor-required' && challenge !== undefined) {
    info.challenge = challenge as NonNullable<ErrorInfo['challenge']>;
  }
  return info;
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
    if (!signal.aborted) send({ type: 'PASSKEY_AUTOFILL_FAILED', error: infoOf(error) });
  }
}
