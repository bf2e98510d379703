/**
 * The account page's passkeys on the server, with the session's access token over GoTrue REST: for a host
 * whose session is the access token alone (supabase-js in the browser cannot take it over). Listing and
 * removing are one request each; adding is two steps around the browser's own ceremony, which the server
 * cannot run: {@link SupabaseAccountPasskeys.startAdd} answers GoTrue's challenge and creation options, the
 * browser's authenticator makes the credential, {@link SupabaseAccountPasskeys.finishAdd} has GoTrue verify it
 * (and names the new passkey, when a name is given). Refusals are the catalogue codes the browser provider
 * gives for the same GoTrue answers.
 * @module
 */
import {
  AuthError,
  type PasskeyInfo,
  type WebAuthnCreationOptionsJSON,
  type WebAuthnRegistrationJSON,
} from '@doorway/auth-core';
import { mapSupabaseErrorCode } from '../shared/errors.ts';
import { isGoTruePasskey, PASSKEY_NAME_MAX, passkeyInfo } from '../shared/passkeys.ts';
import {
  deletePasskey,
  type GoTrueApi,
  type GoTrueResult,
  listPasskeys,
  passkeyRegistrationOptions,
  renamePasskey,
  verifyPasskeyRegistration,
} from './rest.ts';

/** What {@link SupabaseAccountPasskeys.startAdd} answers: the registration's challenge and its options. */
export interface PasskeyRegistrationStart {
  /** GoTrue's challenge id, which {@link SupabaseAccountPasskeys.finishAdd} takes back. */
  challengeId: string;
  /** What `navigator.credentials.create()` is asked (as JSON, e.g. for `@simplewebauthn/browser`). */
  options: WebAuthnCreationOptionsJSON;
}

/**
 * The passkeys of one session's user, on the server. Each method rejects as the browser provider's
 * `passkeys` does: `session-expired` (a challenge used, unknown or expired), `requires-recent-login` (the
 * session ended meanwhile),
 * `passkey-invalid` (a credential GoTrue does not verify), `credential-already-in-use`, `passkey-not-found`,
 * `operation-not-allowed` (passkeys off in the project, or too many), `network-request-failed`, `generic`.
 */
export interface SupabaseAccountPasskeys {
  /** The user's passkeys, oldest first. */
  list(): Promise<PasskeyInfo[]>;
  /** Opens a registration: GoTrue's challenge and the options for the browser's authenticator. */
  startAdd(): Promise<PasskeyRegistrationStart>;
  /**
   * Has GoTrue verify the browser's credential for the challenge, then names the new passkey `name` (trimmed,
   * at most 120 characters) when one is given; else it keeps GoTrue's name.
   */
  finishAdd(challengeId: string, credential: WebAuthnRegistrationJSON, name?: string): Promise<PasskeyInfo>;
  /** Removes one of the user's passkeys, by GoTrue's id. */
  remove(id: string): Promise<void>;
}

/** GoTrue's answer, or its refusal as the catalogue code of a passkey step. */
function answered(result: GoTrueResult): unknown {
  if (!result.ok) throw new AuthError(mapSupabaseErrorCode(result.code, 'passkey'));
  return result.data;
}

/** A passkey in GoTrue's answer, else `generic`. */
function passkeyOf(data: unknown): PasskeyInfo {
  if (!isGoTruePasskey(data)) throw new AuthError('generic');
  return passkeyInfo(data);
}

/** `startAdd`: GoTrue's `challenge_id` and `options`, else `generic`. */
function registrationOf(data: unknown): PasskeyRegistrationStart {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const { challenge_id: challengeId, options } = d;
  if (typeof challengeId !== 'string' || typeof options !== 'object' || options === null) {
    throw new AuthError('generic');
  }
  return { challengeId, options: options as WebAuthnCreationOptionsJSON };
}

/** The account passkeys of the user whose (verified) access token is `accessToken`. */
export function accountPasskeys(api: GoTrueApi, accessToken: string): SupabaseAccountPasskeys {
  return {
    async list() {
      const data = answered(await listPasskeys(api, accessToken));
      return (Array.isArray(data) ? data : []).filter(isGoTruePasskey).map(passkeyInfo);
    },
    async startAdd() {
      return registrationOf(answered(await passkeyRegistrationOptions(api, accessToken)));
    },
    async finishAdd(challengeId, credential, name) {
      const verified = await verifyPasskeyRegistration(api, accessToken, { challengeId, credential });
      const added = passkeyOf(answered(verified));
      const wanted = name?.trim().slice(0, PASSKEY_NAME_MAX);
      if (!wanted) return added;
      return passkeyOf(answered(await renamePasskey(api, accessToken, added.id, wanted)));
    },
    async remove(id) {
      answered(await deletePasskey(api, accessToken, id));
    },
  };
}
