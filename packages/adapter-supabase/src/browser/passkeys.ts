/**
 * Passkeys in the browser, on supabase-js's low-level `auth.passkey` (GoTrue's `/passkeys` endpoints; both
 * experimental upstream): each ceremony is start (GoTrue's options and challenge) → the injected
 * `WebAuthnClient` → verify. supabase-js throws unless its client was made with
 * `auth: { experimental: { passkey: true } }`: the adapter's own client is; an app's client without it has
 * no passkeys (`capabilities.passkeys` off, and `operation-not-allowed` should a call get through).
 *
 * - GoTrue answers every assertion it cannot verify with `webauthn_verification_failed`: a replay, another
 *   origin, and a passkey it does not know (removed, of another project) alike. The adapter tells them
 *   apart from the assertion itself: one whose client data is not for this ceremony (another challenge, an
 *   origin outside the RP id) is `passkey-invalid`; one a browser made for this very ceremony can only have
 *   failed on the credential, `passkey-not-found`.
 * - A passkey's id is GoTrue's (a UUID), not the credential id; GoTrue does not say whether it is backed up
 *   (`backedUp` is `false`). `add(name)` renames the new passkey (GoTrue names it after its authenticator).
 * - GoTrue's passkey session is at aal1: an account with a verified second factor is asked for it, as after
 *   any first factor (`second-factor-required`).
 * @module
 */
import {
  AuthError,
  type PasskeyInfo,
  type PasskeyOperations,
  passkeyCeremonyCode,
  type SignInResult,
  type WebAuthnAuthenticationJSON,
  type WebAuthnCreationOptionsJSON,
  type WebAuthnRequestOptionsJSON,
} from '@doorway/auth-core';
import type { GoTrueClient } from '@supabase/supabase-js';
import { toAuthError } from '../shared/errors.ts';
import { type GoTruePasskey, PASSKEY_NAME_MAX, passkeyInfo } from '../shared/passkeys.ts';
import { firstFactorSignedIn } from './assurance.ts';
import { captchaToken, type ProviderContext } from './context.ts';

/** The passkeys of the browser provider. */
export function browserPasskeys(ctx: ProviderContext): PasskeyOperations {
  return {
    signIn: (options) => passkeySignIn(ctx, options),
    list: () => listPasskeys(ctx),
    add: (name) => addPasskey(ctx, name),
    remove: (id) => removePasskey(ctx, id),
  };
}

/**
 * One `auth.passkey` call: its data (maybe `null`), or its error as a catalogue code. supabase-js's throw for
 * a client without the experimental flag is `operation-not-allowed`.
 */
async function settle<T>(run: () => Promise<{ data: T | null; error: unknown }>): Promise<T | null> {
  let result: { data: T | null; error: unknown };
  try {
    result = await run();
  } catch (error) {
    if (error instanceof Error && error.message.includes('experimental')) {
      throw new AuthError('operation-not-allowed');
    }
    throw toAuthError(error, 'passkey');
  }
  if (result.error) throw toAuthError(result.error, 'passkey');
  return result.data;
}

/** One `auth.passkey` call that answers data: the data, `generic` when there is none. */
async function call<T>(run: () => Promise<{ data: T | null; error: unknown }>): Promise<T> {
  const data = await settle(run);
  if (data === null) throw new AuthError('generic');
  return data;
}

/** Runs a ceremony on the injected client, its rejections as catalogue codes. */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new AuthError(passkeyCeremonyCode(error));
  }
}

/** Nobody signed in (or a sign-in waiting for its second factor): `requires-recent-login`. */
function requireSignedIn(ctx: ProviderContext): void {
  if (ctx.current === null) throw new AuthError('requires-recent-login');
}

