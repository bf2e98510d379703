/**
 * Running one provider operation of a step: pending while it runs (a second press does nothing), its
 * failure as a catalogue key to show and announce, and, after `requires-recent-login`, signing in again by
 * the host's `reauthenticate` and running the same operation again, the step's state kept.
 * @module
 */
import { type MessageKey, messageFor, toErrorInfo } from '@doorway/auth-core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAttemptEnv } from './env.ts';

/** An operation: resolves `null` when done, a validation key when it stopped before calling the provider. */
export type Operation = () => Promise<MessageKey | null>;

/** What a step knows of its operations: see {@link useAttempt}. */
export interface Attempt {
  /** The last failure (`null` after a success or {@link Attempt.clear}). */
  error: MessageKey | null;
  pending: boolean;
  /** Runs `op` unless one is running; resolves whether it succeeded. */
  run(op: Operation): Promise<boolean>;
  /** Shows a validation failure found before any call. */
  fail(key: MessageKey): void;
  clear(): void;
  /**
   * Present when the last operation failed with `requires-recent-login` and the host can re-authenticate:
   * awaits it, then runs that operation again.
   */
  reauthenticate: (() => Promise<boolean>) | null;
}

/** Which input of a step an error belongs to; anything else is shown at the top of the step. */
export type AccountField = 'phone' | 'code' | 'captcha';

const FIELD_OF: Partial<Record<MessageKey, AccountField>> = {
  'phone-invalid': 'phone',
  'invalid-phone-number': 'phone',
  'unsupported-country': 'phone',
  'credential-already-in-use': 'phone',
  'code-invalid': 'code',
  'invalid-verification-code': 'code',
  'captcha-required': 'captcha',
  'captcha-check-failed': 'captcha',
};

/** The text of `error` under its field when the step has that field, else under `card`. */
export function errorsFor(
  error: MessageKey | null,
  fields: readonly AccountField[],
): Partial<Record<AccountField | 'card', string>> {
  if (error === null) return {};
  const field = FIELD_OF[error];
  return { [field && fields.includes(field) ? field : 'card']: messageFor(error) };
}

/** The operations of one step (see {@link Attempt}); failures are announced in the live region. */
export function useAttempt(): Attempt {
  const { announce, reauthenticate } = useAttemptEnv();
  const [state, setState] = useState<{ error: MessageKey | null; pending: boolean }>({
    error: null,
    pending: false,
  });
  const busy = useRef(false);
  const last = useRef<Operation | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const settle = useCallback(
    (error: MessageKey | null) => {
      busy.current = false;
      // A success often ends the step (it unmounts): nothing left to show then.
      if (!mounted.current) return;
      setState({ error, pending: false });
      if (error !== null) announce(messageFor(error));
    },
    [announce],
  );

  const run = useCallback(
    async (op: Operation): Promise<boolean> => {
      if (busy.current) return false;
      busy.current = true;
      last.current = op;
      setState((s) => ({ ...s, pending: true }));
      let error: MessageKey | null;
      try {
        error = await op();
      } catch (thrown) {
        error = toErrorInfo(thrown).code;
      }
      settle(error);
      return error === null;
    },
    [settle],
  );

  const again = useCallback(async (): Promise<boolean> => {
    const op = last.current;
    if (busy.current || !op || !reauthenticate) return false;
    busy.current = true;
    setState((s) => ({ ...s, pending: true }));
    try {
      await reauthenticate();
    } catch (thrown) {
      settle(toErrorInfo(thrown).code);
      return false;
    }
    busy.current = false;
    return run(op);
  }, [reauthenticate, run, settle]);

  const fail = useCallback((key: MessageKey) => settle(key), [settle]);
  const clear = useCallback(() => setState((s) => ({ ...s, error: null })), []);
  const canReauthenticate = state.error === 'requires-recent-login' && reauthenticate !== undefined;
  return { ...state, run, fail, clear, reauthenticate: canReauthenticate ? again : null };
}
