// Action codes of every mode the emulator can send, through the client provider and through the server's
// action-code provider (what a Remix action route uses with auth-core's handleActionCode).
//
// Not producible on the emulator, covered by errors.unit.test.ts instead: expired codes (emulator codes
// never expire, so `auth/expired-action-code` → `expired-action-code` is a table test) and
// REVERT_SECOND_FACTOR_ADDITION (needs an MFA enrolment email; `toActionCodeInfo` is unit-tested).
import { type ActionCodeInfo, handleActionCode } from '@doorway/auth-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createFirebaseServer } from '../src/server.ts';
import {
  actionCode,
  createAccount,
  expectAuthError,
  freshProvider,
  PROJECT_ID,
  resetEmulator,
  uniqueEmail,
} from './emulator.ts';

const PASSWORD = 'secret123';

let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeEach(async () => {
  await resetEmulator();
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

async function account(): Promise<string> {
  const email = uniqueEmail('codes');
  await createAccount({ email, password: PASSWORD });
  return email;
}

describe('client provider', () => {
  it('password reset - should send, verify and confirm, after which only the new password works', async () => {
    const email = await account();
    await provider.sendPasswordResetEmail(email, { url: 'http://localhost/login' });
    const { oobCode, oobLink } = await actionCode('PASSWORD_RESET', { email, password: PASSWORD });
    expect(new URL(oobLink).searchParams.get('mode')).toBe('resetPassword');
    expect(await provider.checkActionCode(oobCode)).toEqual<ActionCodeInfo>({
      operation: 'resetPassword',
      email,
      previousEmail: null,
    });
    expect(await provider.verifyPasswordResetCode(oobCode)).toBe(email);
    await expectAuthError(provider.confirmPasswordReset(oobCode, 'abc'), 'weak-password');
    await provider.confirmPasswordReset(oobCode, 'new-secret-456');
    await expectAuthError(provider.signInWithEmailAndPassword(email, PASSWORD), 'wrong-password');
    await expect(provider.signInWithEmailAndPassword(email, 'new-secret-456')).resolves.toMatchObject({
      user: { email },
    });
    // A used code is invalid.
    await expectAuthError(provider.verifyPasswordResetCode(oobCode), 'invalid-action-code');
  });

  it('verifyEmail - should check and apply the code, verifying the email', async () => {
    const email = await account();
    const { oobCode } = await actionCode('VERIFY_EMAIL', { email, password: PASSWORD });
    expect(await provider.checkActionCode(oobCode)).toMatchObject({ operation: 'verifyEmail', email });
    await provider.applyActionCode(oobCode);
    const { user } = await provider.signInWithEmailAndPassword(email, PASSWORD);
    expect(user.emailVerified).toBe(true);
    await expectAuthError(provider.applyActionCode(oobCode), 'invalid-action-code');
  });

  it('recoverEmail - should name the restored and the changed email, and restore it', async () => {
    const email = await account();
    const { oobCode } = await actionCode('RECOVER_EMAIL', { email, password: PASSWORD });
    // Firebase also reports the address it had been changed to as `previousEmail`; the emulator does not
    // keep it for RECOVER_EMAIL codes, so only the restored email is asserted here.
    expect(await provider.checkActionCode(oobCode)).toMatchObject({ operation: 'recoverEmail', email });
    await provider.applyActionCode(oobCode);
    await expect(provider.signInWithEmailAndPassword(email, PASSWORD)).resolves.toMatchObject({
      user: { email },
    });
  });

  it('verifyAndChangeEmail - should name the new and the old email, and change it', async () => {
    const email = await account();
    const next = uniqueEmail('next');
    const { oobCode } = await actionCode('VERIFY_AND_CHANGE_EMAIL', {
      email,
      password: PASSWORD,
      newEmail: next,
    });
    expect(await provider.checkActionCode(oobCode)).toEqual<ActionCodeInfo>({
      operation: 'verifyAndChangeEmail',
      email: next,
      previousEmail: email,
    });
    await provider.applyActionCode(oobCode);
    await expect(provider.signInWithEmailAndPassword(next, PASSWORD)).resolves.toMatchObject({
      user: { email: next, emailVerified: true },
    });
  });

  it('checkActionCode - should name an email sign-in code signIn (Firebase does not reveal its email)', async () => {
    const email = await account();
    const { oobCode } = await actionCode('EMAIL_SIGNIN', { email, password: PASSWORD });
    expect(await provider.checkActionCode(oobCode)).toEqual<ActionCodeInfo>({
      operation: 'signIn',
      email: null,
      previousEmail: null,
    });
  });

  it('checkActionCode / applyActionCode / verifyPasswordResetCode - should reject a made-up code with invalid-action-code', async () => {
    const error = await expectAuthError(provider.checkActionCode('made-up-code'), 'invalid-action-code');
    expect(error.message).toBe(
      'The action code is invalid. This can happen if the code is malformed, expired, or has already been used.',
    );
    await expectAuthError(provider.applyActionCode('made-up-code'), 'invalid-action-code');
    await expectAuthError(provider.verifyPasswordResetCode('made-up-code'), 'invalid-action-code');
    await expectAuthError(
      provider.confirmPasswordReset('made-up-code', 'new-secret-456'),
      'invalid-action-code',
    );
  });
});

describe('server action-code provider', () => {
  const server = createFirebaseServer({ projectId: PROJECT_ID });

  it('handleActionCode - should verify an email server-side from the emailed link', async () => {
    const email = await account();
    const { oobLink } = await actionCode('VERIFY_EMAIL', { email, password: PASSWORD });
    const url = new URL(oobLink);
    const appUrl = new URL(`http://localhost/action${url.search}`);
    expect(await handleActionCode(appUrl, server.serverProvider())).toEqual({
      card: 'emailVerificationSuccess',
      continueUrl: null,
    });
    expect(await handleActionCode(appUrl, server.serverProvider())).toEqual({
      card: 'emailVerificationFailure',
    });
  });

  it('handleActionCode - should show the reset card, then the reset succeeds server-side', async () => {
    const email = await account();
    const { oobCode } = await actionCode('PASSWORD_RESET', { email, password: PASSWORD });
    const result = await handleActionCode(
      new URL(`http://localhost/action?mode=resetPassword&oobCode=${oobCode}`),
      server.serverProvider(),
    );
    expect(result).toMatchObject({ card: 'passwordReset', code: oobCode, email });
    const actions = server.serverProvider();
    await expectAuthError(actions.confirmPasswordReset(oobCode, 'abc'), 'weak-password');
    await actions.confirmPasswordReset(oobCode, 'new-secret-456');
    await expect(provider.signInWithEmailAndPassword(email, 'new-secret-456')).resolves.toBeTruthy();
  });

  it('handleActionCode - should revoke an email change server-side', async () => {
    const email = await account();
    const { oobCode } = await actionCode('RECOVER_EMAIL', { email, password: PASSWORD });
    expect(
      await handleActionCode(
        new URL(`http://localhost/action?mode=recoverEmail&oobCode=${oobCode}`),
        server.serverProvider(),
      ),
    ).toEqual({ card: 'emailChangeRevoked', email });
  });

  it('serverProvider - should reject made-up codes with invalid-action-code', async () => {
    const actions = server.serverProvider();
    await expectAuthError(actions.checkActionCode('made-up-code'), 'invalid-action-code');
    await expectAuthError(actions.applyActionCode('made-up-code'), 'invalid-action-code');
    await expectAuthError(actions.verifyPasswordResetCode('made-up-code'), 'invalid-action-code');
  });
});