/** The client data of an assertion (`type`, `challenge`, `origin`), or `null` when it does not parse. */
function clientDataOf(assertion: WebAuthnAuthenticationJSON): Record<string, unknown> | null {
  try {
    const b64 = assertion.response.clientDataJSON.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether `origin` may carry assertions for `rpId`: its host is the RP id or a subdomain of it. */
function originFits(origin: unknown, rpId: string): boolean {
  if (typeof origin !== 'string') return false;
  try {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  } catch {
    return false;
  }
}

/**
 * What GoTrue's `webauthn_verification_failed` means for this assertion: `passkey-invalid` when the
 * assertion is not of this ceremony (a replay, another origin), else `passkey-not-found` (the credential).
 */
function refusedAssertion(
  request: WebAuthnRequestOptionsJSON,
  assertion: WebAuthnAuthenticationJSON,
): AuthError {
  const data = clientDataOf(assertion);
  const rpId = request.rpId ?? globalThis.location?.hostname ?? '';
  const ours =
    data !== null &&
    data.type === 'webauthn.get' &&
    data.challenge === request.challenge &&
    originFits(data.origin, rpId);
  return new AuthError(ours ? 'passkey-not-found' : 'passkey-invalid');
}

/** `passkeys.signIn`: a discoverable credential's assertion; the session is GoTrue's (`amr` `passkey`). */
async function passkeySignIn(
  ctx: ProviderContext,
  options: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<SignInResult> {
  requirePasskeys(ctx);
  const started = await call(() =>
    ctx.auth.passkey.startAuthentication({ options: { captchaToken: captchaToken(ctx) } }),
  );
  const request = started.options as WebAuthnRequestOptionsJSON;
  const how = { conditional: options.conditional === true, signal: options.signal };
  const assertion = await ceremony(() => ctx.webAuthn().get(request, how));
  let verified: Awaited<ReturnType<GoTrueClient['passkey']['verifyAuthentication']>>['data'];
  try {
    verified = await call(() =>
      ctx.auth.passkey.verifyAuthentication({
        challengeId: started.challenge_id,
        credential: assertion as Parameters<GoTrueClient['passkey']['verifyAuthentication']>[0]['credential'],
      }),
    );
  } catch (error) {
    if (error instanceof AuthError && error.code === 'passkey-invalid')
      throw refusedAssertion(request, assertion);
    throw error;
  }
  if (!verified.user) throw new AuthError('generic');
  return firstFactorSignedIn(ctx, verified.user, 'passkey', false);
}

/** `passkeys.list`: the signed-in user's passkeys, oldest first (as GoTrue lists them). */
async function listPasskeys(ctx: ProviderContext): Promise<PasskeyInfo[]> {
  requirePasskeys(ctx);
  requireSignedIn(ctx);
  const listed = await call(() => ctx.auth.passkey.list());
  return (listed as GoTruePasskey[]).map(passkeyInfo);
}

/** `passkeys.add`: registration options → the authenticator → verify, then the name, when one is given. */
async function addPasskey(ctx: ProviderContext, name?: string): Promise<PasskeyInfo> {
  requirePasskeys(ctx);
  requireSignedIn(ctx);
  const started = await call(() => ctx.auth.passkey.startRegistration());
  const creation = started.options as WebAuthnCreationOptionsJSON;
  const credential = await ceremony(() => ctx.webAuthn().create(creation));
  const added = await call(() =>
    ctx.auth.passkey.verifyRegistration({
      challengeId: started.challenge_id,
      credential: credential as Parameters<GoTrueClient['passkey']['verifyRegistration']>[0]['credential'],
    }),
  );
  const wanted = name?.trim();
  if (!wanted) return passkeyInfo(added);
  const renamed = await call(() =>
    ctx.auth.passkey.update({ passkeyId: added.id, friendlyName: wanted.slice(0, PASSKEY_NAME_MAX) }),
  );
  return passkeyInfo(renamed);
}

/** `passkeys.remove`: one of the user's passkeys, by GoTrue's id. */
async function removePasskey(ctx: ProviderContext, id: string): Promise<void> {
  requirePasskeys(ctx);
  requireSignedIn(ctx);
  await settle(() => ctx.auth.passkey.delete({ passkeyId: encodeURIComponent(id) }));
}

/** Rejects `operation-not-allowed` unless the provider offers passkeys. */
function requirePasskeys(ctx: ProviderContext): void {
  if (ctx.capabilities.passkeys !== true) throw new AuthError('operation-not-allowed');
}
