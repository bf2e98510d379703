// Email-link sign-in against the emulator: the link is read back from its OOB code list.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import {
  createAccount,
  expectAuthError,
  freshProvider,
  lastOobCode,
  resetEmulator,
  uniqueEmail,
} from './emulator.ts';

const CONTINUE_URL = 'http://localhost:5173/login?doorway_sid=abc123';

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

async function sendLink(email: string): Promise<string> {
  await provider.sendSignInLinkToEmail(email, { url: CONTINUE_URL, handleCodeInApp: true });
  return (await lastOobCode(email, 'EMAIL_SIGNIN')).oobLink;
}

describe('email link', () => {
  it('sendSignInLinkToEmail - should email a sign-in link carrying the continue URL', async () => {
    const email = uniqueEmail('link');
    const link = await sendLink(email);
    expect(new URL(link).searchParams.get('continueUrl')).toBe(CONTINUE_URL);
    expect(provider.isSignInWithEmailLink(link)).toBe(true);
    expect(provider.isSignInWithEmailLink(CONTINUE_URL)).toBe(false);
    expect(provider.isSignInWithEmailLink('not a url')).toBe(false);
  });

  it('signInWithEmailLink - should create and sign in a new user with a verified email', async () => {
    const email = uniqueEmail('link');
    const result = await provider.signInWithEmailLink(email, await sendLink(email));
    expect(result).toMatchObject({
      isNewUser: true,
      providerId: 'emailLink',
      user: { email, emailVerified: true },
    });
    expect(await provider.fetchSignInMethodsForEmail(email)).toEqual(['emailLink']);
  });

  it('signInWithEmailLink - should reject another email with email-mismatch', async () => {
    const email = uniqueEmail('link');
    const link = await sendLink(email);
    const error = await expectAuthError(
      provider.signInWithEmailLink(uniqueEmail('other'), link),
      'email-mismatch',
    );
    expect(error.message).toBe('The email provided does not match the current sign-in session.');
  });

  it('signInWithEmailLink - should reject a used link with invalid-action-code', async () => {
    const email = uniqueEmail('link');
    const link = await sendLink(email);
    await provider.signInWithEmailLink(email, link);
    await expectAuthError(provider.signInWithEmailLink(email, link), 'invalid-action-code');
  });

  it('signInWithEmailLink - should reject a URL that is not a sign-in link with invalid-action-code', async () => {
    await expectAuthError(provider.signInWithEmailLink(uniqueEmail(), CONTINUE_URL), 'invalid-action-code');
  });

  it('signInWithCredential - should sign in with an emailLink credential', async () => {
    const email = uniqueEmail('link');
    const result = await provider.signInWithCredential({
      kind: 'emailLink',
      email,
      link: await sendLink(email),
    });
    expect(result).toMatchObject({ providerId: 'emailLink', user: { email } });
  });

  it('signInWithEmailLink - should upgrade an anonymous user with { link: true }, keeping the uid', async () => {
    const { user } = await provider.signInAnonymously();
    const email = uniqueEmail('upgrade');
    const result = await provider.signInWithEmailLink(email, await sendLink(email), { link: true });
    expect(result).toMatchObject({
      providerId: 'emailLink',
      user: { uid: user.uid, email, isAnonymous: false },
    });
  });

  it('signInWithEmailLink - should sign in an existing password account, which then has both methods', async () => {
    const email = uniqueEmail('both');
    await createAccount({ email, password: 'secret123' });
    const result = await provider.signInWithEmailLink(email, await sendLink(email));
    expect(result.isNewUser).toBe(false);
    expect((await provider.fetchSignInMethodsForEmail(email)).sort()).toEqual(['emailLink', 'password']);
  });

  // The emulator sends sign-in links to malformed addresses (Firebase answers INVALID_EMAIL): that
  // mapping is covered by errors.unit.test.ts.
});
