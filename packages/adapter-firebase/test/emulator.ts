/**
 * Helpers for tests against the Firebase Auth emulator: its REST API (accounts, OOB and SMS codes,
 * project config, tenants), fresh providers on fresh apps, and action codes of every kind.
 *
 * Importing this module fails the test file when no emulator is configured: these tests never skip.
 * @module
 */
import { AuthError, type ErrorCode, messageFor } from '@doorway/auth-core';
import { deleteApp, type FirebaseApp, initializeApp } from 'firebase/app';
import {
  type Auth,
  connectAuthEmulator,
  getAuth,
  sendEmailVerification,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInWithEmailAndPassword,
  updateEmail,
  verifyBeforeUpdateEmail,
} from 'firebase/auth';
import { expect } from 'vitest';
import {
  createFirebaseProvider,
  type FirebaseProvider,
  type FirebaseProviderSettings,
} from '../src/index.ts';

const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
if (host === undefined || host === '') {
  throw new Error(
    'These tests run against the Firebase Auth emulator, but FIREBASE_AUTH_EMULATOR_HOST is not set.\n' +
      'Run them with `npm run test:emulator -w @doorway/adapter-firebase` (it starts the emulator).',
  );
}

/** The emulator's `host:port`. */
export const EMULATOR_HOST: string = host;
/** The emulator's base URL. */
export const EMULATOR_URL = `http://${host}`;
/** The demo project the emulator runs. */
export const PROJECT_ID = process.env.GCLOUD_PROJECT ?? 'demo-doorway';
/** Any API key works on the emulator. */
export const API_KEY = 'fake-api-key';

const emulatorApi = (tenantId?: string | null) =>
  `${EMULATOR_URL}/emulator/v1/projects/${PROJECT_ID}${tenantId ? `/tenants/${tenantId}` : ''}`;
const adminApi = (tenantId?: string | null) =>
  `${EMULATOR_URL}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}${tenantId ? `/tenants/${tenantId}` : ''}`;
const OWNER = { authorization: 'Bearer owner', 'content-type': 'application/json' };

