// The browser provider's passkeys without the emulator: the capability follows the setting, the calls
// to the passkey server and their refusals, and the default WebAuthn client where there is no WebAuthn.
import { AuthError, type ErrorCode } from '@doorway/auth-core';
import { deleteApp } from 'firebase/app';
import { afterEach, describe, expect, it } from 'vitest';
import { createFirebaseProvider, type FirebasePasskeySettings, type FirebaseProvider } from '../src/index.ts';

const created: FirebaseProvider[] = [];
let apps = 0;

afterEach(async () => {
  await Promise.all(created.splice(0).map((provider) => deleteApp(provider.auth.app)));
});

function provider(passkeys?: FirebasePasskeySettings): FirebaseProvider {
  apps += 1;
  const made = createFirebaseProvider({
    config: { apiKey: 'unit-key', projectId: 'demo-unit', authDomain: 'demo-unit.firebaseapp.com' },
    appName: `passkeys-unit-${apps}`,
    ...(passkeys !== undefined && { passkeys }),
  });
  created.push(made);
  return made;
}

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return (error as AuthError).code;
}

const OPTIONS = { challengeId: 'c1', options: { challenge: 'abc', rpId: 'localhost' } };

describe('browser provider passkeys', () => {
  it('declares passkeys only when the app says where its passkey server is', () => {
    const without = provider();
    expect(without.capabilities.passkeys).toBeUndefined();
    expect(without.passkeys).toBeUndefined();
    const withServer = provider({ endpoint: '/passkeys', fetch: async () => Response.json(OPTIONS) });
    expect(withServer.capabilities.passkeys).toBe(true);
    expect(withServer.passkeys).toBeDefined();
  });

  it('rejects passkeys-unsupported with the default client where there is no WebAuthn (Node)', async () => {
    const seen: string[] = [];
    const made = provider({
      endpoint: 'https://app.test/passkeys/',
      fetch: async (input, init) => {
        seen.push(`${init?.method} ${String(input)}`);
        return Response.json(OPTIONS);
      },
    });
    expect(await codeOf(made.passkeys?.signIn() ?? Promise.resolve())).toBe('passkeys-unsupported');
    expect(seen).toEqual(['POST https://app.test/passkeys/authentication/options']);
  });

  it('turns the server’s refusals into their codes, anything else into generic or network-request-failed', async () => {
    const refusing = provider({
      endpoint: '/passkeys',
      fetch: async () => Response.json({ error: { code: 'session-expired' } }, { status: 400 }),
    });
    expect(await codeOf(refusing.passkeys?.signIn() ?? Promise.resolve())).toBe('session-expired');
    const full = provider({
      endpoint: '/passkeys',
      fetch: async () => Response.json({ error: { code: 'passkey-limit' } }, { status: 409 }),
    });
    expect(await codeOf(full.passkeys?.signIn() ?? Promise.resolve())).toBe('passkey-limit');
    const garbled = provider({
      endpoint: '/passkeys',
      fetch: async () => new Response('oops', { status: 502 }),
    });
    expect(await codeOf(garbled.passkeys?.signIn() ?? Promise.resolve())).toBe('generic');
    const offline = provider({
      endpoint: '/passkeys',
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await codeOf(offline.passkeys?.signIn() ?? Promise.resolve())).toBe('network-request-failed');
  });

  it('maps the ceremony’s DOMExceptions to catalogue codes', async () => {
    const cases: [string, ErrorCode][] = [
      ['NotAllowedError', 'user-cancelled'],
      ['AbortError', 'user-cancelled'],
      ['NotSupportedError', 'passkeys-unsupported'],
      ['SecurityError', 'passkeys-unsupported'],
    ];
    for (const [name, code] of cases) {
      const made = provider({
        endpoint: '/passkeys',
        fetch: async () => Response.json(OPTIONS),
        webAuthnClient: {
          create: () => Promise.reject(new DOMException('no', name)),
          get: () => Promise.reject(new DOMException('no', name)),
        },
      });
      expect(await codeOf(made.passkeys?.signIn() ?? Promise.resolve())).toBe(code);
    }
  });

  it('needs someone signed in to add, list or remove: requires-recent-login, nothing sent', async () => {
    let calls = 0;
    const made = provider({
      endpoint: '/passkeys',
      fetch: async () => {
        calls += 1;
        return Response.json(OPTIONS);
      },
    });
    expect(await codeOf(made.passkeys?.add('Laptop') ?? Promise.resolve())).toBe('requires-recent-login');
    expect(await codeOf(made.passkeys?.list() ?? Promise.resolve())).toBe('requires-recent-login');
    expect(await codeOf(made.passkeys?.remove('id') ?? Promise.resolve())).toBe('requires-recent-login');
    expect(calls).toBe(0);
  });
});
