/**
 * The account page's passkey provider on the server's operations (`account-passkeys.client.ts`): what each
 * operation posts to `POST /account/passkeys`, the browser's ceremony between `startAdd` and `finishAdd`
 * (a stand-in for the adapter's WebAuthn client), and refusals as catalogue errors.
 */
import { AuthError, type WebAuthnCreationOptionsJSON } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const ceremony = vi.hoisted(() => ({ create: vi.fn() }));

vi.mock('@doorway/adapter-supabase', async (original) => ({
  ...(await original<typeof import('@doorway/adapter-supabase')>()),
  createBrowserWebAuthnClient: () => ({ create: ceremony.create, get: vi.fn() }),
}));

const { serverPasskeyProvider } = await import('../app/account-passkeys.client.ts');

const OPTIONS = { challenge: 'Y2g', rp: { name: 'Doorway', id: 'localhost' } } as WebAuthnCreationOptionsJSON;
const CREDENTIAL = { id: 'abc', rawId: 'abc', type: 'public-key', response: {}, clientExtensionResults: {} };
const PASSKEY = { id: 'p-1', name: 'Laptop', createdAt: 1, lastUsedAt: null, backedUp: false };

let answers: { status: number; body: unknown }[];
const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => {
  const next = answers.shift() ?? { status: 500, body: {} };
  return new Response(JSON.stringify(next.body), { status: next.status });
});
const posted = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init.body)) as unknown);
const ops = () => {
  const passkeys = serverPasskeyProvider.passkeys;
  if (!passkeys) throw new Error('no passkeys');
  return passkeys;
};

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return (error as AuthError).code;
}

beforeEach(() => {
  answers = [];
  fetchMock.mockClear();
  ceremony.create.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('serverPasskeyProvider', () => {
  it('should offer passkeys, and list and remove with same-origin JSON posts', async () => {
    expect(serverPasskeyProvider.capabilities.passkeys).toBe(true);
    answers = [
      { status: 200, body: { value: [PASSKEY] } },
      { status: 200, body: { value: null } },
    ];
    expect(await ops().list()).toEqual([PASSKEY]);
    await ops().remove('p-1');
    expect(posted()).toEqual([{ op: 'list' }, { op: 'remove', id: 'p-1' }]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/account/passkeys');
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
    });
  });

  it("should add: the server's options, the browser's ceremony, then the credential and the trimmed name", async () => {
    answers = [
      { status: 200, body: { value: { challengeId: 'c-1', options: OPTIONS } } },
      { status: 200, body: { value: PASSKEY } },
    ];
    ceremony.create.mockResolvedValue(CREDENTIAL);
    expect(await ops().add('  Laptop ')).toEqual(PASSKEY);
    expect(ceremony.create).toHaveBeenCalledWith(OPTIONS);
    expect(posted()).toEqual([
      { op: 'startAdd' },
      { op: 'finishAdd', challengeId: 'c-1', credential: CREDENTIAL, name: 'Laptop' },
    ]);
  });

  it('should map a ceremony rejection as the adapter does, and post nothing more', async () => {
    for (const [name, code] of [
      ['NotAllowedError', 'user-cancelled'],
      ['InvalidStateError', 'credential-already-in-use'],
      ['NotSupportedError', 'passkeys-unsupported'],
    ]) {
      fetchMock.mockClear();
      answers = [{ status: 200, body: { value: { challengeId: 'c-1', options: OPTIONS } } }];
      ceremony.create.mockRejectedValueOnce(new DOMException('no', name));
      expect(await codeOf(ops().add())).toBe(code);
      expect(posted()).toEqual([{ op: 'startAdd' }]);
    }
  });

  it("should reject with the server's catalogue code, generic for anything else, and network-request-failed offline", async () => {
    answers = [
      { status: 422, body: { code: 'passkey-invalid', error: '…' } },
      { status: 401, body: { code: 'session-expired', error: '…' } },
      { status: 400, body: { error: 'Not a passkey operation' } },
    ];
    expect(await codeOf(ops().list())).toBe('passkey-invalid');
    expect(await codeOf(ops().list())).toBe('session-expired');
    expect(await codeOf(ops().remove('p-1'))).toBe('generic');
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    expect(await codeOf(ops().list())).toBe('network-request-failed');
  });

  it('should leave signing in to the widget (operation-not-allowed)', async () => {
    expect(await codeOf(ops().signIn())).toBe('operation-not-allowed');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