async function rest<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text}`);
  return (text === '' ? {} : JSON.parse(text)) as T;
}

/** Deletes every account (of a tenant, or of the default project) and its pending codes. */
export async function clearAccounts(tenantId?: string | null): Promise<void> {
  await rest(`${emulatorApi(tenantId)}/accounts`, { method: 'DELETE' });
}

/**
 * Back to the emulator's defaults for the default tenant: no accounts, email enumeration protection off.
 * (A file that turns protection on must not leak it into the next file.)
 */
export async function resetEmulator(): Promise<void> {
  await Promise.all([clearAccounts(), setEmailEnumerationProtection(false)]);
}

/** An email the emulator "sent". */
export interface OobCode {
  email: string;
  requestType:
    | 'PASSWORD_RESET'
    | 'VERIFY_EMAIL'
    | 'EMAIL_SIGNIN'
    | 'RECOVER_EMAIL'
    | 'VERIFY_AND_CHANGE_EMAIL';
  oobCode: string;
  /** VERIFY_AND_CHANGE_EMAIL: the address the code changes the account to (the one Firebase mails). */
  newEmail?: string;
  oobLink: string;
}

/** Every OOB code the emulator has sent (per tenant when given). */
export async function oobCodes(tenantId?: string | null): Promise<OobCode[]> {
  return (await rest<{ oobCodes?: OobCode[] }>(`${emulatorApi(tenantId)}/oobCodes`)).oobCodes ?? [];
}

/** The newest OOB code sent to `email` (optionally of one type); throws when there is none. */
export async function lastOobCode(
  email: string,
  requestType?: OobCode['requestType'],
  tenantId?: string | null,
): Promise<OobCode> {
  const codes = (await oobCodes(tenantId)).filter(
    (c) => c.email === email && (requestType === undefined || c.requestType === requestType),
  );
  const last = codes.at(-1);
  if (last === undefined) throw new Error(`no ${requestType ?? 'OOB'} code sent to ${email}`);
  return last;
}

/** An SMS the emulator "sent". */
export interface VerificationCode {
  phoneNumber: string;
  code: string;
  sessionInfo: string;
}

/** Every SMS code the emulator has sent (per tenant when given). */
export async function verificationCodes(tenantId?: string | null): Promise<VerificationCode[]> {
  return (
    (await rest<{ verificationCodes?: VerificationCode[] }>(`${emulatorApi(tenantId)}/verificationCodes`))
      .verificationCodes ?? []
  );
}

/** The newest SMS code sent to a phone number; throws when there is none. */
export async function lastSmsCode(phoneNumber: string, tenantId?: string | null): Promise<VerificationCode> {
  const last = (await verificationCodes(tenantId)).filter((c) => c.phoneNumber === phoneNumber).at(-1);
  if (last === undefined) throw new Error(`no SMS code sent to ${phoneNumber}`);
  return last;
}

/** Turns email enumeration protection of the (default) project on or off. */
export async function setEmailEnumerationProtection(enabled: boolean): Promise<void> {
  await rest(`${emulatorApi()}/config`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailPrivacyConfig: { enableImprovedEmailPrivacy: enabled } }),
  });
}

/** Settings of a tenant the emulator creates. */
export interface TenantSettings {
  displayName?: string;
  allowPasswordSignup?: boolean;
  enableEmailLinkSignin?: boolean;
  enableAnonymousUser?: boolean;
}

/** Creates a tenant (Identity Platform v2 API, which the emulator implements) and returns its id. */
export async function createTenant(settings: TenantSettings = {}): Promise<string> {
  const tenant = await rest<{ tenantId: string }>(
    `${EMULATOR_URL}/identitytoolkit.googleapis.com/v2/projects/${PROJECT_ID}/tenants`,
    {
      method: 'POST',
      headers: OWNER,
      body: JSON.stringify({
        displayName: 'doorway-test',
        allowPasswordSignup: true,
        enableEmailLinkSignin: true,
        enableAnonymousUser: false,
        ...settings,
      }),
    },
  );
  return tenant.tenantId;
}

/** An account to create with admin rights. */
export interface NewAccount {
  email?: string;
  password?: string;
  displayName?: string;
  phoneNumber?: string;
  emailVerified?: boolean;
  tenantId?: string | null;
}

/** Creates an account with admin rights (no sign-in) and returns its uid. */
export async function createAccount(account: NewAccount): Promise<string> {
  const { tenantId, ...body } = account;
  const created = await rest<{ localId: string }>(`${adminApi(tenantId)}/accounts`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify(body),
  });
  return created.localId;
}

/** Disables (or re-enables) an account. */
export async function setDisabled(uid: string, disabled: boolean, tenantId?: string | null): Promise<void> {
  await rest(`${adminApi(tenantId)}/accounts:update`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify({ localId: uid, disableUser: disabled }),
  });
}

/** The uid of the account with `email` (admin lookup); throws when there is none. */
export async function uidOf(email: string, tenantId?: string | null): Promise<string> {
  const found = await rest<{ users?: { localId: string }[] }>(`${adminApi(tenantId)}/accounts:lookup`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify({ email: [email] }),
  });
  const uid = found.users?.[0]?.localId;
  if (uid === undefined) throw new Error(`no account with ${email}`);
  return uid;
}

/**
 * Marks the email of the account with `email` verified (admin update), as Firebase wants before it
 * enrols a second factor. A signed-in session learns it from its next ID token: sign in again.
 */
export async function verifyEmailOf(email: string, tenantId?: string | null): Promise<void> {
  const localId = await uidOf(email, tenantId);
  await rest(`${adminApi(tenantId)}/accounts:update`, {
    method: 'POST',
    headers: OWNER,
    body: JSON.stringify({ localId, emailVerified: true }),
  });
}

let apps = 0;

/** A fresh Firebase app + Auth connected to the emulator, and a way to delete it. */
export function freshAuth(tenantId: string | null = null): {
  app: FirebaseApp;
  auth: Auth;
  dispose(): Promise<void>;
} {
  apps += 1;
  const app = initializeApp(
    { apiKey: API_KEY, projectId: PROJECT_ID, authDomain: `${PROJECT_ID}.firebaseapp.com` },
    `test-${apps}`,
  );
  const auth = getAuth(app);
  connectAuthEmulator(auth, EMULATOR_URL, { disableWarnings: true });
  auth.tenantId = tenantId;
  return { app, auth, dispose: () => deleteApp(app) };
}

/** A provider on a fresh app, with enumeration protection declared off (the emulator's default). */
export function freshProvider(settings: FirebaseProviderSettings = {}): {
  provider: FirebaseProvider;
  dispose(): Promise<void>;
} {
  apps += 1;
  const name = `provider-${apps}`;
  const provider = createFirebaseProvider({
    config: { apiKey: API_KEY, projectId: PROJECT_ID, authDomain: `${PROJECT_ID}.firebaseapp.com` },
    appName: name,
    emulatorUrl: EMULATOR_URL,
    emailEnumerationProtection: false,
    federatedProviders: ['google.com', 'facebook.com', 'github.com'],
    ...settings,
  });
  return { provider, dispose: () => deleteApp(provider.auth.app) };
}

/** A unique email for one test. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;
}

/** A unique test phone number. */
export function uniquePhone(): string {
  return `+1555${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
}

