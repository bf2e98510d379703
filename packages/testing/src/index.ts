/**
 * `@doorway/testing`: the contract every `AuthProvider` adapter (of `@doorway/auth-core`) runs.
 *
 * {@link runProviderContract} registers a vitest suite that checks each provider method's success data and
 * its documented rejection codes. Each test gets a fresh harness (provider + backend inspection) and its own
 * users; groups a provider cannot support are gated on its capabilities (or on optional harness hooks), and
 * say so in their titles.
 *
 * @example
 * // packages/adapter-x/test/contract.test.ts
 * import { runProviderContract } from '@doorway/testing';
 * runProviderContract({
 *   name: 'adapter-x',
 *   create: async () => {
 *     const provider = createXProvider();
 *     return { provider, inspect: { ...readsFromTheEmulator }, dispose: () => provider.signOut() };
 *   },
 * });
 * @module
 */
export { expectAuthError, oobCodeFromLink } from './assert.ts';
export { runProviderContract } from './runner.ts';
export type {
  ContractAuthenticator,
  ContractEmailKind,
  ContractHarness,
  ContractIdentity,
  ContractInspect,
  ContractUserInput,
  ProviderContractOptions,
} from './types.ts';
