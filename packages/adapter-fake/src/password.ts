/**
 * Email and password: sign-in, sign-up, the sign-in method lookup, and linking a password to the
 * signed-in user (how an anonymous user is upgraded with a password).
 * @module
 */
import {
  type AuthCredential,
  PASSWORD_MIN_LENGTH,
  type SignInMethod,
  type SignInResult,
} from '@doorway/auth-core';
import type { FakeUserInput } from './types.ts';
import {
  addProvider,
  byEmail,
  checkEmail,
  currentRow,
  signInAs,
  signInFirstFactor,
  signUp,
} from './users.ts';
import { fail } from './util.ts';
import { type FakeContext, requireCapability, type Session } from './world.ts';

/** `fetchSignInMethodsForEmail`: the account's methods but phone; `[]` under enumeration protection. */
export function fetchSignInMethods({ world }: FakeContext, s: Session, email: string): SignInMethod[] {
  const address = checkEmail(email);
  if (world.faults.switches.enumerationProtection) return [];
  const row = byEmail(world, s.tenantId, address);
  return row === undefined ? [] : row.providerIds.filter((id) => id !== 'phone');
}

/**
 * `signInWithEmailAndPassword`: under enumeration protection an unknown email is a `wrong-password`; an
 * account with second factors rejects `second-factor-required`.
 */
export function passwordSignIn(ctx: FakeContext, s: Session, email: string, password: string): SignInResult {
  const { world } = ctx;
  requireCapability(world.capabilities.password);
  const row = byEmail(world, s.tenantId, checkEmail(email));
  if (row === undefined)
    fail(world.faults.switches.enumerationProtection ? 'wrong-password' : 'user-not-found');
  if (row.password === null || row.password !== password) fail('wrong-password');
  return signInFirstFactor(ctx, s, row, 'password');
}

/** `createUser`: a new password account in the session's tenant, signed in. */
export function passwordSignUp(
  ctx: FakeContext,
  s: Session,
  email: string,
  password: string,
  displayName: string | undefined,
): SignInResult {
  const { world } = ctx;
  requireCapability(world.capabilities.password);
  if (world.faults.switches.signUpDisabled) fail('sign-up-disabled');
  const address = checkEmail(email);
  if (password.length < PASSWORD_MIN_LENGTH) fail('weak-password');
  if (byEmail(world, s.tenantId, address) !== undefined) fail('email-already-in-use', { email: address });
  const input: FakeUserInput = { email: address, password };
  const name = displayName?.trim();
  if (name) input.displayName = name;
  return signInAs(s, signUp(ctx, input, s.tenantId), 'password', true);
}

/** Links an email and password to the signed-in user. */
export function passwordLink(
  { world }: FakeContext,
  s: Session,
  email: string,
  password: string,
): SignInResult {
  requireCapability(world.capabilities.password);
  const address = checkEmail(email);
  const current = currentRow(world, s);
  const credential: AuthCredential = { kind: 'password', email, password };
  if (current.providerIds.includes('password'))
    fail('credential-already-in-use', { email: address, credential });
  const owner = byEmail(world, s.tenantId, address);
  if (owner !== undefined && owner !== current) fail('email-already-in-use', { email: address, credential });
  if (password.length < PASSWORD_MIN_LENGTH) fail('weak-password');
  current.email = address;
  current.password = password;
  addProvider(current, 'password');
  return signInAs(s, current, 'password', false);
}
