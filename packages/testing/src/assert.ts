/**
 * Assertions the contract tests share, two of them public for adapters' own tests.
 * @module
 */
import { AuthError, type ErrorCode } from '@doorway/auth-core';
import { expect } from 'vitest';

/**
 * The action code inside an emailed link: the `oobCode` query value, looked up in nested `link`,
 * `deep_link_id` and `continueUrl` values when not at the top level. `null` when there is none.
 * @example oobCodeFromLink('https://app.test/finish?mode=signIn&oobCode=abc&apiKey=k') // 'abc'
 */
export function oobCodeFromLink(link: string): string | null {
  return findOobCode(link, 0);
}

function findOobCode(link: string, depth: number): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  const code = url.searchParams.get('oobCode');
  if (code !== null && code !== '') return code;
  if (depth >= 3) return null;
  for (const name of ['link', 'deep_link_id', 'continueUrl']) {
    const nested = url.searchParams.get(name);
    const found = nested === null ? null : findOobCode(nested, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Awaits `promise`, asserts it rejects with an {@link AuthError} whose `code` is `code` (or one of `code`),
 * and returns the error for further checks.
 * @example const error = await expectAuthError(provider.createUser(email, 'abc'), 'weak-password');
 */
export async function expectAuthError(
  promise: Promise<unknown>,
  code: ErrorCode | readonly ErrorCode[],
): Promise<AuthError> {
  const outcome = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!outcome.rejected) return expect.fail(`expected a rejection with ${String(code)}, but it resolved`);
  expect(outcome.error).toBeInstanceOf(AuthError);
  if (!(outcome.error instanceof AuthError)) throw outcome.error;
  if (typeof code === 'string') expect(outcome.error.code).toBe(code);
  else expect(code).toContain(outcome.error.code);
  return outcome.error;
}

/** `value`, or a failed test naming `what` when there is none. */
export function requireValue<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) return expect.fail(`expected ${what}`);
  return value;
}

/** A code that differs from `code` in its last digit. */
export function wrongCode(code: string): string {
  const last = Number(code.slice(-1));
  return `${code.slice(0, -1)}${Number.isNaN(last) ? 0 : (last + 1) % 10}`;
}
