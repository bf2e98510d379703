/**
 * The backend control surface (`provider.backend`): admin operations, outbox, faults, IdP and captcha
 * control, the call log, subscriptions and reset, each delegating to its flow's module.
 * @module
 */
import { changeEmail, mailUser, verifyAndChangeEmail } from './actionCodes.ts';
import { createFaultControl } from './faults.ts';
import { createIdpControl } from './federated.ts';
import { createOutbox } from './outbox.ts';
import { passkeyRecords } from './passkeys.ts';
import { createCaptchaControl } from './phone.ts';
import { addSecondFactor, currentTotpCode } from './secondFactors.ts';
import type { FakeBackend } from './types.ts';
import { byEmail, copyUser, deleteUser, insertUser, seedUsers, updateUser, usersOf } from './users.ts';
import { admin, type FakeContext, resetWorld } from './world.ts';

type UserAdmin = Pick<
  FakeBackend,
  'createUser' | 'getUser' | 'findUserByEmail' | 'listUsers' | 'updateUser' | 'deleteUser'
>;
type MailAdmin = Pick<
  FakeBackend,
  'sendVerificationEmail' | 'sendPasswordReset' | 'changeEmail' | 'verifyAndChangeEmail' | 'addSecondFactor'
>;

// Tenant arguments default to the main session's tenant.
function userAdmin(ctx: FakeContext): UserAdmin {
  const { world } = ctx;
  const tenantOr = (tenant: string | null | undefined) =>
    tenant === undefined ? world.main.tenantId : tenant;
  return {
    createUser: (input) => admin(world, () => insertUser(ctx, input, tenantOr(input.tenantId)).uid),
    getUser: (uid) => {
      const row = world.users.get(uid);
      return row === undefined ? null : copyUser(row);
    },
    findUserByEmail: (email, tenant) => {
      const row = byEmail(world, tenantOr(tenant), email);
      return row === undefined ? null : copyUser(row);
    },
    listUsers: (tenant) => usersOf(world, tenantOr(tenant)).map(copyUser),
    updateUser: (uid, patch) => admin(world, () => updateUser(world, uid, patch)),
    deleteUser: (uid) => admin(world, () => deleteUser(world, uid)),
  };
}

function mailAdmin(ctx: FakeContext): MailAdmin {
  const { world } = ctx;
  return {
    sendVerificationEmail: (uid, settings) => admin(world, () => mailUser(ctx, uid, 'verifyEmail', settings)),
    sendPasswordReset: (uid, settings) => admin(world, () => mailUser(ctx, uid, 'resetPassword', settings)),
    changeEmail: (uid, newEmail, settings) => admin(world, () => changeEmail(ctx, uid, newEmail, settings)),
    verifyAndChangeEmail: (uid, newEmail, settings) =>
      admin(world, () => verifyAndChangeEmail(ctx, uid, newEmail, settings)),
    addSecondFactor: (uid, phone, settings) => admin(world, () => addSecondFactor(ctx, uid, phone, settings)),
  };
}

/** The backend of the world in `ctx`. */
export function createBackend(ctx: FakeContext): FakeBackend {
  const { world } = ctx;
  return {
    outbox: createOutbox(world),
    faults: createFaultControl(ctx),
    idp: createIdpControl(world),
    captcha: createCaptchaControl(world),
    calls: world.calls,
    clearCalls: () => {
      world.calls.length = 0;
    },
    get tenantId() {
      return world.main.tenantId;
    },
    ...userAdmin(ctx),
    ...mailAdmin(ctx),
    totpCode: (uid, factorUid) => currentTotpCode(ctx, uid, factorUid),
    passkeys: (email, tenant) =>
      passkeyRecords(world, email, tenant === undefined ? world.main.tenantId : tenant),
    subscribe: (listener) => {
      world.listeners.add(listener);
      return () => {
        world.listeners.delete(listener);
      };
    },
    reset: () =>
      admin(world, () => {
        resetWorld(ctx);
        seedUsers(ctx);
      }),
  };
}
