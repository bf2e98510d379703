/**
 * `createFakeProvider`: the in-memory reference implementation of {@link AuthProvider}, assembled from
 * the world (`world.ts`), the flows' operations (one module per flow) and the backend control surface.
 * @module
 */
import type { AuthProvider } from '@doorway/auth-core';
import { createBackend } from './backend.ts';
import { createClient } from './client.ts';
import { createConfig } from './config.ts';
import type { FakeProvider, FakeProviderOptions } from './types.ts';
import { seedUsers } from './users.ts';
import { createWorld, type FakeContext, newSession, refreshCapabilities } from './world.ts';

/** The context behind each provider, for opening more sessions on it (see {@link openFakeSession}). */
const contexts = new WeakMap<FakeProvider, FakeContext>();

/**
 * A new client of the same in-memory backend as `world`: same users, codes, outbox and faults, its own
 * tenant and signed-in user: another device of the same people (a test of "sign out everywhere else"),
 * and the fake's server provider.
 */
export function openFakeSession(world: FakeProvider): AuthProvider {
  const ctx = contexts.get(world);
  if (ctx === undefined) throw new TypeError('openFakeSession: not a provider from createFakeProvider');
  return createClient(ctx, newSession(), {});
}

/**
 * Creates an in-memory provider: the reference implementation of `AuthProvider`, deterministic (injected
 * clock, counter ids, seeded SMS codes), with an outbox, a fake IdP, tenants, anonymous users and fault
 * injection on `backend`. Use it for demos, the playground and consumers' tests.
 *
 * @example
 * const provider = createFakeProvider({ clock: createManualClock(0) });
 * provider.backend.createUser({ email: 'ada@example.com', password: 'secret1' });
 * await provider.sendPasswordResetEmail('ada@example.com');
 * const { oobCode } = provider.backend.outbox.lastEmail('ada@example.com', 'resetPassword')!;
 * await provider.confirmPasswordReset(oobCode, 'n3w-secret');
 */
export function createFakeProvider(options: FakeProviderOptions = {}): FakeProvider {
  const config = createConfig(options);
  const ctx: FakeContext = { world: createWorld(config), config };
  refreshCapabilities(ctx);
  seedUsers(ctx);
  const provider: FakeProvider = createClient(ctx, ctx.world.main, { backend: createBackend(ctx) });
  contexts.set(provider, ctx);
  return provider;
}
