/**
 * The browser's `WebAuthnClient`: `navigator.credentials` through `@simplewebauthn/browser`, loaded by a
 * dynamic `import()` on the first ceremony so that it stays out of the chunks a page loads first.
 * @module
 */
import type { WebAuthnClient } from '@doorway/auth-core';

type Browser = typeof import('@simplewebauthn/browser');

let loading: Promise<Browser> | undefined;

/** `@simplewebauthn/browser`, loaded once. */
function browser(): Promise<Browser> {
  loading ??= import('@simplewebauthn/browser');
  return loading;
}

/** Rejects as a browser without WebAuthn (or without its autofill, for a conditional `get`) would. */
function unsupported(what: string): never {
  throw new DOMException(`${what} is not supported in this browser.`, 'NotSupportedError');
}

/** Ends the library's ceremony when `signal` aborts (it then rejects with an `AbortError`). */
function follow(lib: Browser, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => {};
  const cancel = () => lib.WebAuthnAbortService.cancelCeremony();
  signal.addEventListener('abort', cancel, { once: true });
  return () => signal.removeEventListener('abort', cancel);
}

/**
 * A `WebAuthnClient` over the browser's `navigator.credentials` (`startRegistration` /
 * `startAuthentication` of `@simplewebauthn/browser`). Where there is no WebAuthn it rejects with a
 * `NotSupportedError`; the browser's own errors keep their `DOMException` names.
 */
export function createBrowserWebAuthnClient(): WebAuthnClient {
  return {
    async create(options, signal) {
      const lib = await browser();
      if (!lib.browserSupportsWebAuthn()) unsupported('WebAuthn');
      if (signal?.aborted) throw new DOMException('The ceremony was aborted.', 'AbortError');
      const stop = follow(lib, signal);
      try {
        return await lib.startRegistration({ optionsJSON: options });
      } finally {
        stop();
      }
    },
    async get(options, { conditional, signal }) {
      const lib = await browser();
      if (!lib.browserSupportsWebAuthn()) unsupported('WebAuthn');
      if (conditional && !(await lib.browserSupportsWebAuthnAutofill())) unsupported('Passkey autofill');
      if (signal?.aborted) throw new DOMException('The ceremony was aborted.', 'AbortError');
      const stop = follow(lib, signal);
      try {
        return await lib.startAuthentication({ optionsJSON: options, useBrowserAutofill: conditional });
      } finally {
        stop();
      }
    },
  };
}