/** The kinds of action code {@link actionCode} can have the emulator send. */
export type ActionCodeKind =
  | 'VERIFY_EMAIL'
  | 'PASSWORD_RESET'
  | 'RECOVER_EMAIL'
  | 'VERIFY_AND_CHANGE_EMAIL'
  | 'EMAIL_SIGNIN';

/**
 * Has the emulator send an action code for an existing password account and returns it.
 * - VERIFY_EMAIL: `sendEmailVerification` as the user.
 * - PASSWORD_RESET: `sendPasswordResetEmail`.
 * - RECOVER_EMAIL: `updateEmail(newEmail)` as the user; the code goes to the old address.
 * - VERIFY_AND_CHANGE_EMAIL: `verifyBeforeUpdateEmail(newEmail)`; the emulator lists it under the
 *   account's current email.
 * - EMAIL_SIGNIN: `sendSignInLinkToEmail`.
 */
export async function actionCode(
  kind: ActionCodeKind,
  account: { email: string; password: string; newEmail?: string; tenantId?: string | null },
): Promise<OobCode> {
  const { auth, dispose } = freshAuth(account.tenantId ?? null);
  try {
    const signIn = () => signInWithEmailAndPassword(auth, account.email, account.password);
    const newEmail = account.newEmail ?? uniqueEmail('changed');
    switch (kind) {
      case 'VERIFY_EMAIL':
        await sendEmailVerification((await signIn()).user);
        break;
      case 'PASSWORD_RESET':
        await sendPasswordResetEmail(auth, account.email);
        break;
      case 'RECOVER_EMAIL':
        await updateEmail((await signIn()).user, newEmail);
        break;
      case 'VERIFY_AND_CHANGE_EMAIL':
        await verifyBeforeUpdateEmail((await signIn()).user, newEmail);
        break;
      case 'EMAIL_SIGNIN':
        await sendSignInLinkToEmail(auth, account.email, {
          url: 'http://localhost/finish',
          handleCodeInApp: true,
        });
        break;
    }
    return await lastOobCode(account.email, kind, account.tenantId);
  } finally {
    await dispose();
  }
}

/**
 * Asserts that a promise rejects with an {@link AuthError} of `code` whose message is the catalogue
 * text for it (never a Firebase message), and returns the error.
 */
export async function expectAuthError(promise: Promise<unknown>, code: ErrorCode): Promise<AuthError> {
  let caught: unknown;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AuthError);
  const error = caught as AuthError;
  expect(error.code).toBe(code);
  expect(error.message).toBe(messageFor(code));
  return error;
}
