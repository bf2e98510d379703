/**
 * Steps several contract groups take: signing someone in, reading back an emailed link or SMS code,
 * minting a federated credential.
 * @module
 */
import type { AuthCredential, SignInResult } from '@doorway/auth-core';
import { expect } from 'vitest';
import { requireValue } from './assert.ts';
import type { ContractContext } from './context.ts';
import { PASSWORD, uniqueEmail } from './fixtures.ts';
import type { ContractEmailKind } from './types.ts';

/** Signs a fresh user in by whatever the provider supports. */
export async function signInSomeone(h: ContractContext): Promise<SignInResult> {
  if (h.caps.password) return h.provider.createUser(uniqueEmail('someone'), PASSWORD);
  if (h.caps.anonymous) return h.provider.signInAnonymously();
  return expect.fail('the provider supports neither password nor anonymous sign-in');
}

/** The latest link of `kind` emailed to `email`; fails the test when there is none. */
export async function emailLinkFor(
  h: ContractContext,
  email: string,
  kind: ContractEmailKind,
): Promise<string> {
  return requireValue(await h.inspect.lastEmailLink(email, kind), `a ${kind} email to ${email}`);
}

/** Sends a sign-in link to `email` and returns the link the backend emailed. */
export async function sendSignInLink(h: ContractContext, email: string): Promise<string> {
  await h.provider.sendSignInLinkToEmail(email, { url: h.continueUrl, handleCodeInApp: true });
  return emailLinkFor(h, email, 'signIn');
}

/** Starts a phone sign-in with a solved captcha and returns its verification id and the SMS code. */
export async function smsSignInStart(
  h: ContractContext,
  phoneNumber: string,
): Promise<{ verificationId: string; code: string }> {
  const { verificationId } = await h.provider.startPhoneSignIn(phoneNumber, h.inspect.solvedVerifier());
  const code = requireValue(await h.inspect.lastSmsCode(phoneNumber), `an SMS code to ${phoneNumber}`);
  return { verificationId, code };
}

/** A federated credential the backend accepts, minted by the harness's `federatedCredential` hook. */
export function federatedCredential(
  h: ContractContext,
  providerId: string,
  identity: { sub: string; email: string },
): AuthCredential {
  const make = requireValue(h.inspect.federatedCredential, 'inspect.federatedCredential');
  return make(providerId, identity);
}
