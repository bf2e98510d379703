/**
 * The account page's passkeys when they are managed on the server (`POST /account/passkeys`, see
 * `account-passkeys.server.ts`): each call a same-origin JSON POST that the session cookie authorises; a
 * refusal comes back as the same catalogue error the provider gave. Adding one is two calls around the
 * browser's own dialog: the server asks GoTrue for the registration options, the browser's authenticator
 * makes the credential (the adapter's WebAuthn client), the server has GoTrue verify it. Signing in with a
 * passkey is the widget's, on the browser provider.
 * @module
 */
import { createBrowserWebAuthnClient, passkeyCeremonyCode } from '@doorway/adapter-supabase';
import {
  AuthError,
  type PasskeyInfo,
  type PasskeyOperations,
  type WebAuthnCreationOptionsJSON,
  type WebAuthnRegistrationJSON,
} from '@doorway/auth-core';
import type { PasskeyProvider } from '@doorway/ui-cards/account';
import { postAccountCall } from './account-calls.client.ts';
import { ACCOUNT_PASSKEYS_PATH } from './public-config.ts';

/** What `startAdd` answers: GoTrue's challenge and the options for `navigator.credentials.create`. */
interface StartedAdd {
  challengeId: string;
  options: WebAuthnCreationOptionsJSON;
}

const post = <T>(body: Record<string, unknown>) => postAccountCall<T>(ACCOUNT_PASSKEYS_PATH, body);

let webAuthn: ReturnType<typeof createBrowserWebAuthnClient> | undefined;

/** The browser's registration ceremony, its rejections as catalogue codes (as the adapter maps them). */
async function register(options: WebAuthnCreationOptionsJSON): Promise<WebAuthnRegistrationJSON> {
  webAuthn ??= createBrowserWebAuthnClient();
  try {
    return await webAuthn.create(options);
  } catch (error) {
    throw new AuthError(passkeyCeremonyCode(error));
  }
}

const operations: PasskeyOperations = {
  // The widget signs in, on the browser provider.
  signIn: async () => {
    throw new AuthError('operation-not-allowed');
  },
  list: () => post<PasskeyInfo[]>({ op: 'list' }),
  add: async (name) => {
    const started = await post<StartedAdd>({ op: 'startAdd' });
    const credential = await register(started.options);
    const wanted = name?.trim();
    return post<PasskeyInfo>({
      op: 'finishAdd',
      challengeId: started.challengeId,
      credential,
      ...(wanted ? { name: wanted } : {}),
    });
  },
  remove: async (id) => {
    await post<null>({ op: 'remove', id });
  },
};

/** `<Passkeys>`' provider on the server's operations. */
export const serverPasskeyProvider: PasskeyProvider = {
  capabilities: { passkeys: true },
  passkeys: operations,
};
