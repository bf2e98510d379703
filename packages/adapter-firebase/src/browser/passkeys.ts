/**
 * Passkeys on Firebase through the app's passkey server (`createPasskeyServer` of
 * `@doorway/adapter-firebase/server`, mounted at `passkeys.endpoint`): the server makes the options and
 * verifies the answers, the injected {@link WebAuthnClient} runs the ceremony, and a sign-in ends with
 * `signInWithCustomToken` on the custom token the server minted. Adding, listing and removing send the
 * current user's ID token as a bearer.
 * @module
 */
import {
  AuthError,
  type ErrorCode,
  isErrorCode,
  type PasskeyInfo,
  type PasskeyOperations,
  passkeyCeremonyCode,
  type SignInResult,
  type WebAuthnClient,
} from '@doorway/auth-core';
import { signInWithCustomToken } from 'firebase/auth';
import { withAuthErrors } from '../shared/common.ts';
import {
  PASSKEY_ROUTES,
  type PasskeyAdded,
  type PasskeyAuthenticationStart,
  type PasskeyList,
  type PasskeyRegistrationStart,
  type PasskeySignedIn,
} from '../shared/passkeyWire.ts';
import { type BrowserContext, requireUser } from './context.ts';
import type { FirebasePasskeySettings } from './options.ts';
import { toAuthUser } from './results.ts';
import { createNativeWebAuthnClient } from './webauthn.ts';

/** What the passkey operations work with: the endpoint, its fetch and the WebAuthn client. */
interface PasskeyContext {
  readonly ctx: BrowserContext;
  readonly endpoint: string;
  readonly fetch: typeof fetch;
  readonly client: WebAuthnClient;
}

/** Runs the ceremony; its rejections become catalogue codes. */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new AuthError(passkeyCeremonyCode(error));
  }
}

/** The catalogue code of a refusal's JSON body, else `generic`. */
async function refusalCode(response: Response): Promise<ErrorCode> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown } };
    const code = body.error?.code;
    return typeof code === 'string' && isErrorCode(code) ? code : 'generic';
  } catch {
    return 'generic';
  }
}

/** One call to the passkey server: JSON in and out, the server's refusals as {@link AuthError}s. */
async function callServer<T>(
  pk: PasskeyContext,
  method: 'GET' | 'POST' | 'DELETE',
  route: string,
  options: { idToken?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.idToken !== undefined) headers.authorization = `Bearer ${options.idToken}`;
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  if (options.signal !== undefined) init.signal = options.signal;
  let response: Response;
  try {
    response = await pk.fetch(`${pk.endpoint}${route}`, init);
  } catch {
    throw new AuthError(options.signal?.aborted ? 'user-cancelled' : 'network-request-failed');
  }
  if (!response.ok) throw new AuthError(await refusalCode(response));
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The signed-in user's ID token; `requires-recent-login` when nobody is signed in or it cannot be had. */
async function idToken(pk: PasskeyContext): Promise<string> {
  const user = requireUser(pk.ctx);
  return withAuthErrors('enrollment', () => user.getIdToken());
}

/** `passkeys.signIn`: options, the client's assertion, verification, then the custom token's sign-in. */
async function passkeySignIn(
  pk: PasskeyContext,
  options: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<SignInResult> {
  const signal = options.signal;
  const start = await callServer<PasskeyAuthenticationStart>(
    pk,
    'POST',
    PASSKEY_ROUTES.authenticationOptions,
    signal === undefined ? {} : { signal },
  );
  const how = { conditional: options.conditional === true, ...(signal !== undefined && { signal }) };
  const response = await ceremony(() => pk.client.get(start.options, how));
  const { customToken } = await callServer<PasskeySignedIn>(pk, 'POST', PASSKEY_ROUTES.authenticationVerify, {
    body: { challengeId: start.challengeId, response },
  });
  const credential = await withAuthErrors('other', () => signInWithCustomToken(pk.ctx.auth, customToken));
  return { user: toAuthUser(credential.user), isNewUser: false, providerId: 'passkey' };
}

/** `passkeys.add`: registration options for the signed-in user, the client's credential, verification. */
async function addPasskey(pk: PasskeyContext, name: string | undefined): Promise<PasskeyInfo> {
  const token = await idToken(pk);
  const start = await callServer<PasskeyRegistrationStart>(pk, 'POST', PASSKEY_ROUTES.registrationOptions, {
    idToken: token,
  });
  const response = await ceremony(() => pk.client.create(start.options));
  const body = { challengeId: start.challengeId, response, ...(name !== undefined && { name }) };
  const added = await callServer<PasskeyAdded>(pk, 'POST', PASSKEY_ROUTES.registrationVerify, {
    idToken: await idToken(pk),
    body,
  });
  return added.passkey;
}

/** The passkey operations of a provider whose app mounts a passkey server at `settings.endpoint`. */
export function passkeyOperations(ctx: BrowserContext, settings: FirebasePasskeySettings): PasskeyOperations {
  const pk: PasskeyContext = {
    ctx,
    endpoint: settings.endpoint.replace(/\/+$/, ''),
    // Called unbound: a browser's fetch must not run with the context as `this`.
    fetch: settings.fetch ?? ((input, init) => fetch(input, init)),
    client: settings.webAuthnClient ?? createNativeWebAuthnClient(),
  };
  return {
    signIn: (options) => passkeySignIn(pk, options),
    add: (name) => addPasskey(pk, name),
    list: async () =>
      (
        await callServer<PasskeyList>(pk, 'GET', PASSKEY_ROUTES.credentials, {
          idToken: await idToken(pk),
        })
      ).passkeys,
    remove: async (id) => {
      const token = await idToken(pk);
      const route = `${PASSKEY_ROUTES.credentials}/${encodeURIComponent(id)}`;
      await callServer<undefined>(pk, 'DELETE', route, { idToken: token });
    },
  };
}
