/**
 * Checks the adapter makes before asking GoTrue, shared by the browser provider and the server's form
 * provider so both refuse the same input with the same catalogue code.
 * @module
 */
import { AuthError } from '@doorway/auth-core';

// GoTrue's email check (checkmail); used where GoTrue itself does not check (password sign-in, lookups).
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Whether two addresses are the same account's (GoTrue stores emails lower-cased). */
export const sameEmail = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Rejects `invalid-email` unless `email` passes GoTrue's own format check. */
export function requireEmail(email: string): void {
  if (!EMAIL.test(email)) throw new AuthError('invalid-email');
}

/** The absolute http(s) URL `url` names; rejects `invalid-continue-uri` for anything else. */
export function requireUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError('not http(s)');
    return parsed.href;
  } catch {
    throw new AuthError('invalid-continue-uri');
  }
}
