/**
 * `@doorway/auth-core/webauthn`: the browser's {@link WebAuthnClient} over `@simplewebauthn/browser`, for
 * the adapters that run their ceremonies through that library. auth-core imports no WebAuthn library: the
 * adapter passes a loader of the library's module (a dynamic import of `@simplewebauthn/browser`), called on
 * the first ceremony so that the library stays out of the chunks a page loads first.
 * @module
 */
import type {
  WebAuthnAuthenticationJSON,
  WebAuthnClient,
  WebAuthnCreationOptionsJSON,
  WebAuthnRegistrationJSON,
  WebAuthnRequestOptionsJSON,
} from './webauthn.ts';

/** What the client uses of `@simplewebauthn/browser` (the module itself fits). */
export interface WebAuthnBrowserLibrary {
  browserSupportsWebAuthn(): boolean;
  browserSupportsWebAuthnAutofill(): Promise<boolean>;
  startRegistration(options: { optionsJSON: WebAuthnCreationOptionsJSON }): Promise<WebAuthnRegistrationJSON>;
  startAuthentication(options: {
    optionsJSON: WebAuthnRequestOptionsJSON;
    useBrowserAutofill?: boolean;
  }): Promise<WebAuthnAuthenticationJSON>;
  WebAuthnAbortService: { cancelCeremony(): void };
}

/** Rejects as a browser without WebAuthn (or without its autofill, for a conditional `get`) would. */
function unsupported(what: string): never {
  throw new DOMException(`${what} is not supported in this browser.`, 'NotSupportedError');
}

/**
 * Rejects at once when `signal` has already aborted; otherwise ends the library's ceremony when it aborts
 * (the library then rejects with an `AbortError`). Returns what stops following it.
 */
function follow(lib: WebAuthnBrowserLibrary, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => {};
  if (signal.aborted) throw new DOMException('The ceremony was aborted.', 'AbortError');
  const cancel = () => lib.WebAuthnAbortService.cancelCeremony();
  signal.addEventListener('abort', cancel, { once: true });
  return () => signal.removeEventListener('abort', cancel);
}

/** Runs `ceremony` while following `signal`. */
async function following<T>(
  lib: WebAuthnBrowserLibrary,
  signal: AbortSignal | undefined,
  ceremony: () => Promise<T>,
): Promise<T> {
  const stop = follow(lib, signal);
  try {
    return await ceremony();
  } finally {
    stop();
  }
}

/**
 * A {@link WebAuthnClient} over the browser's `navigator.credentials` through `@simplewebauthn/browser`
 * (`startRegistration` / `startAuthentication`), the library loaded once by `load` on the first ceremony
 * (again on the next one if that load failed).
 * Where there is no WebAuthn (or no passkey autofill, for a conditional `get`) it rejects with a
 * `NotSupportedError`; a signal that has aborted before the ceremony starts rejects with an `AbortError`,
 * one that aborts during it cancels the ceremony (an `AbortError` too); the browser's own errors keep their
 * `DOMException` names.
 */
export function createLibraryWebAuthnClient(load: () => Promise<WebAuthnBrowserLibrary>): WebAuthnClient {
  let loading: Promise<WebAuthnBrowserLibrary> | undefined;
  const library = async (): Promise<WebAuthnBrowserLibrary> => {
    // A load that failed (the chunk did not arrive) is tried again on the next ceremony.
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    const lib = await loading;
    if (!lib.browserSupportsWebAuthn()) unsupported('WebAuthn');
    return lib;
  };
  return {
    async create(options, signal) {
      const lib = await library();
      return following(lib, signal, () => lib.startRegistration({ optionsJSON: options }));
    },
    async get(options, { conditional, signal }) {
      const lib = await library();
      if (conditional && !(await lib.browserSupportsWebAuthnAutofill())) unsupported('Passkey autofill');
      return following(lib, signal, () =>
        lib.startAuthentication({ optionsJSON: options, useBrowserAutofill: conditional }),
      );
    },
  };
}
