/**
 * A virtual WebAuthn authenticator for the passkey specs (CDP `WebAuthn.addVirtualAuthenticator`, in
 * Debian's Chromium): a platform authenticator that holds discoverable credentials, verifies the person
 * and is present at once, so a passkey dialog answers as a person's pick would. WebAuthn takes no IP
 * address as relying party id: pages that use it are opened on `localhost`.
 */
import type { CDPSession, Page } from '@playwright/test';

/** A virtual authenticator attached to `page`'s browser context, and its CDP session. */
export interface VirtualAuthenticator {
  cdp: CDPSession;
  id: string;
  /** The credentials it holds (what the browser would offer). */
  credentials(): Promise<{ isResidentCredential: boolean; rpId?: string }[]>;
}

/** Adds a CTAP2 internal authenticator with resident keys and user verification to `page`. */
export async function addAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    cdp,
    id: authenticatorId,
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials;
    },
  };
}
