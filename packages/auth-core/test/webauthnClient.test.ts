import { describe, expect, it, vi } from 'vitest';
import type {
  WebAuthnAuthenticationJSON,
  WebAuthnCreationOptionsJSON,
  WebAuthnRegistrationJSON,
  WebAuthnRequestOptionsJSON,
} from '../src/webauthn.ts';
import { createLibraryWebAuthnClient, type WebAuthnBrowserLibrary } from '../src/webauthnClient.ts';

const creation: WebAuthnCreationOptionsJSON = {
  rp: { name: 'Example' },
  user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada' },
  challenge: 'Y2hhbGxlbmdl',
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
};
const request: WebAuthnRequestOptionsJSON = { challenge: 'Y2hhbGxlbmdl' };
const registration: WebAuthnRegistrationJSON = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'o' },
  clientExtensionResults: {},
};
const assertion: WebAuthnAuthenticationJSON = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'a', signature: 's' },
  clientExtensionResults: {},
};

/**
 * A stand-in for `@simplewebauthn/browser`: its ceremonies wait until `settle()` (or reject with an
 * `AbortError` when cancelled), as the library's do around `navigator.credentials`.
 */
function library(support: { webAuthn?: boolean; autofill?: boolean } = {}) {
  let cancel: (() => void) | undefined;
  let settle: (() => void) | undefined;
  const ceremony = <T>(result: T) =>
    new Promise<T>((resolve, reject) => {
      settle = () => resolve(result);
      cancel = () => reject(new DOMException('Cancelled', 'AbortError'));
    });
  const lib = {
    browserSupportsWebAuthn: vi.fn(() => support.webAuthn ?? true),
    browserSupportsWebAuthnAutofill: vi.fn(async () => support.autofill ?? true),
    startRegistration: vi.fn((_: { optionsJSON: WebAuthnCreationOptionsJSON }) => ceremony(registration)),
    startAuthentication: vi.fn(
      (_: { optionsJSON: WebAuthnRequestOptionsJSON; useBrowserAutofill?: boolean }) => ceremony(assertion),
    ),
    WebAuthnAbortService: { cancelCeremony: vi.fn(() => cancel?.()) },
  } satisfies WebAuthnBrowserLibrary;
  return { lib, settle: () => settle?.() };
}

/** Resolves once the ceremony has started (the library's start function was called). */
async function started(fn: { mock: { calls: unknown[] } }): Promise<void> {
  await vi.waitFor(() => expect(fn.mock.calls.length).toBe(1));
}

describe('createLibraryWebAuthnClient', () => {
  it('registers through startRegistration and returns its credential', async () => {
    const { lib, settle } = library();
    const client = createLibraryWebAuthnClient(async () => lib);
    const pending = client.create(creation);
    await started(lib.startRegistration);
    settle();
    await expect(pending).resolves.toEqual(registration);
    expect(lib.startRegistration).toHaveBeenCalledWith({ optionsJSON: creation });
  });

  it('signs through startAuthentication, with the browser autofill for a conditional get', async () => {
    const { lib, settle } = library();
    const client = createLibraryWebAuthnClient(async () => lib);
    const pending = client.get(request, { conditional: true });
    await started(lib.startAuthentication);
    settle();
    await expect(pending).resolves.toEqual(assertion);
    expect(lib.startAuthentication).toHaveBeenCalledWith({ optionsJSON: request, useBrowserAutofill: true });
  });

  it('loads the library once, on the first ceremony', async () => {
    const { lib, settle } = library();
    const load = vi.fn(async () => lib);
    const client = createLibraryWebAuthnClient(load);
    expect(load).not.toHaveBeenCalled();
    const first = client.get(request, { conditional: false });
    await started(lib.startAuthentication);
    settle();
    await first;
    const second = client.create(creation);
    await started(lib.startRegistration);
    settle();
    await second;
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads the library again after a load that failed', async () => {
    const { lib, settle } = library();
    const load = vi.fn<() => Promise<WebAuthnBrowserLibrary>>();
    load.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    load.mockResolvedValue(lib);
    const client = createLibraryWebAuthnClient(load);
    await expect(client.create(creation)).rejects.toThrow('Failed to fetch');
    const pending = client.create(creation);
    await started(lib.startRegistration);
    settle();
    await expect(pending).resolves.toEqual(registration);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('rejects with a NotSupportedError where the browser has no WebAuthn', async () => {
    const { lib } = library({ webAuthn: false });
    const client = createLibraryWebAuthnClient(async () => lib);
    await expect(client.create(creation)).rejects.toMatchObject({ name: 'NotSupportedError' });
    await expect(client.get(request, { conditional: false })).rejects.toMatchObject({
      name: 'NotSupportedError',
    });
    expect(lib.startRegistration).not.toHaveBeenCalled();
    expect(lib.startAuthentication).not.toHaveBeenCalled();
  });

  it('rejects a conditional get with a NotSupportedError where the browser has no passkey autofill', async () => {
    const { lib, settle } = library({ autofill: false });
    const client = createLibraryWebAuthnClient(async () => lib);
    await expect(client.get(request, { conditional: true })).rejects.toMatchObject({
      name: 'NotSupportedError',
      message: 'Passkey autofill is not supported in this browser.',
    });
    expect(lib.startAuthentication).not.toHaveBeenCalled();
    const modal = client.get(request, { conditional: false });
    await started(lib.startAuthentication);
    settle();
    await expect(modal).resolves.toEqual(assertion);
  });

  it('rejects with an AbortError, starting no ceremony, when the signal has already aborted', async () => {
    const { lib } = library();
    const client = createLibraryWebAuthnClient(async () => lib);
    const signal = AbortSignal.abort();
    await expect(client.create(creation, signal)).rejects.toMatchObject({ name: 'AbortError' });
    await expect(client.get(request, { conditional: true, signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(lib.startRegistration).not.toHaveBeenCalled();
    expect(lib.startAuthentication).not.toHaveBeenCalled();
  });

  it('cancels the running ceremony when the signal aborts (an AbortError)', async () => {
    const { lib } = library();
    const client = createLibraryWebAuthnClient(async () => lib);
    const controller = new AbortController();
    const pending = client.get(request, { conditional: true, signal: controller.signal });
    await started(lib.startAuthentication);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(lib.WebAuthnAbortService.cancelCeremony).toHaveBeenCalledTimes(1);
  });

  it('stops following the signal once the ceremony is over', async () => {
    const { lib, settle } = library();
    const client = createLibraryWebAuthnClient(async () => lib);
    const controller = new AbortController();
    const pending = client.create(creation, controller.signal);
    await started(lib.startRegistration);
    settle();
    await expect(pending).resolves.toEqual(registration);
    controller.abort();
    expect(lib.WebAuthnAbortService.cancelCeremony).not.toHaveBeenCalled();
  });
});
