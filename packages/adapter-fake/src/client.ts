/**
 * A client of the fake backend: the `AuthProvider` methods over one session, each a call of its flow's
 * operation through the fault wrapper. The provider is one client; the server provider opens others.
 * @module
 */
import type {
  AccountOperations,
  AuthProvider,
  PasskeyOperations,
  SecondFactorOperations,
} from '@doorway/auth-core';
import {
  changeEmail,
  changePassword,
  deleteAccount,
  listMethods,
  signOutOtherSessions,
  unlink,
  updateProfile,
} from './account.ts';
import {
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  sendPasswordResetEmail,
  verifyPasswordResetCode,
} from './actionCodes.ts';
import { signInAnonymously } from './anonymous.ts';
import { linkWithCredential, signInWithCredential } from './credentials.ts';
import { emailLinkSignIn, isSignInLink, sendSignInLink } from './emailLink.ts';
import { call } from './faults.ts';
import { getRedirectResult, signInWithFederated } from './federated.ts';
import { addPasskey, listPasskeys, passkeySignIn, removePasskey } from './passkeys.ts';
import { fetchSignInMethods, passwordSignIn, passwordSignUp } from './password.ts';
import { createCaptchaVerifier, phoneSignIn, startPhoneSignIn } from './phone.ts';
import {
  cancelSecondFactorSignIn,
  finishPhoneEnrollment,
  finishSecondFactorSignIn,
  finishTotpEnrollment,
  listSecondFactors,
  startPhoneEnrollment,
  startSecondFactorSignIn,
  startTotpEnrollment,
  unenrollSecondFactor,
} from './secondFactors.ts';
import { getCurrentUser, signOut } from './sessions.ts';
import { setTenant } from './tenants.ts';
import type { FakeContext, Session } from './world.ts';

/** `provider.secondFactors` on session `s`: each operation through the fault wrapper, as `secondFactors.*`. */
function secondFactorClient(ctx: FakeContext, s: Session): SecondFactorOperations {
  return {
    startSignIn: (challenge, factorUid, verifier) =>
      call(ctx, 'secondFactors.startSignIn', () =>
        startSecondFactorSignIn(ctx, s, challenge, factorUid, verifier),
      ),
    finishSignIn: (challenge, verificationId, code) =>
      call(ctx, 'secondFactors.finishSignIn', () =>
        finishSecondFactorSignIn(ctx, s, challenge, verificationId, code),
      ),
    cancelSignIn: (challenge) =>
      call(ctx, 'secondFactors.cancelSignIn', () => cancelSecondFactorSignIn(ctx, challenge)),
    list: () => call(ctx, 'secondFactors.list', () => listSecondFactors(ctx, s)),
    startPhoneEnrollment: (phoneNumber, verifier) =>
      call(ctx, 'secondFactors.startPhoneEnrollment', () =>
        startPhoneEnrollment(ctx, s, phoneNumber, verifier),
      ),
    finishPhoneEnrollment: (verificationId, code, displayName) =>
      call(ctx, 'secondFactors.finishPhoneEnrollment', () =>
        finishPhoneEnrollment(ctx, s, verificationId, code, displayName),
      ),
    startTotpEnrollment: () =>
      call(ctx, 'secondFactors.startTotpEnrollment', () => startTotpEnrollment(ctx, s)),
    finishTotpEnrollment: (enrollmentId, code, displayName) =>
      call(ctx, 'secondFactors.finishTotpEnrollment', () =>
        finishTotpEnrollment(ctx, s, enrollmentId, code, displayName),
      ),
    unenroll: (factorUid) =>
      call(ctx, 'secondFactors.unenroll', () => unenrollSecondFactor(ctx, s, factorUid)),
  };
}

/** `provider.passkeys` on session `s`: each operation through the fault wrapper, as `passkeys.*`. */
function passkeyClient(ctx: FakeContext, s: Session): PasskeyOperations {
  return {
    signIn: (options) => call(ctx, 'passkeys.signIn', () => passkeySignIn(ctx, s, options)),
    list: () => call(ctx, 'passkeys.list', () => listPasskeys(ctx, s)),
    add: (name) => call(ctx, 'passkeys.add', () => addPasskey(ctx, s, name)),
    remove: (id) => call(ctx, 'passkeys.remove', () => removePasskey(ctx, s, id)),
  };
}

