import { describe, expect, it } from 'vitest';
import { expectAuthError, oobCodeFromLink, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, UNKNOWN_CODE, uniqueEmail } from '../fixtures.ts';
import { sendSignInLink } from '../steps.ts';

/** Registers the email link group (capability: emailLink). */
export function emailLinkTests(h: ContractContext): void {
  const { caps } = h;
  describe.skipIf(!caps.emailLink)('email link (capability: emailLink)', () => {
    emailLinkSignInTests(h);
    emailLinkRejectionTests(h);
  });
}

/** Sending a sign-in link, recognising it, and signing in with it. */
function emailLinkSignInTests(h: ContractContext): void {
  const { caps } = h;
  it('sendSignInLinkToEmail - should email a link that isSignInWithEmailLink recognises', async () => {
    const link = await sendSignInLink(h, uniqueEmail('link'));
    expect(oobCodeFromLink(link)).toEqual(expect.any(String));
    expect(h.provider.isSignInWithEmailLink(link)).toBe(true);
  });

  it('isSignInWithEmailLink - should be false for an ordinary URL', () => {
    expect(h.provider.isSignInWithEmailLink('https://example.com/some/page?x=1')).toBe(false);
    expect(h.provider.isSignInWithEmailLink('not a url')).toBe(false);
  });

  it('signInWithEmailLink - should create an account for an unknown email', async () => {
    const email = uniqueEmail('newlink');
    const result = await h.provider.signInWithEmailLink(email, await sendSignInLink(h, email));
    expect(result).toMatchObject({ isNewUser: true, providerId: 'emailLink' });
    expect(result.user).toMatchObject({ email, emailVerified: true, isAnonymous: false });
    expect(h.provider.getCurrentUser()?.uid).toBe(result.user.uid);
  });

  // Signing in to the existing account needs one to exist first.
  it.runIf(caps.password)(
    'signInWithEmailLink - should sign in to an existing password account',
    async () => {
      const email = uniqueEmail('oldlink');
      const uid = await h.inspect.createUser({ email, password: PASSWORD });
      const result = await h.provider.signInWithEmailLink(email, await sendSignInLink(h, email));
      expect(result).toMatchObject({ isNewUser: false, providerId: 'emailLink' });
      expect(result.user.uid).toBe(uid);
    },
  );
}

/** Links for another email, used or unknown links, the emailLink credential, malformed input. */
function emailLinkRejectionTests(h: ContractContext): void {
  it('signInWithEmailLink - should reject email-mismatch for another email', async () => {
    const link = await sendSignInLink(h, uniqueEmail('intended'));
    await expectAuthError(h.provider.signInWithEmailLink(uniqueEmail('other'), link), 'email-mismatch');
    expect(h.provider.getCurrentUser()).toBeNull();
  });

  it('signInWithEmailLink - should reject invalid-action-code for a link already used', async () => {
    const email = uniqueEmail('usedlink');
    const link = await sendSignInLink(h, email);
    await h.provider.signInWithEmailLink(email, link);
    await h.provider.signOut();
    await expectAuthError(h.provider.signInWithEmailLink(email, link), 'invalid-action-code');
  });

  it('signInWithEmailLink - should reject invalid-action-code for an unknown code', async () => {
    const email = uniqueEmail('badlink');
    const link = await sendSignInLink(h, email);
    const code = requireValue(oobCodeFromLink(link), 'an oobCode');
    await expectAuthError(
      h.provider.signInWithEmailLink(email, link.replaceAll(code, UNKNOWN_CODE)),
      'invalid-action-code',
    );
  });

  it('signInWithCredential - should sign in with an emailLink credential', async () => {
    const email = uniqueEmail('linkcred');
    const link = await sendSignInLink(h, email);
    const result = await h.provider.signInWithCredential({ kind: 'emailLink', email, link });
    expect(result.providerId).toBe('emailLink');
    expect(result.user.email).toBe(email);
  });

  it('sendSignInLinkToEmail - should reject invalid-email for a malformed address', async () => {
    await expectAuthError(
      h.provider.sendSignInLinkToEmail('not-an-email', { url: h.continueUrl, handleCodeInApp: true }),
      'invalid-email',
    );
  });

  it('sendSignInLinkToEmail - should reject invalid-continue-uri for a malformed continue URL', async () => {
    await expectAuthError(
      h.provider.sendSignInLinkToEmail(uniqueEmail('baduri'), {
        url: 'not a url',
        handleCodeInApp: true,
      }),
      'invalid-continue-uri',
    );
  });
}
