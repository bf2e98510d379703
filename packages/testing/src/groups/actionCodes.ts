import { describe, expect, it } from 'vitest';
import { expectAuthError, oobCodeFromLink, requireValue } from '../assert.ts';
import type { ContractContext } from '../context.ts';
import { PASSWORD, UNKNOWN_CODE, uniqueEmail } from '../fixtures.ts';
import { emailLinkFor, sendSignInLink } from '../steps.ts';

/** Registers the action codes group (capability: actionCodes). */
export function actionCodeTests(h: ContractContext): void {
  const { caps, supportsCode } = h;
  // Any provider that handles action codes must refuse codes it never issued.
  describe.skipIf(caps.actionCodes.length === 0)('action codes (capability: actionCodes)', () => {
    it('checkActionCode - should reject invalid-action-code for an unknown code', async () => {
      await expectAuthError(h.provider.checkActionCode(UNKNOWN_CODE), 'invalid-action-code');
    });

    it('applyActionCode - should reject invalid-action-code for an unknown code', async () => {
      await expectAuthError(h.provider.applyActionCode(UNKNOWN_CODE), 'invalid-action-code');
    });

    // Reset codes come from sendPasswordResetEmail, so this needs password accounts.
    it.runIf(caps.password && supportsCode('resetPassword'))(
      'checkActionCode - should describe a resetPassword code',
      async () => {
        const email = uniqueEmail('checkreset');
        await h.inspect.createUser({ email, password: PASSWORD });
        await h.provider.sendPasswordResetEmail(email, { url: h.continueUrl });
        const code = requireValue(
          oobCodeFromLink(await emailLinkFor(h, email, 'resetPassword')),
          'an oobCode',
        );
        await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
          operation: 'resetPassword',
          email,
        });
      },
    );

    // Email-link codes come from sendSignInLinkToEmail.
    it.runIf(caps.emailLink && supportsCode('signIn'))(
      'checkActionCode - should describe an email sign-in code',
      async () => {
        const email = uniqueEmail('checksignin');
        const code = requireValue(oobCodeFromLink(await sendSignInLink(h, email)), 'an oobCode');
        const info = await h.provider.checkActionCode(code);
        expect(info.operation).toBe('signIn');
        // Some backends (Firebase) do not reveal the address behind a sign-in code; none may reveal another.
        expect([email, null]).toContain(info.email);
      },
    );

    backendCodeTests(h);
  });
}

function backendCodeTests(h: ContractContext): void {
  const { caps, hooks } = h;
  // The remaining codes are minted by the backend's admin side, through the harness.
  describe.skipIf(!hooks.actionCode || !caps.password)(
    'codes from the backend (hook: actionCode, capability: password)',
    () => {
      verifyEmailCodeTests(h);
      emailChangeCodeTests(h);
    },
  );
}

/**
 * A code of `kind` for `email`, minted by the harness's `actionCode` hook; skips the test when the backend
 * cannot mint that kind.
 */
async function actionCodeOrSkip(
  h: ContractContext,
  skip: (note?: string) => void,
  email: string,
  kind: 'verifyEmail' | 'recoverEmail' | 'verifyAndChangeEmail',
  extra?: { newEmail: string },
): Promise<string> {
  const make = requireValue(h.inspect.actionCode, 'inspect.actionCode');
  const code = await make(email, kind, extra);
  // The harness said its backend cannot mint this kind of code.
  if (code === null) skip(`the backend cannot produce a ${kind} code`);
  return requireValue(code, `a ${kind} code`);
}

/** Codes that verify an email: applied once, then refused. */
function verifyEmailCodeTests(h: ContractContext): void {
  const { supportsCode } = h;
  it.runIf(supportsCode('verifyEmail'))(
    'applyActionCode - should verify the email of a verifyEmail code',
    async ({ skip }) => {
      const email = uniqueEmail('verify');
      await h.inspect.createUser({ email, password: PASSWORD, emailVerified: false });
      const code = await actionCodeOrSkip(h, skip, email, 'verifyEmail');
      await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
        operation: 'verifyEmail',
        email,
      });
      await h.provider.applyActionCode(code);
      const result = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
      expect(result.user.emailVerified).toBe(true);
    },
  );

  it.runIf(supportsCode('verifyEmail'))(
    'applyActionCode - should reject invalid-action-code for a code already applied',
    async ({ skip }) => {
      const email = uniqueEmail('verifytwice');
      await h.inspect.createUser({ email, password: PASSWORD });
      const code = await actionCodeOrSkip(h, skip, email, 'verifyEmail');
      await h.provider.applyActionCode(code);
      await expectAuthError(h.provider.applyActionCode(code), 'invalid-action-code');
      await expectAuthError(h.provider.checkActionCode(code), 'invalid-action-code');
    },
  );
}

/** Codes that restore or change the email of an account. */
function emailChangeCodeTests(h: ContractContext): void {
  const { supportsCode } = h;
  it.runIf(supportsCode('recoverEmail'))(
    'applyActionCode - should restore the previous email with a recoverEmail code',
    async ({ skip }) => {
      const email = uniqueEmail('recover');
      const newEmail = uniqueEmail('changed');
      const uid = await h.inspect.createUser({ email, password: PASSWORD });
      const code = await actionCodeOrSkip(h, skip, email, 'recoverEmail', { newEmail });
      await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
        operation: 'recoverEmail',
        email,
        previousEmail: newEmail,
      });
      await h.provider.applyActionCode(code);
      const result = await h.provider.signInWithEmailAndPassword(email, PASSWORD);
      expect(result.user.uid).toBe(uid);
    },
  );

  it.runIf(supportsCode('verifyAndChangeEmail'))(
    'applyActionCode - should change the email with a verifyAndChangeEmail code',
    async ({ skip }) => {
      const email = uniqueEmail('before');
      const newEmail = uniqueEmail('after');
      const uid = await h.inspect.createUser({ email, password: PASSWORD });
      const code = await actionCodeOrSkip(h, skip, email, 'verifyAndChangeEmail', { newEmail });
      await expect(h.provider.checkActionCode(code)).resolves.toMatchObject({
        operation: 'verifyAndChangeEmail',
        email: newEmail,
        previousEmail: email,
      });
      await h.provider.applyActionCode(code);
      const result = await h.provider.signInWithEmailAndPassword(newEmail, PASSWORD);
      expect(result.user).toMatchObject({ uid, email: newEmail, emailVerified: true });
    },
  );
}
