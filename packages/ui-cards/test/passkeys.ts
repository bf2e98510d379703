/**
 * The fake provider with Ann signed in and her passkeys on a software authenticator, for the tests of the
 * account page's passkey cards.
 */
import { createFakeProvider, createManualClock } from '@doorway/adapter-fake';
import { createSoftAuthenticator } from '@doorway/testing/soft-authenticator';

export const EMAIL = 'ann@example.com';
export const PASSWORD = 'secret-123';

/** The fake with Ann signed in, its passkeys on a software authenticator. */
export async function signedIn() {
  const authenticator = createSoftAuthenticator();
  const fake = createFakeProvider({
    clock: createManualClock(Date.UTC(2026, 0, 1)),
    users: [{ email: EMAIL, password: PASSWORD }],
    // jsdom's page is on another port: the fake's relying party is the authenticator's origin.
    webAuthn: { client: authenticator, rpId: 'localhost', origin: authenticator.origin },
  });
  await fake.signInWithEmailAndPassword(EMAIL, PASSWORD);
  return { fake, authenticator };
}
