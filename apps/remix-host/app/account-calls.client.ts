/**
 * One call of the account page to one of the host's server endpoints (`/account/second-factors`,
 * `/account/passkeys`): a same-origin JSON POST that the session cookie authorises. Resolves the answer's
 * `value`; a refusal rejects as the catalogue error the server's provider gave (`generic` when it names
 * none), a request that never got an answer as `network-request-failed`.
 * @module
 */
import { AuthError, isErrorCode } from '@doorway/auth-core';

export async function postAccountCall<T>(path: string, body: Record<string, unknown>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new AuthError('network-request-failed');
  }
  const answer = (await response.json().catch(() => ({}))) as { value?: T; code?: unknown };
  if (response.ok) return answer.value as T;
  throw new AuthError(isErrorCode(answer.code) ? answer.code : 'generic');
}
