/**
 * Checks the adapter makes before asking GoTrue that the core's rules do not cover, shared by the browser
 * provider and the server's form provider so both refuse the same input with the same catalogue code. (Email
 * addresses go through `requireEmail` / `sameEmail` of `@doorway/auth-core`.)
 * @module
 */
import { AuthError } from '@doorway/auth-core';

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