/** `provider.account` on session `s`: each operation through the fault wrapper, as `account.*`. */
function accountClient(ctx: FakeContext, s: Session): AccountOperations {
  return {
    updateProfile: (profile) => call(ctx, 'account.updateProfile', () => updateProfile(ctx, s, profile)),
    changeEmail: (newEmail, settings) =>
      call(ctx, 'account.changeEmail', () => changeEmail(ctx, s, newEmail, settings)),
    changePassword: (newPassword, currentPassword) =>
      call(ctx, 'account.changePassword', () => changePassword(ctx, s, newPassword, currentPassword)),
    listMethods: () => call(ctx, 'account.listMethods', () => listMethods(ctx, s)),
    unlink: (method) => call(ctx, 'account.unlink', () => unlink(ctx, s, method)),
    signOutOtherSessions: () => call(ctx, 'account.signOutOtherSessions', () => signOutOtherSessions(ctx, s)),
    deleteAccount: () => call(ctx, 'account.deleteAccount', () => deleteAccount(ctx, s)),
  };
}

/**
 * An `AuthProvider` on session `s` of the world in `ctx`, with `extra` properties (e.g. `backend`),
 * `secondFactors` when the provider offers any, `passkeys` when it offers them, and `account` when it offers
 * an account operation.
 */
export function createClient<T extends object>(ctx: FakeContext, s: Session, extra: T): AuthProvider & T {
  const { world } = ctx;
  const offersSecondFactors = (ctx.config.baseCapabilities.secondFactors ?? []).length > 0;
  return {
    ...extra,
    ...(offersSecondFactors ? { secondFactors: secondFactorClient(ctx, s) } : {}),
    ...(ctx.config.baseCapabilities.passkeys === true ? { passkeys: passkeyClient(ctx, s) } : {}),
    ...((ctx.config.baseCapabilities.account ?? []).length > 0 ? { account: accountClient(ctx, s) } : {}),
    get capabilities() {
      return world.capabilities;
    },
    getCurrentUser: () => getCurrentUser(world, s),
    setTenant: (tenant) => call(ctx, 'setTenant', () => setTenant(ctx, s, tenant)),
    fetchSignInMethodsForEmail: (email) =>
      call(ctx, 'fetchSignInMethodsForEmail', () => fetchSignInMethods(ctx, s, email)),
    signInWithEmailAndPassword: (email, password) =>
      call(ctx, 'signInWithEmailAndPassword', () => passwordSignIn(ctx, s, email, password)),
    createUser: (email, password, displayName) =>
      call(ctx, 'createUser', () => passwordSignUp(ctx, s, email, password, displayName)),
    signInWithCredential: (credential) =>
      call(ctx, 'signInWithCredential', () => signInWithCredential(ctx, s, credential)),
    signInWithFederated: (providerId, opts) =>
      call(ctx, 'signInWithFederated', () => signInWithFederated(ctx, s, providerId, opts)),
    getRedirectResult: () => call(ctx, 'getRedirectResult', () => getRedirectResult(ctx, s)),
    signInAnonymously: () => call(ctx, 'signInAnonymously', () => signInAnonymously(ctx, s)),
    createCaptchaVerifier: (_container: unknown) => createCaptchaVerifier(world),
    startPhoneSignIn: (phoneNumber, verifier) =>
      call(ctx, 'startPhoneSignIn', () => startPhoneSignIn(ctx, s, phoneNumber, verifier)),
    confirmPhoneCode: (verificationId, code, opts) =>
      call(ctx, 'confirmPhoneCode', () => phoneSignIn(ctx, s, verificationId, code, opts?.link === true)),
    sendSignInLinkToEmail: (email, settings) =>
      call(ctx, 'sendSignInLinkToEmail', () => sendSignInLink(ctx, s, email, settings)),
    isSignInWithEmailLink: (link) => isSignInLink(link),
    signInWithEmailLink: (email, link, opts) =>
      call(ctx, 'signInWithEmailLink', () => emailLinkSignIn(ctx, s, email, link, opts?.link === true)),
    sendPasswordResetEmail: (email, settings) =>
      call(ctx, 'sendPasswordResetEmail', () => sendPasswordResetEmail(ctx, s, email, settings)),
    verifyPasswordResetCode: (code) =>
      call(ctx, 'verifyPasswordResetCode', () => verifyPasswordResetCode(ctx, s, code)),
    confirmPasswordReset: (code, newPassword) =>
      call(ctx, 'confirmPasswordReset', () => confirmPasswordReset(ctx, s, code, newPassword)),
    checkActionCode: (code) => call(ctx, 'checkActionCode', () => checkActionCode(ctx, s, code)),
    applyActionCode: (code) => call(ctx, 'applyActionCode', () => applyActionCode(ctx, s, code)),
    linkWithCredential: (credential) =>
      call(ctx, 'linkWithCredential', () => linkWithCredential(ctx, s, credential)),
    signOut: () => call(ctx, 'signOut', () => signOut(s)),
  };
}
