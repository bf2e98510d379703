import { describe, expect, it } from 'vitest';
import { expectAuthError, oobCodeFromLink, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { NEW_PASSWORD, PASSWORD, UNKNOWN_CODE, uniqueEmail } from '../fixtures.ts';
import { emailLinkFor } from '../steps.ts';

/** Registers the password reset group (capability: password). */
export function passwordResetTests(h: ContractContext): void {
  const { caps } = h;
  describe.skipIf(!caps.password)('password reset (capability: password)', () => {
    resetCodeTests(h);
    resetRejectionTests(h);
  });
}

/** Asks for a reset email to `email` and returns the code in its link. */
async function resetCodeFor(h: ContractContext, email: string): Promise<string> {
  await h.provider.sendPasswordResetEmail(email, { url: h.continueUrl });
  const link = await emailLinkFor(h, email, 'resetPassword');
  return requireValue(oobCodeFromLink(link), `an oobCode in ${link}`);
}

/** A reset code emailed, checked and used once. */
function resetCodeTests(h: ContractContext): void {
  it('sendPasswordResetEmail - should email a link whose code verifyPasswordResetCode resolves to the email', async () => {
    const email = uniqueEmail('reset');
    await h.inspect.createUser({ email, password: PASSWORD });
    const code = await resetCodeFor(h, email);
    await expect(h.provider.verifyPasswordResetCode(code)).resolves.toBe(email);
  });

  it('sendPasswordResetEmail - should work without link settings', async () => {
    const email = uniqueEmail('resetplain');
    await h.inspect.createUser({ email, password: PASSWORD });
    await h.provider.sendPasswordResetEmail(email);
    const link = await emailLinkFor(h, email, 'resetPassword');
    expect(oobCodeFromLink(link)).toEqual(expect.any(String));
  });

  it('confirmPasswordReset - should replace the password', async () => {
    const email = uniqueEmail('confirm');
    const uid = await h.inspect.createUser({ email, password: PASSWORD });
    const code = await resetCodeFor(h, email);
    await h.provider.confirmPasswordReset(code, NEW_PASSWORD);
    const result = await h.provider.signInWithEmailAndPassword(email, NEW_PASSWORD);
    expect(result.user.uid).toBe(uid);
    await h.provider.signOut();
    await expectAuthError(h.provider.signInWithEmailAndPassword(email, PASSWORD), 'wrong-password');
  });

  it('confirmPasswordReset - should reject invalid-action-code for a code already used', async () => {
    const email = uniqueEmail('reuse');
    await h.inspect.createUser({ email, password: PASSWORD });
    const code = await resetCodeFor(h, email);
    await h.provider.confirmPasswordReset(code, NEW_PASSWORD);
    await expectAuthError(h.provider.confirmPasswordReset(code, 'Another-789'), 'invalid-action-code');
  });
}

/** Weak passwords, unknown codes, unknown and malformed emails. */
function resetRejectionTests(h: ContractContext): void {
  const { reliable } = h;
  it('confirmPasswordReset - should reject weak-password for a short password', async () => {
    const email = uniqueEmail('resetweak');
    await h.inspect.createUser({ email, password: PASSWORD });
    const code = await resetCodeFor(h, email);
    await expectAuthError(h.provider.confirmPasswordReset(code, 'abc'), 'weak-password');
  });

  it('confirmPasswordReset - should reject invalid-action-code for an unknown code', async () => {
    await expectAuthError(h.provider.confirmPasswordReset(UNKNOWN_CODE, NEW_PASSWORD), 'invalid-action-code');
  });

  it('verifyPasswordResetCode - should reject invalid-action-code for an unknown code', async () => {
    await expectAuthError(h.provider.verifyPasswordResetCode(UNKNOWN_CODE), 'invalid-action-code');
  });

  // Only a provider whose lookups are reliable may reveal that an account does not exist.
  it.runIf(reliable)(
    'sendPasswordResetEmail - should reject user-not-found for an unknown email',
    async () => {
      await expectAuthError(h.provider.sendPasswordResetEmail(uniqueEmail('ghost')), 'user-not-found');
    },
  );

  // Enumeration protection: the call succeeds for an unknown email, but nothing is sent.
  it.runIf(!reliable)(
    'sendPasswordResetEmail - should resolve without sending for an unknown email',
    async () => {
      const email = uniqueEmail('ghost');
      await expect(h.provider.sendPasswordResetEmail(email)).resolves.toBeUndefined();
      await expect(h.inspect.lastEmailLink(email, 'resetPassword')).resolves.toBeNull();
    },
  );

  it('sendPasswordResetEmail - should reject invalid-email for a malformed address', async () => {
    await expectAuthError(h.provider.sendPasswordResetEmail('not-an-email'), 'invalid-email');
  });
}
