/**
 * Running one provider operation of a step: pending while it runs (a second press does nothing), its
 * failure as a catalogue key to show and announce, and, after `requires-recent-login`, signing in again by
 * the host's `reauthenticate` and running the same operation again, the step's state kept.
 * @module
 */
import { type MessageKey, messageFor, toErrorInfo } from '@doorway/auth-core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type AttemptEnv, useAttemptEnv } from './env.ts';

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
  /**
   * The step's element (its form, its question) as a ref. Once set, a failure moves focus to its field in
   * error, else to its error line, and a call started from a control it disables moves focus to the
   * component's heading (never to the page's `<body>`).
   */
  scope: (element: HTMLElement | null) => void;
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

/**
 * Where focus goes when the operation of `root` (a step's element) failed, and how the failure is said:
 * once, either by the move of focus to the field in error (its description is the message) or to the error
 * line, or, when focus is there already or the step has no element, in a live region (assertive after
 * something the person did, polite for a step's own load).
 */
function showFailure(root: HTMLElement | null, text: string, announce: AttemptEnv['announce']): void {
  const target =
    root?.querySelector<HTMLElement>('[aria-invalid=true]') ??
    root?.querySelector<HTMLElement>('.doorway-error');
  const before = document.activeElement;
  if (target && target !== before) target.focus();
  if (!target || document.activeElement !== target || target === before) announce(text, !!root);
}

/** The operations of one step (see {@link Attempt}); failures are shown as {@link showFailure} says. */
export function useAttempt(): Attempt {
  const { announce, reauthenticate } = useAttemptEnv();
  const [state, setState] = useState<{ error: MessageKey | null; pending: boolean; failures: number }>({
    error: null,
    pending: false,
    failures: 0,
  });
  const busy = useRef(false);
  const last = useRef<Operation | null>(null);
  const mounted = useRef(true);
  const root = useRef<HTMLElement | null>(null);
  const shown = useRef(0);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (state.failures === shown.current || state.error === null) return;
    shown.current = state.failures;
    showFailure(root.current, messageFor(state.error), announce);
  }, [state.failures, state.error, announce]);
  useEffect(() => {
    const active = document.activeElement as HTMLButtonElement | null;
    if (!state.pending || !root.current || (active && active !== document.body && !active.disabled)) return;
    root.current.closest('.doorway-account')?.querySelector<HTMLElement>('h2')?.focus();
  }, [state.pending]);

  const settle = useCallback((error: MessageKey | null) => {
    busy.current = false;
    // A success often ends the step (it unmounts): nothing left to show then.
    if (!mounted.current) return;
    setState((s) => ({ error, pending: false, failures: s.failures + (error === null ? 0 : 1) }));
  }, []);

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
  const scope = useCallback((element: HTMLElement | null) => {
    root.current = element;
  }, []);
  return {
    error: state.error,
    pending: state.pending,
    run,
    fail,
    clear,
    reauthenticate: canReauthenticate ? again : null,
    scope,
  };
}
