// Multi-tenancy on the emulator: tenants are created through the Identity Platform v2 API, which the
// emulator implements, and each has its own accounts, OOB codes and SMS codes.
import { handleActionCode } from '@doorway/auth-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FirebaseProvider } from '../src/index.ts';
import { createFirebaseServer } from '../src/server.ts';
import {
  actionCode,
  clearAccounts,
  createAccount,
  createTenant,
  expectAuthError,
  freshProvider,
  lastOobCode,
  PROJECT_ID,
  resetEmulator,
  uniqueEmail,
  uniquePhone,
} from './emulator.ts';

let tenantA: string;
let tenantB: string;
let provider: FirebaseProvider;
let dispose: () => Promise<void>;

beforeAll(async () => {
  tenantA = await createTenant({ displayName: 'tenant-a', enableAnonymousUser: true });
  tenantB = await createTenant({
    displayName: 'tenant-b',
    enableAnonymousUser: false,
    allowPasswordSignup: false,
  });
});
beforeEach(async () => {
  await Promise.all([resetEmulator(), clearAccounts(tenantA), clearAccounts(tenantB)]);
  ({ provider, dispose } = freshProvider());
});
afterEach(() => dispose());

describe('tenants', () => {
  it('setTenant - should create users in the selected tenant only', async () => {
    const email = uniqueEmail('tenant');
    await provider.setTenant(tenantA);
    const { user } = await provider.createUser(email, 'secret123');
    expect(user.tenantId).toBe(tenantA);
    expect(provider.getCurrentUser()?.tenantId).toBe(tenantA);
    await provider.signOut();
    await provider.setTenant(null);
    await expectAuthError(provider.signInWithEmailAndPassword(email, 'secret123'), 'user-not-found');
    await provider.setTenant(tenantA);
    await expect(provider.signInWithEmailAndPassword(email, 'secret123')).resolves.toMatchObject({
      user: { tenantId: tenantA },
    });
  });

  it('sendSignInLinkToEmail - should send the tenant link, listed under the tenant, which signs in to it', async () => {
    const email = uniqueEmail('tenant-link');
    await provider.setTenant(tenantA);
    await provider.sendSignInLinkToEmail(email, { url: 'http://localhost/login', handleCodeInApp: true });
    const { oobLink } = await lastOobCode(email, 'EMAIL_SIGNIN', tenantA);
    expect(new URL(oobLink).searchParams.get('tenantId')).toBe(tenantA);
    const result = await provider.signInWithEmailLink(email, oobLink);
    expect(result.user.tenantId).toBe(tenantA);
  });

  it('signInWithEmailLink - should reject a tenant link while another tenant is selected with invalid-action-code', async () => {
    const email = uniqueEmail('tenant-link');
    await provider.setTenant(tenantA);
    await provider.sendSignInLinkToEmail(email, { url: 'http://localhost/login', handleCodeInApp: true });
    const { oobLink } = await lastOobCode(email, 'EMAIL_SIGNIN', tenantA);
    await provider.setTenant(null);
    await expectAuthError(provider.signInWithEmailLink(email, oobLink), 'invalid-action-code');
  });

  // Identity Platform supports phone sign-in in tenants, but the emulator answers
  // UNSUPPORTED_TENANT_OPERATION: phone is covered on the default tenant (phone-and-anonymous.test.ts).
  it('startPhoneSignIn - should reject what a tenant does not support with operation-not-allowed', async () => {
    await provider.setTenant(tenantA);
    await expectAuthError(
      provider.startPhoneSignIn(uniquePhone(), provider.createCaptchaVerifier(null)),
      'operation-not-allowed',
    );
  });

  it('signInAnonymously - should reject a tenant with anonymous sign-in off with operation-not-allowed', async () => {
    await provider.setTenant(tenantA);
    await expect(provider.signInAnonymously()).resolves.toMatchObject({ user: { tenantId: tenantA } });
    // The SDK hands back a signed-in anonymous user without asking the backend: sign out first.
    await provider.signOut();
    await provider.setTenant(tenantB);
    await expectAuthError(provider.signInAnonymously(), 'operation-not-allowed');
  });

  it('createUser - should reject a tenant with password sign-up off with operation-not-allowed', async () => {
    await provider.setTenant(tenantB);
    await expectAuthError(provider.createUser(uniqueEmail(), 'secret123'), 'operation-not-allowed');
  });

  it('handleActionCode - should apply a tenant action code server-side through the tenant in the URL', async () => {
    const email = uniqueEmail('tenant-codes');
    await createAccount({ email, password: 'secret123', tenantId: tenantA });
    const { oobLink } = await actionCode('VERIFY_EMAIL', { email, password: 'secret123', tenantId: tenantA });
    const search = new URL(oobLink).search;
    expect(new URL(oobLink).searchParams.get('tenantId')).toBe(tenantA);
    const server = createFirebaseServer({ projectId: PROJECT_ID });
    expect(
      await handleActionCode(new URL(`http://localhost/action${search}`), server.serverProvider()),
    ).toEqual({
      card: 'emailVerificationSuccess',
      continueUrl: null,
    });
    await provider.setTenant(tenantA);
    const { user } = await provider.signInWithEmailAndPassword(email, 'secret123');
    expect(user.emailVerified).toBe(true);
  });
});
